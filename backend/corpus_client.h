// Corpora in and out of a Target: Import() of SGF files and folders (and
// qipu JSONL exports), through an importer on a database opened here or a
// coordinator's CorpusService.Import stream; Export() of stored games,
// through an exporter here or the CorpusService.Export stream.
#ifndef QIPU_BACKEND_CORPUS_CLIENT_H_
#define QIPU_BACKEND_CORPUS_CLIENT_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "backend/target.h"
#include "engine/importer.h"
#include "qipu/v1/query.pb.h"
#include "store/game_id.h"

namespace qipu::backend {

// How to import. Plain value.
struct ImportOptions {
  // Source name and index depth recorded with each game.
  engine::ImportSettings settings;
  // Parse and replay threads (database target).
  int threads = 2;
  // Larger files are refused with an error row.
  size_t max_file_bytes = 31u << 20;
  // fsync each commit (database target; benchmarks turn it off).
  bool sync = true;
  // Deadline of the whole import (server target).
  absl::Duration timeout = absl::Hours(1);
};

// Imports `paths` (files and folders; *.sgf below folders) into the
// target, creating a database that does not exist yet. `progress` (may be
// empty) is called after each file, never concurrently. Games that cannot
// be imported are error rows of the summary, not errors; an error is
// returned when the import cannot run (bad settings, a database that
// cannot be opened, a server that cannot be reached or broke the stream --
// files already answered are imported then, and running again is safe).
absl::StatusOr<engine::ImportSummary> Import(
    const Target& target, const std::vector<std::string>& paths,
    const ImportOptions& options,
    const engine::Importer::ProgressFn& progress = {});

// Replaces the target's alias groups (issue 32) with those of an alias
// file's `text` (`file` names it in errors: InvalidArgument "FILE:LINE:
// ..."), creating a database that does not exist yet; returns the groups
// and names stored.
absl::StatusOr<qipu::v1::SetAliasesResponse> SetAliases(const Target& target,
                                                        const std::string& text,
                                                        const std::string& file,
                                                        absl::Duration timeout);

// Receives exported games in key order; a non-OK status stops the export
// and is returned by Export().
using GameSink =
    std::function<absl::Status(const store::GameId&, const qipu::v1::Game&)>;

// Streams the games `req` selects to `sink`, in key order. On a failure
// part-way the games before it were sunk (the sink counts them).
// `timeout` bounds the whole export from a server. A server's export is
// paged: a call that stops at the server's per-call cap of games or time
// (RESOURCE_EXHAUSTED with a resume point) is followed by the next, from
// where it stopped; a limit above the server's cap is counted here.
absl::Status Export(const Target& target, const qipu::v1::ExportRequest& req,
                    const GameSink& sink,
                    absl::Duration timeout = absl::Hours(1));

}  // namespace qipu::backend

#endif  // QIPU_BACKEND_CORPUS_CLIENT_H_
