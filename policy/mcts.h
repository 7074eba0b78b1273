// MctsPolicy (`mcts`): UCT with RAVE over random or pattern playouts
// (policy/mcts_search.h, policy/mcts_tree.h), options in
// policy/mcts_options.h.
//
// Each Choose() runs `threads` root-parallel searches: every thread grows
// its own tree from the position on its share of the playouts, seeded
// from the policy's generator and its index, and the root visit counts are
// summed. With `reuse` (the default) a thread starts from the subtree of
// its previous search that the moves played since lead to (Search::Start;
// NewGame() forgets it). Without a time limit the result depends only on
// the seed, the moves of the game chosen so far and the options -- also
// with several threads.
//
// The decision, for the side to move c:
//  - the opponent has just passed and the position already counts as a
//    win for c (Game::ScoreNow(), every stone alive): pass at once, ending
//    the game won (no search);
//  - else the most visited root move (ties: the earlier in board order);
//    if that is a pass after the opponent's pass that would not win, the
//    most visited other move instead (never end a game lost by count that
//    playing on might save);
//  - resign when its win rate is below `resign` (and the search ran at
//    least kMinResignPlayouts playouts);
// MoveChoice.visits lists the root moves with visits, most visited first
// (a reused tree's earlier visits included: they sum to at least
// MoveChoice.playouts, the playouts of this move); winrate is the chosen
// move's.
//
// Moves are legal under the game's full rules: the tree's children are
// checked with Game::CheckBoardLegal(). Memory: at most `nodes` tree nodes
// of 32 bytes per thread, kept between moves for reuse of the buffers.
// Not thread-safe (one game thread); starts its own threads in Choose().
#ifndef QIPU_POLICY_MCTS_H_
#define QIPU_POLICY_MCTS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "policy/mcts_options.h"
#include "policy/mcts_search.h"
#include "policy/policy.h"
#include "rules/playout.h"

namespace qipu::policy {

class MctsPolicy final : public Policy {
 public:
  // Fewest playouts of a search that may resign.
  static constexpr int64_t kMinResignPlayouts = 100;

  // `seed` seeds the policy's generator unless options.seed is set.
  // Precondition: options as ParseMctsOptions() accepts them.
  MctsPolicy(const MctsOptions& options, uint64_t seed);

  std::string spec() const override { return MctsSpec(options_); }
  absl::Status NewGame(const rules::Game& game) override;
  // limits.playouts (0: options' playouts) and limits.time bound the
  // search. FailedPrecondition when the game is over.
  absl::StatusOr<MoveChoice> Choose(const rules::Game& game,
                                    const SearchLimits& limits) override;

  const MctsOptions& options() const { return options_; }

 private:
  MctsOptions options_;
  rules::Rng rng_;
  // One per thread.
  std::vector<std::unique_ptr<Search>> searches_;
};

}  // namespace qipu::policy

#endif  // QIPU_POLICY_MCTS_H_
