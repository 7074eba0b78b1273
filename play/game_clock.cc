#include "play/game_clock.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace qipu::play {
namespace {

// Allot(): the fewest moves a side expects to still play, the safety
// factor, the overhead per move, the reserve kept on the clock and the
// least time a move gets, in seconds (the figures of gtp/clock.h).
constexpr int kMinExpectedMoves = 10;
constexpr double kSafetyFactor = 0.9;
constexpr double kOverheadS = 0.2;
constexpr double kReserveS = 0.5;
constexpr double kMinMoveS = 0.05;

}  // namespace

absl::Status ValidateClockSettings(const ClockSettings& s) {
  if (s.main < absl::ZeroDuration()) {
    return absl::InvalidArgumentError("main time is negative");
  }
  if (s.periods < 0 || s.periods > 100) {
    return absl::InvalidArgumentError(
        absl::StrCat("byo-yomi periods ", s.periods, ": not in 0..100"));
  }
  if (s.periods > 0 && s.period <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError(
        "byo-yomi periods need a positive period length");
  }
  if (s.period < absl::ZeroDuration()) {
    return absl::InvalidArgumentError("byo-yomi period is negative");
  }
  return absl::OkStatus();
}

GameClock::GameClock(const ClockSettings& settings) : settings_(settings) {
  for (Side& s : sides_) {
    s.main = settings_.main;
    s.periods = settings_.periods;
  }
}

void GameClock::Start(rules::Color c, absl::Time now) {
  running_ = c;
  started_ = now;
}

bool GameClock::Stop(absl::Time now) {
  if (running_ == rules::Color::kEmpty) return true;
  Side& side = sides_[rules::PlayerIndex(running_)];
  side = Charged(side, std::max(absl::ZeroDuration(), now - started_));
  running_ = rules::Color::kEmpty;
  return !side.flagged;
}

GameClock::Side GameClock::Charged(const Side& side,
                                   absl::Duration used) const {
  Side s = side;
  if (!timed() || s.flagged) return s;
  if (used <= s.main) {
    s.main -= used;
    return s;
  }
  const absl::Duration over = used - s.main;
  s.main = absl::ZeroDuration();
  if (s.periods == 0) {
    s.flagged = true;
    return s;
  }
  // A move within a period costs none; each whole period overrun costs
  // one (a move of exactly one period is within it).
  absl::Duration rest;
  const int64_t overrun = absl::IDivDuration(over, settings_.period, &rest);
  const int64_t consumed = rest == absl::ZeroDuration() ? overrun - 1 : overrun;
  if (consumed >= s.periods) {
    s.periods = 0;
    s.flagged = true;
  } else {
    s.periods -= static_cast<int>(consumed);
  }
  return s;
}

ClockReading GameClock::Read(rules::Color c, absl::Time now) const {
  const Side& side = sides_[rules::PlayerIndex(c)];
  ClockReading r;
  if (!timed()) return r;
  absl::Duration used = absl::ZeroDuration();
  if (running_ == c) used = std::max(absl::ZeroDuration(), now - started_);
  const Side after = Charged(side, used);
  r.flagged = after.flagged;
  r.periods = after.periods;
  if (after.flagged) return r;
  if (used <= side.main) {
    r.main = side.main - used;
    r.in_byoyomi = r.main == absl::ZeroDuration() && after.periods > 0;
    r.period = r.in_byoyomi ? settings_.period : absl::ZeroDuration();
    return r;
  }
  // In byo-yomi: what is left of the current period.
  r.in_byoyomi = true;
  const absl::Duration over = used - side.main;
  const int64_t consumed = side.periods - after.periods;
  r.period = settings_.period * (consumed + 1) - over;
  return r;
}

absl::Duration GameClock::Allot(rules::Color c, absl::Time now,
                                int empty_points) const {
  if (!timed()) return absl::InfiniteDuration();
  const ClockReading r = Read(c, now);
  const double period =
      settings_.periods > 0 ? absl::ToDoubleSeconds(settings_.period) : 0;
  double t = 0;
  double on_clock = 0;
  if (!r.in_byoyomi) {
    const double main = absl::ToDoubleSeconds(r.main);
    t = main / std::max(kMinExpectedMoves, empty_points / 3) + period;
    on_clock = main + period;
  } else {
    t = absl::ToDoubleSeconds(r.period);
    on_clock = t;
  }
  t = t * kSafetyFactor - kOverheadS;
  t = std::min(t, on_clock - kReserveS);
  t = std::max(t, kMinMoveS);
  return absl::Seconds(t);
}

std::string GameClock::Format(absl::Duration d) {
  if (d < absl::ZeroDuration()) d = absl::ZeroDuration();
  const int64_t s = absl::ToInt64Seconds(absl::Ceil(d, absl::Seconds(1)));
  if (s >= 3600) {
    return absl::StrFormat("%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
  }
  return absl::StrFormat("%d:%02d", s / 60, s % 60);
}

std::string GameClock::Describe(rules::Color c, absl::Time now) const {
  if (!timed()) return "untimed";
  const ClockReading r = Read(c, now);
  if (r.flagged) return "out of time";
  if (r.in_byoyomi) {
    return absl::StrCat("BY ", Format(r.period), " (", r.periods, ")");
  }
  if (settings_.periods > 0) {
    return absl::StrCat(Format(r.main), " +", r.periods, "x",
                        Format(settings_.period));
  }
  return Format(r.main);
}

}  // namespace qipu::play
