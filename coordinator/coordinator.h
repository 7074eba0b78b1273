// Coordinator: the whole coordinator in one object -- the engine over the
// database (engine/engine.h: store, configuration buckets, jobs and leases,
// the ingest committer, queries, import, tournaments, tokens), Prometheus
// metrics and the gRPC server (JobService, WorkService, QueryService,
// CorpusService, TrainingService, TournamentService, TokenService, health
// checking and reflection) with its TLS and token check. Used by
// qipu-coordinator's main() (ops/coordinator_main.cc), by `qipu local`
// in-process, and by tests.
//
// Start() opens everything and serves; Shutdown() stops accepting RPCs,
// lets running ones finish (bounded by a deadline), commits queued games
// and closes the database. Thread-safe.
#ifndef QIPU_COORDINATOR_COORDINATOR_H_
#define QIPU_COORDINATOR_COORDINATOR_H_

#include <memory>
#include <string>
#include <thread>

#include "absl/status/statusor.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "coordinator/call_tracker.h"
#include "coordinator/limits.h"
#include "coordinator/metrics.h"
#include "coordinator/query_queue.h"
#include "coordinator/server_credentials.h"
#include "coordinator/training_service.h"
#include "coordinator/work_service.h"
#include "engine/engine.h"
#include "engine/importer.h"
#include "engine/ingest.h"
#include "engine/jobs.h"
#include "engine/queries.h"
#include "engine/tokens.h"
#include "engine/tournaments.h"
#include "grpcpp/server.h"
#include "store/configs.h"
#include "store/store.h"

namespace qipu::coordinator {

struct CoordinatorOptions {
  // Database directory (created when missing).
  std::string db_dir;
  // gRPC listen address; port 0 picks a free port (see address()).
  std::string listen = "127.0.0.1:0";
  // Prometheus endpoint; empty = none.
  std::string metrics_listen;
  // TLS of the gRPC port (plain text when not enabled()).
  ServerTls tls;
  // Every call but health checks needs a valid token of a role allowed to
  // make it (access.h, server_credentials.h); off: no token is checked
  // (`qipu local`, loopback, trusted networks), and TokenService and
  // AdminService answer only callers on this host (CheckLocalCaller).
  bool auth_required = false;
  // With auth off (and no client certificates), Start() refuses a
  // `listen` address that is not loopback (CheckExposure) unless this is
  // set: whoever reaches such a port could submit, cancel and import.
  // `--insecure`.
  bool insecure = false;
  store::StoreOptions store;
  engine::JobManagerOptions jobs;
  engine::IngestOptions ingest;
  WorkServiceOptions work;
  // Corpus import (CorpusService): prepare threads, file limits.
  engine::ImporterOptions import;
  // Training batches (TrainingService): memory of the mixing chunks.
  TrainingServiceOptions training;
  // Largest request message accepted, bytes (an SGF file for import); a
  // larger one fails with RESOURCE_EXHAUSTED naming both sizes.
  int max_message_bytes = 32 << 20;
  // What one client may ask (limits.h): streams, export games and time.
  LimitsOptions limits;
  // How often leases are checked for expiry and gauges sampled.
  absl::Duration tick = absl::Milliseconds(200);
};

// OK when serving `address` (`flag` names it: "--listen", "--http") is
// safe as asked: every caller there proves who it is (`guarded`: tokens,
// `--auth required`; on the gRPC port also client certificates,
// `--tls-client-ca`), the address is loopback (base::IsLoopbackListen), or
// `insecure`. Otherwise FailedPrecondition, one line saying what and how
// to fix it. Thread-safe (pure).
absl::Status CheckExposure(absl::string_view flag, absl::string_view address,
                           bool guarded, bool insecure);
// Whether the gRPC port of `options` is guarded in CheckExposure()'s
// sense: auth required or client certificates.
bool GrpcGuarded(const CoordinatorOptions& options);

class Coordinator {
 public:
  // Opens the store and starts serving. Errors: CheckExposure()'s for
  // options.listen, the store's (see store::Store::Open), Unavailable when
  // the address cannot be bound.
  static absl::StatusOr<std::unique_ptr<Coordinator>> Start(
      const CoordinatorOptions& options);
  // Shuts down if still running.
  ~Coordinator();

  // "HOST:PORT" actually bound (the port resolved when 0 was asked).
  const std::string& address() const { return address_; }
  int port() const { return port_; }
  int metrics_port() const { return metrics_.port(); }
  // A channel to this coordinator's services that stays inside the process
  // (gRPC's in-process transport: no sockets, no HTTP/2 framing), for an
  // embedded worker (`qipu local`). Thread-safe; valid until Shutdown().
  std::shared_ptr<grpc::Channel> InProcessChannel();

  // Graceful stop; in-flight RPCs get `grace` to finish. Idempotent.
  void Shutdown(absl::Duration grace = absl::Seconds(5));
  // Blocks until Shutdown() has completed.
  void Wait();

  // The engine the services run on, and its parts (valid until
  // Shutdown()).
  engine::Engine& engine() { return *engine_; }
  engine::JobManager& jobs() { return *jobs_; }
  engine::Ingestor& ingestor() { return *ingest_; }
  store::Store& store() { return engine_->store(); }
  store::ConfigRegistry& configs() { return engine_->configs(); }
  Metrics& metrics() { return metrics_; }
  // The threads and wait list of pattern searches (for tests and
  // metrics). Valid until the Coordinator is destroyed.
  QueryQueue& pattern_queue() { return *pattern_queue_; }
  // The query engine behind QueryService (also usable in-process).
  engine::QueryEngine& queries() { return engine_->queries(); }
  // The tournaments behind TournamentService (also usable in-process).
  engine::Tournaments& tournaments() { return engine_->tournaments(); }
  // The importer behind CorpusService.Import (also usable in-process).
  engine::Importer& importer() { return *importer_; }
  // The access tokens behind TokenService and the per-call check.
  engine::TokenRegistry& tokens() { return *engine_->tokens(); }

 private:
  Coordinator() = default;
  void Tick();

  CoordinatorOptions options_;
  std::unique_ptr<engine::Engine> engine_;
  // The engine's parts, started at Start() (owned by engine_).
  engine::JobManager* jobs_ = nullptr;
  engine::Ingestor* ingest_ = nullptr;
  engine::Importer* importer_ = nullptr;
  Metrics metrics_;
  // Counts the calls in progress for a prompt graceful Shutdown(); before
  // server_, which its interceptors refer to.
  CallTracker calls_;
  // Each client's streams in progress; before services_, which refer to it.
  std::unique_ptr<StreamLimiter> streams_;
  // The pattern searches' own threads (QueryService.Pattern); before
  // services_, which refer to it; stopped in Shutdown() before the
  // database closes.
  std::unique_ptr<QueryQueue> pattern_queue_;
  std::vector<std::unique_ptr<grpc::Service>> services_;
  // The WorkService among services_ (for Drain()).
  WorkServiceImpl* work_ = nullptr;
  std::unique_ptr<grpc::Server> server_;
  std::string address_;
  int port_ = 0;
  std::thread ticker_;
  absl::Notification stop_;
  absl::Notification stopped_;
  absl::Mutex shutdown_mu_;
  bool shut_down_ ABSL_GUARDED_BY(shutdown_mu_) = false;
};

}  // namespace qipu::coordinator

#endif  // QIPU_COORDINATOR_COORDINATOR_H_
