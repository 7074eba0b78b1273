// Swiss pairing (積分編排, art. 26.3): players with equal or close scores
// meet, never the same pair twice, colours balanced, at most one bye each.
//
// One maximum-weight perfect matching (matching.h) pairs the whole round.
// The players to pair stand in order of score, then seed; a run of equal
// scores is a score group. Every pair that has not met is an edge whose
// weight is a large constant less a cost, from the most to the least
// important, each level outweighing every possible sum of the levels below:
//   1. score: the square of the score difference (two one-step floats cost
//      less than one two-step float);
//   2. colour: when both players are due the same colour, the weaker of
//      their two preferences (a player due a colour by an imbalance of k
//      games has strength 2k, one more when the last two games had the
//      same colour; a player level on colours prefers the other colour than
//      last time, strength 1);
//   3. order within the score group: split and fold, the top half against
//      the bottom half (1 v g/2+1, 2 v g/2+2 ... as the seed's program and
//      OpenGotha do): the cost is how far the pair is from that distance;
//      a pair across groups costs the distance of the upper player from
//      the bottom of its group plus that of the lower player from the top
//      of its own.
// With an odd count, a bye vertex joins the graph, with an edge to every
// player of the lowest score group among those who have had no bye, costed
// by rank from the bottom (level 3): the bye goes to the lowest player of
// that group unless another one leaves fewer floats. Only when no
// repeat-free round gives the bye there does it move up, to whoever of the
// players without a bye costs least.
// Pairs that met before are no edges at all (hard constraint). When no
// perfect matching exists without them, PairSwiss says so; with
// `allow_repeats` it then pairs with the fewest repeats (a fourth, top
// level) and lists them.
//
// Big fields: above kSwissFullGraph players the graph keeps, for each
// player, the fold partners and neighbours within kSwissWindow places and
// the edges across the nearby group boundaries, and falls back to the full
// graph only when that sparse graph has no perfect matching. One round of
// 1,000 players pairs in well under a second (bench/tournament_bench).
#ifndef QIPU_TOURNAMENT_SWISS_H_
#define QIPU_TOURNAMENT_SWISS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "tournament/field.h"

namespace qipu::tournament {

// Fields up to this many players are paired on the full graph.
inline constexpr int kSwissFullGraph = 64;
// Places each side of the fold partner and of the player kept in the
// sparse graph of bigger fields.
inline constexpr int kSwissWindow = 12;

// The recommended number of Swiss rounds for `entrants`: the rounds of a
// single elimination (ceil(log2 n)) times 1.5, rounded up and made odd
// (the seed's program: "按單敗淘汰賽的輪次乘以1.5計算得出一個推薦輪次數，
// 一般為奇數"), at most n - 1 (n even) or n (n odd), at least 1.
// 8 -> 5, 16 -> 7, 32 -> 9, 100 -> 11, 1000 -> 15.
int RecommendedSwissRounds(int entrants);

// How PairSwiss pairs.
struct SwissOptions {
  // Pair with the fewest repeats when no repeat-free pairing exists.
  bool allow_repeats = false;
  // Seed for the colours of the first round (drawing of lots).
  uint64_t lots = 0;
  // Testing: force the full graph whatever the field size.
  bool full_graph = false;
};

// What PairSwiss found.
struct SwissPairing {
  // The round. When `repeat_free` is false it is the pairing with the
  // fewest repeats, a proposal the caller commits only if repeats are
  // allowed.
  RoundDraft draft;
  // False when every pairing of the round repeats some pair.
  bool repeat_free = true;
  // The fewest repeats a pairing needs (0 when repeat_free).
  int repeats_needed = 0;
};

// Pairs round `round` among `players` (entrant indexes; each must play in
// the round). The order of the field is by points then Entrant::order.
// FailedPrecondition when a bye is needed and every player has had one.
absl::StatusOr<SwissPairing> PairSwiss(const Field& field,
                                       const std::vector<int>& players,
                                       int round, const SwissOptions& options);

}  // namespace qipu::tournament

#endif  // QIPU_TOURNAMENT_SWISS_H_
