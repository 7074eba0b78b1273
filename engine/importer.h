// Importer: SGF (and qipu JSONL) files into the game database. Each file
// is read and parsed (rules/sgf_reader.h), each game is prepared with
// PrepareImport() (prepare.h: replayed under its own rules, indexed,
// config bucket interned) on a small pool of threads -- parsing and
// replay are CPU-bound -- and the prepared games go to the single
// Ingestor (ingest.h), which commits them in groups and drops duplicates.
//
// Order: games reach the Ingestor in the order their files were queued
// and, within a file, in file order, whatever thread prepared them. So
// the first copy of a game in queue order is the one stored and every
// later copy is reported as a duplicate, deterministically.
//
// Records are history: a game its rules do not accept is stored noted or
// cut (PrepareImport(), prepare.h), counted (ImportResponse.noted, .cut)
// with one ImportResponse.kept row naming its first note; with
// ImportSettings::strict it is refused as before.
//
// Errors never stop an import: an unreadable, too large, empty or non-SGF
// file, a game the parser rejects (byte offset), under strict an illegal
// move (move number, from PrepareImport's typed out-parameter), an impossible
// setup, a storage failure -- each is one qipu.v1.ImportError row of its file's
// ImportResponse. A game of another game than Go (GM[19] in a collection
// of Go games) is no error: it is skipped, one row of
// ImportResponse.skipped, and the file's Go games are imported. Normalisations
// the reader or PrepareImport applied (PreparedImport::notes, stored as
// Meta.normalised) are counted per kind: rules::NoteKindText(), the note
// without its place, node or game number.
//
// Fox results: Fox writes RE margins in the unit of its komi. When the
// record's komi was Fox-encoded in stones (KM[375] = 3.75 stones = 7.5
// points, see sgf_reader.h) the margin is in stones too and is doubled
// (RE[B+0.75] = B+1.5 points). Fox's scoring artefacts -- margins below
// 0.25 (B+0.02, W+0.0) or not on the unit's grid (W+3.2 stones) -- keep
// their winner and lose their margin (stored as "B+", margin unknown).
// Both are noted; Meta.record_result keeps the RE as written. A record is
// Fox's when the reader noted a Fox komi (rules::NoteKind::kFoxKomi) or an
// AP value is "foxwq" (the kept AP, or a repeated one the reader noted).
#ifndef QIPU_ENGINE_IMPORTER_H_
#define QIPU_ENGINE_IMPORTER_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "engine/import_input.h"
#include "engine/ingest.h"
#include "qipu/v1/query.pb.h"
#include "rules/record.h"
#include "store/configs.h"

namespace qipu::engine {

// Deepest position index an import may ask for (plies).
inline constexpr int kMaxIndexDepth = 1000;

struct ImporterOptions {
  // Threads that read, parse and prepare (>= 1).
  int threads = 2;
  // Larger files are refused with an error row (bytes).
  size_t max_file_bytes = 64u << 20;
  // Files queued and not finished before ImportBytes()/ImportFile() block.
  int max_files_in_flight = 256;
  // Games of one file prepared as one task (a large collection is spread
  // over the threads in chunks of this many games).
  int chunk_games = 64;
};

// What an import records with each game.
struct ImportSettings {
  // Provenance.source and the configuration's source dimension.
  std::string source = "import";
  // Plies of each game indexed (0 indexes only the start position).
  int index_depth = 60;
  // Refuse records with a move their rules forbid or that cannot be
  // played (ImportContext::strict), instead of keeping them noted or cut.
  bool strict = false;
};

// OK when `s` can be used: source of 1..100 printable characters not
// starting with "job:" (self-play's sources), index_depth in
// 0..kMaxIndexDepth. InvalidArgument names the field otherwise.
absl::Status ValidateImportSettings(const ImportSettings& s);

// Totals of an import. Plain value type.
struct ImportSummary {
  uint64_t files = 0;
  uint64_t games = 0;
  uint64_t imported = 0;
  uint64_t duplicates = 0;
  uint64_t rejected = 0;
  // Of `imported`: records stored with a move their rules forbid, and
  // records stored cut (PrepareImport()); one row each in `kept` (its
  // first note), files in order.
  uint64_t noted = 0;
  uint64_t cut = 0;
  std::vector<qipu::v1::ImportError> kept;
  // Every error row, files in order.
  std::vector<qipu::v1::ImportError> errors;
  // Every game of another game than Go, skipped (not rejected), files in
  // order; games = imported + duplicates + rejected + skipped.size().
  std::vector<qipu::v1::ImportError> skipped;
  // Normalisations by kind, counted over the games stored or found
  // duplicate.
  std::map<std::string, uint64_t> normalised;
  // Wall time of ImportPaths(), seconds.
  double seconds = 0;

