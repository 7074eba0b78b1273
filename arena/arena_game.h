// ArenaGame: the outcome of one refereed game (arena/referee.h) -- the
// game as played, the referee's result and why, warnings, clocks, and the
// game as an SGF record.
//
// SGF (rules::WriteSgf): SZ, KM, RU (the rules' preset name), HA with the
// handicap stones as AB, RE (the referee's result, rules::ResultToSgf:
// "B+3.5", "W+R", "B+T" on time, "W+Illegal" for a forfeited illegal move,
// "B+F" for a second warning or an engine failure), PB/PW (the entrants'
// names), EV, GN, TM (main time, seconds) and OT ("3x30 byo-yomi",
// "25/600 Canadian"), GC (how the game ended, the warnings), QB/QW (the
// policy specs, as engine/game_format.h names them); on each move BL
// or WL, the mover's time left after it (main time, or the current
// period) and OB/OW, the stones or periods left in byo-yomi; a voided
// illegal move is its pass with a comment C naming the move, the reason
// and the article.
#ifndef QIPU_ARENA_ARENA_GAME_H_
#define QIPU_ARENA_ARENA_GAME_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "arena/game_clock.h"
#include "rules/game.h"
#include "rules/record.h"
#include "rules/result.h"

namespace qipu::arena {

// How a refereed game ended.
enum class ArenaEnd : uint8_t {
  // Two passes, then the count (warnings deducted, art. 24.1).
  kCount = 0,
  kResign,
  // A player's flag fell (art. 22): it loses on time.
  kTime,
  // An illegal move under the forfeit policy.
  kIllegalMove,
  // A second warning under the chinese policy (art. 24.2).
  kSecondWarning,
  // An entrant failed: could not start, crashed, stopped answering before
  // its flag fell (untimed games: past its deadline), answered garbage or
  // refused the game. It loses (both failing at the start: no result).
  kEngineFailure,
  // The rules ended it otherwise: a balanced cycle (art. 20: no result, a
  // draw) or the move cap (void); the result is the rules'.
  kRules,
};
// "count", "resign", "time", "illegal-move", "second-warning",
// "engine-failure", "rules".
const char* ArenaEndName(ArenaEnd e);

// "Black" or "White", for details and comments. Precondition: a stone
// colour.
const char* SideName(rules::Color c);

// A move's GTP vertex ("D4", "pass"); a point that is not on `board` as
// "point N (off the board)".
std::string VertexText(rules::Point p, const rules::Board& board);

// An illegal move an entrant chose.
struct IllegalAttempt {
  // The 1-based number the move would have had.
  int move_number = 0;
  rules::Color color = rules::Color::kEmpty;
  rules::Point point = rules::kNoPoint;
  rules::IllegalReason reason = rules::IllegalReason::kNone;
  // The ruling: a warning earned; the move voided as a pass; the game lost.
  bool warning = false;
  bool voided = false;
  bool lost = false;
  // The article applied (IllegalMoveRuling::article; a static string).
  const char* article = "";
};

// Each move's time (one entry per move of the game, voided moves' passes
// included).
struct MoveTime {
  // Wall time the mover took, as the referee measured it.
  absl::Duration used = absl::ZeroDuration();
  // The mover's time left after the move.
  TimeLeft left;
};

// What the SGF names besides the game.
struct RecordInfo {
  std::string black_name;
  std::string white_name;
  std::string black_spec;
  std::string white_spec;
  // RU: the rules' name.
  std::string rules_name;
  // EV, GN, DT (when not empty).
  std::string event;
  std::string game_name;
  std::string date;
};

// The outcome of one game. Plain value type.
struct ArenaGame {
  explicit ArenaGame(rules::Game g) : game(std::move(g)) {}

  // The game as played: voided moves are passes; a game the referee ended
  // (time, forfeit, failure) is resigned for the loser with the rules'
  // reason. game.result() is the rules' own verdict, so a counted game
  // shows the count before the warnings.
  rules::Game game;
  // The referee's result (warnings deducted from a count).
  rules::GameResult result;
  ArenaEnd end = ArenaEnd::kCount;
  // How it ended, in words ("White's engine crashed: ... killed by signal
  // 11", "Black used 3.2 s with 1 s left").
  std::string detail;
  // Warnings per colour (rules::PlayerIndex): the tournament's tie-break.
  std::array<int, 2> warnings{};
  // The clocks at the end (used time, time left, a fallen flag).
  std::array<PlayerClock, 2> clocks{};
  // Per move of `game`.
  std::vector<MoveTime> move_times;
  // Every illegal move chosen, in order.
  std::vector<IllegalAttempt> illegal_moves;
  // The handicap stones (the root's AB).
  std::vector<rules::Point> handicap_stones;
  // The time control the game was played under.
  gtp::TimeSettings time;
  // The game as a record, and as SGF (WriteSgf(record)).
  rules::GameRecord record;
  std::string sgf;

  int moves() const { return game.num_moves(); }
  int warnings_of(rules::Color c) const {
    return warnings[rules::PlayerIndex(c)];
  }
  absl::Duration time_used(rules::Color c) const {
    return clocks[rules::PlayerIndex(c)].used;
  }
};

// The record of `g` (see the file comment). Thread-safe.
rules::GameRecord ArenaRecord(const ArenaGame& g, const RecordInfo& info);

}  // namespace qipu::arena

#endif  // QIPU_ARENA_ARENA_GAME_H_
