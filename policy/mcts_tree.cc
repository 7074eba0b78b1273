#include "policy/mcts_tree.h"

#include <algorithm>
#include <cmath>

namespace qipu::policy {

Tree::Tree(int64_t max_nodes) : max_nodes_(std::max<int64_t>(1, max_nodes)) {
  Clear();
}

void Tree::Clear() {
  nodes_.clear();
  nodes_.emplace_back();
}

uint32_t Tree::AddChildren(uint32_t parent, int count) {
  if (size() + count > max_nodes_) return 0;
  const auto first = static_cast<uint32_t>(nodes_.size());
  nodes_.resize(nodes_.size() + count);
  nodes_[parent].first_child = first;
  nodes_[parent].num_children = static_cast<uint16_t>(count);
  return first;
}

uint32_t Tree::Select(uint32_t parent, const SelectParams& params) const {
  const Node& p = nodes_[parent];
  const double log_n = std::log(static_cast<double>(p.visits) + 1.0);
  // First-play urgency: the parent's win rate from the mover's side.
  const double fpu =
      p.visits > 0 ? 1.0 - 0.5 * p.wins2 / static_cast<double>(p.visits) : 0.5;
  uint32_t best = p.first_child;
  double best_value = -1e300;
  const uint32_t end = p.first_child + p.num_children;
  for (uint32_t i = p.first_child; i < end; ++i) {
    const Node& ch = nodes_[i];
    const double n = ch.visits + ch.prior_visits;
    const double w2 = ch.wins2 + ch.prior_wins2;
    double q;
    if (ch.move == rules::kPass) {
      q = n > 0 ? 0.5 * w2 / n : 0.0;
    } else {
      q = n > 0 ? 0.5 * w2 / n : fpu;
      const double rn = ch.rave_visits;
      if (params.rave > 0 && rn > 0) {
        const double beta = rn / (rn + n + rn * n / params.rave);
        q = (1 - beta) * q + beta * (0.5 * ch.rave_wins2 / rn);
      }
    }
    const double value = q + params.c * std::sqrt(log_n / (n + 1));
    if (value > best_value) {
      best_value = value;
      best = i;
    }
  }
  return best;
}

void Tree::Reroot(uint32_t new_root) {
  if (new_root == kRoot) return;
  spare_.clear();
  queue_.clear();
  spare_.push_back(nodes_[new_root]);
  spare_[0].move = rules::kNoPoint;
  queue_.push_back(new_root);
  // queue_[i] is the old index of spare_[i].
  for (size_t i = 0; i < queue_.size(); ++i) {
    const Node& old = nodes_[queue_[i]];
    if (!old.expanded()) {
      spare_[i].first_child = 0;
      spare_[i].num_children = 0;
      continue;
    }
    const auto first = static_cast<uint32_t>(spare_.size());
    for (uint32_t k = 0; k < old.num_children; ++k) {
      spare_.push_back(nodes_[old.first_child + k]);
      queue_.push_back(old.first_child + k);
    }
    spare_[i].first_child = first;
    spare_[i].num_children = old.num_children;
  }
  nodes_.swap(spare_);
}

}  // namespace qipu::policy
