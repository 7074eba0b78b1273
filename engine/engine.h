// Engine: one qipu database and everything done with it, without a server
// -- the store and its configuration registry, the query engine, the
// tournaments and the access tokens always; the job manager, the ingest
// writer (validated games committed in groups) and the importer on first
// use, or all at Open() when `eager`. The coordinator serves its gRPC
// services over one Engine (coordinator/coordinator.h); every `--db DIR`
// of the qipu tool opens one in-process.
//
// RocksDB allows one process per database: a command that opens a database
// a running coordinator holds is refused, with --server named as the way
// to it.
//
// Thread-safe: the accessors may be called from any thread; the parts are
// as thread-safe as their own classes say.
#ifndef QIPU_ENGINE_ENGINE_H_
#define QIPU_ENGINE_ENGINE_H_

#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "engine/importer.h"
#include "engine/ingest.h"
#include "engine/jobs.h"
#include "engine/queries.h"
#include "engine/tokens.h"
#include "engine/tournaments.h"
#include "store/configs.h"
#include "store/store.h"

namespace qipu::engine {

// How to open. Plain value.
struct EngineOptions {
  // Create the database when `dir` holds none; otherwise a missing
  // database is an error. Overrides store.create_if_missing.
  bool create = false;
  // The store's caches, memtables and durability.
  store::StoreOptions store;
  // Leases (jobs()).
  JobManagerOptions jobs;
  // The ingest writer's group commits (ingestor()).
  IngestOptions ingest;
  // The importer's threads and limits (importer()).
  ImporterOptions importer;
  // Start the job manager, the ingest writer and the importer at Open()
  // (a server); otherwise each starts on first use (a command that only
  // queries never loads the jobs).
  bool eager = false;
};

class Engine {
 public:
  // Opens the database in `dir`. Not eager (a command): FailedPrecondition
  // when a running coordinator holds it (naming --server). Errors of
  // store::Store::Open(),
  // ConfigRegistry::Load(), TokenRegistry::Load() and, when eager,
  // JobManager::Load() otherwise.
  static absl::StatusOr<std::unique_ptr<Engine>> Open(
      const std::string& dir, const EngineOptions& options = {});
  // Close().
  ~Engine();

  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Finishes queued imports and commits, then closes the database; the
  // accessors must not be used after. Idempotent.
  void Close();

  const std::string& dir() const { return dir_; }
  store::Store& store() { return *store_; }
  store::ConfigRegistry& configs() { return *configs_; }
  // The query engine over this database.
  QueryEngine& queries() { return *queries_; }
  // The tournaments of this database.
  Tournaments& tournaments() { return *tournaments_; }
  // The access tokens; shared with the coordinator's per-call check.
  const std::shared_ptr<TokenRegistry>& tokens() { return tokens_; }
  // The jobs, loaded on first use; errors of JobManager::Load().
  absl::StatusOr<JobManager*> jobs();
  // The ingest writer, started on first use (with the jobs, whose record
  // of stored games it keeps); errors of jobs().
  absl::StatusOr<Ingestor*> ingestor();
  // An importer over the ingest writer, started on first use; errors of
  // ingestor().
  absl::StatusOr<Importer*> importer();

 private:
  explicit Engine(const EngineOptions& options) : options_(options) {}
  absl::StatusOr<JobManager*> JobsLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::StatusOr<Ingestor*> IngestorLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const EngineOptions options_;
  std::string dir_;
  // Destroyed in reverse order: importer, ingest, jobs, tokens,
  // tournaments, queries, registry, store.
  std::unique_ptr<store::Store> store_;
  std::unique_ptr<store::ConfigRegistry> configs_;
  std::unique_ptr<QueryEngine> queries_;
  std::unique_ptr<Tournaments> tournaments_;
  std::shared_ptr<TokenRegistry> tokens_;
  absl::Mutex mu_;
  std::unique_ptr<JobManager> jobs_ ABSL_GUARDED_BY(mu_);
  std::unique_ptr<Ingestor> ingest_ ABSL_GUARDED_BY(mu_);
  std::unique_ptr<Importer> importer_ ABSL_GUARDED_BY(mu_);
};

}  // namespace qipu::engine

#endif  // QIPU_ENGINE_ENGINE_H_
