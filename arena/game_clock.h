// GameClock: the referee's clock of one game (spec section 6, art. 22).
// The arena measures each move's wall time itself and charges it here;
// engines are only told their time (gtp/engine_policy.h SetGameClock()).
//
// Time systems (gtp::TimeSettings, whole seconds):
//   - none: no limit;
//   - absolute (包干): main time only; running out loses;
//   - Japanese byo-yomi (讀秒): main time, then P periods of T seconds. A
//     move within a period costs nothing; a move that exceeds its period
//     uses it up and goes on into the next; a move that exceeds the last
//     period loses (art. 22.5: the last period run out loses);
//   - Canadian (定時限步制): main time, then S moves in every T seconds;
//     time left in a period is not carried into the next; a period run
//     out before its S moves loses.
// A move that runs past main time goes on into byo-yomi: its overflow is
// charged to the first period (counting as one of a Canadian period's S
// moves). A move that ends main time exactly starts byo-yomi at the next
// move with a fresh period. Main time 0 means byo-yomi from the first move.
//
// The clock reports time left as GTP's time_left (and KGS's) says it, and
// the search time qipu's own policies get (gtp::Clock's allotment, so that
// `qipu gtp` and the arena budget moves alike).
//
// Also the text form of a time control, for tournament files and
// reports: "none", "absolute:M", "byoyomi:M+PxT", "canadian:M+S/T" (seconds).
//
// Plain value type; not thread-safe.
#ifndef QIPU_ARENA_GAME_CLOCK_H_
#define QIPU_ARENA_GAME_CLOCK_H_

#include <array>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "gtp/clock.h"
#include "rules/types.h"

namespace qipu::arena {

// OK when `t` is a time control the arena can run: absolute with main
// time > 0; byo-yomi and Canadian with a period >= 1 s and >= 1
// periods/stones; every value in 0..864000 (ten days). InvalidArgument
// says what is wrong.
absl::Status ValidateTimeSettings(const gtp::TimeSettings& t);

// Parses "none", "absolute:M", "byoyomi:M+PxT" (P periods of T seconds),
// "canadian:M+S/T" (S moves in T seconds); M, P, S, T whole numbers of
// seconds (or counts). InvalidArgument naming the text and the form
// expected; the result passes ValidateTimeSettings().
absl::StatusOr<gtp::TimeSettings> ParseTimeSettings(absl::string_view text);

// The text form ParseTimeSettings() reads back.
std::string TimeSettingsText(const gtp::TimeSettings& t);

// SGF's OT (overtime) text: "3x30 byo-yomi", "25/600 Canadian"; "" for
// none and absolute time.
std::string OvertimeText(const gtp::TimeSettings& t);

// One player's clock.
struct PlayerClock {
  // Main time left (zero once in byo-yomi).
  absl::Duration main_left = absl::ZeroDuration();
  // True once main time is over and byo-yomi runs.
  bool in_byoyomi = false;
  // Canadian: time left in the current period. Japanese: the period (each
  // move starts a fresh one). Zero before byo-yomi.
  absl::Duration period_left = absl::ZeroDuration();
  // Canadian: moves still to play in the current period. Japanese: periods
  // left. Zero before byo-yomi.
  int stones = 0;
  // Wall time charged so far, and moves charged.
  absl::Duration used = absl::ZeroDuration();
  int moves = 0;
  // True once the flag has fallen: the player lost on time.
  bool flagged = false;
};

// Time left as GTP's time_left says it: `seconds` of main time with
// stones 0, or in byo-yomi the seconds of the current period with
// `stones` the moves left in a Canadian period or the Japanese periods
// left (KGS's form). Also SGF's BL/WL (seconds) and OB/OW (stones).
struct TimeLeft {
  double seconds = 0;
  int stones = 0;
};

class GameClock {
 public:
  // Both players at the start of the game. Precondition:
  // ValidateTimeSettings(settings) is OK (kNone needs nothing).
  explicit GameClock(const gtp::TimeSettings& settings);

  const gtp::TimeSettings& settings() const { return settings_; }
  const PlayerClock& player(rules::Color c) const {
    return players_[rules::PlayerIndex(c)];
  }

  // c took `used` (>= 0) for a move: charged as the file comment says.
  // Returns false when c's time ran out during the move (the flag fell;
  // the clock then shows no time left and player(c).flagged is true).
  // Precondition: c's flag has not fallen.
  bool Charge(rules::Color c, absl::Duration used);

  // How long c's next move may take before the flag falls:
  // InfiniteDuration() without a time system.
  absl::Duration TimeToFlag(rules::Color c) const;

  // c's time left in GTP's time_left form (see TimeLeft).
  TimeLeft Left(rules::Color c) const;

  // The search time for c's next move with `empty_points` empty points on
  // the board: gtp::Clock's allotment (gtp/clock.h) for c's time left;
  // InfiniteDuration() without a time system.
  absl::Duration Allot(rules::Color c, int empty_points) const;

 private:
  gtp::TimeSettings settings_;
  std::array<PlayerClock, 2> players_{};
};

}  // namespace qipu::arena

#endif  // QIPU_ARENA_GAME_CLOCK_H_
