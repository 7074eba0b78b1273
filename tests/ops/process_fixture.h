// Helpers of the process tests (tests/ops/*_test.cc), which run the built
// qipu-coordinator and qipu-worker binaries as real processes on
// 127.0.0.1:
//   TempDir            a fresh directory under $TMPDIR, removed at the end
//   CoordinatorProcess qipu-coordinator on a database directory: start
//                      (waits until the health check says SERVING), kill,
//                      restart (on a fresh port, behind a proxy port the
//                      test owns throughout), graceful stop
//   StartWorker        a qipu-worker process with the usual flags
//   Client             a channel with the JobService, WorkService,
//                      QueryService and health stubs; every call has a
//                      deadline
//   ScrapeMetrics      GET /metrics over a plain socket
//   ReadStoredGames    the games of a job, read from the RocksDB after the
//                      coordinator has stopped
//   RunQipu            the qipu binary run to its end: status, stdout,
//                      stderr; LastJsonLine parses its JSON output
// Timeouts are multiplied by kSlowdown in sanitizer builds, where the
// spawned binaries are sanitized too.
#ifndef QIPU_TESTS_OPS_PROCESS_FIXTURE_H_
#define QIPU_TESTS_OPS_PROCESS_FIXTURE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/channel.h"
#include "grpcpp/security/credentials.h"
#include "nlohmann/json.hpp"
#include "qipu/v1/game.pb.h"
#include "qipu/v1/query.grpc.pb.h"
#include "qipu/v1/work.grpc.pb.h"
#include "tests/common/tcp_proxy.h"
#include "tests/common/temp_dir.h"
#include "tests/ops/subprocess.h"

namespace qipu::testing {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
// How much slower everything runs in a sanitizer build.
inline constexpr int kSlowdown = kSanitized ? 4 : 1;

// The built binaries (QIPU_BINARY_DIR is set by tests/CMakeLists.txt).
inline constexpr char kCoordinatorBinary[] =
    QIPU_BINARY_DIR "/coordinator/qipu-coordinator";
inline constexpr char kWorkerBinary[] = QIPU_BINARY_DIR "/worker/qipu-worker";
inline constexpr char kQipuBinary[] = QIPU_BINARY_DIR "/ops/qipu";

using ::qipu::test_util::TempDir;

// Polls `done` every `poll` until it holds (true) or `timeout` passes.
bool WaitUntil(const std::function<bool()>& done, absl::Duration timeout,
               absl::Duration poll = absl::Milliseconds(10));

// A job configuration: size x size, chinese rules, the light policy,
// `depth` plies indexed, base seed `seed`.
qipu::v1::JobConfig JobConfigFor(int size, uint64_t seed, int depth = 8);

// A channel to a coordinator and its stubs. Every call has a deadline
// (`rpc_timeout`, scaled by kSlowdown). Thread-compatible.
class Client {
 public:
  // `creds`: the channel's credentials (TLS); null = plain text.
  explicit Client(const std::string& address,
                  absl::Duration rpc_timeout = absl::Seconds(5),
                  std::shared_ptr<grpc::ChannelCredentials> creds = nullptr);

  const std::shared_ptr<grpc::Channel>& channel() const { return channel_; }
  qipu::v1::WorkService::Stub& work() { return *work_; }
  // A context whose deadline is the client's RPC timeout from now; calls
  // wait for a connection (wait_for_ready) until then.
  std::unique_ptr<grpc::ClientContext> Context() const;

  absl::StatusOr<uint64_t> SubmitJob(uint64_t games,
                                     const qipu::v1::JobConfig& config);
  absl::StatusOr<qipu::v1::JobStatus> JobStatus(uint64_t job);
  // SERVING / NOT_SERVING of the whole server ("" service name).
  absl::StatusOr<grpc::health::v1::HealthCheckResponse::ServingStatus> Health();
  absl::StatusOr<qipu::v1::ResultsResponse> Results(
      const qipu::v1::Filter& filter);
  absl::StatusOr<qipu::v1::KoResponse> Ko(const qipu::v1::Filter& filter);
  // The empty-board position (no moves), every continuation.
  absl::StatusOr<qipu::v1::OpeningsResponse> RootOpenings(
      const qipu::v1::Filter& filter);

 private:
  absl::Duration rpc_timeout_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<qipu::v1::JobService::Stub> jobs_;
  std::unique_ptr<qipu::v1::WorkService::Stub> work_;
  std::unique_ptr<qipu::v1::QueryService::Stub> queries_;
  std::unique_ptr<grpc::health::v1::Health::Stub> health_;
};

// qipu-coordinator on `db_dir`, listening on 127.0.0.1. Every Start()
// asks for port 0 (the bound port is read from the binary's "listening
// on" line): a port a stopped run freed may have been taken by another
// test meanwhile. Clients and workers that must find the coordinator
// again after a restart use stable_address(), a TcpProxy
// (tests/common/tcp_proxy.h) the object owns, which forwards to the
// current run and refuses connections while there is none. The process is
// killed when the object goes away.
class CoordinatorProcess {
 public:
  // `flags` are passed after --db, --listen and --log-level info (which
  // `flags` may replace with a --log-level of their own); `env` is added
  // to the process's environment (see Subprocess::Start).
  CoordinatorProcess(std::string db_dir, std::string log_prefix,
                     std::vector<std::string> flags = {},
                     std::vector<std::string> env = {});

