// GameReplayJson: a stored game replayed move by move with the rules core
// (rules::Game), for the explorer's game viewer -- what the stored record
// alone does not say: the stones each move captured, the prisoners so far,
// where the rules ended the game, and the area count of the final position
// point by point. It is the game's own JSON (engine::GameJson, the one
// shape of a stored game) with the replay's extras added on top.
//
// Pure function of the game; thread-safe.
#ifndef QIPU_WEB_GAME_REPLAY_H_
#define QIPU_WEB_GAME_REPLAY_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"
#include "qipu/v1/game.pb.h"

namespace qipu::web {

// engine::GameJson(game, id) plus
//  "played" (moves the rules replayed), "legal", "illegal_move" (0 or the
//  1-based number), "ended_at" (0 or the move the rules ended the game at),
//  "replayed": [{"captured": [vertex], "black_prisoners",
//               "white_prisoners" (stones each colour captured so far)}]
//             (one per replayed move, in order: the first `played` of
//             "moves"),
//  "area": the replay's count -- {"black", "white", "dame"} as in the
//          game's own "area" (the same count) plus
//          "black_stones", "white_stones", "black_territory",
//          "white_territory",
//  "territory": {"black": [vertex], "white": [vertex], "dame": [vertex]},
//  "area_result" (SGF RE of the count).
// InvalidArgument (DataLoss at the caller's choice) for a record that does
// not decode or cannot be set up.
absl::StatusOr<nlohmann::json> GameReplayJson(const qipu::v1::Game& game,
                                              absl::string_view id);

}  // namespace qipu::web

#endif  // QIPU_WEB_GAME_REPLAY_H_
