// Renderings of query answers (qipu/v1/query.proto): one JSON object per
// answer -- what `qipu query --json` prints, and the fields any other
// front end of the queries must keep -- and text for people (aligned
// tables and text histograms). Pure functions of the response;
// thread-safe.
#ifndef QIPU_REPORT_QUERY_REPORT_H_
#define QIPU_REPORT_QUERY_REPORT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "qipu/v1/query.pb.h"

namespace qipu::report {

// Black's winning rate: black wins / (black wins + white wins + draws);
// void games do not count. 0 when there is no decided game.
double BlackWinRate(const qipu::v1::Outcomes& o);

// {"games", "black_wins", "white_wins", "draws", "void", "black_win_rate"}:
// the outcome fields every query answer's JSON shares.
nlohmann::json OutcomesJson(const qipu::v1::Outcomes& o);

// {"games", "black_wins", "white_wins", "draws", "void", "position_key",
//  "to_play" ("B", "W", or "" from a server that does not say),
//  "continuations": [{"move", "games", "black_wins", "white_wins", "draws",
//  "void", "black_win_rate", "examples": [ids]}]}.
nlohmann::json OpeningsJson(const qipu::v1::OpeningsResponse& r);
// The text: the request's setup stones and moves (as asked), the board
// size (the filter's, default 19x19) and the side to move head the table.
std::string OpeningsText(const qipu::v1::OpeningsResponse& r,
                         const qipu::v1::OpeningsRequest& req);

// {"games", "games_with_ko", "share_with_ko", "ko_captures", "mean", "p50",
//  "p90", "p99", "max", "histogram": [counts], "by_size" / "by_rules" /
//  "by_length": [{"label", ... the same fields}]}.
nlohmann::json KoJson(const qipu::v1::KoResponse& r);
std::string KoText(const qipu::v1::KoResponse& r);

// {"games", "rows": [{"class", "outcome", "cycles", "games", "per_10k",
//  "examples", "results": {outcomes}}], "results_with_cycle": {outcomes}}.
nlohmann::json CyclesJson(const qipu::v1::CyclesResponse& r);
// Every class x outcome, zeros included.
std::string CyclesText(const qipu::v1::CyclesResponse& r);

// {"games", "black_wins", "white_wins", "draws", "void", "by_reason": {},
//  "black_margin" / "white_margin" / "length": {"bucket", "counts"},
//  "mean_length"}.
nlohmann::json ResultsJson(const qipu::v1::ResultsResponse& r);
std::string ResultsText(const qipu::v1::ResultsResponse& r);

// The game's JSON (engine::GameJson: the one shape of a stored game) plus
// "sgf", the game as SGF. DataLoss when the stored game does not decode.
absl::StatusOr<nlohmann::json> GameJson(const qipu::v1::GetGameResponse& r);
// A summary: size, rules, result, moves in GTP, cycles, provenance.
std::string GameText(const qipu::v1::GetGameResponse& r);

// A page of games: {"total", "next_page_token", "games": [{"id", "date",
// "date_ymd", "black": {"name", "key", "rank"}, "white", "event", "result",
// "moves", "record", "size"}]}; the text is one line a game.
nlohmann::json GamesJson(const qipu::v1::GamesResponse& r);
std::string GamesText(const qipu::v1::GamesResponse& r);

// Players: {"players": [{"key", "display", "names", "games", "as_black",
// "as_white" (outcomes), "first", "last" (YYYYMMDD, 0 unknown), "rank",
// "years": [{"year", "games", "wins", "losses"}]}]}; the text a table.
nlohmann::json PlayersJson(const qipu::v1::PlayersResponse& r);
std::string PlayersText(const qipu::v1::PlayersResponse& r);

}  // namespace qipu::report

#endif  // QIPU_REPORT_QUERY_REPORT_H_
