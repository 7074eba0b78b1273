// Clock: the time system of a GTP game (time_settings, kgs-time_settings)
// and each player's time left (time_left, and the engine's own
// bookkeeping between time_left commands), with the per-move allotment the
// engine's policy searches under.
//
// Time systems: none; absolute (main time only); Canadian byo-yomi
// (main time, then `stones` moves per period of `period` seconds; GTP's
// time_settings); Japanese byo-yomi (main time, then `periods` periods of
// `period` seconds, one move each; kgs-time_settings byoyomi).
//
// Allotment for the side to move (Allot()), with E the empty points and
// M = max(10, E / 3) the moves it still expects to play (a side plays about
// a third of the empty points before both pass):
//   in main time:   main_left / M + per_move(byo-yomi)
//   in byo-yomi:    Canadian: period_left / stones_left;
//                   Japanese: period
// where per_move(byo-yomi) is period / stones (Canadian), period
// (Japanese) or 0 (absolute). The result is then made safe: times 0.9,
// less 0.2 s of overhead, at most the time on the clock (main time, plus
// the current period) less 0.5 s, and at least 0.05 s. Without a time
// system (or with GTP's "byo_yomi_time > 0, stones = 0", no time limit)
// the allotment is infinite: the policy's own budget decides.
//
// Not thread-safe (the engine's one thread).
#ifndef QIPU_GTP_CLOCK_H_
#define QIPU_GTP_CLOCK_H_

#include <array>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "rules/types.h"

namespace qipu::gtp {

enum class TimeSystem { kNone, kAbsolute, kCanadian, kJapanese };

// A time system with its settings, in whole seconds as GTP says them (the
// controller's clock in the arena, the engine's own in `qipu gtp`). Plain
// value.
struct TimeSettings {
  TimeSystem system = TimeSystem::kNone;
  // Main time (0 for none: byo-yomi from the first move).
  int main_s = 0;
  // Canadian and Japanese: the byo-yomi period; 0 otherwise.
  int period_s = 0;
  // Canadian: moves per period; Japanese: periods; 0 otherwise.
  int stones = 0;

  friend bool operator==(const TimeSettings&, const TimeSettings&) = default;
};

class Clock {
 public:
  Clock() = default;

  // GTP time_settings main_time byo_yomi_time byo_yomi_stones (seconds):
  // Canadian byo-yomi; byo_yomi_time 0 means absolute; byo_yomi_time > 0
  // with 0 stones means no time limit. Resets both players' time.
  // InvalidArgument("syntax error") for negative values.
  absl::Status SetGtp(int main_s, int period_s, int stones);
  // kgs-time_settings: "none", "absolute main", "byoyomi main period
  // periods", "canadian main period stones". Resets both players' time.
  void SetNone();
  void SetAbsolute(int main_s);
  void SetJapanese(int main_s, int period_s, int periods);
  void SetCanadian(int main_s, int period_s, int stones);
  // One of the four above, by `settings.system`.
  void Set(const TimeSettings& settings);

  // GTP time_left colour time stones: `seconds` left in the current period
  // (main time when stones is 0); `stones` moves left in this Canadian
  // period, or periods left for Japanese byo-yomi.
  void TimeLeft(rules::Color c, double seconds, int stones);

  // Back to the start of the game's time (clear_board).
  void ResetPlayers();

  // The search time for c's next move with `empty_points` empty points
  // on the board (see the file comment); InfiniteDuration() without a
  // time limit.
  absl::Duration Allot(rules::Color c, int empty_points) const;

  // c took `used` for a move: main time first, then the byo-yomi period
  // (a new period starts when one is used up or its stones are played).
  void Spent(rules::Color c, absl::Duration used);

  TimeSystem system() const { return settings_.system; }
  const TimeSettings& settings() const { return settings_; }
  // Seconds left in c's main time (or current period when in byo-yomi).
  double seconds_left(rules::Color c) const {
    return players_[rules::PlayerIndex(c)].seconds;
  }
  // True once c is in byo-yomi.
  bool in_byoyomi(rules::Color c) const {
    return players_[rules::PlayerIndex(c)].in_byoyomi;
  }

 private:
  struct Player {
    // Seconds left: main time, or the current period once in byo-yomi.
    double seconds = 0;
    bool in_byoyomi = false;
    // Canadian: moves left in this period; Japanese: periods left.
    int stones = 0;
  };

  TimeSettings settings_;
  std::array<Player, 2> players_{};
};

}  // namespace qipu::gtp

#endif  // QIPU_GTP_CLOCK_H_
