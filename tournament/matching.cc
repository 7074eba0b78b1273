// Compiled as C++17 (tournament/CMakeLists.txt): LEMON 1.3.1's maps call
// std::allocator::construct/destroy, which C++20 removed.
#include "tournament/matching.h"

#include <lemon/matching.h>
#include <lemon/smart_graph.h>

namespace qipu::tournament {

bool MaxWeightPerfectMatching(int n, const std::vector<WeightedEdge>& edges,
                              std::vector<int>* mate) {
  mate->clear();
  if (n <= 0) return n == 0;
  if (n % 2 != 0) return false;
  lemon::SmartGraph graph;
  graph.reserveNode(n);
  graph.reserveEdge(static_cast<int>(edges.size()));
  std::vector<lemon::SmartGraph::Node> nodes;
  nodes.reserve(n);
  for (int i = 0; i < n; ++i) nodes.push_back(graph.addNode());
  lemon::SmartGraph::EdgeMap<int64_t> weight(graph);
  for (const WeightedEdge& e : edges) {
    if (e.u < 0 || e.v < 0 || e.u >= n || e.v >= n || e.u == e.v) continue;
    weight.set(graph.addEdge(nodes[e.u], nodes[e.v]), e.weight);
  }
  lemon::MaxWeightedPerfectMatching<lemon::SmartGraph,
                                    lemon::SmartGraph::EdgeMap<int64_t>>
      matching(graph, weight);
  if (!matching.run()) return false;
  mate->assign(n, -1);
  for (int i = 0; i < n; ++i) {
    const lemon::SmartGraph::Node m = matching.mate(nodes[i]);
    if (m == lemon::INVALID) {
      mate->clear();
      return false;
    }
    (*mate)[i] = graph.id(m);
  }
  return true;
}

}  // namespace qipu::tournament
