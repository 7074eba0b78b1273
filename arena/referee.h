// Referee: plays ONE game between two entrants under competition rules
// (spec section 6; arts. 18-19, 22, 24 of the Chinese competition rules)
// and says how it ended (arena/arena_game.h). The tournament engine calls
// it once per pairing.
//
// Entrants are policies (policy/policy.h): qipu's own (random, pattern,
// mcts) and external GTP engines (`gtp:<command line>`,
// gtp/engine_policy.h), made by gtp::MakeAnyPolicy() and owned by the
// caller, which keeps them across games.
//
// The referee keeps the clock (arena/game_clock.h): it reads its time
// source right before and right after each move's Choose() -- the whole
// call is the mover's: bringing an engine up to date, its time commands,
// the genmove -- and charges the difference. A flag that falls loses the
// game on time (rules::EndReason::kTime, "B+T"), whatever the move was.
// Engines are told the clock (EnginePolicy::SetGameClock(): time_settings,
// or kgs-time_settings byoyomi when they list it) and their time_left
// before every genmove; their genmove deadline is the time until their
// flag falls plus EnginePolicyOptions::genmove_margin (10 s unless the
// policy was made otherwise), after which the engine is killed and reaped.
// qipu's own policies search for the clock's allotment
// (SearchLimits::time, GameClock::Allot()).
//
// Moves: a resignation ends the game; an illegal move is ruled on by the
// illegal-move policy (arena/penalties.h): forfeit, or void as a pass
// with a warning for a ko retake (a second warning loses). Warnings cost
// a stone each at the count. An entrant that fails -- cannot start, its
// engine crashes, hangs past its deadline without a clock, answers
// garbage, refuses the game -- loses the game (rules::EndReason::kForfeit,
// "W+F"), the reason in the detail; a failed engine is already killed and
// reaped, and its policy starts a new one at the next game's NewGame().
// After each move both policies hear Played().
//
// Thread-safety: one call per thread; concurrent games need their own
// policies.
#ifndef QIPU_ARENA_REFEREE_H_
#define QIPU_ARENA_REFEREE_H_

#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "arena/arena_game.h"
#include "arena/penalties.h"
#include "gtp/clock.h"
#include "policy/policy.h"
#include "rules/rules.h"

namespace qipu::arena {

// One side of a game.
struct Entrant {
  // The name records give (SGF PB/PW); the policy's spec when empty.
  std::string name;
  // Not owned; must outlive the call. Black's and White's may be the same
  // object (a policy against itself).
  policy::Policy* policy = nullptr;
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
  // The time control (arena/game_clock.h); kNone for none.
  gtp::TimeSettings time;
  IllegalMovePolicy illegal = IllegalMovePolicy::kForfeit;
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
// or a null policy.
absl::StatusOr<ArenaGame> PlayGame(const Entrant& black, const Entrant& white,
                                   const RefereeOptions& options);

}  // namespace qipu::arena

#endif  // QIPU_ARENA_REFEREE_H_
