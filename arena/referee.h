// Referee: plays ONE game between two entrants under competition rules
// and says how it ended -- a match (match/match.h: the clock, illegal
// moves, warnings, failures, dead stones at two passes) between the
// entrants' players, and its record as SGF. The tournament engine calls it
// once per pairing.
//
// Entrants are players (match/player.h): qipu's own policies (random,
// pattern, mcts) and external GTP engines (`gtp:<command line>`), made by
// match::MakePlayer() and owned by the caller, which keeps them across
// games. An engine is told the clock (EnginePolicy::SetGameClock():
// time_settings, or kgs-time_settings byoyomi when it lists it) and its
// time_left before every genmove; its genmove deadline is the time until
// it runs out plus EnginePolicyOptions::genmove_margin (10 s unless the
// policy was made otherwise), after which the engine is killed and
// reaped. qipu's own policies search for the clock's allotment.
//
// The referee times each move with its time source right before and
// right after the player's Choose() (match/play_match.h). An entrant that
// fails loses the game ("W+F"). At two passes a game with an engine on
// either side settles dead stones: both players say which are dead (an
// engine's final_status_list dead, qipu's judgement for a qipu policy);
// disputed stones are played out (art. 21.4); games between qipu's own
// policies are counted as they stand.
//
// Thread-safety: one call per thread; concurrent games need their own
// players.
#ifndef QIPU_ARENA_REFEREE_H_
#define QIPU_ARENA_REFEREE_H_

#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "gtp/time_settings.h"
#include "match/adjudication.h"
#include "match/match.h"
#include "match/match_record.h"
#include "match/player.h"
#include "rules/record.h"
#include "rules/rules.h"

namespace qipu::arena {

// One side of a game.
struct Entrant {
  // The name records give (SGF PB/PW); the player's spec when empty.
  std::string name;
  // Not owned; must outlive the call. Black's and White's may be the same
  // object (a player against itself).
  match::Player* player = nullptr;
};

// The outcome of one refereed game: the match as it ended
// (match::MatchOutcome: the game, the result and why, warnings, clocks,
// dead stones, disputes) and its record. Plain value type.
struct ArenaGame : match::MatchOutcome {
  explicit ArenaGame(match::MatchOutcome m)
      : match::MatchOutcome(std::move(m)) {}

  // The game as a record (match::MatchRecord()), and as SGF.
  rules::GameRecord record;
  std::string sgf;
};

// The game to play. Plain value.
struct RefereeOptions {
  // Board side, 2..25 (GTP engines play square boards).
  int size = 19;
  rules::Rules rules;
  // SGF RU; rules::PresetName(rules) when empty.
  std::string rules_name;
  // Fixed handicap stones (GTP placement): 0, or 2..9 as the board allows.
  int handicap = 0;
  // The time control (gtp/time_settings.h); kNone for none.
  gtp::TimeSettings time;
  match::IllegalMovePolicy illegal = match::IllegalMovePolicy::kForfeit;
  // The time source the referee measures moves with; absl::Now() when
  // empty. Tests inject a clock of their own.
  std::function<absl::Time()> now;
  // SGF EV, GN, DT (left out when empty).
  std::string event;
  std::string game_name;
  std::string date;
};

// Plays one game of `black` against `white` (see the file comment). An
// entrant's failure is an outcome, not an error; errors are for the
// options: InvalidArgument for a bad size, komi, handicap or time control,
// or a null player.
absl::StatusOr<ArenaGame> PlayGame(const Entrant& black, const Entrant& white,
                                   const RefereeOptions& options);

}  // namespace qipu::arena

#endif  // QIPU_ARENA_REFEREE_H_
