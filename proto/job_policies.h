// Which policy plays each colour of a job and of a stored game, and how
// policy specs are compared: the one place that reads JobConfig.policy,
// black_policy and white_policy (work.proto) and Provenance.policy,
// black_policy and white_policy (game.proto), so that jobs submitted
// before per-colour policies read as before.
//
// Forms: a job or game whose colours play the same policy has that spec in
// `policy` and nothing in the per-colour fields (a random job is stored
// exactly as before); when they differ `policy` holds the display form
// "<black> vs <white>" and the per-colour fields hold the specs.
#ifndef QIPU_PROTO_JOB_POLICIES_H_
#define QIPU_PROTO_JOB_POLICIES_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "qipu/v1/game.pb.h"
#include "qipu/v1/work.pb.h"

namespace qipu::wire {

// The light policy's spec: games of jobs where both colours play it are
// played by rules::PlaySelfPlay and can be regenerated from their seed.
inline constexpr absl::string_view kLightPolicy = "random";

// Black's and White's policy specs.
struct ColourPolicies {
  std::string black;
  std::string white;

  bool same() const { return black == white; }
  // Both colours play the light policy.
  bool light() const { return black == kLightPolicy && white == kLightPolicy; }
};

// The policies of a job: each colour's own field, else `policy`, else
// "random". As stored (no canonicalisation).
ColourPolicies JobPolicies(const qipu::v1::JobConfig& config);

// The policies of a stored or uploaded self-play game (Provenance): the
// per-colour fields when set, else `policy` for both.
ColourPolicies GamePolicies(const qipu::v1::Provenance& p);

// "<black> vs <white>", or the one spec when they are the same.
std::string PolicyDisplay(const ColourPolicies& p);

// The canonical form of one spec: policy::CanonicalPolicySpec() for
// qipu's own policies; for "gtp:<command line>" the command with
// surrounding spaces removed ("gtp:gnugo --mode gtp"). InvalidArgument
// with the reason for a bad spec (an empty gtp command included).
absl::StatusOr<std::string> CanonicalSpec(absl::string_view spec);

// Canonicalises the policies of `config` in place and writes them in the
// forms above. InvalidArgument "config.black_policy: ..." (or
// white_policy, policy) naming the bad spec.
absl::Status CanonicalizeJobPolicies(qipu::v1::JobConfig* config);

// Writes `p` into a provenance in the forms above.
void SetGamePolicies(const ColourPolicies& p, qipu::v1::Provenance* out);

// True when `spec` (canonical) equals `filter` or starts with it at a
// token boundary: the next character of `spec` is ' ', ',' or ':'.
bool PolicyMatches(absl::string_view spec, absl::string_view filter);

}  // namespace qipu::wire

#endif  // QIPU_PROTO_JOB_POLICIES_H_
