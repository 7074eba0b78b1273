// PatternPolicy (`pattern`): one move of a pattern playout (PatternMover:
// tactics around the last move, 3x3 pattern weights, the light policy as
// the fallback) under the game's full rules: a candidate that superko or
// the cycle rule forbids is replaced by the light policy's move. Passes
// only when no legal move outside the mover's own eyes is left.
#ifndef QIPU_POLICY_PATTERN_POLICY_H_
#define QIPU_POLICY_PATTERN_POLICY_H_

#include <cstdint>
#include <string>

#include "policy/pattern_mover.h"
#include "policy/playout.h"
#include "policy/policy.h"
#include "rules/game.h"
#include "rules/playout.h"

namespace qipu::policy {

class PatternPolicy final : public Policy {
 public:
  // Draws from a generator seeded with `seed`; weights from
  // PatternWeights::Default().
  explicit PatternPolicy(uint64_t seed) : rng_(seed) {}

  std::string spec() const override { return "pattern"; }
  absl::Status NewGame(const rules::Game& game) override;
  // Ignores `limits`.
  absl::StatusOr<MoveChoice> Choose(const rules::Game& game,
                                    const SearchLimits& limits) override;

 private:
  rules::Rng rng_;
  PatternMover mover_;
};

}  // namespace qipu::policy

#endif  // QIPU_POLICY_PATTERN_POLICY_H_
