#include "gtp/clock.h"

#include <algorithm>
#include <cstdint>

namespace qipu::gtp {
namespace {

// Allot(): see the file comment of clock.h.
constexpr int kMinExpectedMoves = 10;
constexpr double kSafetyFactor = 0.9;
constexpr double kOverheadS = 0.2;
constexpr double kReserveS = 0.5;
constexpr double kMinMoveS = 0.05;

}  // namespace

absl::Status Clock::SetGtp(int main_s, int period_s, int stones) {
  if (main_s < 0 || period_s < 0 || stones < 0) {
    return absl::InvalidArgumentError("syntax error");
  }
  if (period_s > 0 && stones == 0) {
    SetNone();
  } else if (period_s == 0) {
    SetAbsolute(main_s);
  } else {
    SetCanadian(main_s, period_s, stones);
  }
  return absl::OkStatus();
}

void Clock::SetNone() { Set(TimeSettings{}); }

void Clock::SetAbsolute(int main_s) {
  Set({.system = TimeSystem::kAbsolute, .main_s = main_s});
}

void Clock::SetJapanese(int main_s, int period_s, int periods) {
  Set({.system = TimeSystem::kJapanese,
       .main_s = main_s,
       .period_s = period_s,
       .stones = periods});
}

void Clock::SetCanadian(int main_s, int period_s, int stones) {
  Set({.system = TimeSystem::kCanadian,
       .main_s = main_s,
       .period_s = period_s,
       .stones = stones});
}

void Clock::Set(const TimeSettings& settings) {
  settings_ = settings;
  if (settings_.system == TimeSystem::kNone) settings_ = TimeSettings{};
  if (settings_.system == TimeSystem::kAbsolute) {
    settings_.period_s = settings_.stones = 0;
    settings_.last_period = LastPeriod::kLoses;
  }
  ResetPlayers();
}

void Clock::EnterByoyomi(PlayerClock& p) const {
  p.in_byoyomi = true;
  p.main_left = absl::ZeroDuration();
  p.period_left = absl::Seconds(settings_.period_s);
  p.stones = settings_.stones;
}

void Clock::ResetPlayers() {
  for (PlayerClock& p : players_) {
    p = PlayerClock{};
    p.main_left = absl::Seconds(settings_.main_s);
    // No main time: byo-yomi from the first move.
    if (settings_.main_s == 0 && settings_.byoyomi()) EnterByoyomi(p);
  }
}

Charged Clock::ChargeTo(PlayerClock& p, absl::Duration t) const {
  const absl::Duration period = absl::Seconds(settings_.period_s);
  const bool pass = settings_.last_period == LastPeriod::kPass;
  if (!p.in_byoyomi) {
    if (t < p.main_left) {
      p.main_left -= t;
      return Charged::kInTime;
    }
    if (settings_.system == TimeSystem::kAbsolute) {
      p.main_left = absl::ZeroDuration();
      p.flagged = true;
      return Charged::kFlagFell;
    }
    // Main time reached: what is over goes on into byo-yomi.
    t -= p.main_left;
    EnterByoyomi(p);
    if (t == absl::ZeroDuration()) return Charged::kInTime;
  }
  if (settings_.system == TimeSystem::kJapanese) {
    if (t < p.period_left) {
      p.period_left = period;
      return Charged::kInTime;
    }
    // Reaching the period's end uses it; each whole period more another.
    absl::Duration rem;
    const int64_t used =
        1 + absl::IDivDuration(t - p.period_left, period, &rem);
    if (used >= p.stones) {
      if (pass) {
        p.stones = 1;
        p.period_left = period;
        return Charged::kPassed;
      }
      p.stones = 0;
      p.period_left = absl::ZeroDuration();
      p.flagged = true;
      return Charged::kFlagFell;
    }
    p.stones -= static_cast<int>(used);
    p.period_left = period;
    return Charged::kInTime;
  }
  // Canadian.
  if (t >= p.period_left) {
    if (pass) {
      p.period_left = period;
      p.stones = settings_.stones;
      return Charged::kPassed;
    }
    p.period_left = absl::ZeroDuration();
    p.flagged = true;
    return Charged::kFlagFell;
  }
  p.period_left -= t;
  if (--p.stones == 0) {
    // The block's moves are played: the next block, with what is left.
    p.period_left += period;
    p.stones = settings_.stones;
  }
  return Charged::kInTime;
}

Charged Clock::Charge(rules::Color c, absl::Duration used) {
  PlayerClock& p = players_[rules::PlayerIndex(c)];
  used = std::max(used, absl::ZeroDuration());
  p.used += used;
  ++p.moves;
  if (settings_.system == TimeSystem::kNone) return Charged::kInTime;
  if (p.flagged) return Charged::kFlagFell;
  return ChargeTo(p, used);
}

absl::Duration Clock::TimeToFlag(rules::Color c) const {
  const PlayerClock& p = player(c);
  const absl::Duration period = absl::Seconds(settings_.period_s);
  if (settings_.system == TimeSystem::kNone) return absl::InfiniteDuration();
  if (p.flagged) return absl::ZeroDuration();
  switch (settings_.system) {
    case TimeSystem::kNone:
      break;
    case TimeSystem::kAbsolute:
      return p.main_left;
    case TimeSystem::kJapanese:
      return p.in_byoyomi ? p.period_left + period * std::max(0, p.stones - 1)
                          : p.main_left + period * settings_.stones;
    case TimeSystem::kCanadian:
      return p.in_byoyomi ? p.period_left : p.main_left + period;
  }
  return absl::InfiniteDuration();
}

TimeLeft Clock::Left(rules::Color c) const {
  const PlayerClock& p = player(c);
  if (!p.in_byoyomi) return {absl::ToDoubleSeconds(p.main_left), 0};
  return {absl::ToDoubleSeconds(p.period_left), p.stones};
}

void Clock::SetTimeLeft(rules::Color c, double seconds, int stones) {
  PlayerClock& p = players_[rules::PlayerIndex(c)];
  const absl::Duration t = absl::Seconds(std::max(0.0, seconds));
  p.flagged = false;
  if (stones <= 0 || !settings_.byoyomi()) {
    p.in_byoyomi = false;
    p.main_left = t;
    p.period_left = absl::ZeroDuration();
    p.stones = 0;
  } else {
    p.in_byoyomi = true;
    p.main_left = absl::ZeroDuration();
    p.period_left = t;
    p.stones = stones;
  }
}

PlayerClock Clock::Read(rules::Color c, absl::Duration running) const {
  PlayerClock p = player(c);
  if (settings_.system == TimeSystem::kNone || p.flagged) return p;
  absl::Duration t = std::max(running, absl::ZeroDuration());
  const absl::Duration period = absl::Seconds(settings_.period_s);
  if (!p.in_byoyomi) {
    if (t < p.main_left) {
      p.main_left -= t;
      return p;
    }
    if (settings_.system == TimeSystem::kAbsolute) {
      p.main_left = absl::ZeroDuration();
      p.flagged = true;
      return p;
    }
    t -= p.main_left;
    EnterByoyomi(p);
  }
  if (t < p.period_left) {
    p.period_left -= t;
    return p;
  }
  if (settings_.system == TimeSystem::kJapanese) {
    absl::Duration rem;
    const int64_t used =
        1 + absl::IDivDuration(t - p.period_left, period, &rem);
    if (used < p.stones) {
      p.stones -= static_cast<int>(used);
      p.period_left = period - rem;
      return p;
    }
    p.stones = 0;
  }
  p.period_left = absl::ZeroDuration();
  p.flagged = true;
  return p;
}

absl::Duration Clock::Allot(rules::Color c, int empty_points) const {
  if (settings_.system == TimeSystem::kNone) return absl::InfiniteDuration();
  const PlayerClock& p = player(c);
  const double period = settings_.period_s;
  // Byo-yomi time per move.
  double byo = 0;
  if (settings_.system == TimeSystem::kCanadian && settings_.stones > 0) {
    byo = period / settings_.stones;
  } else if (settings_.system == TimeSystem::kJapanese &&
             settings_.stones > 0) {
    byo = period;
  }
  double t = 0;
  double on_clock = 0;
  if (!p.in_byoyomi) {
    const double main = absl::ToDoubleSeconds(p.main_left);
    const int expected = std::max(kMinExpectedMoves, empty_points / 3);
    t = main / expected + byo;
    on_clock = main + (byo > 0 ? period : 0);
  } else {
    on_clock = absl::ToDoubleSeconds(p.period_left);
    t = settings_.system == TimeSystem::kCanadian
            ? on_clock / std::max(1, p.stones)
            : on_clock;
  }
  t = t * kSafetyFactor - kOverheadS;
  t = std::min(t, on_clock - kReserveS);
  t = std::max(t, kMinMoveS);
  return absl::Seconds(t);
}

double Clock::seconds_left(rules::Color c) const {
  const PlayerClock& p = player(c);
  return absl::ToDoubleSeconds(p.in_byoyomi ? p.period_left : p.main_left);
}

}  // namespace qipu::gtp
