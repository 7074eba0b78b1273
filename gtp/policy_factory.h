// MakeAnyPolicy: the one place where a policy spec becomes a Policy for
// the GTP front-end and for tools that play external engines: `gtp:<command
// line>` is an external engine (gtp/engine_policy.h), anything else goes
// to the policy library.
#ifndef QIPU_GTP_POLICY_FACTORY_H_
#define QIPU_GTP_POLICY_FACTORY_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "policy/policy.h"

namespace qipu::gtp {

// The policy `spec` names, seeded with `seed`: "gtp:<command line>" (the
// command line split as sh(1) would, gtp/command_line.h; the engine's
// stderr goes to `engine_log`, "" for /dev/null), else what
// policy::MakePolicy() makes of it. InvalidArgument for an unknown or
// malformed spec.
absl::StatusOr<std::unique_ptr<policy::Policy>> MakeAnyPolicy(
    absl::string_view spec, uint64_t seed, const std::string& engine_log = "");

}  // namespace qipu::gtp

#endif  // QIPU_GTP_POLICY_FACTORY_H_
