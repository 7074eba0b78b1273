// Search: one thread's Monte Carlo tree search from one position -- a
// Tree, the playouts, and the game state they run on. MctsPolicy runs one
// Search per thread (root parallelisation) and sums their root counts.
//
// A playout: from the root, select children (Tree::Select) playing their
// moves on a bare board; a leaf visited `expand` times (the root at once)
// is expanded -- its children are the points where the side to move may
// play under the game's full rules (Game::Check: superko, the cycle rule)
// and that are not its own eyes, plus a pass -- and selection goes one step
// further; then a playout (PlayoutRunner) from the board reached, counted
// by area. A node whose move ends the game (a second pass, a balanced
// cycle, the move cap) is scored without a playout. The result updates the
// visits of the path and the AMAF statistics of the siblings along it.
//
// Not thread-safe. Allocates only while the tree grows (bounded by its
// max_nodes) and on the first use of a game size.
#ifndef QIPU_POLICY_MCTS_SEARCH_H_
#define QIPU_POLICY_MCTS_SEARCH_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/time/time.h"
#include "policy/mcts_tree.h"
#include "policy/pattern_mover.h"
#include "policy/playout.h"
#include "rules/board.h"
#include "rules/game.h"
#include "rules/playout.h"
#include "rules/types.h"

namespace qipu::policy {

// Settings of a Search.
struct SearchParams {
  SelectParams select;
  PlayoutKind playout = PlayoutKind::kPattern;
  // Visits of a leaf before it is expanded (>= 1).
  int expand = 2;
  // Prior playouts per source of knowledge given to a child at expansion
  // (0: none). Sources: an even prior (prior playouts at 0.5) for every
  // board move; its 3x3 pattern (prior playouts at gamma / (gamma + 1));
  // a capture or an escape from atari (prior wins); a self-atari of two
  // stones or more (2 * prior losses).
  int prior = 10;
  // Bound of the tree (nodes; 32 bytes each).
  int64_t max_nodes = 1000000;
};

class Search {
 public:
  explicit Search(const SearchParams& params);

  // Starts a new search of `game` (not over), which must stay unchanged
  // and alive until the last Run() of this search. The playouts draw from
  // a generator seeded with `seed`. With `reuse`, when `game` continues
  // the game of the previous Start() (the same size and rules, its moves
  // followed by at most kMaxReuseMoves more) and the tree holds the
  // position reached, the search starts from that subtree and its
  // statistics; otherwise from a lone root. Returns the root's visits
  // kept.
  int64_t Start(const rules::Game& game, uint64_t seed, bool reuse = false);
  // Forgets the previous search (the next Start() begins afresh).
  void Forget();
  // Moves after the previous search's position a reused tree may follow.
  static constexpr int kMaxReuseMoves = 8;

  // Runs up to `playouts` more playouts, stopping early when `deadline`
  // passes (checked every few playouts). Returns the playouts run.
  int64_t Run(int64_t playouts, absl::Time deadline);

  // The tree (root = Tree::kRoot; its children are the candidate moves).
  const Tree& tree() const { return tree_; }

 private:
  // One playout from the root.
  void Playout();
  // Expands `leaf`, reached by path_ / path_moves_; false when the tree is
  // full.
  bool Expand(uint32_t leaf);
  // Sets the prior statistics of child `ch` (a board point move of c on
  // `board`).
  void SetPrior(const rules::Board& board, rules::Color c, Node& ch);
  // Adds the result to the path and the AMAF statistics.
  void Backup(rules::Winner winner);

  SearchParams params_;
  Tree tree_;
  PlayoutRunner runner_;
  // Chain walks of the priors.
  PatternMover tactics_;
  rules::Rng rng_{0};
  // The root position (not owned) and its move cap in plies from it.
  const rules::Game* root_ = nullptr;
  int plies_left_ = 0;
  // Scratch board of a playout.
  rules::Board board_;
  // Scratch game of an expansion (the root replayed along the path);
  // created at the first Start() for a board size, then reassigned.
  std::optional<rules::Game> expand_game_;
  // Nodes from the root to the leaf of the current playout, and the moves
  // into them (path_moves_[i] is the move into path_[i + 1]).
  std::vector<uint32_t> path_;
  std::vector<rules::Point> path_moves_;
  // First player of each point in the current playout (for AMAF).
  FirstPlay first_;
  // The moves of the previous Start()'s game, its size and rules (what
  // the tree's root is), for reuse; tree_valid_ false when none.
  bool tree_valid_ = false;
  std::vector<rules::Move> root_moves_;
  int root_width_ = 0;
  int root_height_ = 0;
  int root_handicap_ = 0;
  rules::Color root_to_play_ = rules::Color::kBlack;
  rules::Rules root_rules_;
};

}  // namespace qipu::policy

#endif  // QIPU_POLICY_MCTS_SEARCH_H_
