// Policy: what chooses a move in a game qipu plays -- the worker's game
// runner, `qipu gtp`, `qipu bench strength` and the arena all play through
// this interface. Implementations: `random` (the light policy: uniformly
// random among legal moves that do not fill an own eye), `pattern` (light
// playouts weighted by 3x3 patterns and simple tactics), `mcts` (UCT with
// RAVE over random or pattern playouts; policy/mcts.h) and `gtp:<command>`
// (an external GTP engine run as a child process; gtp/engine_policy.h).
//
// A policy is named by a spec string, stored with each game and used by
// every query filter: "random", "pattern", "mcts:playouts=800",
// "mcts:playouts=800,playout=pattern,threads=2", "gtp:gnugo --mode gtp".
// Specs are canonicalised (keys sorted, defaults dropped) so that one
// policy has one name.
//
// A Policy instance belongs to one game thread at a time (not
// thread-safe); a policy may use threads of its own inside Choose().
#ifndef QIPU_POLICY_POLICY_H_
#define QIPU_POLICY_POLICY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "rules/game.h"
#include "rules/types.h"

namespace qipu::policy {

// Visits of one root move of a search: the compact form of a policy
// target (the moves searched, not one number per point). `point` is a
// board point or rules::kPass.
struct MoveVisits {
  rules::Point point = rules::kPass;
  uint32_t visits = 0;

  friend bool operator==(const MoveVisits&, const MoveVisits&) = default;
};

// A policy's decision for the side to move.
struct MoveChoice {
  // A board point, rules::kPass, or rules::kResign.
  rules::Point point = rules::kPass;
  // Root visit counts of the search that chose the move, most visited
  // first (empty for policies that do not search).
  std::vector<MoveVisits> visits;
  // Playouts the decision cost (0 for policies without playouts).
  int64_t playouts = 0;
  // Estimated win rate of the side to move, 0..1 (-1 when unknown).
  double winrate = -1;
};

// Limits of one decision. A policy stops at whichever comes first.
struct SearchLimits {
  // Playouts (0 = the policy's own configured budget).
  int64_t playouts = 0;
  // Wall time (absl::InfiniteDuration() = no limit).
  absl::Duration time = absl::InfiniteDuration();
};

class Policy {
 public:
  virtual ~Policy() = default;

  // The canonical spec of this policy ("mcts:playouts=800").
  virtual std::string spec() const = 0;

  // Called before the first move of each game (after any handicap or
  // setup is on the board) with the game to be played; a policy that
  // keeps state across moves (a search tree, an engine process) resets
  // it. Errors end the game (e.g. an engine that cannot start).
  virtual absl::Status NewGame(const rules::Game& game) = 0;

  // Chooses the move of game.to_play() in `game` (which is not over).
  // The returned point is legal in `game` or kPass/kResign for policies
  // that play qipu's rules; external engines may return anything and the
  // caller checks it. Errors: an engine that crashed, hung past its
  // deadline or answered garbage (the caller records how the game ended).
  virtual absl::StatusOr<MoveChoice> Choose(const rules::Game& game,
                                            const SearchLimits& limits) = 0;

  // Told about every move played in the game (by either side) after
  // Choose() or from outside, so that stateful policies keep in step.
  // Default: nothing.
  virtual void Played(const rules::Game& game, rules::Move move) {
    (void)game;
    (void)move;
  }
};

}  // namespace qipu::policy

#endif  // QIPU_POLICY_POLICY_H_
