#include "engine/filter.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/quote.h"
#include "proto/job_policies.h"
#include "rules/coord.h"
#include "rules/rules.h"
#include "rules/rules_key.h"

namespace qipu::engine {
namespace {

bool ValidDay(uint32_t d) {
  const uint32_t y = d / 10000;
  const uint32_t m = d / 100 % 100;
  const uint32_t day = d % 100;
  return y >= 1000 && y <= 9999 && m <= 12 && day <= 31;
}

}  // namespace

absl::StatusOr<Filter> Filter::Compile(const qipu::v1::Filter& f) {
  Filter out;
  out.proto_ = f;
  if ((f.width() == 0) != (f.height() == 0)) {
    return absl::InvalidArgumentError(
        "filter.size: give both width and height");
  }
  if (f.width() != 0) {
    if (absl::Status s = rules::ValidateSize(static_cast<int>(f.width()),
                                             static_cast<int>(f.height()));
        !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("filter.size: ", s.message()));
    }
  }
  if (!f.rules().empty()) {
    if (auto preset = rules::PresetRules(f.rules()); preset.ok()) {
      // A preset fixes every axis but komi and the move cap.
      out.rules_ = rules::RulesKey(*preset).WithoutKomiAndCap();
    } else {
      auto key = rules::RulesKey::Parse(f.rules());
      if (!key.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "filter.rules: ", key.status().message(),
            absl::StrContains(f.rules(), '=')
                ? ""
                : absl::StrCat(" (nor a preset: ",
                               absl::StrJoin(rules::PresetNames(), ", "),
                               ")")));
      }
      if (key->komi.has_value()) {
        return absl::InvalidArgumentError(
            "filter.rules: komi is a filter of its own (filter.komi)");
      }
      out.rules_ = *std::move(key);
    }
  }
  if (f.has_komi()) {
    if (absl::Status s = rules::ValidateKomi(f.komi()); !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("filter.komi: ", s.message()));
    }
  }
  for (uint32_t d : {f.date_from(), f.date_to()}) {
    if (d != 0 && !ValidDay(d)) {
      return absl::InvalidArgumentError(
          absl::StrCat("filter.date: ", d, " is not YYYYMMDD"));
    }
  }
  if (f.date_from() != 0 && f.date_to() != 0 && f.date_from() > f.date_to()) {
    return absl::InvalidArgumentError("filter.date: from is after to");
  }
  out.records_ = absl::AsciiStrToLower(absl::StripAsciiWhitespace(f.records()));
  if (out.records_ == "all") out.records_.clear();
  if (!out.records_.empty() && out.records_ != "clean" &&
      out.records_ != "noted" && out.records_ != "cut") {
    return absl::InvalidArgumentError(
        absl::StrCat("filter.records: ", base::QuoteInput(f.records()),
                     " is not all, clean, noted or cut"));
  }
  // A spec qipu can read is compared in its canonical form; anything else
  // ("import", a prefix such as "gtp:gnugo") as written.
  out.policy_ = std::string(absl::StripAsciiWhitespace(f.policy()));
  if (!out.policy_.empty() && out.policy_ != "import") {
    if (auto c = wire::CanonicalSpec(out.policy_); c.ok()) {
      // "mcts:playouts=1000" is "mcts" (its arguments were the defaults):
      // that policy exactly, not every mcts.
      out.policy_exact_ = out.policy_.find(':') != std::string::npos &&
                          c->find(':') == std::string::npos;
      out.policy_ = *c;
    }
  }
  return out;
}

bool Filter::MatchesConfig(const qipu::v1::ConfigRecord& c) const {
  const qipu::v1::Filter& f = proto_;
  if (f.width() != 0 && (c.width() != f.width() || c.height() != f.height())) {
    return false;
  }
  if (f.has_komi() && c.komi() != f.komi()) return false;
  if (f.has_handicap() && c.handicap() != f.handicap()) return false;
  if (!f.source().empty() && c.source() != f.source()) return false;
  if (!policy_.empty()) {
    auto matches = [&](const std::string& spec) {
      return policy_exact_ ? spec == policy_
                           : wire::PolicyMatches(spec, policy_);
    };
    if (!matches(c.policy()) &&
        (c.white_policy().empty() || !matches(c.white_policy()))) {
      return false;
    }
  }
  if (!records_.empty()) {
    // "noted" covers every record kept against its rules, cut ones too.
    const bool match = records_ == "clean"   ? c.record().empty()
                       : records_ == "noted" ? !c.record().empty()
                                             : c.record() == records_;
    if (!match) return false;
  }
  if (rules_ != rules::RulesKey()) {
    auto have = rules::RulesKey::Parse(c.rules_key());
    if (!have.ok() || !rules_.MatchedBy(*have)) return false;
  }
  return true;
}

bool Filter::MatchesDay(uint32_t day) const {
  const uint32_t from = proto_.date_from();
  const uint32_t to = proto_.date_to();
  if (from == 0 && to == 0) return true;
  if (day == 0) return false;
  // A bucket day may lack its month or day (YYYY0000): compare as ranges.
  const uint32_t lo = day;
  const uint32_t hi =
      day % 100 != 0 ? day : (day % 10000 != 0 ? day + 31 : day + 1231);
  if (from != 0 && hi < from) return false;
  if (to != 0 && lo > to) return false;
  return true;
}

}  // namespace qipu::engine
