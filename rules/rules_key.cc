#include "rules/rules_key.h"

#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/quote.h"

namespace qipu::rules {
namespace {

// Reads one axis value into *key (the axis is known and not yet given);
// the error says why the value is wrong, without the token.
absl::Status ReadAxis(absl::string_view axis, absl::string_view value,
                      RulesKey* key) {
  if (axis == "ko") {
    auto k = ParseKoRule(value);
    if (!k.ok()) return k.status();
    key->ko = *k;
  } else if (axis == "cycle") {
    auto c = ParseCycleRule(value);
    if (!c.ok()) return c.status();
    key->cycle = *c;
  } else if (axis == "suicide") {
    if (value != "0" && value != "1") {
      return absl::InvalidArgumentError("suicide is 0 or 1");
    }
    key->multi_stone_suicide = value == "1";
  } else if (axis == "komi") {
    double komi = 0;
    if (!absl::SimpleAtod(value, &komi)) {
      return absl::InvalidArgumentError("komi is a number of points");
    }
    if (absl::Status s = ValidateKomi(komi); !s.ok()) return s;
    key->komi = komi;
  } else if (axis == "dame") {
    for (DameRule d : {DameRule::kHalf, DameRule::kNone}) {
      if (value == DameRuleName(d)) key->dame = d;
    }
    if (!key->dame) return absl::InvalidArgumentError("dame is half or none");
  } else if (axis == "hcomp") {
    for (HandicapCompensation h :
         {HandicapCompensation::kNone, HandicapCompensation::kFull,
          HandicapCompensation::kMinusOne}) {
      if (value == HandicapCompensationName(h)) key->handicap_compensation = h;
    }
    if (!key->handicap_compensation) {
      return absl::InvalidArgumentError("hcomp is none, full or minus-one");
    }
  } else {  // "cap"
    int cap = 0;
    if (!absl::SimpleAtoi(value, &cap) || cap < 0) {
      return absl::InvalidArgumentError(
          "cap is a number of moves (0 = default)");
    }
    key->move_cap = cap;
  }
  return absl::OkStatus();
}

// Whether `axis` is already given in `key`.
bool Given(const RulesKey& key, absl::string_view axis) {
  if (axis == "ko") return key.ko.has_value();
  if (axis == "cycle") return key.cycle.has_value();
  if (axis == "suicide") return key.multi_stone_suicide.has_value();
  if (axis == "komi") return key.komi.has_value();
  if (axis == "dame") return key.dame.has_value();
  if (axis == "hcomp") return key.handicap_compensation.has_value();
  return key.move_cap.has_value();
}

}  // namespace

RulesKey::RulesKey(const Rules& r)
    : ko(r.ko),
      cycle(r.cycle),
      multi_stone_suicide(r.multi_stone_suicide),
      komi(r.komi),
      dame(r.dame),
      handicap_compensation(r.handicap_compensation),
      move_cap(r.move_cap) {}

absl::StatusOr<RulesKey> RulesKey::Parse(absl::string_view text) {
  RulesKey key;
  for (absl::string_view token :
       absl::StrSplit(text, absl::ByAnyChar(", "), absl::SkipEmpty())) {
    const size_t eq = token.find('=');
    const absl::string_view axis = token.substr(0, eq);
    bool known = false;
    for (absl::string_view a : kRulesKeyAxes) known = known || axis == a;
    if (eq == absl::string_view::npos || !known) {
      return absl::InvalidArgumentError(
          absl::StrCat(base::QuoteInput(token), " is not axis=value with axis ",
                       absl::StrJoin(kRulesKeyAxes, ", ")));
    }
    if (Given(key, axis)) {
      return absl::InvalidArgumentError(
          absl::StrCat(base::QuoteInput(token), ": ", axis, " is given twice"));
    }
    if (absl::Status s = ReadAxis(axis, token.substr(eq + 1), &key); !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(base::QuoteInput(token), ": ", s.message()));
    }
  }
  return key;
}

std::string RulesKey::Text() const {
  std::string out;
  auto add = [&out](absl::string_view axis, const auto& value) {
    absl::StrAppend(&out, out.empty() ? "" : " ", axis, "=", value);
  };
  if (ko) add("ko", KoRuleName(*ko));
  if (cycle) add("cycle", CycleRuleName(*cycle));
  if (multi_stone_suicide) add("suicide", *multi_stone_suicide ? 1 : 0);
  if (komi) add("komi", *komi);
  if (dame) add("dame", DameRuleName(*dame));
  if (handicap_compensation) {
    add("hcomp", HandicapCompensationName(*handicap_compensation));
  }
  if (move_cap) add("cap", *move_cap);
  return out;
}

bool RulesKey::complete() const {
  return ko && cycle && multi_stone_suicide && komi && dame &&
         handicap_compensation && move_cap;
}

absl::StatusOr<Rules> RulesKey::ToRules() const {
  if (!complete()) {
    std::vector<absl::string_view> missing;
    for (absl::string_view a : kRulesKeyAxes) {
      if (!Given(*this, a)) missing.push_back(a);
    }
    return absl::FailedPreconditionError(
        absl::StrCat("rules key ", base::QuoteInput(Text()), " lacks ",
                     absl::StrJoin(missing, ", ")));
  }
  Rules r;
  r.ko = *ko;
  r.cycle = *cycle;
  r.multi_stone_suicide = *multi_stone_suicide;
  r.komi = *komi;
  r.dame = *dame;
  r.handicap_compensation = *handicap_compensation;
  r.move_cap = *move_cap;
  return r;
}

RulesKey RulesKey::WithoutKomiAndCap() const {
  RulesKey k = *this;
  k.komi.reset();
  k.move_cap.reset();
  return k;
}

bool RulesKey::MatchedBy(const RulesKey& other) const {
  auto agrees = [](const auto& mine, const auto& theirs) {
    return !mine.has_value() || mine == theirs;
  };
  return agrees(ko, other.ko) && agrees(cycle, other.cycle) &&
         agrees(multi_stone_suicide, other.multi_stone_suicide) &&
         agrees(komi, other.komi) && agrees(dame, other.dame) &&
         agrees(handicap_compensation, other.handicap_compensation) &&
         agrees(move_cap, other.move_cap);
}

}  // namespace qipu::rules
