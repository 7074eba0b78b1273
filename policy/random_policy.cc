#include "policy/random_policy.h"

namespace qipu::policy {

rules::Point LightFullRulesMoveFrom(const rules::Game& game, int start) {
  // rules::FullMove()'s loop: the board's scan finds the candidates in
  // policy order, Game::CheckBoardLegal() adds the repetition rules, and a
  // rejected candidate resumes the scan after it.
  const rules::Board& board = game.board();
  const rules::Color c = game.to_play();
  const bool multi_stone_suicide = game.rules().multi_stone_suicide;
  const int n = board.num_empty();
  int i = start;
  int left = n;
  while (left > 0) {
    const int j = board.ScanLight(c, i, left, multi_stone_suicide);
    if (j < 0) break;
    const rules::Point p = board.empty_point(j);
    if (game.CheckBoardLegal(c, p).legal()) return p;
    left -= (j >= i ? j - i : j + n - i) + 1;
    i = j + 1 == n ? 0 : j + 1;
  }
  return rules::kPass;
}

rules::Point LightFullRulesMove(const rules::Game& game, rules::Rng& rng) {
  const int n = game.board().num_empty();
  if (n == 0) return rules::kPass;
  return LightFullRulesMoveFrom(
      game, static_cast<int>(rng.Below(static_cast<uint32_t>(n))));
}

absl::Status RandomPolicy::NewGame(const rules::Game& game) {
  (void)game;
  return absl::OkStatus();
}

absl::StatusOr<MoveChoice> RandomPolicy::Choose(const rules::Game& game,
                                                const SearchLimits& limits) {
  (void)limits;
  if (game.over()) {
    return absl::FailedPreconditionError("random policy: the game is over");
  }
  MoveChoice choice;
  choice.point = LightFullRulesMove(game, rng_);
  return choice;
}

}  // namespace qipu::policy
