// Light playouts: the uniformly random policy among legal moves that do not
// fill the player's own eye (pass when none is left), in two speeds of rule
// checking:
//  - light: the board alone (simple ko, no superko, no cycle rule) -- what
//    light-playout engines measure, for `qipu bench playouts --mode light`;
//  - full: every move checked by Game under the rule set (superko, art. 20
//    cycles, move cap) -- what self-play uses.
// Candidate order: a random start in the empty-point list, then onwards
// cyclically; the first acceptable point is played.
#ifndef QIPU_RULES_PLAYOUT_H_
#define QIPU_RULES_PLAYOUT_H_

#include <cstdint>

#include "rules/board.h"
#include "rules/game.h"

namespace qipu::rules {

// A small, fast, deterministic generator (SplitMix64). Trivially copyable;
// not thread-safe (one per thread).
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) (Lemire's multiply-shift; bias below 2^-32 * n).
  uint32_t Below(uint32_t n) { return Scale(Next(), n); }
  // What Below(n) returns when Next() returns r.
  static uint32_t Scale(uint64_t r, uint32_t n) {
    return static_cast<uint32_t>(((r >> 32) * uint64_t{n}) >> 32);
  }

 private:
  uint64_t state_;
};

// The seed of game `index` of a job whose base seed is `job_seed`: the same
// pair always gives the same game. Part of the data format (re-issued
// leases replay identical games).
uint64_t GameSeed(uint64_t job_seed, uint64_t index);

// Light policy move for colour c under the board's own rules (simple ko,
// no suicide): a board point, or kPass. Never allocates.
Point LightMove(const Board& board, Color c, Rng& rng);

// Plays a light playout on `board` from `to_play` until two consecutive
// passes or `max_moves` plies. Returns the number of plies played.
int LightPlayout(Board& board, Color to_play, Rng& rng, int max_moves);

// Light policy move for the side to move of `game` under its full rules.
// Candidates rejected through superko or the cycle rule are recorded on
// the game as prevented cycles. Returns the move and its verdict in *v.
// Precondition: !game.over().
Point FullMove(Game& game, Rng& rng, MoveVerdict* v);

// Plays `game` to its end with the light policy under full rules. Returns
// the number of moves played.
int FullPlayout(Game& game, Rng& rng);

}  // namespace qipu::rules

#endif  // QIPU_RULES_PLAYOUT_H_
