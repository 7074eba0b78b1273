// qipu-coordinator: serves jobs, leases, game ingest and queries over gRPC
// on an embedded RocksDB.
//
// Map: main() parses flags into CoordinatorOptions (coordinator.h), starts
// the Coordinator -- which owns the Store (store/store.h), ConfigRegistry,
// JobManager (jobs.h), Ingestor (ingest.h: validation in prepare.h, group
// commit), the gRPC services (work_service.h and the query/corpus
// services) and Metrics (metrics.h), and with --http the web explorer
// (web/explorer.h) over the coordinator's query engine -- then waits for
// SIGINT/SIGTERM and shuts down gracefully: running RPCs finish, queued games
// are committed.
#include <csignal>
#include <cstdio>
#include <memory>
#include <string>
#include <tuple>

#include "CLI/CLI.hpp"
#include "base/logging.h"
#include "base/signals.h"
#include "base/version.h"
#include "coordinator/coordinator.h"
#include "spdlog/spdlog.h"
#include "web/explorer.h"

int main(int argc, char** argv) {
  qipu::base::SetProcessDefaults();
  CLI::App app{"qipu-coordinator: self-play jobs, game ingest and queries"};
  app.set_version_flag("--version", std::string("qipu-coordinator ") +
                                        qipu::base::Version() + " (commit " +
                                        qipu::base::GitCommit() + ")");
  qipu::coordinator::CoordinatorOptions o;
  std::string log_level = "info";
  int lease_ttl_ms = 30000;
  int block_cache_mb = 128;
  int training_memory_mb = 2048;
  int memtable_mb = 128;
  bool no_sync = false;
  int max_message_mb = 32;
  int max_export_seconds = 600;
  std::string tls_cert;
  std::string tls_key;
  std::string tls_client_ca;
  std::string auth = "off";
  std::string http;
  std::string http_tls_cert;
  std::string http_tls_key;
  app.add_option("--db", o.db_dir, "Database directory")->required();
  app.add_option("--listen", o.listen, "gRPC address HOST:PORT")
      ->capture_default_str();
  app.add_option(
      "--metrics", o.metrics_listen,
      "Prometheus endpoint HOST:PORT (/metrics); port 0 picks a free "
      "port, printed at start");
  app.add_option("--lease-games", o.jobs.lease_games, "Games per lease")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--lease-ttl-ms", lease_ttl_ms, "Lease expiry without renewal")
      ->check(CLI::Range(100, 3600000))
      ->capture_default_str();
  app.add_option("--validate-threads", o.work.validate_threads,
                 "Threads helping upload streams replay their games "
                 "(-1: cores - 1)")
      ->check(CLI::Range(-1, 256))
      ->capture_default_str();
  app.add_option("--block-cache-mb", block_cache_mb, "RocksDB block cache")
      ->check(CLI::Range(8, 1 << 20))
      ->capture_default_str();
  app.add_option("--memtable-mb", memtable_mb, "Cap on all RocksDB memtables")
      ->check(CLI::Range(8, 1 << 20))
      ->capture_default_str();
  app.add_option("--training-memory-mb", training_memory_mb,
                 "Memory all training streams' mixing chunks may hold")
      ->check(CLI::Range(16, 1 << 20))
      ->capture_default_str();
  app.add_flag("--no-sync", no_sync,
               "Do not fsync the WAL per batch (survives process crashes, "
               "not power loss)");
  // Limits (limits.h): beyond them a client gets RESOURCE_EXHAUSTED.
  app.add_option("--max-message-mb", max_message_mb,
                 "Largest request message (an import file), MiB")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  app.add_option("--max-streams-per-client", o.limits.max_streams_per_client,
                 "Concurrent upload/import/export/training streams per "
                 "client address (0: no limit)")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  app.add_option("--pattern-threads", o.limits.pattern_threads,
                 "Pattern searches running at once, each on a thread of its "
                 "own, never a gRPC thread (0: a quarter of the cores, at "
                 "least 1)")
      ->check(CLI::Range(0, 256))
      ->capture_default_str();
  app.add_option("--pattern-queue", o.limits.pattern_queue,
                 "Pattern searches waiting for one of those; more are "
                 "refused with RESOURCE_EXHAUSTED")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  app.add_option("--max-export-games", o.limits.max_export_games,
                 "Games one export call returns (0: no limit); clients page")
      ->capture_default_str();
  app.add_option("--max-export-seconds", max_export_seconds,
                 "Time one export call runs; clients page")
      ->check(CLI::Range(1, 86400))
      ->capture_default_str();
  app.add_option("--tls-cert", tls_cert,
                 "TLS: the server's certificate chain (PEM); with --tls-key");
  app.add_option("--tls-key", tls_key, "TLS: the server's private key (PEM)");
  app.add_option("--tls-client-ca", tls_client_ca,
                 "mTLS: every client must present a certificate signed by "
                 "this CA (PEM)");
  app.add_option("--auth", auth,
                 "required: every call but health checks needs a token "
                 "(`qipu token create`) of a role allowed to make it; off: "
                 "no tokens checked")
      ->check(CLI::IsMember({"required", "off"}))
      ->capture_default_str();
  app.add_flag("--insecure", o.insecure,
               "With --auth off (and, for --listen, no --tls-client-ca), "
               "serve --listen and --http on a non-loopback address anyway "
               "(anyone who reaches them may submit, cancel and import); "
               "without it such an address is refused");
  app.add_option("--http", http,
                 "Web explorer and HTTP JSON API on HOST:PORT (port 0 picks "
                 "a free port, printed at start); HTTPS with "
                 "--http-tls-cert/--http-tls-key or --tls-cert/--tls-key");
  CLI::Option* http_cert =
      app.add_option("--http-tls-cert", http_tls_cert,
                     "HTTPS for --http: the certificate chain (PEM); default "
                     "--tls-cert");
  CLI::Option* http_key = app.add_option(
      "--http-tls-key", http_tls_key,
      "HTTPS for --http: the private key (PEM); default --tls-key");
  http_cert->needs(http_key);
  http_key->needs(http_cert);
  app.add_option("--log-level", log_level, "trace|debug|info|warn|error|off")
      ->capture_default_str();
  // A test fault (ingest.h; tests/ops/acked_write_test.cc), hidden from
  // --help (the empty group) and logged loudly at start when set.
  app.add_option("--test-fault-drop-acked-every",
                 o.ingest.test_fault_drop_acked_every,
                 "TEST FAULT: acknowledge every nth ingest batch without "
                 "writing it")
      ->group("")
      ->check(CLI::Range(0, 1000000));
  CLI11_PARSE(app, argc, argv);
  if (absl::Status s = qipu::base::InitLogging("coordinator", log_level);
      !s.ok()) {
    std::fprintf(stderr, "qipu-coordinator: --log-level: %s\n",
                 std::string(s.message()).c_str());
    return 2;
  }
  o.jobs.lease_ttl = absl::Milliseconds(lease_ttl_ms);
  o.store.block_cache_bytes = static_cast<size_t>(block_cache_mb) << 20;
  o.training.memory_budget_bytes = int64_t{training_memory_mb} << 20;
  o.store.total_write_buffer_bytes = static_cast<size_t>(memtable_mb) << 20;
  o.store.write_buffer_bytes =
      std::min<size_t>(o.store.total_write_buffer_bytes / 4, 64u << 20);
  o.store.sync = !no_sync;
  o.max_message_bytes = max_message_mb << 20;
  o.limits.max_export_time = absl::Seconds(max_export_seconds);
  if (absl::Status s = qipu::coordinator::LoadServerTls(tls_cert, tls_key,
                                                        tls_client_ca, &o.tls);
      !s.ok()) {
    std::fprintf(stderr, "qipu-coordinator: %s\n",
                 std::string(s.message()).c_str());
    return 2;
  }
  o.auth_required = auth == "required";
  // A non-loopback address where callers are not asked who they are only
  // when asked for by name (client certificates guard the gRPC port, not
  // --http).
  for (const auto& [flag, address, guarded] :
       {std::tuple<const char*, const std::string*, bool>{
            "--listen", &o.listen, qipu::coordinator::GrpcGuarded(o)},
        {"--http", &http, o.auth_required}}) {
    if (address->empty()) continue;
    if (absl::Status s = qipu::coordinator::CheckExposure(flag, *address,
                                                          guarded, o.insecure);
        !s.ok()) {
      std::fprintf(stderr, "qipu-coordinator: %s\n",
                   std::string(s.message()).c_str());
      return 2;
    }
  }

  // SIGINT and SIGTERM wait for the loop below (before any thread starts:
  // the coordinator's threads inherit the mask).
  const qipu::base::StopSignals signals;

  auto c = qipu::coordinator::Coordinator::Start(o);
  if (!c.ok()) {
    std::fprintf(stderr, "qipu-coordinator: %s\n",
                 c.status().ToString().c_str());
    return 1;
  }
  std::printf("qipu-coordinator listening on %s\n", (*c)->address().c_str());
  if (!o.metrics_listen.empty()) {
    // The port actually bound: `--metrics 127.0.0.1:0` picks a free one.
    const std::string& m = o.metrics_listen;
    const std::string host = m.substr(0, m.rfind(':'));
    std::printf("qipu-coordinator metrics on %s:%d\n", host.c_str(),
                (*c)->metrics_port());
  }
  std::unique_ptr<qipu::web::Explorer> explorer;
  if (!http.empty()) {
    qipu::web::ExplorerOptions eo;
    eo.http.listen = http;
    // The gRPC certificate by default: TLS on one port, TLS on both.
    eo.http.tls_cert = http_tls_cert.empty() ? tls_cert : http_tls_cert;
    eo.http.tls_key = http_tls_key.empty() ? tls_key : http_tls_key;
    eo.grpc_protected = o.tls.enabled() || o.auth_required;
    auto e = qipu::web::Explorer::Start(
        eo, &(*c)->queries(), o.auth_required ? &(*c)->tokens() : nullptr);
    if (!e.ok()) {
      std::fprintf(stderr, "qipu-coordinator: %s\n",
                   std::string(e.status().message()).c_str());
      (*c)->Shutdown();
      // A malformed address or unusable TLS files are bad flags.
      return absl::IsInvalidArgument(e.status()) ? 2 : 1;
    }
    explorer = *std::move(e);
    std::printf("qipu-coordinator http on %s%s\n", explorer->address().c_str(),
                explorer->server().tls() ? " (https)" : "");
  }
  std::fflush(stdout);
  // Waits for a signal, watching the store meanwhile: after an error
  // RocksDB does not resume from, only a reopen brings writes back, so the
  // coordinator exits (status 3) for its supervisor to restart it. Every
  // acknowledged game is in the WAL; workers resend the others.
  for (;;) {
    const int sig = signals.Wait(absl::Milliseconds(200));
    if (sig > 0) {
      spdlog::info("coordinator: signal {}", sig);
      break;
    }
    if ((*c)->store().health().fatal()) {
      const std::string why = (*c)->store().health().Get().ToString();
      spdlog::critical(
          "coordinator: the database no longer takes writes and must be "
          "reopened: {}; exiting",
          why);
      if (explorer) explorer->Stop();
      (*c)->Shutdown(absl::Seconds(1));
      std::fprintf(stderr,
                   "qipu-coordinator: storage failed: %s\n  every "
                   "acknowledged game is durable; fix the cause (free disk "
                   "space, restore the directory) and restart\n",
                   why.c_str());
      return 3;
    }
  }
  // The explorer first: its requests use the query engine.
  if (explorer) explorer->Stop();
  (*c)->Shutdown();
  return 0;
}
