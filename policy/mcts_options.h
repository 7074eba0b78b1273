// MctsOptions: the settings of the `mcts` policy, read from and written to
// the arguments of its spec ("mcts:playouts=800,threads=2").
//
//   key       default  meaning
//   playouts  1000     playouts per move (1 .. 100,000,000)
//   threads   1        search threads (1 .. 64), root-parallel: each runs
//                      its own tree on playouts/threads, the root visit
//                      counts are summed
//   playout   pattern  playout policy: random | pattern
//   seed      (none)   seed of the search; overrides MakePolicy()'s seed
//   c         0.05     UCT exploration constant (0 .. 10)
//   rave      1000     RAVE equivalence parameter; 0 disables RAVE
//                      (0 .. 1e9)
//   prior     10       visits of prior knowledge given to each move at
//                      expansion (an even prior, 3x3 pattern, capture,
//                      atari escape, self-atari); 0 disables (0 .. 1000)
//   resign    0.05     resign when the chosen move's win rate is below
//                      this (0 disables; 0 .. 0.5)
//   reuse     1        keep the subtree of the position reached between
//                      moves (0: every move searches afresh)
//   expand    2        visits of a leaf before it is expanded (1 .. 1000)
//   nodes     1000000  nodes per tree at most (32 bytes each; 1000 ..
//                      100,000,000)
#ifndef QIPU_POLICY_MCTS_OPTIONS_H_
#define QIPU_POLICY_MCTS_OPTIONS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "policy/playout.h"

namespace qipu::policy {

struct MctsOptions {
  int64_t playouts = 1000;
  int threads = 1;
  PlayoutKind playout = PlayoutKind::kPattern;
  std::optional<uint64_t> seed;
  double c = 0.05;
  double rave = 1000;
  int prior = 10;
  double resign = 0.05;
  bool reuse = true;
  int expand = 2;
  int64_t nodes = 1000000;

  friend bool operator==(const MctsOptions&, const MctsOptions&) = default;
};

// Options from spec arguments (key, value). InvalidArgument naming the key
// and value, and what is accepted, for an unknown key or a bad value.
absl::StatusOr<MctsOptions> ParseMctsOptions(
    const std::vector<std::pair<std::string, std::string>>& args);

// The canonical spec: "mcts", then the non-default options sorted by key
// ("mcts:c=0.3,playouts=800").
std::string MctsSpec(const MctsOptions& options);

}  // namespace qipu::policy

#endif  // QIPU_POLICY_MCTS_OPTIONS_H_
