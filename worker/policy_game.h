// PolicyGame: one self-play game played through two policy::Policy
// objects (Black's and White's), for jobs where either colour plays
// something other than the light policy; random-vs-random games keep the
// fast path, rules::PlaySelfPlay (worker/game_runner.h).
//
// The rules core (rules::Game) judges every move and ends the game on two
// passes (then counts), a balanced cycle under the cycle rule, or the move
// cap; under CycleRule::kReplay a game voided by a cycle is played again
// with the next attempt's seed, as PlaySelfPlay does. Policies end it by
// resigning (END_REASON_RESIGN, the other side wins), by an illegal move
// (END_REASON_ILLEGAL, a forfeit: the other side wins; the move is not
// played and is kept in the result), or by failing -- an error from
// NewGame() or Choose(), e.g. an external engine that crashed or hung --
// (END_REASON_OTHER, no winner, the error text kept): a game record that
// says what happened, never a lost game or a crashed worker.
//
// Determinism: each colour's policy is seeded with PolicySeed() of the
// attempt's seed (the job seed and game index, rules::GameSeedAttempt), so
// a seeded policy (random, pattern, mcts without a time limit) plays the
// same game for the same job and index whatever the thread. As
// policy::Policy has no way to be re-seeded, these are made again for each
// attempt (cheap: their buffers are made on first use); external engines
// (worker/policy_maker.h IsExternalPolicy) are made once and reset with
// NewGame().
//
// Not thread-safe: one PolicyGame per game thread.
#ifndef QIPU_WORKER_POLICY_GAME_H_
#define QIPU_WORKER_POLICY_GAME_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "policy/policy.h"
#include "proto/job_policies.h"
#include "proto/search_visits.h"
#include "qipu/v1/game.pb.h"
#include "rules/game.h"
#include "rules/selfplay.h"

namespace qipu::worker {

// The seed of colour `c`'s policy in the attempt played with `game_seed`.
// Part of what makes a game reproducible (not a stored format).
uint64_t PolicySeed(uint64_t game_seed, rules::Color c);

// How a policy game came about, beyond the rules::Game it leaves.
struct PolicyGameOutcome {
  // Attempt, its seed and the voided attempts' cycles (as PlaySelfPlay).
  rules::SelfPlayOutcome selfplay;
  // The result when a policy ended the game (reason kResign, kIllegal or
  // kOther), or the match's count when a `gtp:` engine played and the dead
  // stones were settled (kScore, counting kJudged / kAgreed / kPlayedOut);
  // reason kNotOver when the rules ended it (Game::result()).
  rules::GameResult policy_result;
  // The stones that count took off (board order; empty otherwise).
  std::vector<rules::Point> dead_stones;
  // How a counted game was counted (kAsPlayed between qipu's policies).
  rules::Counting counting = rules::Counting::kUnknown;
  // Why, in words, when a policy ended the game.
  std::string detail;
  // The forfeit's illegal move (kIllegal): its packed point
  // (y * width + x + 1), 0 when it was not a point of the board.
  uint32_t illegal_point = 0;
  // Root visits of the searches that chose the moves (final attempt).
  std::vector<wire::MoveSearch> searches;
};

class PolicyGame {
 public:
  // Makes the policies of `policies` (canonical specs) through
  // MakeWorkerPolicy(). InvalidArgument or Unimplemented (a gtp: spec in a
  // worker without the GTP factory) naming the colour.
  static absl::StatusOr<std::unique_ptr<PolicyGame>> Create(
      const wire::ColourPolicies& policies);

  // Plays game `spec.index` of its job into *game (replaced unless it has
  // the spec's size and rules). A policy's failure is an outcome, not an
  // error; errors are for a bad spec (size, komi, handicap).
  absl::Status Play(const rules::SelfPlaySpec& spec, rules::Game* game,
                    PolicyGameOutcome* outcome);

  const wire::ColourPolicies& policies() const { return policies_; }

 private:
  explicit PolicyGame(wire::ColourPolicies policies);

  // Plays one attempt from the reset game; policies already made.
  // One attempt of `spec`'s game, a match (match/play_match.h) between
  // the two policies.
  void PlayAttempt(const rules::SelfPlaySpec& spec, rules::Game* game,
                   PolicyGameOutcome* outcome);
  // Ends the attempt: colour `c`'s policy failed with `s`.
  void Failed(rules::Color c, const absl::Status& s,
              PolicyGameOutcome* outcome) const;
  policy::Policy* PolicyOf(rules::Color c) {
    return c == rules::Color::kBlack ? black_.get() : white_.get();
  }
  const std::string& SpecOf(rules::Color c) const {
    return c == rules::Color::kBlack ? policies_.black : policies_.white;
  }

  const wire::ColourPolicies policies_;
  // Never null after Create(); remade per attempt unless external.
  std::unique_ptr<policy::Policy> black_;
  std::unique_ptr<policy::Policy> white_;
};

// The upload of a finished policy game: wire::SelfPlayToProto(), then the
// policies (wire::SetGamePolicies), the policy's result with its detail
// and illegal point, and the packed search visits.
void PolicyGameToProto(const rules::Game& game, const rules::SelfPlaySpec& spec,
                       const PolicyGameOutcome& outcome,
                       const wire::ColourPolicies& policies, uint64_t job,
                       const std::string& worker, qipu::v1::Game* out);

}  // namespace qipu::worker

#endif  // QIPU_WORKER_POLICY_GAME_H_
