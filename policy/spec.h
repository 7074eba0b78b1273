// Policy specs: the text that names a policy (policy.h), its parser, its
// canonical form and the factory.
//
// Grammar:
//   spec  := name [ ":" [ arg { "," arg } ] ]
//   name  := "random" | "pattern" | "mcts" | "gtp"
//   arg   := key "=" value        (key [a-z_]+, value non-empty, no ',')
// Spaces around names, keys and values are ignored. Keys may come in any
// order, each at most once. The canonical form sorts the keys and drops
// arguments equal to their defaults: "mcts:threads=1,playouts=800" ->
// "mcts:playouts=800"; "mcts:" -> "mcts".
//
// `gtp:<command line>` specs are external engines, made by gtp/ (the GTP
// front-end's MakeAnyPolicy); MakePolicy() refuses them.
#ifndef QIPU_POLICY_SPEC_H_
#define QIPU_POLICY_SPEC_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "policy/policy.h"

namespace qipu::policy {

// A spec split into its parts (not validated against the policy's keys).
struct PolicySpec {
  std::string name;
  // (key, value) in the order written.
  std::vector<std::pair<std::string, std::string>> args;
};

// Splits `spec` by the grammar above. InvalidArgument naming the bad part
// for an empty name, an argument without '=', an empty key or value, a key
// given twice. A "gtp:" spec is returned whole: name "gtp", one argument
// ("command", the rest of the text).
absl::StatusOr<PolicySpec> ParsePolicySpec(absl::string_view spec);

// The canonical spec of `spec` (see above), validated as MakePolicy() does
// but without making the policy. InvalidArgument as MakePolicy().
absl::StatusOr<std::string> CanonicalPolicySpec(absl::string_view spec);

// The policy `spec` names: "random", "pattern" (no arguments),
// "mcts[:k=v,...]" (MctsOptions, policy/mcts_options.h). `seed` seeds its
// generator, unless an mcts spec has a `seed` key, which wins. InvalidArgument
// naming the bad name, key or value (and the accepted ones), or for a "gtp:"
// spec.
absl::StatusOr<std::unique_ptr<Policy>> MakePolicy(absl::string_view spec,
                                                   uint64_t seed);

}  // namespace qipu::policy

#endif  // QIPU_POLICY_SPEC_H_
