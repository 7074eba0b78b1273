// LocalDatabase: a qipu database opened by this process, with the parts of
// the coordinator a command needs and no server -- the store and its
// configuration registry, the query engine and the tournaments always; the
// job manager and an importer (with its ingest writer) when first asked
// for. Behind every `--db DIR` of the qipu tool.
//
// RocksDB allows one process per database: a database a running
// coordinator holds is refused, with --server named as the way to it.
#ifndef QIPU_CLIENT_DATABASE_H_
#define QIPU_CLIENT_DATABASE_H_

#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "coordinator/importer.h"
#include "coordinator/ingest.h"
#include "coordinator/jobs.h"
#include "coordinator/queries.h"
#include "coordinator/tournaments.h"
#include "store/configs.h"
#include "store/store.h"

namespace qipu::client {

// How to open. Plain value.
struct LocalDatabaseOptions {
  // Create the database when `dir` holds none (import); otherwise a
  // missing database is an error.
  bool create = false;
  // fsync the WAL on every commit (store::StoreOptions::sync).
  bool sync = true;
  // The importer's threads and limits (importer()).
  coordinator::ImporterOptions importer;
};

// Thread-safe: the accessors may be called from any thread; the parts are
// as thread-safe as their own classes say.
class LocalDatabase {
 public:
  // Opens the database in `dir`. FailedPrecondition when a running
  // coordinator holds it (naming --server); errors of store::Store::Open()
  // and ConfigRegistry::Load() otherwise.
  static absl::StatusOr<std::unique_ptr<LocalDatabase>> Open(
      const std::string& dir, const LocalDatabaseOptions& options = {});
  // Finishes queued imports and their commits, then closes the database.
  ~LocalDatabase();

  LocalDatabase(const LocalDatabase&) = delete;
  LocalDatabase& operator=(const LocalDatabase&) = delete;

  store::Store& store() { return *store_; }
  store::ConfigRegistry& configs() { return *configs_; }
  // The query engine over this database.
  coordinator::QueryEngine& queries() { return *queries_; }
  // The tournaments of this database.
  coordinator::Tournaments& tournaments() { return *tournaments_; }
  // The jobs, loaded on first use; errors of JobManager::Load().
  absl::StatusOr<coordinator::JobManager*> jobs();
  // An importer (and the single ingest writer behind it), started on
  // first use.
  coordinator::Importer& importer();

 private:
  explicit LocalDatabase(const LocalDatabaseOptions& options)
      : options_(options) {}

  const LocalDatabaseOptions options_;
  // Destroyed in reverse order: importer, ingest, jobs, queries, registry,
  // store.
  std::unique_ptr<store::Store> store_;
  std::unique_ptr<store::ConfigRegistry> configs_;
  std::unique_ptr<coordinator::QueryEngine> queries_;
  std::unique_ptr<coordinator::Tournaments> tournaments_;
  absl::Mutex mu_;
  std::unique_ptr<coordinator::JobManager> jobs_ ABSL_GUARDED_BY(mu_);
  std::unique_ptr<coordinator::Ingestor> ingest_ ABSL_GUARDED_BY(mu_);
  std::unique_ptr<coordinator::Importer> importer_ ABSL_GUARDED_BY(mu_);
};

}  // namespace qipu::client

#endif  // QIPU_CLIENT_DATABASE_H_
