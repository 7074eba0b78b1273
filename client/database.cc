#include "client/database.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace qipu::client {

absl::StatusOr<std::unique_ptr<LocalDatabase>> LocalDatabase::Open(
    const std::string& dir, const LocalDatabaseOptions& options) {
  std::unique_ptr<LocalDatabase> db(new LocalDatabase(options));
  store::StoreOptions so;
  so.create_if_missing = options.create;
  so.sync = options.sync;
  auto st = store::Store::Open(dir, so);
  if (!st.ok()) {
    if (absl::IsUnavailable(st.status()) &&
        absl::StrContains(absl::AsciiStrToLower(st.status().message()),
                          "lock")) {
      return absl::FailedPreconditionError(
          absl::StrCat(st.status().message(),
                       " (a running coordinator holds it: use --server ADDR)"));
    }
    return st.status();
  }
  db->store_ = *std::move(st);
  db->configs_ = std::make_unique<store::ConfigRegistry>(db->store_.get());
  if (absl::Status s = db->configs_->Load(); !s.ok()) return s;
  db->queries_ = std::make_unique<coordinator::QueryEngine>(db->store_.get(),
                                                            db->configs_.get());
  db->tournaments_ =
      std::make_unique<coordinator::Tournaments>(db->store_.get());
  return db;
}

LocalDatabase::~LocalDatabase() {
  absl::MutexLock lock(&mu_);
  importer_.reset();
  if (ingest_ != nullptr) ingest_->Stop();
  ingest_.reset();
  jobs_.reset();
  tournaments_.reset();
  queries_.reset();
  configs_.reset();
  store_.reset();
}

absl::StatusOr<coordinator::JobManager*> LocalDatabase::jobs() {
  absl::MutexLock lock(&mu_);
  if (jobs_ == nullptr) {
    auto jobs = std::make_unique<coordinator::JobManager>(
        store_.get(), configs_.get(), coordinator::JobManagerOptions{});
    if (absl::Status s = jobs->Load(); !s.ok()) return s;
    jobs_ = std::move(jobs);
  }
  return jobs_.get();
}

coordinator::Importer& LocalDatabase::importer() {
  absl::MutexLock lock(&mu_);
  if (importer_ == nullptr) {
    ingest_ = std::make_unique<coordinator::Ingestor>(
        store_.get(), coordinator::IngestOptions{}, nullptr);
    importer_ = std::make_unique<coordinator::Importer>(
        configs_.get(), ingest_.get(), options_.importer);
  }
  return *importer_;
}

}  // namespace qipu::client
