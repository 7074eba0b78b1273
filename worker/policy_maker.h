// The one place the worker makes a policy from a spec (a job's black or
// white policy, canonical: proto/job_policies.h). qipu's own policies
// (random, pattern, mcts) come from policy::MakePolicy(), external GTP
// engines ("gtp:<command line>") from gtp/policy_factory.h's
// MakeAnyPolicy(); a spec neither makes is refused and the worker returns
// the lease as unplayable.
#ifndef QIPU_WORKER_POLICY_MAKER_H_
#define QIPU_WORKER_POLICY_MAKER_H_

#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "policy/policy.h"

namespace qipu::worker {

// The policy `spec` names, seeded with `seed` (see policy::MakePolicy()).
// InvalidArgument for a bad spec (a gtp: command line that does not
// split). Thread-safe.
absl::StatusOr<std::unique_ptr<policy::Policy>> MakeWorkerPolicy(
    absl::string_view spec, uint64_t seed);

// True for specs whose policy is an external process ("gtp:..."): made
// once per game thread and kept across games (NewGame() resets it), not
// made again with each game's seed.
bool IsExternalPolicy(absl::string_view spec);

}  // namespace qipu::worker

#endif  // QIPU_WORKER_POLICY_MAKER_H_
