#include "gtp/clock.h"

#include <algorithm>

namespace qipu::gtp {
namespace {

// See the file comment of clock.h.
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
  }
  ResetPlayers();
}

void Clock::ResetPlayers() {
  for (Player& p : players_) {
    p.seconds = settings_.main_s;
    p.in_byoyomi = false;
    p.stones = settings_.stones;
    // No main time: byo-yomi from the first move.
    if (settings_.main_s == 0 && settings_.period_s > 0) {
      p.in_byoyomi = true;
      p.seconds = settings_.period_s;
    }
  }
}

void Clock::TimeLeft(rules::Color c, double seconds, int stones) {
  Player& p = players_[rules::PlayerIndex(c)];
  p.seconds = std::max(0.0, seconds);
  if (stones == 0 || settings_.system == TimeSystem::kAbsolute) {
    p.in_byoyomi = false;
    p.stones = settings_.stones;
  } else {
    p.in_byoyomi = true;
    p.stones = stones;
  }
}

absl::Duration Clock::Allot(rules::Color c, int empty_points) const {
  if (settings_.system == TimeSystem::kNone) return absl::InfiniteDuration();
  const Player& p = players_[rules::PlayerIndex(c)];
  // Byo-yomi time per move.
  double byo = 0;
  if (settings_.system == TimeSystem::kCanadian && settings_.stones > 0) {
    byo = static_cast<double>(settings_.period_s) / settings_.stones;
  } else if (settings_.system == TimeSystem::kJapanese &&
             settings_.stones > 0) {
    byo = settings_.period_s;
  }
  double t = 0;
  double on_clock = p.seconds;
  if (!p.in_byoyomi) {
    const int expected = std::max(kMinExpectedMoves, empty_points / 3);
    t = p.seconds / expected + byo;
    if (byo > 0)
      on_clock += settings_.system == TimeSystem::kCanadian
                      ? static_cast<double>(settings_.period_s)
                      : byo;
  } else if (settings_.system == TimeSystem::kCanadian) {
    t = p.seconds / std::max(1, p.stones);
  } else {
    t = p.seconds;
  }
  t = t * kSafetyFactor - kOverheadS;
  t = std::min(t, on_clock - kReserveS);
  t = std::max(t, kMinMoveS);
  return absl::Seconds(t);
}

void Clock::Spent(rules::Color c, absl::Duration used) {
  if (settings_.system == TimeSystem::kNone) return;
  Player& p = players_[rules::PlayerIndex(c)];
  double s = absl::ToDoubleSeconds(used);
  if (!p.in_byoyomi) {
    if (s <= p.seconds || settings_.system == TimeSystem::kAbsolute ||
        settings_.period_s == 0) {
      p.seconds = std::max(0.0, p.seconds - s);
      return;
    }
    s -= p.seconds;
    p.in_byoyomi = true;
    p.seconds = settings_.period_s;
    p.stones = settings_.stones;
  }
  if (settings_.system == TimeSystem::kCanadian) {
    p.seconds -= s;
    if (--p.stones <= 0 || p.seconds <= 0) {
      // A new period (or, on overtime, the time is lost; keep a period so
      // that the allotment stays sane if the controller plays on).
      p.seconds = settings_.period_s;
      p.stones = settings_.stones;
    }
  } else {
    // Japanese: a move within the period keeps it; a longer one uses up
    // periods.
    while (s > settings_.period_s && p.stones > 1) {
      s -= settings_.period_s;
      --p.stones;
    }
    p.seconds = settings_.period_s;
  }
}

}  // namespace qipu::gtp
