#include "gtp/time_settings.h"

#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace qipu::gtp {
namespace {

// Ten days: more is a typing error, and keeps every sum far from overflow.
constexpr int kMaxSeconds = 864000;

constexpr absl::string_view kPassSuffix = ",pass";

absl::Status Invalid(absl::string_view text, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("time control '", text, "': ", why,
                   " (expected none, absolute:M, byoyomi:M+PxT or "
                   "canadian:M+S/T, in seconds, a byo-yomi optionally "
                   "followed by ,pass)"));
}

bool ParseCount(absl::string_view s, int* out) {
  return absl::SimpleAtoi(s, out) && *out >= 0 && *out <= kMaxSeconds;
}

}  // namespace

absl::Status ValidateTimeSettings(const TimeSettings& t) {
  auto bad = [&](absl::string_view why) {
    return absl::InvalidArgumentError(
        absl::StrCat("time control ", TimeSettingsText(t), ": ", why));
  };
  for (int v : {t.main_s, t.period_s, t.stones}) {
    if (v < 0 || v > kMaxSeconds) {
      return bad(absl::StrCat("values must be within 0..", kMaxSeconds));
    }
  }
  if (t.last_period == LastPeriod::kPass && !t.byoyomi()) {
    return bad("a pass when the last period runs out needs byo-yomi");
  }
  switch (t.system) {
    case TimeSystem::kNone:
      return absl::OkStatus();
    case TimeSystem::kAbsolute:
      if (t.main_s == 0) return bad("absolute time needs main time");
      return absl::OkStatus();
    case TimeSystem::kJapanese:
    case TimeSystem::kCanadian:
      if (t.period_s < 1) return bad("a byo-yomi period of at least 1 s");
      if (t.stones < 1) {
        return bad(t.system == TimeSystem::kJapanese
                       ? "at least one byo-yomi period"
                       : "at least one move per period");
      }
      return absl::OkStatus();
  }
  return bad("unknown time system");
}

absl::StatusOr<TimeSettings> ParseTimeSettings(absl::string_view text) {
  if (text == "none") return TimeSettings{};
  const size_t colon = text.find(':');
  if (colon == absl::string_view::npos) return Invalid(text, "no system");
  const absl::string_view system = text.substr(0, colon);
  absl::string_view rest = text.substr(colon + 1);
  TimeSettings t;
  if (absl::ConsumeSuffix(&rest, kPassSuffix)) {
    t.last_period = LastPeriod::kPass;
  }
  if (system == "absolute") {
    t.system = TimeSystem::kAbsolute;
    if (!ParseCount(rest, &t.main_s)) return Invalid(text, "bad main time");
  } else if (system == "byoyomi" || system == "canadian") {
    const bool japanese = system == "byoyomi";
    t.system = japanese ? TimeSystem::kJapanese : TimeSystem::kCanadian;
    const std::vector<absl::string_view> plus = absl::StrSplit(rest, '+');
    if (plus.size() != 2 || !ParseCount(plus[0], &t.main_s)) {
      return Invalid(text, "bad main time");
    }
    const std::vector<absl::string_view> byo =
        absl::StrSplit(plus[1], japanese ? 'x' : '/');
    // byoyomi: P x T; canadian: S / T.
    if (byo.size() != 2 || !ParseCount(byo[0], &t.stones) ||
        !ParseCount(byo[1], &t.period_s)) {
      return Invalid(text, japanese ? "bad periods (PxT)" : "bad period (S/T)");
    }
  } else {
    return Invalid(text, "unknown system");
  }
  if (absl::Status s = ValidateTimeSettings(t); !s.ok()) {
    return Invalid(text, s.message());
  }
  return t;
}

std::string TimeSettingsText(const TimeSettings& t) {
  const absl::string_view pass =
      t.last_period == LastPeriod::kPass ? kPassSuffix : "";
  switch (t.system) {
    case TimeSystem::kNone:
      return "none";
    case TimeSystem::kAbsolute:
      return absl::StrCat("absolute:", t.main_s, pass);
    case TimeSystem::kJapanese:
      return absl::StrCat("byoyomi:", t.main_s, "+", t.stones, "x", t.period_s,
                          pass);
    case TimeSystem::kCanadian:
      return absl::StrCat("canadian:", t.main_s, "+", t.stones, "/", t.period_s,
                          pass);
  }
  return "none";
}

std::string OvertimeText(const TimeSettings& t) {
  const absl::string_view pass = t.last_period == LastPeriod::kPass
                                     ? ", a pass when the last period runs out"
                                     : "";
  switch (t.system) {
    case TimeSystem::kJapanese:
      return absl::StrCat(t.stones, "x", t.period_s, " byo-yomi", pass);
    case TimeSystem::kCanadian:
      return absl::StrCat(t.stones, "/", t.period_s, " Canadian", pass);
    case TimeSystem::kNone:
    case TimeSystem::kAbsolute:
      break;
  }
  return "";
}

}  // namespace qipu::gtp
