// Renderings of team events (art. 27.2) and of the team challenge
// (擂台賽), for `qipu tournament`: the boards of a team match in JSON and
// text, the standings columns a team event ranks by (match points, board
// points, board 1's points, board 2's ...) in JSON, text and CSV, and the
// team challenge's standings as text. tournament_report.h calls these for
// team tournaments; pure functions, thread-safe.
#ifndef QIPU_REPORT_TEAM_REPORT_H_
#define QIPU_REPORT_TEAM_REPORT_H_

#include <string>
#include <utility>

#include "nlohmann/json.hpp"
#include "qipu/v1/tournament.pb.h"
#include "tournament/standings.h"

namespace qipu::report {

// The name of player `index` of `t`; "" when out of range (no player).
std::string PlayerName(const qipu::v1::Tournament& t, int index);

// The board points of a team match so far: {team in `black`, team in
// `white`} (2 a board won, 1 drawn; boards without a result count 0).
std::pair<int, int> MatchBoardPoints(const qipu::v1::Pairing& p);

// The boards of a team match: [{"board", "black", "white", "black_team",
// "white_team", "result"}], board 1 first; "result" is "?" while unknown.
nlohmann::json BoardsJson(const qipu::v1::Tournament& t,
                          const qipu::v1::Pairing& p);

// One indented line per board of a team match:
// "             board  1  A1 (B) - B1 (W)  B+".
std::string BoardsText(const qipu::v1::Tournament& t,
                       const qipu::v1::Pairing& p);

// Adds a team event's ranking columns to a standings row object:
// "match_points", "board_points", "board_scores" (board 1 first) and
// "board_1", "board_2", ... (the names of Standings::order).
void AddTeamColumns(const tournament::StandingRow& r, nlohmann::json* row);

// The standings of a team event for people: rank, team, match points,
// board points, each board's points, matches won-drawn-lost.
std::string TeamStandingsText(const qipu::v1::Tournament& t,
                              const tournament::Standings& s);

// The standings of a team event as CSV: rank, name, match_points,
// board_points, board_1 .. board_N, matches, wins, draws, losses, byes,
// warnings, withdrawn (RFC 4180 quoting).
std::string TeamStandingsCsv(const qipu::v1::Tournament& t,
                             const tournament::Standings& s);

// The standings of a team challenge for people: rank, team, games won,
// players still to play.
std::string ChallengeStandingsText(const qipu::v1::Tournament& t,
                                   const tournament::Standings& s);

// A crosstable cell of a team event as text: opponent's rank, result and
// board points, "2+5:1"; a bye "bye 6:0" (won on every board).
std::string TeamCrossCellText(const tournament::CrossCell& c);

// RFC 4180 quoting of one CSV field, when it needs it.
std::string CsvField(const std::string& s);

}  // namespace qipu::report

#endif  // QIPU_REPORT_TEAM_REPORT_H_
