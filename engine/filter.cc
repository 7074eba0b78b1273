#include "engine/filter.h"

#include <tuple>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/quote.h"
#include "proto/job_policies.h"
#include "rules/coord.h"
#include "rules/player_name.h"
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
  out.player_ = rules::ParsePlayerName(f.player(), "").key;
  out.opponent_ = rules::ParsePlayerName(f.opponent(), "").key;
  out.event_ = rules::FoldText(f.event());
  if (f.player_as() == qipu::v1::COLOR_BLACK) {
    out.player_as_ = rules::Color::kBlack;
  } else if (f.player_as() == qipu::v1::COLOR_WHITE) {
    out.player_as_ = rules::Color::kWhite;
  } else if (f.player_as() != qipu::v1::COLOR_UNSPECIFIED) {
    return absl::InvalidArgumentError(
        absl::StrCat("filter.player_as: ", static_cast<int>(f.player_as()),
                     " is neither COLOR_BLACK nor COLOR_WHITE"));
  }
  if (out.player_as_ != rules::Color::kEmpty && out.player_.empty()) {
    return absl::InvalidArgumentError(
        "filter.player_as: names the colour of filter.player, which is empty");
  }
  const std::string result =
      absl::AsciiStrToLower(absl::StripAsciiWhitespace(f.result()));
  if (result == "b+" || result == "b") {
    out.result_ = "B+";
  } else if (result == "w+" || result == "w") {
    out.result_ = "W+";
  } else if (result == "draw" || result == "void") {
    out.result_ = result;
  } else if (!result.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("filter.result: ", base::QuoteInput(f.result()),
                     " is not B+, W+, draw or void"));
  }
  for (auto [text, field, order] :
       {std::tuple{&f.rank_min(), "filter.rank_min", &out.rank_min_},
        std::tuple{&f.rank_max(), "filter.rank_max", &out.rank_max_}}) {
    if (text->empty()) continue;
    *order = rules::RankOrder(rules::CanonicalRank(*text));
    if (*order == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ": ", base::QuoteInput(*text),
                       " is not a rank (30k..1k, 1d..9d, 1p..9p)"));
    }
  }
  if (out.rank_min_ != 0 && out.rank_max_ != 0 &&
      out.rank_min_ > out.rank_max_) {
    return absl::InvalidArgumentError("filter.rank_min: above filter.rank_max");
  }
  out.by_game_ = !out.player_.empty() || !out.opponent_.empty() ||
                 !out.event_.empty() || !out.result_.empty() ||
                 out.rank_min_ != 0 || out.rank_max_ != 0;
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
