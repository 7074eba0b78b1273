#include "policy/mcts.h"

#include <algorithm>
#include <array>
#include <thread>

namespace qipu::policy {
namespace {

// Summed root statistics of the searches, by point.
struct RootStats {
  std::array<uint64_t, rules::kNumCells> visits{};
  std::array<uint64_t, rules::kNumCells> wins2{};
};

}  // namespace

MctsPolicy::MctsPolicy(const MctsOptions& options, uint64_t seed)
    : options_(options), rng_(options.seed.value_or(seed)) {
  SearchParams params;
  params.select.c = options.c;
  params.select.rave = options.rave;
  params.playout = options.playout;
  params.expand = options.expand;
  params.prior = options.prior;
  params.max_nodes = options.nodes;
  for (int t = 0; t < options.threads; ++t) {
    searches_.push_back(std::make_unique<Search>(params));
  }
}

absl::Status MctsPolicy::NewGame(const rules::Game& game) {
  (void)game;
  for (auto& s : searches_) s->Forget();
  return absl::OkStatus();
}

absl::StatusOr<MoveChoice> MctsPolicy::Choose(const rules::Game& game,
                                              const SearchLimits& limits) {
  if (game.over()) {
    return absl::FailedPreconditionError("mcts policy: the game is over");
  }
  const rules::Color c = game.to_play();
  const bool after_pass = LastMovePoint(game) == rules::kPass;
  const rules::Winner c_wins =
      c == rules::Color::kBlack ? rules::Winner::kBlack : rules::Winner::kWhite;
  MoveChoice choice;
  if (after_pass && game.ScoreNow().winner == c_wins) {
    choice.point = rules::kPass;
    choice.winrate = 1.0;
    return choice;
  }

  const int64_t budget = std::max<int64_t>(
      1, limits.playouts > 0 ? limits.playouts : options_.playouts);
  const absl::Time deadline = limits.time == absl::InfiniteDuration()
                                  ? absl::InfiniteFuture()
                                  : absl::Now() + limits.time;
  const uint64_t base = rng_.Next();
  const int threads = static_cast<int>(
      std::min<int64_t>(budget, static_cast<int64_t>(searches_.size())));
  std::vector<int64_t> done(threads, 0);
  auto run = [&](int t) {
    searches_[t]->Start(game, base + 0x9E3779B97F4A7C15ULL * (t + 1),
                        options_.reuse);
    const int64_t share = budget / threads + (t < budget % threads ? 1 : 0);
    done[t] = searches_[t]->Run(share, deadline);
  };
  std::vector<std::thread> workers;
  for (int t = 1; t < threads; ++t) workers.emplace_back(run, t);
  run(0);
  for (std::thread& w : workers) w.join();

  auto stats = std::make_unique<RootStats>();
  for (int t = 0; t < threads; ++t) {
    choice.playouts += done[t];
    const Tree& tree = searches_[t]->tree();
    const Node& root = tree.node(Tree::kRoot);
    for (uint32_t i = 0; i < root.num_children; ++i) {
      const Node& ch = tree.node(root.first_child + i);
      stats->visits[ch.move] += ch.visits;
      stats->wins2[ch.move] += ch.wins2;
    }
  }
  // Root moves in tree 0's order (board order, pass last); every tree has
  // the same children.
  const Tree& tree0 = searches_[0]->tree();
  const Node& root0 = tree0.node(Tree::kRoot);
  rules::Point fallback = rules::kPass;  // First non-pass root move.
  for (uint32_t i = 0; i < root0.num_children; ++i) {
    const rules::Point p = tree0.node(root0.first_child + i).move;
    if (p != rules::kPass && fallback == rules::kPass) fallback = p;
    if (stats->visits[p] == 0) continue;
    choice.visits.push_back(
        MoveVisits{p, static_cast<uint32_t>(
                          std::min<uint64_t>(stats->visits[p], UINT32_MAX))});
  }
  std::stable_sort(choice.visits.begin(), choice.visits.end(),
                   [](const MoveVisits& a, const MoveVisits& b) {
                     return a.visits > b.visits;
                   });
  choice.point = choice.visits.empty() ? fallback : choice.visits[0].point;
  if (choice.point == rules::kPass && after_pass) {
    // Passing would end the game lost or drawn by count: play on.
    choice.point = fallback;
    for (const MoveVisits& mv : choice.visits) {
      if (mv.point != rules::kPass) {
        choice.point = mv.point;
        break;
      }
    }
  }
  const uint64_t v = stats->visits[choice.point];
  choice.winrate = v > 0 ? 0.5 * stats->wins2[choice.point] / v : -1;
  if (options_.resign > 0 && choice.playouts >= kMinResignPlayouts &&
      choice.winrate >= 0 && choice.winrate < options_.resign) {
    choice.point = rules::kResign;
  }
  return choice;
}

}  // namespace qipu::policy
