// GameReplayJson: a stored game replayed move by move with the rules core
// (rules::Game), for the explorer's game viewer -- what the stored record
// alone does not say: the stones each move captured, the prisoners so far,
// where the rules ended the game, the cycles with the moves that made
// them, and the area count of the final position point by point.
//
// Pure function of the game; thread-safe.
#ifndef QIPU_WEB_GAME_REPLAY_H_
#define QIPU_WEB_GAME_REPLAY_H_

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "qipu/v1/game.pb.h"

namespace qipu::web {

// {"width", "height", "rules": {report::RulesJson}, "handicap",
//  "setup": [{"before_move", "black": [vertex], "white": [...],
//             "empty": [...]}],
//  "moves": [{"number" (1-based), "colour" ("B"/"W"), "move" (vertex or
//             "pass"), "captured": [vertex], "black_prisoners",
//             "white_prisoners" (stones each colour captured so far)}],
//  "played", "legal", "illegal_move" (0 or the 1-based number),
//  "ended_at", "ko_captures",
//  "cycles": [{report::CycleJson plus "last_move": first_move + period - 1}],
//  "area": {"black", "white", "dame", "black_stones", "white_stones",
//           "black_territory", "white_territory"},
//  "territory": {"black": [vertex], "white": [vertex], "dame": [vertex]},
//  "area_result" (SGF RE of the count), "result" (the stored RE)}.
// InvalidArgument (DataLoss at the caller's choice) for a record that does
// not decode or cannot be set up.
absl::StatusOr<nlohmann::json> GameReplayJson(const qipu::v1::Game& game);

}  // namespace qipu::web

#endif  // QIPU_WEB_GAME_REPLAY_H_
