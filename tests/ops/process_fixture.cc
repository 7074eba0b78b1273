#include "tests/ops/process_fixture.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "grpcpp/support/channel_arguments.h"
#include "proto/convert.h"
#include "rules/rules.h"
#include "store/game_id.h"
#include "store/keys.h"
#include "store/store.h"
#include "tests/common/job_config.h"
#include "tests/common/stored_games.h"

namespace qipu::testing {
namespace {

absl::Status FromGrpc(const grpc::Status& s, absl::string_view what) {
  if (s.ok()) return absl::OkStatus();
  return absl::Status(static_cast<absl::StatusCode>(s.error_code()),
                      absl::StrCat(what, ": ", s.error_message()));
}

// The port of the "qipu-coordinator <marker>HOST:PORT" line, or 0.
int PrintedPort(const std::string& out, const std::string& marker) {
  const size_t at = out.find(marker);
  if (at == std::string::npos) return 0;
  const size_t eol = out.find('\n', at);
  if (eol == std::string::npos) return 0;
  const std::string addr =
      out.substr(at + marker.size(), eol - at - marker.size());
  const size_t colon = addr.rfind(':');
  int port = 0;
  if (colon == std::string::npos ||
      !absl::SimpleAtoi(addr.substr(colon + 1), &port)) {
    return 0;
  }
  return port;
}

}  // namespace

bool WaitUntil(const std::function<bool()>& done, absl::Duration timeout,
               absl::Duration poll) {
  const absl::Time until = absl::Now() + timeout;
  while (!done()) {
    if (absl::Now() > until) return false;
    absl::SleepFor(poll);
  }
  return true;
}

qipu::v1::JobConfig JobConfigFor(int size, uint64_t seed, int depth) {
  return test_util::SelfPlayConfig(size, seed, depth);
}

// --- Client ---------------------------------------------------------------

Client::Client(const std::string& address, absl::Duration rpc_timeout,
               std::shared_ptr<grpc::ChannelCredentials> creds)
    : rpc_timeout_(rpc_timeout * kSlowdown) {
  grpc::ChannelArguments args;
  // Reconnect quickly to a restarted coordinator. (Not
  // GRPC_ARG_MIN_RECONNECT_BACKOFF_MS: it is the minimum *connect timeout*,
  // and 100 ms abandons handshakes with a busy or sanitized coordinator.)
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 500);
  channel_ = grpc::CreateCustomChannel(
      address, creds != nullptr ? creds : grpc::InsecureChannelCredentials(),
      args);
  jobs_ = qipu::v1::JobService::NewStub(channel_);
  work_ = qipu::v1::WorkService::NewStub(channel_);
  queries_ = qipu::v1::QueryService::NewStub(channel_);
  health_ = grpc::health::v1::Health::NewStub(channel_);
}

std::unique_ptr<grpc::ClientContext> Client::Context() const {
  auto ctx = std::make_unique<grpc::ClientContext>();
  ctx->set_deadline(absl::ToChronoTime(absl::Now() + rpc_timeout_));
  // Wait (until the deadline) for a connection instead of failing fast
  // while the channel is in TRANSIENT_FAILURE: a waiting call polls the
  // channel, so a reconnect to a restarted coordinator completes at once.
  // A fail-fast call polls nothing, and the connection attempt is then
  // only noticed by gRPC's backup poller, every 5 s.
  ctx->set_wait_for_ready(true);
  return ctx;
}

absl::StatusOr<uint64_t> Client::SubmitJob(uint64_t games,
                                           const qipu::v1::JobConfig& config) {
  qipu::v1::SubmitJobRequest req;
  req.set_games(games);
  *req.mutable_config() = config;
  qipu::v1::SubmitJobResponse resp;
  const grpc::Status s = jobs_->SubmitJob(Context().get(), req, &resp);
  if (!s.ok()) return FromGrpc(s, "SubmitJob");
  return resp.job();
}

