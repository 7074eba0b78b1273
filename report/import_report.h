// Renderings of an import's summary (engine::ImportSummary): the one
// JSON object `qipu import --json` prints, and the text for people.
#ifndef QIPU_REPORT_IMPORT_REPORT_H_
#define QIPU_REPORT_IMPORT_REPORT_H_

#include <cstddef>
#include <string>

#include "engine/importer.h"
#include "nlohmann/json.hpp"

namespace qipu::report {

// {files, games, imported, duplicates, rejected, skipped, noted, cut,
// errors [{file, game, byte_offset, move, reason}], kept [rows like
// errors': each noted or cut game stored, its first note], skipped_games
// [rows like errors'], normalised {kind: count}, seconds, games_per_sec}.
// Pure; thread-safe.
nlohmann::ordered_json ImportJson(const engine::ImportSummary& s);

// Totals ("skipped N" only when games were skipped, "stored with a note N
// cut N" only when some were), the normalisations by count, and the first
// `max_errors` rows of skipped games, of games kept against their rules
// and of errors (then how many more there are). Pure; thread-safe.
std::string ImportText(const engine::ImportSummary& s, size_t max_errors);

// The progress line's suffix for `p`: "files  N games  N new ...".
std::string ImportProgressSuffix(const engine::ImportProgress& p,
                                 double seconds);

}  // namespace qipu::report

#endif  // QIPU_REPORT_IMPORT_REPORT_H_
