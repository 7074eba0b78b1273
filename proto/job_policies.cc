#include "proto/job_policies.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "policy/spec.h"

namespace qipu::wire {
namespace {

// `own` when set, else `both`, else the light policy.
std::string Resolve(const std::string& own, const std::string& both) {
  if (!own.empty()) return own;
  if (!both.empty()) return both;
  return std::string(kLightPolicy);
}

}  // namespace

ColourPolicies JobPolicies(const qipu::v1::JobConfig& config) {
  return {Resolve(config.black_policy(), config.policy()),
          Resolve(config.white_policy(), config.policy())};
}

ColourPolicies GamePolicies(const qipu::v1::Provenance& p) {
  if (!p.black_policy().empty() && !p.white_policy().empty()) {
    return {p.black_policy(), p.white_policy()};
  }
  return {p.policy(), p.policy()};
}

std::string PolicyDisplay(const ColourPolicies& p) {
  if (p.same()) return p.black;
  return absl::StrCat(p.black, " vs ", p.white);
}

absl::StatusOr<std::string> CanonicalSpec(absl::string_view spec) {
  const absl::string_view s = absl::StripAsciiWhitespace(spec);
  if (absl::StartsWith(s, "gtp:")) {
    const absl::string_view command = absl::StripAsciiWhitespace(s.substr(4));
    if (command.empty()) {
      return absl::InvalidArgumentError(
          "gtp: needs the engine's command line (\"gtp:gnugo --mode gtp\")");
    }
    return absl::StrCat("gtp:", command);
  }
  return policy::CanonicalPolicySpec(s);
}

absl::Status CanonicalizeJobPolicies(qipu::v1::JobConfig* config) {
  ColourPolicies p = JobPolicies(*config);
  struct Field {
    const char* name;
    const std::string* given;
    std::string* spec;
  };
  // Name the field the spec came from.
  const Field fields[] = {
      {config->black_policy().empty() ? "policy" : "black_policy",
       config->black_policy().empty() ? &config->policy()
                                      : &config->black_policy(),
       &p.black},
      {config->white_policy().empty() ? "policy" : "white_policy",
       config->white_policy().empty() ? &config->policy()
                                      : &config->white_policy(),
       &p.white},
  };
  for (const Field& f : fields) {
    absl::StatusOr<std::string> c = CanonicalSpec(*f.spec);
    if (!c.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("config.", f.name, ": ", c.status().message()));
    }
    *f.spec = *std::move(c);
  }
  config->set_policy(PolicyDisplay(p));
  if (p.same()) {
    config->clear_black_policy();
    config->clear_white_policy();
  } else {
    config->set_black_policy(p.black);
    config->set_white_policy(p.white);
  }
  return absl::OkStatus();
}

void SetGamePolicies(const ColourPolicies& p, qipu::v1::Provenance* out) {
  out->set_policy(PolicyDisplay(p));
  if (p.same()) {
    out->clear_black_policy();
    out->clear_white_policy();
  } else {
    out->set_black_policy(p.black);
    out->set_white_policy(p.white);
  }
}

bool PolicyMatches(absl::string_view spec, absl::string_view filter) {
  if (!absl::StartsWith(spec, filter)) return false;
  if (spec.size() == filter.size()) return true;
  const char next = spec[filter.size()];
  return next == ' ' || next == ',' || next == ':';
}

}  // namespace qipu::wire
