// Pieces shared by `qipu import`, `qipu export` and `qipu bench import`:
// the in-process database behind --db, the import progress bar, the
// import summary (text and JSON), and the gRPC channel behind --server.
#ifndef QIPU_OPS_CORPUS_CLI_H_
#define QIPU_OPS_CORPUS_CLI_H_

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "coordinator/importer.h"
#include "coordinator/ingest.h"
#include "grpcpp/channel.h"
#include "nlohmann/json.hpp"
#include "store/configs.h"
#include "store/store.h"

namespace qipu::ops {

// The coordinator's storage components without a server: Store,
// ConfigRegistry, Ingestor and Importer, for commands given --db. Not
// usable while a coordinator has the database open (RocksDB's lock).
class LocalCorpus {
 public:
  // Opens the database in `dir` (created when `create`). Errors as for
  // store::Store::Open(); FailedPrecondition names --server as the way to
  // reach a database a coordinator holds.
  static absl::StatusOr<std::unique_ptr<LocalCorpus>> Open(
      const std::string& dir, bool create,
      const coordinator::ImporterOptions& import, bool sync = true);
  // Finishes queued imports and commits, then closes the database.
  ~LocalCorpus();

  store::Store& store() { return *store_; }
  coordinator::Importer& importer() { return *importer_; }

 private:
  LocalCorpus() = default;

  std::unique_ptr<store::Store> store_;
  std::unique_ptr<store::ConfigRegistry> configs_;
  std::unique_ptr<coordinator::Ingestor> ingest_;
  std::unique_ptr<coordinator::Importer> importer_;
};

// A one-line progress bar on stderr, redrawn at most 10 times a second;
// does nothing unless enabled and stderr is a terminal. Not thread-safe
// (ImportPaths serialises its progress calls).
class ImportProgressBar {
 public:
  explicit ImportProgressBar(bool enabled);
  // Clears the bar.
  ~ImportProgressBar();

  void Update(const coordinator::ImportProgress& p);

 private:
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

// The summary as one JSON object: files, games, imported, duplicates,
// rejected, errors [{file, game, byte_offset, move, reason}], normalised
// {kind: count}, seconds, games_per_sec.
nlohmann::ordered_json SummaryJson(const coordinator::ImportSummary& s);

// The summary for people: totals, the normalisations by count, and the
// first `max_errors` error rows.
void PrintSummary(std::FILE* out, const coordinator::ImportSummary& s,
                  size_t max_errors);

// An insecure channel to a coordinator at `address` accepting messages of
// up to `max_message_bytes`.
std::shared_ptr<grpc::Channel> CoordinatorChannel(const std::string& address,
                                                  int max_message_bytes);

// "qipu <command>: <what>: <why>" on stderr.
void PrintError(const char* command, const std::string& what,
                const std::string& why);

}  // namespace qipu::ops

#endif  // QIPU_OPS_CORPUS_CLI_H_
