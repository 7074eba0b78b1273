// Renderings of a pattern query's answer (qipu.v1.PatternResponse): the
// JSON object of `qipu query pattern --json` -- the contract the web
// explorer reads -- and a text summary for people. Pure functions;
// thread-safe.
#ifndef QIPU_REPORT_PATTERN_REPORT_H_
#define QIPU_REPORT_PATTERN_REPORT_H_

#include <string>

#include "nlohmann/json.hpp"
#include "qipu/v1/query.pb.h"

namespace qipu::report {

// {"games", "black_wins", "white_wins", "draws", "void", "black_win_rate"
//  (the matched games, OutcomesJson), "pattern", "placement", "anchor",
//  "colour_swap", "games_scanned", "games_indexed",
//  "continuations": [{"move", "colour": "B"|"W", + the outcome fields}],
//  "matches": [{"id", "move_number", "next", "colour", "result"}],
//  "next_page_token"}. "next" is "" and "colour" "" when the game ended
// where the pattern appeared.
nlohmann::json PatternJson(const qipu::v1::PatternResponse& r);

// The pattern drawn as rows, the matched games and rates, the
// continuations table and this page's games.
std::string PatternText(const qipu::v1::PatternResponse& r);

}  // namespace qipu::report

#endif  // QIPU_REPORT_PATTERN_REPORT_H_
