// SelfPlayClaims: what a finished self-play game says of itself besides
// its record (rules/record.h) -- the rules it was played under, what they
// gave, and which job, game and seed played it. The coordinator reads it
// from a worker's upload once (proto/convert.h SelfPlayFromProto) and
// checks every field against a replay and the job (engine/prepare.h).
#ifndef QIPU_RULES_SELFPLAY_CLAIMS_H_
#define QIPU_RULES_SELFPLAY_CLAIMS_H_

#include <cstdint>
#include <vector>

#include "rules/game.h"
#include "rules/result.h"
#include "rules/rules.h"

namespace qipu::rules {

// Plain value type. Counts keep the width they have on the wire, so that
// a refusal can quote a claim exactly as made.
struct SelfPlayClaims {
  // The rule set the game was played under.
  Rules rules;
  // The result the rules gave.
  GameResult result;
  // Area count of the final position: Black's and White's totals and the
  // dame (AreaCount::black, white, dame).
  double area_black = 0;
  double area_white = 0;
  double area_dame = 0;
  // Completed and prevented cycles, in the order the game met them.
  std::vector<CycleRecord> cycles;
  // Basic-ko captures.
  uint32_t ko_captures = 0;
  // The job, the game's 0-based index in it, the attempt (voided attempts
  // before this one, CycleRule::kReplay) and that attempt's seed.
  uint64_t job = 0;
  uint64_t index = 0;
  uint32_t attempt = 0;
  uint64_t seed = 0;
  // One completed cycle per voided attempt, in order.
  std::vector<CycleRecord> voided_cycles;
};

}  // namespace qipu::rules

#endif  // QIPU_RULES_SELFPLAY_CLAIMS_H_
