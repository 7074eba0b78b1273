// Elimination (淘汰制, art. 26.1): single, double and multi-loss. An
// entrant is out after `losses` losses.
//
// Round 1 is the standard bracket: seeds in BracketOrder() slots, pairs of
// adjacent slots meet, and when the field is not a power of two the empty
// slots sit opposite the best seeds, who get the byes (the seed's program:
// "通常輪空的優惠會給競賽中排名較高的參賽者").
//
// Later rounds group the entrants still in by their losses so far (0 = the
// winners' bracket, 1 = the losers' bracket of a double elimination, ...).
// Within a group entrants keep their bracket slot order and adjacent ones
// meet, so that single elimination follows the bracket exactly; in the
// groups with losses a pair that met before is swapped with the next one
// when that avoids the rematch. A group with an odd count gives its best
// seed a bye. When no group holds two entrants, the one-entrant groups meet
// each other, most losses first (the grand final of a double elimination,
// and its second game when the winners' champion loses the first).
//
// A knockout game must have a winner. A draw (and a void game) decides
// nothing: the pair replays with colours reversed (重賽, art. 17.5-6; 加賽,
// arts. 20.3 and 27.1 C) in a replay round that holds only such games,
// before the next round is paired. Both-lose counts as a loss for both.
#ifndef QIPU_TOURNAMENT_ELIMINATION_H_
#define QIPU_TOURNAMENT_ELIMINATION_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "tournament/field.h"

namespace qipu::tournament {

// Seeds 1..size in bracket slot order, for `size` a power of two: seeds 1
// and 2 can meet only in the final, 1-4 only in the semi-finals ... Size 8:
// 1 8 4 5 2 7 3 6. Empty when size is not a power of two.
std::vector<int> BracketOrder(int size);

// The smallest power of two >= n (1 for n <= 1).
int BracketSize(int n);

// What an elimination stage is: who is in it, in seed order (best first),
// the first round it plays, and the losses that eliminate.
struct EliminationStage {
  std::vector<int> seeds;  // entrant indexes, seed 1 first
  int first_round = 1;
  int losses = 1;
  uint64_t lots = 0;  // colours of round 1 are drawn from this
};

// The entrants of `stage` still in before round `round` (fewer losses than
// the limit, not withdrawn), in seed order.
std::vector<int> StillIn(const Field& field, const EliminationStage& stage,
                         int round);

// Losses of `entrant` in the stage's rounds.
int StageLosses(const Field& field, const EliminationStage& stage, int entrant);

// Pairs round `round` of the stage. Returns a replay draft when games of
// the previous round ended drawn or void. FailedPrecondition when the stage
// is over (one entrant or none left).
absl::StatusOr<RoundDraft> PairElimination(const Field& field,
                                           const EliminationStage& stage,
                                           int round);

}  // namespace qipu::tournament

#endif  // QIPU_TOURNAMENT_ELIMINATION_H_