absl::StatusOr<qipu::v1::JobStatus> Client::JobStatus(uint64_t job) {
  qipu::v1::GetJobStatusRequest req;
  req.set_job(job);
  qipu::v1::GetJobStatusResponse resp;
  const grpc::Status s = jobs_->GetJobStatus(Context().get(), req, &resp);
  if (!s.ok()) return FromGrpc(s, "GetJobStatus");
  if (resp.jobs_size() != 1) {
    return absl::InternalError(absl::StrCat("GetJobStatus(", job, ") gave ",
                                            resp.jobs_size(), " jobs"));
  }
  return resp.jobs(0);
}

absl::StatusOr<grpc::health::v1::HealthCheckResponse::ServingStatus>
Client::Health() {
  grpc::health::v1::HealthCheckRequest req;
  grpc::health::v1::HealthCheckResponse resp;
  const grpc::Status s = health_->Check(Context().get(), req, &resp);
  if (!s.ok()) return FromGrpc(s, "Health.Check");
  return resp.status();
}

absl::StatusOr<qipu::v1::ResultsResponse> Client::Results(
    const qipu::v1::Filter& filter) {
  qipu::v1::ResultsRequest req;
  *req.mutable_filter() = filter;
  qipu::v1::ResultsResponse resp;
  const grpc::Status s = queries_->Results(Context().get(), req, &resp);
  if (!s.ok()) return FromGrpc(s, "Results");
  return resp;
}

absl::StatusOr<qipu::v1::KoResponse> Client::Ko(
    const qipu::v1::Filter& filter) {
  qipu::v1::KoRequest req;
  *req.mutable_filter() = filter;
  qipu::v1::KoResponse resp;
  const grpc::Status s = queries_->Ko(Context().get(), req, &resp);
  if (!s.ok()) return FromGrpc(s, "Ko");
  return resp;
}

absl::StatusOr<qipu::v1::OpeningsResponse> Client::RootOpenings(
    const qipu::v1::Filter& filter) {
  qipu::v1::OpeningsRequest req;
  *req.mutable_filter() = filter;
  req.set_limit(0);
  qipu::v1::OpeningsResponse resp;
  const grpc::Status s = queries_->Openings(Context().get(), req, &resp);
  if (!s.ok()) return FromGrpc(s, "Openings");
  return resp;
}

// --- CoordinatorProcess ---------------------------------------------------

CoordinatorProcess::CoordinatorProcess(std::string db_dir,
                                       std::string log_prefix,
                                       std::vector<std::string> flags,
                                       std::vector<std::string> env)
    : db_dir_(std::move(db_dir)),
      log_prefix_(std::move(log_prefix)),
      flags_(std::move(flags)),
      env_(std::move(env)) {
  auto proxy = TcpProxy::Start();
  EXPECT_TRUE(proxy.ok()) << proxy.status();
  if (proxy.ok()) proxy_ = *std::move(proxy);
}

std::string CoordinatorProcess::address() const {
  return absl::StrCat("127.0.0.1:", port_);
}

std::string CoordinatorProcess::stable_address() const {
  return proxy_ == nullptr ? address() : proxy_->address();
}

std::string CoordinatorProcess::LogTail() const {
  return process_ == nullptr ? std::string() : process_->StderrTail();
}

