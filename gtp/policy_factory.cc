#include "gtp/policy_factory.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "gtp/engine_policy.h"
#include "gtp/light_policy.h"

namespace qipu::gtp {
namespace {

// THE place to switch over to the policy library (issue 18, worktree
// i18-policy): once policy::MakePolicy(spec, seed) is in the tree, this
// function becomes `return policy::MakePolicy(spec, seed);` and
// gtp/light_policy.* can go.
absl::StatusOr<std::unique_ptr<policy::Policy>> MakeLibraryPolicy(
    absl::string_view spec, uint64_t seed) {
  if (spec == "random") return std::make_unique<LightPolicy>(seed);
  return absl::InvalidArgumentError(
      absl::StrCat("unknown policy '", spec,
                   "': this build knows 'random' and 'gtp:<command line>'"));
}

}  // namespace

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
  return MakeLibraryPolicy(spec, seed);
}

}  // namespace qipu::gtp
