// The search tree of the `mcts` policy: nodes in one arena, the children
// of a node contiguous, with UCT + RAVE statistics, the selection rule and
// the memory bound.
//
// Statistics count half-points: a win 2, a draw (or a void game) 1, from
// the point of view of the player who played the node's move. Integers
// keep sums exact, so a search is reproducible bit for bit.
//
// Selection (Gelly and Silver's UCT-RAVE, with Pachi's beta schedule):
//   value(child) = (1 - beta) * q + beta * q_rave + c * sqrt(ln N / (n + 1))
//   beta = n_rave / (n_rave + n + n_rave * n / rave)
// where n and q = wins / n count the node's prior playouts too (q is the
// first-play urgency, FPU, when n = 0), q_rave the
// AMAF win rate (0.5 before any AMAF sample), N the parent's visits, and
// `rave` the equivalence parameter (0 turns RAVE off). The pass child has
// no AMAF statistics and an FPU of 0: it is tried once the exploration term
// gets to it, then stands on its own results.
#ifndef QIPU_POLICY_MCTS_TREE_H_
#define QIPU_POLICY_MCTS_TREE_H_

#include <cstdint>
#include <vector>

#include "rules/types.h"

namespace qipu::policy {

// What playing a node's move does to the game, known at expansion.
enum class NodeEnd : uint8_t {
  // The game goes on.
  kNone = 0,
  // The move ends the game and Black (White) wins: a second pass.
  kBlackWins,
  kWhiteWins,
  // The move ends the game with neither winning: a second pass on an even
  // count, a balanced cycle under the cycle rule, the move cap.
  kDraw,
};

// One node: the position after `move`. 32 bytes.
struct Node {
  // Index of the first child in the arena; 0 until expanded (the root is
  // index 0 and never anyone's child).
  uint32_t first_child = 0;
  // Playouts through this node, and their half-point wins for the player
  // who played `move`.
  uint32_t visits = 0;
  uint32_t wins2 = 0;
  // AMAF playouts (those below the parent in which `move` was played
  // first by the same player), and their half-point wins.
  uint32_t rave_visits = 0;
  uint32_t rave_wins2 = 0;
  // Prior knowledge set at expansion (SearchParams::prior): virtual
  // playouts and their half-point wins, added to visits and wins2 by the
  // selection rule but never reported as visits.
  uint16_t prior_visits = 0;
  uint16_t prior_wins2 = 0;
  // The move leading here: a board point or kPass (kNoPoint at the root).
  rules::Point move = rules::kNoPoint;
  // Number of children (valid once first_child != 0).
  uint16_t num_children = 0;
  // See NodeEnd.
  NodeEnd end = NodeEnd::kNone;

  bool expanded() const { return first_child != 0; }
};

// Tuning of the selection rule (see the top of this file).
struct SelectParams {
  // Exploration constant c (>= 0).
  double c = 0.05;
  // RAVE equivalence parameter (0: no RAVE).
  double rave = 1000;
};

// The arena. Not thread-safe: one tree per search thread.
class Tree {
 public:
  // At most `max_nodes` nodes (>= 1): expansions that would exceed it
  // fail, and the search goes on with the tree it has.
  explicit Tree(int64_t max_nodes);

  // Back to a lone root (capacity kept).
  void Clear();

  Node& node(uint32_t i) { return nodes_[i]; }
  const Node& node(uint32_t i) const { return nodes_[i]; }
  static constexpr uint32_t kRoot = 0;
  int64_t size() const { return static_cast<int64_t>(nodes_.size()); }
  int64_t max_nodes() const { return max_nodes_; }

  // Adds `count` (>= 1) default children to node `parent` (not expanded)
  // and returns the index of the first, or 0 when the bound would be
  // exceeded (nothing changes then). Invalidates Node references.
  uint32_t AddChildren(uint32_t parent, int count);

  // The child of `parent` (expanded) the selection rule picks: the first
  // of the highest value, in child order.
  uint32_t Select(uint32_t parent, const SelectParams& params) const;

  // Makes node `new_root` (an index of this tree) the root, keeping its
  // subtree with its statistics and dropping every other node; the new
  // root's `move` becomes kNoPoint. Copies the subtree breadth first into
  // a spare arena (kept for the next call), so children stay contiguous.
  void Reroot(uint32_t new_root);

 private:
  int64_t max_nodes_;
  std::vector<Node> nodes_;
  // Reroot()'s scratch: the arena being built and its queue.
  std::vector<Node> spare_;
  std::vector<uint32_t> queue_;
};

}  // namespace qipu::policy

#endif  // QIPU_POLICY_MCTS_TREE_H_
