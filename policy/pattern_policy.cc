#include "policy/pattern_policy.h"

#include "policy/random_policy.h"

namespace qipu::policy {

absl::Status PatternPolicy::NewGame(const rules::Game& game) {
  (void)game;
  return absl::OkStatus();
}

absl::StatusOr<MoveChoice> PatternPolicy::Choose(const rules::Game& game,
                                                 const SearchLimits& limits) {
  (void)limits;
  if (game.over()) {
    return absl::FailedPreconditionError("pattern policy: the game is over");
  }
  MoveChoice choice;
  const rules::Color c = game.to_play();
  const rules::Point p = mover_.Choose(game.board(), c, LastMovePoint(game),
                                       rng_, game.rules().multi_stone_suicide);
  // kPass: the mover's last step, the light scan, found nothing the board
  // allows; the full rules allow no more.
  if (p == rules::kPass || game.CheckBoardLegal(c, p).legal()) {
    choice.point = p;
  } else {
    choice.point = LightFullRulesMove(game, rng_);
  }
  return choice;
}

}  // namespace qipu::policy