  // Adds one file's outcome (files += 1).
  void Add(const qipu::v1::ImportResponse& file);
};

// Progress of ImportPaths(), passed to its callback after each file.
struct ImportProgress {
  uint64_t files_done = 0;
  uint64_t files_total = 0;
  uint64_t games = 0;
  uint64_t imported = 0;
  uint64_t duplicates = 0;
  uint64_t rejected = 0;
};

// Applies the Fox result rule described at the top of this file to
// `record` (rewriting record->result and adding a kFoxResultArtefact or
// kFoxResultInStones note). Returns whether it changed anything.
bool NormaliseFoxResult(rules::GameRecord* record);

class Importer {
 public:
  // Called once per file with its outcome, from an importer thread or the
  // Ingestor's committer thread. Must be quick and must not call back into
  // the Importer.
  using FileDone = std::function<void(qipu::v1::ImportResponse)>;
  // Called after each file of ImportPaths(); calls are serialised.
  using ProgressFn = std::function<void(const ImportProgress&)>;

  // Does not own `configs` (loaded) or `ingest`; both must outlive the
  // Importer. Starts options.threads threads.
  Importer(store::ConfigRegistry* configs, Ingestor* ingest,
           const ImporterOptions& options);
  // Finishes every queued file (their FileDone callbacks run), then joins
  // the threads.
  ~Importer();

  Importer(const Importer&) = delete;
  Importer& operator=(const Importer&) = delete;

  // Queues the bytes of one file; `name` is its name in reports (and
  // Provenance.file). Files named *.jsonl are read as qipu JSON Lines,
  // anything else as SGF. Blocks while max_files_in_flight files are
  // unfinished. Precondition: ValidateImportSettings(settings) is OK.
  // Thread-safe.
  void ImportBytes(std::string name, std::string data,
                   const ImportSettings& settings, FileDone done);
  // Like ImportBytes() for a file that a pool thread reads from `path`.
  void ImportFile(std::string path, const ImportSettings& settings,
                  FileDone done);

  // Imports every file ListImportFiles(paths) finds, in that order, and
  // waits for all of them. Thread-safe.
  ImportSummary ImportPaths(const std::vector<std::string>& paths,
                            const ImportSettings& settings,
                            const ProgressFn& progress = nullptr);

 private:
  struct FileJob;
  struct Task {
    std::shared_ptr<FileJob> job;
    // -1: read and parse the file; else the chunk to prepare.
    int chunk = -1;
  };

  void Enqueue(std::shared_ptr<FileJob> job);
  void Run();
  void Parse(const std::shared_ptr<FileJob>& job);
  void Prepare(const std::shared_ptr<FileJob>& job, int chunk);
  // Hands `job` to the sequencer once all its games are prepared; the
  // thread that finds the next file in order submits it (and any ready
  // successors) to the Ingestor.
  void Release(std::shared_ptr<FileJob> job);
  void Submit(const std::shared_ptr<FileJob>& job);
  // Drops one hold on `job`; the last one reports the file.
  void Finish(const std::shared_ptr<FileJob>& job);

  store::ConfigRegistry* const configs_;
  Ingestor* const ingest_;
  const ImporterOptions options_;

  absl::Mutex mu_;
  // Parse tasks at the back, chunk tasks at the front (a file's games
  // first: the sequencer waits for files in order).
  std::deque<Task> tasks_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  // Files queued and not yet reported.
  int in_flight_ ABSL_GUARDED_BY(mu_) = 0;
  // Sequence number of the next file queued.
  uint64_t next_queued_ ABSL_GUARDED_BY(mu_) = 0;

  absl::Mutex seq_mu_;
  // Prepared files waiting for their turn, by sequence number.
  std::map<uint64_t, std::shared_ptr<FileJob>> ready_ ABSL_GUARDED_BY(seq_mu_);
  uint64_t next_release_ ABSL_GUARDED_BY(seq_mu_) = 0;
  // A thread is submitting ready files.
  bool releasing_ ABSL_GUARDED_BY(seq_mu_) = false;

  std::vector<std::thread> threads_;
};

}  // namespace qipu::engine

#endif  // QIPU_ENGINE_IMPORTER_H_
