// qipu-worker: a self-play worker. It leases games from a coordinator,
// plays them on T threads with the light policy under the job's full
// rules, and streams each finished game back, keeping every game that is
// not yet acknowledged in a local spool so that nothing is lost across
// crashes, restarts of either side, or network failures.
//
// Map of the classes (worker/, in dependency order):
//   Backoff         capped exponential delays with jitter (backoff.h)
//   GameQueue       bounded queue of FinishedGame, runner -> uploader
//   Spool           durable log of unacknowledged games (spool.h; format
//                   and crash behaviour documented there)
//   GameRunner      plays one lease's games on T threads into the queue
//   CoordinatorClient  channel + LeaseWork/RenewLease/ReturnLease with
//                   deadlines (client.h)
//   Uploader        queue -> spool -> UploadGames stream, window of
//                   unacknowledged games, reconnect and resend
//   AckLog          --ack-log: the id of every acknowledged game, for
//                   tests (ack_log.h)
//   Worker          lease loop, renewal loop, graceful stop; owns the rest
// This file only parses flags into WorkerOptions, sets up logging and
// turns SIGTERM/SIGINT into Worker::Stop(): a watcher thread
// (base::OnStopSignals) receives the signals (blocked in every thread), so
// no work happens in a handler. The
// first signal stops gracefully (finish the games in progress, upload,
// return the lease); a second one stops at once.
//
// Exit status: 0 after a stop or --exit-when-idle, 1 on failure, 2 for
// usage errors.
#include <pthread.h>
#include <signal.h>

#include <cstdio>
#include <string>
#include <thread>

#include "CLI/CLI.hpp"
#include "absl/time/time.h"
#include "base/channel.h"
#include "base/logging.h"
#include "base/signals.h"
#include "base/version.h"
#include "spdlog/spdlog.h"
#include "worker/worker.h"

int main(int argc, char** argv) {
  qipu::base::SetProcessDefaults();
  CLI::App app{"qipu-worker: leases, plays and uploads self-play games"};
  app.set_version_flag("--version", std::string("qipu-worker ") +
                                        qipu::base::Version() + " (commit " +
                                        qipu::base::GitCommit() + ")");
  qipu::worker::WorkerOptions o;
  std::string log_level = "info";
  double exit_when_idle = 0;
  double drain_timeout = absl::ToDoubleSeconds(o.drain_timeout);
  double rpc_timeout = absl::ToDoubleSeconds(o.rpc_timeout);
  std::string tls_ca;
  std::string tls_cert;
  std::string tls_key;
  app.add_option("--coordinator", o.coordinator,
                 "Coordinator address, HOST:PORT")
      ->required();
  app.add_option("--threads", o.threads, "Playing threads")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  o.spool_dir = "qipu-spool";
  app.add_option("--spool", o.spool_dir,
                 "Spool directory for unacknowledged games (one worker per "
                 "directory)")
      ->capture_default_str();
  app.add_option("--name", o.name,
                 "Worker name, unique per process (default HOSTNAME-PID)");
  app.add_option("--lease-games", o.lease_games,
                 "Games per lease (0: the coordinator's default)")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  app.add_option("--job", o.job,
                 "Play only this job's games (0: any job the coordinator "
                 "hands out)")
      ->capture_default_str();
  app.add_option("--exit-when-idle", exit_when_idle,
                 "Exit after this many seconds without work and with "
                 "nothing left to upload (0: never)")
      ->check(CLI::Range(0.0, 1e6))
      ->capture_default_str();
  app.add_option("--drain-timeout", drain_timeout,
                 "On SIGTERM, seconds to keep uploading pending games")
      ->check(CLI::Range(0.0, 3600.0))
      ->capture_default_str();
  app.add_option("--rpc-timeout", rpc_timeout,
                 "Deadline of each call to the coordinator, seconds")
      ->check(CLI::Range(0.1, 600.0))
      ->capture_default_str();
  app.add_option("--upload-window", o.upload.window,
                 "Most games sent and not yet acknowledged")
      ->check(CLI::Range(1, 65536))
      ->capture_default_str();
  app.add_option("--upload-batch", o.upload.batch,
                 "Most games per upload message (1: one game a message)")
      ->check(CLI::Range(1, 4096))
      ->capture_default_str();
  app.add_option("--ack-log", o.ack_log,
                 "Append the id of every game the coordinator acknowledges "
                 "(stored or duplicate) to this file, one line each, written "
                 "per ack message (for tests that check every acknowledged "
                 "game is stored; worker/ack_log.h)");
  app.add_option("--token", o.token,
                 "Worker token of the coordinator (--auth required); "
                 "default: the environment's QIPU_TOKEN")
      ->envname("QIPU_TOKEN");
  app.add_option("--tls-ca", tls_ca,
                 "TLS: CA certificate (PEM) the coordinator's certificate "
                 "must chain to");
  app.add_option("--tls-cert", tls_cert,
                 "mTLS: this worker's certificate (PEM), with --tls-key");
  app.add_option("--tls-key", tls_key, "mTLS: this worker's private key");
  app.add_option("--tls-server-name", o.tls.server_name,
                 "TLS: name the coordinator's certificate must carry "
                 "(default: the host of --coordinator)");
  app.add_option("--log-level", log_level,
                 "trace, debug, info, warn, error or off")
      ->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 reports through exceptions; they end here. --help and
    // --version exit 0, usage errors 2.
    return app.exit(e) == 0 ? 0 : 2;
  }

  if (absl::Status s = qipu::base::InitLogging("qipu-worker", log_level);
      !s.ok()) {
    std::fprintf(stderr, "qipu-worker: %s\n", std::string(s.message()).c_str());
    return 2;
  }
  if (absl::Status s =
          qipu::base::LoadClientTls(tls_ca, tls_cert, tls_key, &o.tls);
      !s.ok()) {
    std::fprintf(stderr, "qipu-worker: %s\n", std::string(s.message()).c_str());
    return 2;
  }
  if (!o.tls.server_name.empty() && o.tls.ca_pem.empty()) {
    std::fprintf(stderr, "qipu-worker: --tls-server-name: needs --tls-ca\n");
    return 2;
  }
  if (absl::Status s = qipu::base::ValidateToken(o.token, "--token"); !s.ok()) {
    std::fprintf(stderr, "qipu-worker: %s\n", std::string(s.message()).c_str());
    return 2;
  }
  o.exit_when_idle = absl::Seconds(exit_when_idle);
  o.drain_timeout = absl::Seconds(drain_timeout);
  o.rpc_timeout = absl::Seconds(rpc_timeout);

  // SIGTERM and SIGINT wait for the watcher below (before any thread
  // starts: the worker's threads inherit the mask). The first stops the
  // worker gracefully, a second one at once.
  const qipu::base::StopSignals signals;
  qipu::worker::Worker worker(o);
  if (absl::Status s = worker.Start(); !s.ok()) {
    spdlog::error("worker: {}", s.ToString());
    return 1;
  }
  absl::Status s;
  {
    const qipu::base::OnStopSignals watcher(
        signals, [&worker](int sig, int count) {
          spdlog::info("worker {}: {} received; stopping{}", worker.name(),
                       sig == SIGTERM ? "SIGTERM" : "SIGINT",
                       count == 0 ? " gracefully" : " now");
          worker.Stop(/*graceful=*/count == 0);
        });
    s = worker.Wait();
  }
  if (!s.ok()) {
    spdlog::error("worker {}: {}", worker.name(), s.ToString());
    return 1;
  }
  return 0;
}