  // Starts the binary and waits until its health check says SERVING.
  // FailedPrecondition when it is already running; DeadlineExceeded (with
  // the tail of its log) when it does not come up.
  absl::Status Start(absl::Duration timeout = absl::Seconds(30));
  // SIGKILL and reap; returns the exit status (128 + 9 expected).
  std::optional<int> Kill();
  // SIGTERM (graceful shutdown) and wait; returns the exit status.
  std::optional<int> Stop(absl::Duration timeout = absl::Seconds(30));

  // The current (or last) run's port and "127.0.0.1:<port>" (0 before
  // the first start).
  int port() const { return port_; }
  std::string address() const;
  // The proxy's address: the same for every run.
  std::string stable_address() const;
  // The Prometheus port the current run printed (pass `--metrics
  // 127.0.0.1:0` in `flags`: a port picked by the test could be taken by
  // another process before the coordinator binds it); 0 without --metrics.
  int metrics_port() const { return metrics_port_; }
  // Starts so far (the log of start n is <log_prefix>.<n>.log).
  int starts() const { return starts_; }
  Subprocess* process() { return process_.get(); }
  // Credentials of Start()'s health probe, for a coordinator started with
  // --tls-cert (and --tls-client-ca); plain text by default.
  void set_probe_credentials(std::shared_ptr<grpc::ChannelCredentials> c) {
    probe_creds_ = std::move(c);
  }
  // The tail of the current (or last) run's stderr.
  std::string LogTail() const;

 private:
  const std::string db_dir_;
  const std::string log_prefix_;
  const std::vector<std::string> flags_;
  const std::vector<std::string> env_;
  std::unique_ptr<TcpProxy> proxy_;
  std::shared_ptr<grpc::ChannelCredentials> probe_creds_;
  int port_ = 0;
  int metrics_port_ = 0;
  int starts_ = 0;
  std::unique_ptr<Subprocess> process_;
};

// Starts qipu-worker against `coordinator` with its own spool in `dir`
// (dir/<name>.spool) and log (dir/<name>.log); `extra` flags follow.
absl::StatusOr<std::unique_ptr<Subprocess>> StartWorker(
    const std::string& coordinator, const std::string& dir,
    const std::string& name, int threads, int lease_games,
    const std::vector<std::string>& extra = {});

// The body of GET /metrics on 127.0.0.1:`port` (plain HTTP/1.0 over a
// socket, with a timeout). Unavailable when nothing answers.
absl::StatusOr<std::string> ScrapeMetrics(
    int port, absl::Duration timeout = absl::Seconds(5));
// The value of sample `name` (with its labels, exactly as exposed, e.g.
// qipu_leases{state="expired"}) in a Prometheus text page, or nullopt.
std::optional<double> MetricValue(const std::string& page,
                                  const std::string& name);

// The stored games of `job`, by index, read from the database in `db_dir`
// (which no process may hold open). Also returns, in *other_keys when not
// null, the number of keys in the games CF that do not belong to `job`.
absl::StatusOr<std::map<uint64_t, qipu::v1::Game>> ReadStoredGames(
    const std::string& db_dir, uint64_t job, uint64_t* other_keys = nullptr);

// What a run of a binary left: its exit status (nullopt when it did not
// end in time: it was killed), stdout and stderr.
struct Ran {
  std::optional<int> status;
  std::string out;
  std::string err;
};

// Runs `qipu` with `args` to its end (stdout and stderr in
// dir/<name>.out and .err), at most `timeout` (scaled by kSlowdown).
Ran RunQipu(const std::string& dir, const std::string& name,
            const std::vector<std::string>& args,
            absl::Duration timeout = absl::Seconds(120));

// The last non-empty line of `out` parsed as JSON (a discarded value when
// it is not JSON).
nlohmann::json LastJsonLine(const std::string& out);

// Hand-made games: writes each of `records` after `head` (an SGF root
// without its closing parenthesis, e.g. "(;GM[1]FF[4]SZ[19]") as
// dir/sgf/<i>.sgf, runs `qipu import --db dir/db` on them and returns
// the database folder. Expects every record imported (a test failure
// otherwise).
std::string ImportRecords(const std::string& dir, const std::string& head,
                          const std::vector<std::string>& records);

}  // namespace qipu::testing

#endif  // QIPU_TESTS_OPS_PROCESS_FIXTURE_H_
