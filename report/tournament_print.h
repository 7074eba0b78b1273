// Printable pages of the director's desk (`qipu tournament sheet`,
// `standings --html`, `show --history`): the round sheet that goes on the
// wall and the tables (each table's players with their other-script name,
// rank and points, a box for the result; the bye, those sitting out, those
// cut), the standings as a page, and the history of every change (who,
// when, old, new). Plain text aligned in terminal columns -- a Chinese
// character takes two, so names as registered in either script line up --
// and self-contained HTML (UTF-8, print styles, no scripts). Pure
// functions; thread-safe.
#ifndef QIPU_REPORT_TOURNAMENT_PRINT_H_
#define QIPU_REPORT_TOURNAMENT_PRINT_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"
#include "qipu/v1/tournament.pb.h"
#include "tournament/standings.h"

namespace qipu::report {

// Terminal columns of UTF-8 text: 2 for East Asian wide and fullwidth
// characters (CJK ideographs and punctuation, kana, hangul, fullwidth
// forms), 0 for combining marks, 1 otherwise (a malformed byte counts 1).
int DisplayWidth(absl::string_view s);

// `s` and spaces up to `width` columns (left-aligned; text wider than
// `width` is kept whole).
std::string PadRight(absl::string_view s, int width);

// A name as registered with the other-script name beside it: "Li Wei 李偉"
// (or just the name when there is none).
std::string FullName(const qipu::v1::TournamentPlayer& p);

// FullName of entrant `index` (a team's name in a team event); "" out of
// range.
std::string EntrantFullName(const qipu::v1::Tournament& t, int index);

// The sheet of round `round` (1-based, paired): for each table, Black and
// White with rank and points before the round, and an empty result box
// (or the result once in); then the bye, those sitting out and those cut.
// Team events list each match's boards under it. InvalidArgument for a
// round not paired.
absl::StatusOr<std::string> RoundSheetText(const qipu::v1::Tournament& t,
                                           int round);
absl::StatusOr<std::string> RoundSheetHtml(const qipu::v1::Tournament& t,
                                           int round);

// The standings as a printable page: rank, name as registered (both
// scripts), the points and tie-breaks of `s.order`, games won-drawn-lost.
std::string StandingsHtml(const qipu::v1::Tournament& t,
                          const tournament::Standings& s);

// The history (Tournament.history), oldest first: one line per change,
// "2026-05-01 09:30:12 UTC  alice (local)  result  round 1 table 2: B+ ->
// W+  (forced) <detail>".
std::string HistoryText(const qipu::v1::Tournament& t);
// [{"when": ISO 8601 UTC, "unix_ms", "who", "action", "round", "table",
//   "board", "old", "new", "forced", "detail"}].
nlohmann::json HistoryJson(const qipu::v1::Tournament& t);

// Escapes text for HTML element content and attribute values.
std::string HtmlEscape(absl::string_view s);

}  // namespace qipu::report

#endif  // QIPU_REPORT_TOURNAMENT_PRINT_H_
