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

void Clock::SetNone() {
  system_ = TimeSystem::kNone;
  main_s_ = period_s_ = stones_ = 0;
  ResetPlayers();
}

void Clock::SetAbsolute(int main_s) {
  system_ = TimeSystem::kAbsolute;
  main_s_ = main_s;
  period_s_ = stones_ = 0;
  ResetPlayers();
}

void Clock::SetJapanese(int main_s, int period_s, int periods) {
  system_ = TimeSystem::kJapanese;
  main_s_ = main_s;
  period_s_ = period_s;
  stones_ = periods;
  ResetPlayers();
}

void Clock::SetCanadian(int main_s, int period_s, int stones) {
  system_ = TimeSystem::kCanadian;
  main_s_ = main_s;
  period_s_ = period_s;
  stones_ = stones;
  ResetPlayers();
}

void Clock::ResetPlayers() {
  for (Player& p : players_) {
    p.seconds = main_s_;
    p.in_byoyomi = false;
    p.stones = stones_;
    // No main time: byo-yomi from the first move.
    if (main_s_ == 0 && period_s_ > 0) {
      p.in_byoyomi = true;
      p.seconds = period_s_;
    }
  }
}

void Clock::TimeLeft(rules::Color c, double seconds, int stones) {
  Player& p = players_[rules::PlayerIndex(c)];
  p.seconds = std::max(0.0, seconds);
  if (stones == 0 || system_ == TimeSystem::kAbsolute) {
    p.in_byoyomi = false;
    p.stones = stones_;
  } else {
    p.in_byoyomi = true;
    p.stones = stones;
  }
}

absl::Duration Clock::Allot(rules::Color c, int empty_points) const {
  if (system_ == TimeSystem::kNone) return absl::InfiniteDuration();
  const Player& p = players_[rules::PlayerIndex(c)];
  // Byo-yomi time per move.
  double byo = 0;
  if (system_ == TimeSystem::kCanadian && stones_ > 0) {
    byo = static_cast<double>(period_s_) / stones_;
  } else if (system_ == TimeSystem::kJapanese && stones_ > 0) {
    byo = period_s_;
  }
  double t = 0;
  double on_clock = p.seconds;
  if (!p.in_byoyomi) {
    const int expected = std::max(kMinExpectedMoves, empty_points / 3);
    t = p.seconds / expected + byo;
    if (byo > 0)
      on_clock += system_ == TimeSystem::kCanadian
                      ? static_cast<double>(period_s_)
                      : byo;
  } else if (system_ == TimeSystem::kCanadian) {
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
  if (system_ == TimeSystem::kNone) return;
  Player& p = players_[rules::PlayerIndex(c)];
  double s = absl::ToDoubleSeconds(used);
  if (!p.in_byoyomi) {
    if (s <= p.seconds || system_ == TimeSystem::kAbsolute || period_s_ == 0) {
      p.seconds = std::max(0.0, p.seconds - s);
      return;
    }
    s -= p.seconds;
    p.in_byoyomi = true;
    p.seconds = period_s_;
    p.stones = stones_;
  }
  if (system_ == TimeSystem::kCanadian) {
    p.seconds -= s;
    if (--p.stones <= 0 || p.seconds <= 0) {
      // A new period (or, on overtime, the time is lost; keep a period so
      // that the allotment stays sane if the controller plays on).
      p.seconds = period_s_;
      p.stones = stones_;
    }
  } else {
    // Japanese: a move within the period keeps it; a longer one uses up
    // periods.
    while (s > period_s_ && p.stones > 1) {
      s -= period_s_;
      --p.stones;
    }
    p.seconds = period_s_;
  }
}

}  // namespace qipu::gtp
