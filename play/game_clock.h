// GameClock: the two players' clocks of a game at the board -- absolute
// time (包干) with optional Japanese byo-yomi (periods of S seconds; a
// move made within a period costs none, each period overrun costs one,
// the last one overrun loses on time). Time comes in as absl::Time values
// the caller reads (the terminal board passes absl::Now(), tests pass
// made-up instants), so the clock itself never looks at a real clock.
//
// Not thread-safe; a plain value type.
#ifndef QIPU_PLAY_GAME_CLOCK_H_
#define QIPU_PLAY_GAME_CLOCK_H_

#include <array>
#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "rules/types.h"

namespace qipu::play {

// The time control of a game.
struct ClockSettings {
  // Main time per player; zero with no periods means no clock at all.
  absl::Duration main = absl::ZeroDuration();
  // Length of one byo-yomi period (used when periods > 0).
  absl::Duration period = absl::ZeroDuration();
  // Byo-yomi periods per player after the main time; 0 = absolute time.
  int periods = 0;

  // True when a clock runs (main time, byo-yomi, or both).
  bool timed() const { return main > absl::ZeroDuration() || periods > 0; }
};

// OK when the settings make sense: nothing negative, a positive period
// when there are periods, periods within 0..100. InvalidArgument says
// which value is wrong.
absl::Status ValidateClockSettings(const ClockSettings& settings);

// What one player's clock shows.
struct ClockReading {
  // Main time left (zero once in byo-yomi).
  absl::Duration main = absl::ZeroDuration();
  // True once the main time is used up and a period runs.
  bool in_byoyomi = false;
  // Time left in the current period (in byo-yomi).
  absl::Duration period = absl::ZeroDuration();
  // Periods left, the current one included.
  int periods = 0;
  // True when the player is out of time.
  bool flagged = false;
};

class GameClock {
 public:
  // A clock with `settings` (ValidateClockSettings() OK), both players
  // with their full time, not running.
  explicit GameClock(const ClockSettings& settings = {});

  const ClockSettings& settings() const { return settings_; }
  bool timed() const { return settings_.timed(); }

  // Starts c's clock at `now` (stopping nothing: call Stop() first when
  // another clock runs). Precondition: c is Black or White.
  void Start(rules::Color c, absl::Time now);
  // Stops the running clock at `now` and charges its player for the time
  // since Start(). Returns false when that player ran out of time (the
  // clock then shows the player flagged). True when nothing ran.
  bool Stop(absl::Time now);
  // The colour whose clock runs, or kEmpty.
  rules::Color running() const { return running_; }

  // c's clock as it reads at `now` (the running time included, not
  // charged).
  ClockReading Read(rules::Color c, absl::Time now) const;
  // True when c is out of time at `now` (always false without a clock).
  bool Flagged(rules::Color c, absl::Time now) const {
    return Read(c, now).flagged;
  }

  // The thinking time to give a computer player c at `now` with
  // `empty_points` empty points on the board: in main time main_left / M
  // plus one period, with M = max(10, empty_points / 3) the moves it still
  // expects to play; in byo-yomi the period left; then x 0.9, less 0.2 s,
  // at most the time before it loses less 0.5 s, at least 0.05 s.
  // InfiniteDuration() without a clock.
  absl::Duration Allot(rules::Color c, absl::Time now, int empty_points) const;

  // "12:34", "0:07", "1:02:03" -- a duration as the clock face shows it
  // (whole seconds, rounded up so that 0:00 means out of time).
  static std::string Format(absl::Duration d);
  // The clock of c at `now` in words for the status panel: "untimed",
  // "9:58", "BY 0:25 (3)" (in byo-yomi: period left and periods left),
  // "out of time".
  std::string Describe(rules::Color c, absl::Time now) const;

 private:
  // One player's time between moves.
  struct Side {
    // Main time left (>= 0).
    absl::Duration main = absl::ZeroDuration();
    // Periods left (the one running included once main is used up).
    int periods = 0;
    bool flagged = false;
  };
  // `side` after `used` more time on its clock.
  Side Charged(const Side& side, absl::Duration used) const;

  ClockSettings settings_;
  std::array<Side, 2> sides_;
  // Whose clock runs (kEmpty: none) and since when.
  rules::Color running_ = rules::Color::kEmpty;
  absl::Time started_ = absl::InfinitePast();
};

}  // namespace qipu::play

#endif  // QIPU_PLAY_GAME_CLOCK_H_
