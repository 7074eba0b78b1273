// Renderings of tournaments (qipu/v1/tournament.proto and the standings
// and crosstables of tournament/standings.h): the JSON objects `qipu
// tournament --json` prints, text tables for people, the standings as CSV
// and the event as OpenGotha-style XML for other pairing programs. Pure
// functions; thread-safe.
#ifndef QIPU_REPORT_TOURNAMENT_REPORT_H_
#define QIPU_REPORT_TOURNAMENT_REPORT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"
#include "qipu/v1/tournament.pb.h"
#include "qipu/v1/tournament_service.pb.h"
#include "tournament/ratings.h"
#include "tournament/standings.h"

namespace qipu::report {

// The name of entrant `index` of `t` (a team's in team events); "" when
// out of range (a bye).
std::string EntrantName(const qipu::v1::Tournament& t, int index);

// {"tournament", "name", "system", "rounds", "rounds_paired", "players":
//  [{name, rating, rank, club, team, warnings, withdrawn_at_round}],
//  "teams": [names], "round": [pairings as PairingJson's]}.
nlohmann::json TournamentSummaryJson(const qipu::v1::Tournament& t);
std::string TournamentSummaryText(const qipu::v1::Tournament& t);

// {"round": n, "paired": bool, "repeat_free": bool, "pairings": [{"table",
//  "black", "white"}], "bye": NAME|null, "byes": [NAMES]}. Team events:
//  each pairing also has "black_board_points", "white_board_points" and
//  "boards" (team_report.h's BoardsJson); a team challenge's pairings name
//  "black_team" and "white_team".
nlohmann::json PairingJson(const qipu::v1::PairResponse& r);
std::string PairingText(const qipu::v1::PairResponse& r);

// {"order": [criteria], "rows": [{"rank", "name", "points", "sos",
//  "sodos", "warnings", "lots", "games", "wins", "draws", "losses", "byes",
//  "withdrawn", and for teams "match_points", "board_points",
//  "board_scores", "board_1", "board_2" ...; for a team challenge
//  "players_left"}]}. The text and CSV of team events are team_report.h's.
nlohmann::json StandingsJson(const qipu::v1::Tournament& t,
                             const tournament::Standings& s);
std::string StandingsText(const qipu::v1::Tournament& t,
                          const tournament::Standings& s);
// The standings as CSV (a header line, then one line per row; fields
// with commas or quotes quoted as RFC 4180 says).
std::string StandingsCsv(const qipu::v1::Tournament& t,
                         const tournament::Standings& s);

// {"rounds": n, "teams": bool, "rows": [{"rank", "name", "points", "cells":
//  [{"round", "opponent_rank", "colour", "result"}]}]}; team events add
//  "board_points" to each row and "board_points", "opponent_board_points"
//  to each cell.
nlohmann::json CrosstableJson(const tournament::Crosstable& x);
// One line per entrant: "rank name points  3+/b  5-/w ..." (OpenGotha's
// wall list notation: opponent's rank, result, colour); team events:
// "rank team match-points board-points  3+5:1 ..." (board points for and
// against).
std::string CrosstableText(const tournament::Crosstable& x);

// The games of `t` with a decided result played over the board (wins and
// draws; forfeits, byes, void and both-lose games say nothing about
// strength), for tournament::ComputeRatings(), and the players' names.
std::vector<tournament::RatedGame> RatedGames(const qipu::v1::Tournament& t);
std::vector<std::string> PlayerNames(const qipu::v1::Tournament& t);

// {"advantage", "advantage_low", "advantage_high", "draw_elo", "players":
//  [{"name", "rating", "low", "high", "games", "wins", "draws", "losses",
//  "score"}] (by rating, best first)}.
nlohmann::json RatingsJson(const tournament::Ratings& r);
std::string RatingsText(const tournament::Ratings& r);

// The players and games in OpenGotha's XML layout (Tournament, Players,
// Games with RESULT_* codes), which OpenGotha and other pairing programs
// read. Team events list every board game, each at its own table.
std::string OpenGothaXml(const qipu::v1::Tournament& t);

}  // namespace qipu::report

#endif  // QIPU_REPORT_TOURNAMENT_REPORT_H_
