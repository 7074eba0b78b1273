// Player: one side of a match (match/match.h) -- a qipu policy (random,
// pattern, mcts), an external GTP engine (`gtp:<command line>`), or a
// person at the keyboard, whose moves and dead-stone marking come from
// callbacks the UI provides (play/).
//
// What a player is asked, in a match's order: NewGame() once before the
// first move (with the match's time control; an engine is told it),
// Choose() for each of its moves (with its clock: MoveRequest), Played()
// after every move of either side, and at two passes, when the match
// settles dead stones, DeadStones(): the stones it calls dead. A qipu
// policy answers with qipu's judgement (policy/stone_judge.h), an engine
// with its `final_status_list dead`, a person with the marking.
//
// A Player belongs to one game thread at a time (not thread-safe).
#ifndef QIPU_MATCH_PLAYER_H_
#define QIPU_MATCH_PLAYER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "gtp/clock.h"
#include "gtp/engine_policy.h"
#include "policy/policy.h"
#include "rules/game.h"

namespace qipu::match {

// The spec of a person at the keyboard.
inline constexpr char kPerson[] = "human";

enum class PlayerKind : uint8_t {
  // One of qipu's policies: answers at once, never fails on its own.
  kPolicy = 0,
  // An external GTP engine: may fail (crash, hang, garbage).
  kEngine,
  // A person: moves and marking through the UI's callbacks.
  kPerson,
};

// What the side to move gets with its turn. Plain value.
struct MoveRequest {
  // The match's time control.
  gtp::TimeSettings time;
  // The mover's time left, as GTP's time_left says it.
  gtp::TimeLeft left;
  // How long the move may take before the mover runs out of time;
  // InfiniteDuration() without a clock.
  absl::Duration time_to_flag = absl::InfiniteDuration();
  // The search time a computer gets (gtp::Clock::Allot());
  // InfiniteDuration() without a clock.
  absl::Duration allot = absl::InfiniteDuration();
};

// The dead stones a player calls, or std::nullopt when it has no view of
// its own (it then takes the other side's).
using DeadStoneView = std::optional<std::vector<rules::Point>>;

class Player {
 public:
  virtual ~Player() = default;

  // kPerson, a policy's canonical spec, or "gtp:<command line>".
  virtual std::string spec() const = 0;
  virtual PlayerKind kind() const = 0;

  // Before the first move of a match (handicap placed) under time control
  // `time`. Errors: the player cannot play (an engine that cannot start).
  virtual absl::Status NewGame(const rules::Game& game,
                               const gtp::TimeSettings& time) = 0;

  // The move of game.to_play(): a board point, kPass or kResign. Engines
  // may answer anything (the match checks it); errors are a failure.
  virtual absl::StatusOr<policy::MoveChoice> Choose(
      const rules::Game& game, const MoveRequest& request) = 0;

  // Every move played, by either side. Default: nothing.
  virtual void Played(const rules::Game& game, rules::Move move) {
    (void)game;
    (void)move;
  }

  // The stones this player calls dead in the final position of `game`
  // (two passes). Errors mean no view (the match takes the other side's).
  virtual absl::StatusOr<DeadStoneView> DeadStones(const rules::Game& game) = 0;
};

// A qipu policy or a gtp: engine (gtp::EnginePolicy) as a player: a
// policy searches for MoveRequest::allot; an engine is told the clock
// (EnginePolicy::SetGameClock(), SetTimeLeft()) and gets the time until it
// runs out as its deadline. Dead stones: qipu's judgement for a policy,
// `final_status_list dead` for an engine.
class PolicyPlayer final : public Player {
 public:
  // Owns `policy` (not null).
  explicit PolicyPlayer(std::unique_ptr<policy::Policy> policy);
  // Does not own `policy` (not null; outlives this).
  explicit PolicyPlayer(policy::Policy* policy);

  std::string spec() const override { return policy_->spec(); }
  PlayerKind kind() const override {
    return engine_ != nullptr ? PlayerKind::kEngine : PlayerKind::kPolicy;
  }
  absl::Status NewGame(const rules::Game& game,
                       const gtp::TimeSettings& time) override;
  absl::StatusOr<policy::MoveChoice> Choose(
      const rules::Game& game, const MoveRequest& request) override;
  void Played(const rules::Game& game, rules::Move move) override;
  absl::StatusOr<DeadStoneView> DeadStones(const rules::Game& game) override;

  policy::Policy* policy() const { return policy_; }
  // The policy as an external engine, or null.
  gtp::EnginePolicy* engine() const { return engine_; }

 private:
  std::unique_ptr<policy::Policy> owned_;
  policy::Policy* policy_;
  gtp::EnginePolicy* engine_;
};

// A person at the keyboard: the UI answers through callbacks. `choose`
// gives the move the person made (the UI calls the match when one was
// made, so the callback need not wait); `dead_stones` the stones the
// person marked dead (std::nullopt: no marking, the other side's view).
class PersonPlayer final : public Player {
 public:
  using ChooseFn = std::function<absl::StatusOr<policy::MoveChoice>(
      const rules::Game& game, const MoveRequest& request)>;
  using DeadStonesFn =
      std::function<absl::StatusOr<DeadStoneView>(const rules::Game& game)>;

  PersonPlayer(ChooseFn choose, DeadStonesFn dead_stones)
      : choose_(std::move(choose)), dead_stones_(std::move(dead_stones)) {}

  std::string spec() const override { return kPerson; }
  PlayerKind kind() const override { return PlayerKind::kPerson; }
  absl::Status NewGame(const rules::Game&, const gtp::TimeSettings&) override {
    return absl::OkStatus();
  }
  absl::StatusOr<policy::MoveChoice> Choose(
      const rules::Game& game, const MoveRequest& request) override {
    return choose_(game, request);
  }
  absl::StatusOr<DeadStoneView> DeadStones(const rules::Game& game) override {
    return dead_stones_(game);
  }

 private:
  ChooseFn choose_;
  DeadStonesFn dead_stones_;
};

// The player `spec` names: a policy spec or `gtp:<command line>`
// (gtp::MakeAnyPolicy(spec, seed, engine_log)). InvalidArgument for a spec
// neither knows, and for kPerson (a person needs the UI's callbacks).
absl::StatusOr<std::unique_ptr<Player>> MakePlayer(
    absl::string_view spec, uint64_t seed, const std::string& engine_log = "");

// True when a match between `black` and `white` settles dead stones at
// two passes (match/match.h DeadStoneRule::kSettle): when an engine or a
// person plays. Games between qipu's own policies count the board as it
// stands (their searches capture dead stones before they pass).
bool SettlesDeadStones(const Player& black, const Player& white);

}  // namespace qipu::match

#endif  // QIPU_MATCH_PLAYER_H_
