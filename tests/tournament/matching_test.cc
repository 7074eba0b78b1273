// The matching wall against brute force on small graphs, and against
// Boost's Edmonds maximum-cardinality matching (an independent library)
// for the existence of a perfect matching.
#include "tournament/matching.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/max_cardinality_matching.hpp>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace qipu::tournament {
namespace {

constexpr int64_t kNone = std::numeric_limits<int64_t>::min();

// The best perfect matching weight by dynamic programming over subsets.
int64_t BruteForce(int n, const std::vector<std::vector<int64_t>>& w) {
  std::vector<int64_t> best(1 << n, kNone);
  best[0] = 0;
  for (int mask = 0; mask < (1 << n); ++mask) {
    if (best[mask] == kNone) continue;
    int i = 0;
    while (i < n && (mask >> i & 1)) ++i;
    if (i == n) continue;
    for (int j = i + 1; j < n; ++j) {
      if ((mask >> j & 1) || w[i][j] == kNone) continue;
      const int next = mask | 1 << i | 1 << j;
      best[next] = std::max(best[next], best[mask] + w[i][j]);
    }
  }
  return best[(1 << n) - 1];
}

bool BoostHasPerfectMatching(int n, const std::vector<WeightedEdge>& edges) {
  using Graph =
      boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
  Graph g(n);
  for (const WeightedEdge& e : edges) boost::add_edge(e.u, e.v, g);
  std::vector<boost::graph_traits<Graph>::vertex_descriptor> mate(n);
  boost::edmonds_maximum_cardinality_matching(g, &mate[0]);
  return static_cast<int>(boost::matching_size(g, &mate[0])) * 2 == n;
}

TEST(MaxWeightPerfectMatching, MatchesBruteForceOnSmallGraphs) {
  std::mt19937_64 rng(7);
  int with = 0;
  int without = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    const int n = 2 * (1 + static_cast<int>(rng() % 6));  // 2..12
    const int density = static_cast<int>(rng() % 100);
    std::vector<std::vector<int64_t>> w(n, std::vector<int64_t>(n, kNone));
    std::vector<WeightedEdge> edges;
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) {
        if (static_cast<int>(rng() % 100) >= density) continue;
        // Few distinct weights: many ties, as pairing costs have.
        const int64_t weight = static_cast<int64_t>(rng() % 7) - 2;
        w[i][j] = w[j][i] = weight;
        edges.push_back(WeightedEdge{i, j, weight});
      }
    }
    std::vector<int> mate;
    const bool found = MaxWeightPerfectMatching(n, edges, &mate);
    const int64_t best = BruteForce(n, w);
    ASSERT_EQ(found, best != kNone) << "trial " << trial;
    ASSERT_EQ(found, BoostHasPerfectMatching(n, edges)) << "trial " << trial;
    if (!found) {
      EXPECT_TRUE(mate.empty());
      ++without;
      continue;
    }
    ++with;
    int64_t total = 0;
    for (int i = 0; i < n; ++i) {
      ASSERT_GE(mate[i], 0);
      ASSERT_EQ(mate[mate[i]], i);
      ASSERT_NE(w[i][mate[i]], kNone);
      if (i < mate[i]) total += w[i][mate[i]];
    }
    EXPECT_EQ(total, best) << "trial " << trial;
  }
  EXPECT_GT(with, 100);
  EXPECT_GT(without, 100);
}

TEST(MaxWeightPerfectMatching, OddOrBadInput) {
  std::vector<int> mate = {1, 2};
  EXPECT_FALSE(MaxWeightPerfectMatching(3, {{0, 1, 1}, {1, 2, 1}}, &mate));
  EXPECT_TRUE(mate.empty());
  EXPECT_TRUE(MaxWeightPerfectMatching(0, {}, &mate));
  // Out-of-range edges and loops are ignored.
  EXPECT_TRUE(MaxWeightPerfectMatching(
      2, {{0, 5, 9}, {1, 1, 9}, {-1, 0, 9}, {0, 1, 3}}, &mate));
  EXPECT_EQ(mate, (std::vector<int>{1, 0}));
}

}  // namespace
}  // namespace qipu::tournament
