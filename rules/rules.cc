#include "rules/rules.h"

#include <cmath>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "base/quote.h"

namespace qipu::rules {
namespace {

struct Preset {
  const char* name;
  Rules rules;
};

Rules Make(KoRule ko, CycleRule cycle, bool suicide, double komi, DameRule dame,
           HandicapCompensation hc) {
  Rules r;
  r.ko = ko;
  r.cycle = cycle;
  r.multi_stone_suicide = suicide;
  r.komi = komi;
  r.dame = dame;
  r.handicap_compensation = hc;
  return r;
}

const Preset* Presets(int* n) {
  static const Preset kPresets[] = {
      {"chinese", Make(KoRule::kSimple, CycleRule::kNoResult, false, 7.5,
                       DameRule::kHalf, HandicapCompensation::kFull)},
      {"chinese-superko",
       Make(KoRule::kSituational, CycleRule::kNoResult, false, 7.5,
            DameRule::kHalf, HandicapCompensation::kFull)},
      {"tromp-taylor", Make(KoRule::kPositional, CycleRule::kNone, true, 7.5,
                            DameRule::kNone, HandicapCompensation::kNone)},
      {"aga", Make(KoRule::kSituational, CycleRule::kNone, false, 7.5,
                   DameRule::kNone, HandicapCompensation::kMinusOne)},
      {"new-zealand", Make(KoRule::kSituational, CycleRule::kNone, true, 7.0,
                           DameRule::kNone, HandicapCompensation::kNone)},
  };
  *n = static_cast<int>(sizeof(kPresets) / sizeof(kPresets[0]));
  return kPresets;
}

}  // namespace

int MoveCap(const Rules& rules, int width, int height) {
  return rules.move_cap > 0 ? rules.move_cap : 3 * width * height;
}

absl::StatusOr<Rules> PresetRules(absl::string_view name) {
  int n = 0;
  const Preset* presets = Presets(&n);
  const std::string lower = absl::AsciiStrToLower(name);
  std::string known;
  for (int i = 0; i < n; ++i) {
    if (lower == presets[i].name) return presets[i].rules;
    absl::StrAppend(&known, i ? ", " : "", presets[i].name);
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown rules ", base::QuoteInput(name), " (known: ", known, ")"));
}

std::vector<absl::string_view> PresetNames() {
  int n = 0;
  const Preset* presets = Presets(&n);
  std::vector<absl::string_view> names;
  names.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) names.push_back(presets[i].name);
  return names;
}

std::string PresetName(const Rules& rules) {
  int n = 0;
  const Preset* presets = Presets(&n);
  for (int i = 0; i < n; ++i) {
    if (presets[i].rules == rules) return presets[i].name;
  }
  return "custom";
}

const char* KoRuleName(KoRule k) {
  switch (k) {
    case KoRule::kSimple:
      return "simple";
    case KoRule::kPositional:
      return "positional";
    case KoRule::kSituational:
      return "situational";
  }
  return "?";
}

absl::StatusOr<KoRule> ParseKoRule(absl::string_view s) {
  for (KoRule k :
       {KoRule::kSimple, KoRule::kPositional, KoRule::kSituational}) {
    if (s == KoRuleName(k)) return k;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown ko rule '", s, "' (known: simple, positional, situational)"));
}

const char* CycleRuleName(CycleRule c) {
  switch (c) {
    case CycleRule::kNone:
      return "none";
    case CycleRule::kNoResult:
      return "no-result";
    case CycleRule::kDraw:
      return "draw";
    case CycleRule::kReplay:
      return "replay";
  }
  return "?";
}

absl::StatusOr<CycleRule> ParseCycleRule(absl::string_view s) {
  for (CycleRule c : {CycleRule::kNone, CycleRule::kNoResult, CycleRule::kDraw,
                      CycleRule::kReplay}) {
    if (s == CycleRuleName(c)) return c;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown cycle rule '", s, "' (known: none, no-result, draw, replay)"));
}

const char* DameRuleName(DameRule d) {
  return d == DameRule::kHalf ? "half" : "none";
}

const char* HandicapCompensationName(HandicapCompensation h) {
  switch (h) {
    case HandicapCompensation::kNone:
      return "none";
    case HandicapCompensation::kFull:
      return "full";
    case HandicapCompensation::kMinusOne:
      return "minus-one";
  }
  return "?";
}

absl::Status ValidateKomi(double komi) {
  if (!std::isfinite(komi) || std::fabs(komi) > 1000 ||
      std::fabs(komi * 2 - std::round(komi * 2)) > 1e-9) {
    return absl::InvalidArgumentError(absl::StrCat(
        "komi ", komi, " is not a multiple of 0.5 within -1000..1000"));
  }
  return absl::OkStatus();
}

Rules RulesFromSgf(absl::string_view ru, std::string* note) {
  std::string key = absl::AsciiStrToLower(absl::StripAsciiWhitespace(ru));
  key = absl::StrReplaceAll(key, {{" ", ""}, {"_", ""}, {"-", ""}});
  const char* preset = nullptr;
  if (key.empty() || key == "chinese" || key == "cn" || key == "chn" ||
      key == "china") {
    preset = "chinese";
  } else if (key == "aga" || key == "bga" || key == "french") {
    preset = "aga";
  } else if (key == "nz" || key == "newzealand") {
    preset = "new-zealand";
  } else if (key == "tromptaylor" || key == "tt") {
    preset = "tromp-taylor";
  } else if (key == "chinesesuperko") {
    preset = "chinese-superko";
  }
  if (preset == nullptr) {
    if (note != nullptr) {
      *note = absl::StrCat("rules ", base::QuoteInput(ru),
                           " are not implemented; replayed under chinese");
    }
    preset = "chinese";
  }
  return *PresetRules(preset);
}

}  // namespace qipu::rules
