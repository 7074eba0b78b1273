// The report of an engine tournament (`qipu arena run|show`): the
// tournament with its rounds and pairings, the standings with their
// tie-break columns, the crosstable, the games played (with the ids their
// records have in the games column family) and BayesElo-style ratings
// with 95% intervals. Pure functions; thread-safe.
#ifndef QIPU_REPORT_ARENA_REPORT_H_
#define QIPU_REPORT_ARENA_REPORT_H_

#include <string>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "qipu/v1/tournament.pb.h"

namespace qipu::report {

// {"tournament": TournamentSummaryJson, "arena": {size, rules, komi,
//  handicap, clock, illegal_moves, concurrency, entrants: [{name, spec}]},
//  "finished": bool, "standings": StandingsJson, "crosstable":
//  CrosstableJson, "games": [{round, table, board, black, white, result,
//  game_id}], "ratings": RatingsJson or null before any game is decided}.
// Errors of tournament::GetStandings()/GetCrosstable()/ComputeRatings().
absl::StatusOr<nlohmann::json> ArenaReportJson(const qipu::v1::Tournament& t);

// The same for people: settings, standings, crosstable, ratings.
absl::StatusOr<std::string> ArenaReportText(const qipu::v1::Tournament& t);

}  // namespace qipu::report

#endif  // QIPU_REPORT_ARENA_REPORT_H_
