// Round robin schedules by the rotation method (輪轉法, the seed's pairing
// program: "不論參加隊數是偶數還是奇數，都應按偶數編排。如果是奇數，可以補
// 一個「0」號，與「0」相遇的隊就輪空一次").
//
// Numbers 1..N (N made even with a "0") stand in two columns; row i pairs
// the i-th number of the left column with the i-th of the right. Round 1:
// left 1, 2, ..., N/2 from the top, right N, N-1, ..., N/2+1. Number 1
// stays in the top-left corner; every other number moves one place
// anticlockwise each round (down the left column, across the bottom, up
// the right column, across the top). For 6: round 1 is 1-6 2-5 3-4, round
// 2 is 1-5 6-4 2-3, round 3 is 1-4 5-3 6-2.
#ifndef QIPU_TOURNAMENT_ROUND_ROBIN_H_
#define QIPU_TOURNAMENT_ROUND_ROBIN_H_

#include <vector>

namespace qipu::tournament {

// One row of a rotation table: numbers `left` and `right` (1-based, 0 = the
// bye) meet; `left_black` tells who holds Black.
struct RotationGame {
  int left = 0;
  int right = 0;
  bool left_black = true;
};

// The rotation table for `n` entrants (n >= 2): N - 1 rounds of N / 2 rows
// (N = n, or n + 1 when n is odd, the extra number being 0), rows in table
// order. With `double_round` the table is followed by its repetition with
// every colour reversed (2(N - 1) rounds).
//
// Colours: number 1 has Black in odd rounds; in row i >= 1 the left number
// has Black when i is odd, so that a number moving down the left column or
// up the right one alternates. Then, where a number still has two Blacks
// more than Whites (or the reverse), the colours along a chain of games
// from it to a number short of Blacks are swapped, until every number ends
// the single cycle with at most one colour more than the other (exactly
// level when it plays an even number of games). At most 2 equal colours in
// a row for an even n and up to 4 for an odd n of 9 or more
// (tests/tournament check the balance).
// Empty for n < 2.
std::vector<std::vector<RotationGame>> RotationSchedule(int n,
                                                        bool double_round);

// Rounds of a round robin of `n` entrants: N - 1 (N even) per cycle.
int RoundRobinRounds(int n, bool double_round);

}  // namespace qipu::tournament

#endif  // QIPU_TOURNAMENT_ROUND_ROBIN_H_
