// Clock: the two players' clocks of one game under a time control
// (gtp/time_settings.h) -- qipu's one clock. The referee of a match
// (match/match.h: the arena, `qipu bench strength`, the worker, `qipu
// play`) charges each move's time to it; `qipu gtp` keeps its own time
// with it between the controller's time_left commands. Time comes in as
// durations the caller measured: the clock never reads a real clock.
//
// Charging a move of `used` (the competition rules, arts. 12 and 22; a
// player's time "reaches zero" when what is left is used up exactly --
// the referee saying "10" as the stone is played counts as used, art.
// 12.3):
//   - main time: a move within it costs its time; one that reaches its end
//     goes on into byo-yomi with what is over (none: byo-yomi from the next
//     move); under absolute time (包干) reaching the end loses;
//   - Japanese byo-yomi (讀秒): a move shorter than the current period
//     costs nothing ("不足60秒的著手不予計時"); one that reaches the period's
//     length uses the period ("達到60秒的視為已使用…1分鍾") and goes on into
//     the next; using up the last period is running out of time;
//   - Canadian (定時限步制): S moves in T seconds; a move costs its time
//     from the block's time; the block's S-th move starts the next block
//     with the time left over carried into it ("節余時間可延至下一節使用");
//     the block's time reaching zero is running out of time;
//   - running out (art. 22.5) loses, or with LastPeriod::kPass the move is
//     a pass and play goes on (a Japanese player keeps its last period, a
//     Canadian one gets a new block).
//
// Time left in GTP's time_left form (TimeLeft), and the search time a
// computer player gets for its next move (Allot()): with E empty points
// and M = max(10, E / 3) the moves it still expects to play,
//   in main time:  main_left / M + one byo-yomi move (period / stones for
//                  Canadian, the period for Japanese, 0 for absolute);
//   in byo-yomi:   Canadian: block time left / moves left in the block;
//                  Japanese: what is left of the period;
// then times 0.9, less 0.2 s of overhead, at most the time before the
// flag falls less 0.5 s, at least 0.05 s; InfiniteDuration() without a
// time system.
//
// Plain value type; not thread-safe.
#ifndef QIPU_GTP_CLOCK_H_
#define QIPU_GTP_CLOCK_H_

#include <array>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "gtp/time_settings.h"
#include "rules/types.h"

namespace qipu::gtp {

// One player's clock.
struct PlayerClock {
  // Main time left (zero once in byo-yomi).
  absl::Duration main_left = absl::ZeroDuration();
  // True once main time is over and byo-yomi runs.
  bool in_byoyomi = false;
  // Canadian: time left in the current block. Japanese: what is left of
  // the current period (the whole period at the start of each move). Zero
  // before byo-yomi.
  absl::Duration period_left = absl::ZeroDuration();
  // Canadian: moves still to play in the current block. Japanese: periods
  // left, the current one included. Zero before byo-yomi.
  int stones = 0;
  // Wall time charged so far, and moves charged.
  absl::Duration used = absl::ZeroDuration();
  int moves = 0;
  // True once the flag has fallen: the player lost on time.
  bool flagged = false;
};

// Time left as GTP's time_left says it: `seconds` of main time with
// stones 0, or in byo-yomi the seconds of the current period with
// `stones` the moves left in a Canadian block or the Japanese periods left
// (KGS's form). Also SGF's BL/WL (seconds) and OB/OW (stones).
struct TimeLeft {
  double seconds = 0;
  int stones = 0;
};

// What a charged move did to the clock.
enum class Charged : uint8_t {
  // Within the player's time.
  kInTime = 0,
  // The player ran out of time and loses (the flag fell).
  kFlagFell,
  // The player ran out of its last period under LastPeriod::kPass: the
  // move is a pass; the clock goes on (see the file comment).
  kPassed,
};

class Clock {
 public:
  // No time system.
  Clock() = default;
  // Both players at the start of a game under `settings` (kNone needs
  // nothing; otherwise ValidateTimeSettings() should be OK).
  explicit Clock(const TimeSettings& settings) { Set(settings); }

  // GTP time_settings main_time byo_yomi_time byo_yomi_stones (seconds):
  // Canadian byo-yomi; byo_yomi_time 0 means absolute; byo_yomi_time > 0
  // with 0 stones means no time limit. Resets both players' time.
  // InvalidArgument("syntax error") for negative values.
  absl::Status SetGtp(int main_s, int period_s, int stones);
  // kgs-time_settings: "none", "absolute main", "byoyomi main period
  // periods", "canadian main period stones". Reset both players' time.
  void SetNone();
  void SetAbsolute(int main_s);
  void SetJapanese(int main_s, int period_s, int periods);
  void SetCanadian(int main_s, int period_s, int stones);
  // Any time control (kAbsolute drops the byo-yomi fields, kNone all of
  // them). Resets both players' time.
  void Set(const TimeSettings& settings);
  // Back to the start of the game's time (clear_board).
  void ResetPlayers();

  const TimeSettings& settings() const { return settings_; }
  TimeSystem system() const { return settings_.system; }
  const PlayerClock& player(rules::Color c) const {
    return players_[rules::PlayerIndex(c)];
  }

  // c took `used` (negative counts as zero) for a move: charged as the
  // file comment says. A player whose flag has fallen stays so (kFlagFell;
  // nothing more is charged but `used` and `moves`).
  Charged Charge(rules::Color c, absl::Duration used);

  // How long c's next move may take before c runs out of time (a move that
  // takes this long or longer runs out): InfiniteDuration() without a time
  // system.
  absl::Duration TimeToFlag(rules::Color c) const;

  // c's time left in GTP's time_left form (see TimeLeft).
  TimeLeft Left(rules::Color c) const;

  // GTP time_left colour time stones: `seconds` left in the current period
  // (main time when stones is 0), `stones` the moves left in this Canadian
  // block or the Japanese periods left. Clears a fallen flag (the
  // controller keeps the game's time).
  void SetTimeLeft(rules::Color c, double seconds, int stones);

  // c's clock as it reads `running` into c's current move (not charged):
  // a display's view. flagged when c would run out by then.
  PlayerClock Read(rules::Color c, absl::Duration running) const;

  // The search time for c's next move with `empty_points` empty points on
  // the board (see the file comment).
  absl::Duration Allot(rules::Color c, int empty_points) const;

  // Seconds left in c's main time, or in its current period in byo-yomi.
  double seconds_left(rules::Color c) const;
  // True once c is in byo-yomi.
  bool in_byoyomi(rules::Color c) const { return player(c).in_byoyomi; }

 private:
  // p at the start of byo-yomi.
  void EnterByoyomi(PlayerClock& p) const;
  // Charges `t` (>= 0) of one move to p; see Charge().
  Charged ChargeTo(PlayerClock& p, absl::Duration t) const;

  TimeSettings settings_;
  std::array<PlayerClock, 2> players_{};
};

}  // namespace qipu::gtp

#endif  // QIPU_GTP_CLOCK_H_
