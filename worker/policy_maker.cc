#include "worker/policy_maker.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "policy/spec.h"

namespace qipu::worker {

absl::StatusOr<std::unique_ptr<policy::Policy>> MakeWorkerPolicy(
    absl::string_view spec, uint64_t seed) {
  // At the merge of the GTP front-end this becomes
  // gtp::MakeAnyPolicy(spec, seed) (gtp/policy_factory.h), which makes
  // gtp: engines and forwards every other spec to policy::MakePolicy().
  if (IsExternalPolicy(spec)) {
    return absl::UnimplementedError(absl::StrCat(
        "policy \"", spec,
        "\": this worker cannot run external GTP engines (built without "
        "gtp/policy_factory.h)"));
  }
  return policy::MakePolicy(spec, seed);
}

bool IsExternalPolicy(absl::string_view spec) {
  return absl::StartsWith(absl::StripLeadingAsciiWhitespace(spec), "gtp:");
}

}  // namespace qipu::worker
