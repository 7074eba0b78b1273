// LightPolicy: the `random` policy as the GTP front-end plays it until
// the policy library's own (policy/, issue 18) is merged: the light
// policy of rules/playout.h -- uniformly random among legal moves that do
// not fill the player's own eye, pass when none is left -- under the
// game's full rules (superko, cycle rule), one Game::PlayLightFrom() on a
// copy of the game per move.
//
// TODO(issue 18): once policy::MakePolicy("random", seed) is in the tree,
// gtp/policy_factory.cc forwards "random" there and this file can go.
//
// Not thread-safe (one game thread), like every Policy.
#ifndef QIPU_GTP_LIGHT_POLICY_H_
#define QIPU_GTP_LIGHT_POLICY_H_

#include <cstdint>
#include <string>

#include "policy/policy.h"
#include "rules/playout.h"

namespace qipu::gtp {

class LightPolicy final : public policy::Policy {
 public:
  // A policy whose moves follow from `seed` and the positions it is
  // asked about.
  explicit LightPolicy(uint64_t seed) : rng_(seed) {}

  // "random".
  std::string spec() const override { return "random"; }
  // Nothing to reset.
  absl::Status NewGame(const rules::Game& game) override;
  // A legal move of game.to_play() that fills no own eye, or kPass.
  // Ignores the limits (one move costs microseconds).
  absl::StatusOr<policy::MoveChoice> Choose(
      const rules::Game& game, const policy::SearchLimits& limits) override;

 private:
  rules::Rng rng_;
};

}  // namespace qipu::gtp

#endif  // QIPU_GTP_LIGHT_POLICY_H_
