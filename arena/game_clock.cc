#include "arena/game_clock.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace qipu::arena {
namespace {

using gtp::TimeSettings;
using gtp::TimeSystem;

// Ten days: more is a typing error, and keeps every sum far from overflow.
constexpr int kMaxSeconds = 864000;

absl::Status Invalid(absl::string_view text, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("time control '", text, "': ", why,
                   " (expected none, absolute:M, byoyomi:M+PxT or "
                   "canadian:M+S/T, in seconds)"));
}

bool ParseCount(absl::string_view s, int* out) {
  return absl::SimpleAtoi(s, out) && *out >= 0 && *out <= kMaxSeconds;
}

absl::Duration Secs(int s) { return absl::Seconds(s); }

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
  const absl::string_view rest = text.substr(colon + 1);
  TimeSettings t;
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
  switch (t.system) {
    case TimeSystem::kNone:
      return "none";
    case TimeSystem::kAbsolute:
      return absl::StrCat("absolute:", t.main_s);
    case TimeSystem::kJapanese:
      return absl::StrCat("byoyomi:", t.main_s, "+", t.stones, "x", t.period_s);
    case TimeSystem::kCanadian:
      return absl::StrCat("canadian:", t.main_s, "+", t.stones, "/",
                          t.period_s);
  }
  return "none";
}

std::string OvertimeText(const TimeSettings& t) {
  switch (t.system) {
    case TimeSystem::kJapanese:
      return absl::StrCat(t.stones, "x", t.period_s, " byo-yomi");
    case TimeSystem::kCanadian:
      return absl::StrCat(t.stones, "/", t.period_s, " Canadian");
    case TimeSystem::kNone:
    case TimeSystem::kAbsolute:
      break;
  }
  return "";
}

GameClock::GameClock(const TimeSettings& settings) : settings_(settings) {
  if (settings_.system == TimeSystem::kNone) settings_ = TimeSettings{};
  for (PlayerClock& p : players_) {
    p.main_left = Secs(settings_.main_s);
    if (settings_.main_s == 0 && settings_.system != TimeSystem::kNone &&
        settings_.system != TimeSystem::kAbsolute) {
      p.in_byoyomi = true;
      p.period_left = Secs(settings_.period_s);
      p.stones = settings_.stones;
    }
  }
}

bool GameClock::Charge(rules::Color c, absl::Duration used) {
  PlayerClock& p = players_[rules::PlayerIndex(c)];
  used = std::max(used, absl::ZeroDuration());
  p.used += used;
  ++p.moves;
  if (settings_.system == TimeSystem::kNone) return true;
  const absl::Duration period = Secs(settings_.period_s);
  absl::Duration t = used;
  if (!p.in_byoyomi) {
    if (t <= p.main_left) {
      p.main_left -= t;
      if (p.main_left == absl::ZeroDuration() &&
          settings_.system != TimeSystem::kAbsolute) {
        // Main time ended with the move: byo-yomi from the next one.
        p.in_byoyomi = true;
        p.period_left = period;
        p.stones = settings_.stones;
      }
      return true;
    }
    t -= p.main_left;
    p.main_left = absl::ZeroDuration();
    if (settings_.system == TimeSystem::kAbsolute) {
      p.flagged = true;
      return false;
    }
    // The overflow goes on into the first period.
    p.in_byoyomi = true;
    p.period_left = period;
    p.stones = settings_.stones;
  }
  if (settings_.system == TimeSystem::kJapanese) {
    // Periods exceeded: ceil(t / period) - 1.
    absl::Duration rem;
    int64_t whole = absl::IDivDuration(t, period, &rem);
    if (rem > absl::ZeroDuration()) ++whole;
    const int64_t spent = std::max<int64_t>(0, whole - 1);
    if (spent >= p.stones) {
      p.stones = 0;
      p.period_left = absl::ZeroDuration();
      p.flagged = true;
      return false;
    }
    p.stones -= static_cast<int>(spent);
    p.period_left = period;
    return true;
  }
  // Canadian.
  if (t > p.period_left) {
    p.period_left = absl::ZeroDuration();
    p.flagged = true;
    return false;
  }
  p.period_left -= t;
  if (--p.stones == 0) {
    p.period_left = period;
    p.stones = settings_.stones;
  }
  return true;
}

absl::Duration GameClock::TimeToFlag(rules::Color c) const {
  const PlayerClock& p = player(c);
  const absl::Duration period = Secs(settings_.period_s);
  switch (settings_.system) {
    case TimeSystem::kNone:
      return absl::InfiniteDuration();
    case TimeSystem::kAbsolute:
      return p.main_left;
    case TimeSystem::kJapanese:
      return p.in_byoyomi ? period * p.stones
                          : p.main_left + period * settings_.stones;
    case TimeSystem::kCanadian:
      return p.in_byoyomi ? p.period_left : p.main_left + period;
  }
  return absl::InfiniteDuration();
}

TimeLeft GameClock::Left(rules::Color c) const {
  const PlayerClock& p = player(c);
  if (!p.in_byoyomi) return {absl::ToDoubleSeconds(p.main_left), 0};
  return {absl::ToDoubleSeconds(p.period_left), p.stones};
}

absl::Duration GameClock::Allot(rules::Color c, int empty_points) const {
  if (settings_.system == TimeSystem::kNone) return absl::InfiniteDuration();
  gtp::Clock clock;
  clock.Set(settings_);
  const TimeLeft left = Left(c);
  clock.TimeLeft(c, left.seconds, left.stones);
  return clock.Allot(c, empty_points);
}

}  // namespace qipu::arena