absl::Status CoordinatorProcess::Start(absl::Duration timeout) {
  if (process_ != nullptr && process_->IsRunning()) {
    return absl::FailedPreconditionError("the coordinator is running");
  }
  ++starts_;
  std::vector<std::string> argv = {kCoordinatorBinary, "--db", db_dir_,
                                   "--listen", "127.0.0.1:0"};
  if (std::find(flags_.begin(), flags_.end(), "--log-level") == flags_.end()) {
    argv.insert(argv.end(), {"--log-level", "info"});
  }
  argv.insert(argv.end(), flags_.begin(), flags_.end());
  const std::string base = absl::StrCat(log_prefix_, ".", starts_);
  auto p = Subprocess::Start(argv, base + ".out", base + ".log", env_);
  if (!p.ok()) return p.status();
  process_ = *std::move(p);
  timeout *= kSlowdown;
  const absl::Time until = absl::Now() + timeout;
  // The port, from the line main() prints once the server is up (with
  // the metrics line, when asked for).
  for (;;) {
    const std::string out = process_->Stdout();
    const int port = PrintedPort(out, "listening on ");
    if (port != 0) {
      port_ = port;
      metrics_port_ = PrintedPort(out, "metrics on ");
      break;
    }
    if (!process_->IsRunning() || absl::Now() > until) {
      return absl::DeadlineExceededError(absl::StrCat(
          "qipu-coordinator did not report its port; log:\n", LogTail()));
    }
    absl::SleepFor(absl::Milliseconds(10));
  }
  Client client(address(), absl::Milliseconds(500), probe_creds_);
  bool serving = WaitUntil(
      [&] {
        if (!process_->IsRunning()) return true;
        auto h = client.Health();
        return h.ok() && *h == grpc::health::v1::HealthCheckResponse::SERVING;
      },
      until - absl::Now(), absl::Milliseconds(20));
  if (!serving || !process_->IsRunning()) {
    return absl::DeadlineExceededError(absl::StrCat(
        "qipu-coordinator on ", address(), " is not SERVING (",
        process_->IsRunning() ? "running" : "exited", "); log:\n", LogTail()));
  }
  if (proxy_ != nullptr) proxy_->SetBackend(port_);
  return absl::OkStatus();
}

std::optional<int> CoordinatorProcess::Kill() {
  if (process_ == nullptr) return std::nullopt;
  // Before the port is freed: whoever takes it next is not this server.
  if (proxy_ != nullptr) proxy_->SetBackend(0);
  process_->Kill(SIGKILL);
  return process_->Wait(absl::Seconds(10) * kSlowdown);
}

std::optional<int> CoordinatorProcess::Stop(absl::Duration timeout) {
  if (process_ == nullptr) return std::nullopt;
  if (proxy_ != nullptr) proxy_->SetBackend(0);
  process_->Kill(SIGTERM);
  return process_->Wait(timeout * kSlowdown);
}

// --- Workers, metrics, the database ----------------------------------------

absl::StatusOr<std::unique_ptr<Subprocess>> StartWorker(
    const std::string& coordinator, const std::string& dir,
    const std::string& name, int threads, int lease_games,
    const std::vector<std::string>& extra) {
  // The RPC deadline is the worker's default: a graceful stop returns its
  // leases, each return commits with an fsync, and a busy disk can hold
  // one up for seconds (a return that times out leaves its lease open
  // until it expires).
  std::vector<std::string> argv = {kWorkerBinary,
                                   "--coordinator",
                                   coordinator,
                                   "--threads",
                                   absl::StrCat(threads),
                                   "--spool",
                                   absl::StrCat(dir, "/", name, ".spool"),
                                   "--name",
                                   name,
                                   "--lease-games",
                                   absl::StrCat(lease_games),
                                   "--rpc-timeout",
                                   absl::StrCat(10 * kSlowdown),
                                   "--log-level",
                                   "info"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return Subprocess::Start(argv, absl::StrCat(dir, "/", name, ".out"),
                           absl::StrCat(dir, "/", name, ".log"));
}

absl::StatusOr<std::string> ScrapeMetrics(int port, absl::Duration timeout) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return absl::InternalError(absl::StrCat("socket: ", strerror(errno)));
  timeval tv = absl::ToTimeval(timeout);
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    const int err = errno;
    close(fd);
    return absl::UnavailableError(
        absl::StrCat("connect 127.0.0.1:", port, ": ", strerror(err)));
  }
  const std::string req =
      "GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
  if (send(fd, req.data(), req.size(), MSG_NOSIGNAL) !=
      static_cast<ssize_t>(req.size())) {
    close(fd);
    return absl::UnavailableError("sending the metrics request failed");
  }
  std::string resp;
  char buf[16384];
  for (;;) {
    const ssize_t n = recv(fd, buf, sizeof(buf), 0);
    if (n <= 0) break;
    resp.append(buf, static_cast<size_t>(n));
  }
  close(fd);
  const size_t body = resp.find("\r\n\r\n");
  if (!absl::StartsWith(resp, "HTTP/1.") || body == std::string::npos ||
      resp.find(" 200 ") > body) {
    return absl::UnavailableError(
        absl::StrCat("unexpected metrics response: ", resp.substr(0, 200)));
  }
  return resp.substr(body + 4);
}

