// RandomPolicy (`random`): qipu's light policy behind the Policy interface
// -- uniformly random among the legal moves that do not fill the mover's
// own eye, under the game's full rules (superko, cycle rule), passing when
// none is left. It draws exactly as rules::FullMove() does, so a
// RandomPolicy seeded with s playing both sides of a game plays the game
// rules::FullPlayout() plays with Rng(s) (self-play's games).
#ifndef QIPU_POLICY_RANDOM_POLICY_H_
#define QIPU_POLICY_RANDOM_POLICY_H_

#include <cstdint>
#include <string>

#include "policy/policy.h"
#include "rules/game.h"
#include "rules/playout.h"

namespace qipu::policy {

// The light policy's move for the side to move of `game` under its full
// rules, candidates scanned from a start drawn from `rng` (rules::FullMove()
// without recording prevented cycles: `game` is not changed). Returns a
// legal board point or kPass. Precondition: !game.over().
rules::Point LightFullRulesMove(const rules::Game& game, rules::Rng& rng);

// As LightFullRulesMove() with the scan starting at index `start` of the
// board's empty points (0 <= start < num_empty(), or 0 on a full board).
rules::Point LightFullRulesMoveFrom(const rules::Game& game, int start);

class RandomPolicy final : public Policy {
 public:
  // Draws from a generator seeded with `seed`: the same seed and the same
  // calls give the same moves.
  explicit RandomPolicy(uint64_t seed) : rng_(seed) {}

  std::string spec() const override { return "random"; }
  absl::Status NewGame(const rules::Game& game) override;
  // Ignores `limits` (one draw costs microseconds).
  absl::StatusOr<MoveChoice> Choose(const rules::Game& game,
                                    const SearchLimits& limits) override;

 private:
  rules::Rng rng_;
};

}  // namespace qipu::policy

#endif  // QIPU_POLICY_RANDOM_POLICY_H_
