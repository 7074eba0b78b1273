#include "gtp/light_policy.h"

namespace qipu::gtp {

absl::Status LightPolicy::NewGame(const rules::Game& game) {
  (void)game;
  return absl::OkStatus();
}

absl::StatusOr<policy::MoveChoice> LightPolicy::Choose(
    const rules::Game& game, const policy::SearchLimits& limits) {
  (void)limits;
  if (game.over()) {
    return absl::FailedPreconditionError("the game is over");
  }
  rules::Game scratch = game;
  const int empty = scratch.board().num_empty();
  const int start = empty > 0 ? static_cast<int>(rng_.Below(empty)) : 0;
  policy::MoveChoice choice;
  choice.point = scratch.PlayLightFrom(start);
  return choice;
}

}  // namespace qipu::gtp
