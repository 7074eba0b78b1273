// PlayMatch: a whole match between two players that answer when asked
// (qipu policies, GTP engines): the one game loop of the arena, `qipu
// bench strength` and the worker (`qipu play` drives a Match turn by turn
// from its keys and its thinking thread instead).
//
// The loop: NewGame() of each player (one call when both sides are the
// same object), then until the match is over: the side to move's
// Choose() with Match::Request(), timed with `now` right before and after
// the call -- the whole call is the mover's (an engine brought up to date,
// told its time, its genmove) -- and handed to Match::Apply(); Played()
// to both players after each move; at two passes under
// DeadStoneRule::kSettle both players' DeadStones() (an error: no view)
// handed to Match::Settle(), which may resume play (art. 21.4).
//
// Thread-safety: one call per thread; the players belong to it meanwhile.
#ifndef QIPU_MATCH_PLAY_MATCH_H_
#define QIPU_MATCH_PLAY_MATCH_H_

#include <functional>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "match/match.h"
#include "match/player.h"

namespace qipu::match {

// Told about each answer once Match::Apply() has ruled on it: the match
// after it, the colour that answered, the answer, the time it took and
// what Apply() made of it.
using AnswerObserver =
    std::function<void(const Match& match, rules::Color c,
                       const absl::StatusOr<policy::MoveChoice>& choice,
                       absl::Duration used, const Applied& applied)>;

// How to drive the match besides its options. Plain value.
struct Driver {
  // The time source the moves are measured with; absl::Now() when empty.
  // Tests inject their own.
  std::function<absl::Time()> now;
  // Optional: see AnswerObserver.
  AnswerObserver observe;
};

// Plays a match of `black` against `white` (see the file comment) and
// returns it over. The players may be the same object (a player against
// itself). A player's failure is an outcome, not an error; errors are for
// the options (Match::Create()).
absl::StatusOr<Match> PlayMatch(Player& black, Player& white,
                                const MatchOptions& options,
                                const Driver& driver = {});

}  // namespace qipu::match

#endif  // QIPU_MATCH_PLAY_MATCH_H_
