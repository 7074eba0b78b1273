// Maximum-weight perfect matching on a general graph: the engine under the
// Swiss pairing. A thin wall around LEMON's MaxWeightedPerfectMatching
// (Debian liblemon-dev), so that nothing else includes LEMON: its 1.3.1
// headers do not compile as C++20 (std::allocator::construct), and
// matching.cc is compiled as C++17. This header uses the standard library
// only, which both standards share.
//
// Why not boost::maximum_weighted_matching (Boost 1.74, Debian 12): on
// Swiss-like graphs of 16-80 vertices it crashed (SIGSEGV in its blossom
// code), never returned, or returned a matching lighter than the optimum
// on about 1-5% of random instances (checked against networkx), and takes
// about 30 s on 1,000 vertices. Upstream's report (boostorg/graph#399,
// more than half of random 1,000-vertex graphs fail) led to a rewrite after
// 1.74. tournament/README.md has the measurements.
#ifndef QIPU_TOURNAMENT_MATCHING_H_
#define QIPU_TOURNAMENT_MATCHING_H_

#include <cstdint>
#include <vector>

namespace qipu::tournament {

// An undirected edge between vertices `u` and `v` (0 <= u, v < n, u != v)
// with an integer weight; heavier is better.
struct WeightedEdge {
  int u = 0;
  int v = 0;
  int64_t weight = 0;
};

// Finds a perfect matching of the graph on `n` vertices with the largest
// total weight. Returns true and fills `mate` (mate[v] = the vertex matched
// with v) when one exists; returns false (and clears `mate`) when the graph
// has no perfect matching (odd n included). Weights may be negative; the
// caller keeps |weight| * n / 2 well inside int64 (LEMON scales duals by 2
// and 4). Edges with an endpoint out of range or u == v are ignored.
// Deterministic: the same edges in the same order give the same matching.
// Thread-safe (no shared state).
bool MaxWeightPerfectMatching(int n, const std::vector<WeightedEdge>& edges,
                              std::vector<int>* mate);

}  // namespace qipu::tournament

#endif  // QIPU_TOURNAMENT_MATCHING_H_
