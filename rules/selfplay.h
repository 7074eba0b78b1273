// One self-play game of a job, deterministically: game `index` of a job
// with base seed S is played by the light policy under full rules from
// seed GameSeedAttempt(S, index, attempt). Under CycleRule::kReplay a game
// voided by a balanced cycle is played again as the next attempt (at most
// kMaxAttempts); the voided attempts' cycles are kept.
#ifndef QIPU_RULES_SELFPLAY_H_
#define QIPU_RULES_SELFPLAY_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "rules/game.h"
#include "rules/rules.h"

namespace qipu::rules {

// Most attempts of one game under CycleRule::kReplay.
inline constexpr int kMaxAttempts = 16;

// What to play.
struct SelfPlaySpec {
  int width = 9;
  int height = 9;
  Rules rules;
  // 0 or 2..9 fixed handicap stones.
  int handicap = 0;
  uint64_t job_seed = 0;
  uint64_t index = 0;
};

// How the game came about (the game itself is left in the Game passed).
struct SelfPlayOutcome {
  // Final attempt number (0 unless replays happened) and its seed.
  int attempt = 0;
  uint64_t seed = 0;
  // One completed cycle per voided attempt, in order.
  std::vector<CycleRecord> voided_cycles;
};

// The seed of attempt `attempt` of game `index`; attempt 0 is
// GameSeed(job_seed, index). Part of the data format.
uint64_t GameSeedAttempt(uint64_t job_seed, uint64_t index, int attempt);

// True when a finished game was voided by a replay cycle.
bool VoidedByReplay(const Game& game);

// Plays the game of `spec` into *game (replaced unless it already has the
// spec's size and rules, in which case it is Reset() and its buffers are
// reused). InvalidArgument for a bad spec (size, komi, handicap).
absl::Status PlaySelfPlay(const SelfPlaySpec& spec, Game* game,
                          SelfPlayOutcome* outcome);

}  // namespace qipu::rules

#endif  // QIPU_RULES_SELFPLAY_H_
