#include "match/player.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "gtp/policy_factory.h"
#include "policy/stone_judge.h"
#include "rules/dead_stones.h"

namespace qipu::match {

PolicyPlayer::PolicyPlayer(std::unique_ptr<policy::Policy> policy)
    : owned_(std::move(policy)),
      policy_(owned_.get()),
      engine_(dynamic_cast<gtp::EnginePolicy*>(policy_)) {}

PolicyPlayer::PolicyPlayer(policy::Policy* policy)
    : policy_(policy), engine_(dynamic_cast<gtp::EnginePolicy*>(policy)) {}

absl::Status PolicyPlayer::NewGame(const rules::Game& game,
                                   const gtp::TimeSettings& time) {
  if (engine_ != nullptr) engine_->SetGameClock(time);
  return policy_->NewGame(game);
}

absl::StatusOr<policy::MoveChoice> PolicyPlayer::Choose(
    const rules::Game& game, const MoveRequest& request) {
  policy::SearchLimits limits;
  if (engine_ != nullptr) {
    // The engine keeps its own time from time_left; its deadline is the
    // time until it runs out (plus the policy's margin).
    limits.time = request.time_to_flag;
    engine_->SetTimeLeft(game.to_play(), request.left.seconds,
                         request.left.stones);
  } else {
    limits.time = request.allot;
  }
  return policy_->Choose(game, limits);
}

void PolicyPlayer::Played(const rules::Game& game, rules::Move move) {
  policy_->Played(game, move);
}

absl::StatusOr<DeadStoneView> PolicyPlayer::DeadStones(
    const rules::Game& game) {
  if (engine_ != nullptr) {
    absl::StatusOr<std::vector<rules::Point>> dead =
        engine_->FinalStatusList(game, "dead");
    if (!dead.ok()) return dead.status();
    return DeadStoneView(*std::move(dead));
  }
  return DeadStoneView(policy::JudgeDeadStones(game.board()).dead);
}

absl::StatusOr<std::unique_ptr<Player>> MakePlayer(
    absl::string_view spec, uint64_t seed, const std::string& engine_log) {
  if (spec == kPerson) {
    return absl::InvalidArgumentError(
        "player 'human': a person plays through the board's UI, not from a "
        "spec alone");
  }
  absl::StatusOr<std::unique_ptr<policy::Policy>> p =
      gtp::MakeAnyPolicy(spec, seed, engine_log);
  if (!p.ok()) return p.status();
  return std::unique_ptr<Player>(new PolicyPlayer(*std::move(p)));
}

bool SettlesDeadStones(const Player& black, const Player& white) {
  return black.kind() != PlayerKind::kPolicy ||
         white.kind() != PlayerKind::kPolicy;
}

}  // namespace qipu::match
