// Renderings of an import's summary (coordinator::ImportSummary): the one
// JSON object `qipu import --json` prints, and the text for people.
#ifndef QIPU_REPORT_IMPORT_REPORT_H_
#define QIPU_REPORT_IMPORT_REPORT_H_

#include <cstddef>
#include <string>

#include "coordinator/importer.h"
#include "nlohmann/json.hpp"

namespace qipu::report {

// {files, games, imported, duplicates, rejected, errors [{file, game,
// byte_offset, move, reason}], normalised {kind: count}, seconds,
// games_per_sec}. Pure; thread-safe.
nlohmann::ordered_json ImportJson(const coordinator::ImportSummary& s);

// Totals, the normalisations by count, and the first `max_errors` error
// rows (then how many more there are). Pure; thread-safe.
std::string ImportText(const coordinator::ImportSummary& s, size_t max_errors);

// The progress line's suffix for `p`: "files  N games  N new ...".
std::string ImportProgressSuffix(const coordinator::ImportProgress& p,
                                 double seconds);

}  // namespace qipu::report

#endif  // QIPU_REPORT_IMPORT_REPORT_H_
