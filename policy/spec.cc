#include "policy/spec.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/quote.h"
#include "policy/mcts.h"
#include "policy/mcts_options.h"
#include "policy/pattern_policy.h"
#include "policy/random_policy.h"

namespace qipu::policy {
namespace {

// `s` in double quotes, bounded (base/quote.h).
std::string Quoted(absl::string_view s) {
  return base::QuoteInput(s, base::kMaxQuotedBytes, '"');
}

// Keys are short (the longest is a dozen letters): a valid key is at most
// kMaxKeyBytes, so that messages may name it unquoted.
constexpr size_t kMaxKeyBytes = 40;

bool ValidKey(absl::string_view key) {
  return !key.empty() && key.size() <= kMaxKeyBytes &&
         std::all_of(key.begin(), key.end(), [](char ch) {
           return (ch >= 'a' && ch <= 'z') || ch == '_';
         });
}

// `random` and `pattern` take no arguments (MakePolicy()'s seed seeds them).
absl::Status NoArgs(const PolicySpec& s) {
  if (s.args.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(s.name, ": unknown key ", Quoted(s.args[0].first), " (",
                   s.name, " takes no arguments)"));
}

absl::Status UnknownName(absl::string_view name) {
  return absl::InvalidArgumentError(
      absl::StrCat("unknown policy ", Quoted(name),
                   " (accepted: random, pattern, mcts[:key=value,...], "
                   "gtp:<command line>)"));
}

absl::Status GtpRefused() {
  return absl::InvalidArgumentError(
      "gtp: policies are external engines, made by the GTP front-end "
      "(gtp/policy_factory.h), not by policy::MakePolicy()");
}

}  // namespace

absl::StatusOr<PolicySpec> ParsePolicySpec(absl::string_view spec) {
  spec = absl::StripAsciiWhitespace(spec);
  PolicySpec out;
  const size_t colon = spec.find(':');
  out.name = std::string(absl::StripAsciiWhitespace(spec.substr(0, colon)));
  if (out.name.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "policy spec ", Quoted(spec), ": no policy name before ':'"));
  }
  if (colon == absl::string_view::npos) return out;
  const absl::string_view rest = spec.substr(colon + 1);
  if (out.name == "gtp") {
    out.args.emplace_back("command", std::string(rest));
    return out;
  }
  if (absl::StripAsciiWhitespace(rest).empty()) return out;
  for (absl::string_view arg : absl::StrSplit(rest, ',')) {
    const size_t eq = arg.find('=');
    if (eq == absl::string_view::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat("policy spec ", Quoted(spec), ": argument ", Quoted(arg),
                       " is not key=value"));
    }
    const std::string key(absl::StripAsciiWhitespace(arg.substr(0, eq)));
    const std::string value(absl::StripAsciiWhitespace(arg.substr(eq + 1)));
    if (!ValidKey(key)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "policy spec ", Quoted(spec), ": bad key ", Quoted(key), " in ",
          Quoted(arg), " (keys are a-z and _, at most 40)"));
    }
    if (value.empty() || value.find('=') != std::string::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat("policy spec ", Quoted(spec), ": bad value ",
                       Quoted(value), " for ", key));
    }
    for (const auto& seen : out.args) {
      if (seen.first == key) {
        return absl::InvalidArgumentError(absl::StrCat(
            "policy spec ", Quoted(spec), ": key ", key, " given twice"));
      }
    }
    out.args.emplace_back(key, value);
  }
  return out;
}

absl::StatusOr<std::string> CanonicalPolicySpec(absl::string_view spec) {
  absl::StatusOr<PolicySpec> s = ParsePolicySpec(spec);
  if (!s.ok()) return s.status();
  if (s->name == "gtp") return GtpRefused();
  if (s->name == "random" || s->name == "pattern") {
    if (absl::Status st = NoArgs(*s); !st.ok()) return st;
    return s->name;
  }
  if (s->name == "mcts") {
    absl::StatusOr<MctsOptions> o = ParseMctsOptions(s->args);
    if (!o.ok()) return o.status();
    return MctsSpec(*o);
  }
  return UnknownName(s->name);
}

absl::StatusOr<std::unique_ptr<Policy>> MakePolicy(absl::string_view spec,
                                                   uint64_t seed) {
  absl::StatusOr<PolicySpec> s = ParsePolicySpec(spec);
  if (!s.ok()) return s.status();
  if (s->name == "gtp") return GtpRefused();
  if (s->name == "random" || s->name == "pattern") {
    if (absl::Status st = NoArgs(*s); !st.ok()) return st;
    if (s->name == "random") return std::make_unique<RandomPolicy>(seed);
    return std::make_unique<PatternPolicy>(seed);
  }
  if (s->name == "mcts") {
    absl::StatusOr<MctsOptions> o = ParseMctsOptions(s->args);
    if (!o.ok()) return o.status();
    return std::make_unique<MctsPolicy>(*o, seed);
  }
  return UnknownName(s->name);
}

}  // namespace qipu::policy
