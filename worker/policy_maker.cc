#include "worker/policy_maker.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtp/policy_factory.h"

namespace qipu::worker {

absl::StatusOr<std::unique_ptr<policy::Policy>> MakeWorkerPolicy(
    absl::string_view spec, uint64_t seed) {
  // gtp: engines (started at their first game, their stderr discarded)
  // and every other spec through policy::MakePolicy().
  return gtp::MakeAnyPolicy(spec, seed);
}

bool IsExternalPolicy(absl::string_view spec) {
  return absl::StartsWith(absl::StripLeadingAsciiWhitespace(spec), "gtp:");
}

}  // namespace qipu::worker
