#include "gtp/policy_factory.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "gtp/engine_policy.h"
#include "policy/spec.h"

namespace qipu::gtp {

absl::StatusOr<std::unique_ptr<policy::Policy>> MakeAnyPolicy(
    absl::string_view spec, uint64_t seed, const std::string& engine_log) {
  absl::string_view command = spec;
  if (absl::ConsumePrefix(&command, "gtp:")) {
    EnginePolicyOptions options;
    options.stderr_path = engine_log;
    absl::StatusOr<std::unique_ptr<EnginePolicy>> p =
        EnginePolicy::Create(command, options);
    if (!p.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("policy '", spec, "': ", p.status().message()));
    }
    return std::unique_ptr<policy::Policy>(std::move(*p));
  }
  return policy::MakePolicy(spec, seed);
}

}  // namespace qipu::gtp