std::optional<double> MetricValue(const std::string& page,
                                  const std::string& name) {
  for (absl::string_view line : absl::StrSplit(page, '\n')) {
    if (!absl::ConsumePrefix(&line, name) || !absl::ConsumePrefix(&line, " ")) {
      continue;
    }
    double v = 0;
    // The value, then an optional timestamp.
    if (absl::SimpleAtod(line.substr(0, line.find(' ')), &v)) return v;
  }
  return std::nullopt;
}

absl::StatusOr<std::map<uint64_t, qipu::v1::Game>> ReadStoredGames(
    const std::string& db_dir, uint64_t job, uint64_t* other_keys) {
  store::StoreOptions options;
  options.create_if_missing = false;
  options.block_cache_bytes = 8u << 20;
  options.write_buffer_bytes = 4u << 20;
  options.total_write_buffer_bytes = 16u << 20;
  auto db = store::Store::Open(db_dir, options);
  if (!db.ok()) return db.status();
  std::map<uint64_t, qipu::v1::Game> games;
  uint64_t others = 0;
  const absl::Status scanned = test_util::ForEachStoredGame(
      **db, [&](const store::GameId& id, absl::string_view bytes) {
        if (id.kind != store::GameId::Kind::kSelfPlay || id.hi != job) {
          ++others;
          return absl::OkStatus();
        }
        qipu::v1::Game g;
        if (!g.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
          return absl::DataLossError(
              absl::StrCat("game ", store::GameIdText(id), " does not parse"));
        }
        if (!games.emplace(id.lo, std::move(g)).second) {
          return absl::DataLossError(
              absl::StrCat("game ", store::GameIdText(id), " seen twice"));
        }
        return absl::OkStatus();
      });
  if (!scanned.ok()) return scanned;
  if (other_keys != nullptr) *other_keys = others;
  return games;
}

Ran RunQipu(const std::string& dir, const std::string& name,
            const std::vector<std::string>& args, absl::Duration timeout) {
  std::vector<std::string> argv = {kQipuBinary};
  argv.insert(argv.end(), args.begin(), args.end());
  Ran r;
  auto p = Subprocess::Start(argv, absl::StrCat(dir, "/", name, ".out"),
                             absl::StrCat(dir, "/", name, ".err"));
  EXPECT_TRUE(p.ok()) << p.status();
  if (!p.ok()) return r;
  r.status = (*p)->Wait(timeout * kSlowdown);
  EXPECT_TRUE(r.status.has_value())
      << "qipu " << absl::StrJoin(args, " ") << " did not end";
  r.out = (*p)->Stdout();
  r.err = (*p)->Stderr();
  return r;
}

nlohmann::json LastJsonLine(const std::string& out) {
  const size_t end = out.find_last_not_of('\n');
  if (end == std::string::npos) return nlohmann::json();
  const size_t nl = out.rfind('\n', end);
  const size_t begin = nl == std::string::npos ? 0 : nl + 1;
  return nlohmann::json::parse(out.substr(begin, end + 1 - begin), nullptr,
                               /*allow_exceptions=*/false);
}

std::string ImportRecords(const std::string& dir, const std::string& head,
                          const std::vector<std::string>& records) {
  const std::string sgf = absl::StrCat(dir, "/sgf");
  std::filesystem::create_directories(sgf);
  for (size_t i = 0; i < records.size(); ++i) {
    std::ofstream(absl::StrCat(sgf, "/", i, ".sgf")) << head << records[i];
  }
  const std::string db = absl::StrCat(dir, "/db");
  const Ran imported =
      RunQipu(dir, "import", {"import", "--db", db, sgf, "--json"});
  EXPECT_EQ(imported.status, 0) << imported.err;
  EXPECT_EQ(LastJsonLine(imported.out).value("imported", uint64_t{0}),
            records.size())
      << imported.out;
  return db;
}

}  // namespace qipu::testing
