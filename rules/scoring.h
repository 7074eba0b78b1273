// Area counting (spec section 5, arts. 9 and 11): stones plus empty points
// that reach only one colour; empty points reaching both are dame, split
// half and half under DameRule::kHalf. Also fixed handicap placement.
#ifndef QIPU_RULES_SCORING_H_
#define QIPU_RULES_SCORING_H_

#include <vector>

#include "absl/status/statusor.h"
#include "rules/board.h"
#include "rules/result.h"
#include "rules/rules.h"

namespace qipu::rules {

// The area count of a position.
struct AreaCount {
  int black_stones = 0;
  int white_stones = 0;
  // Empty points reaching only Black (only White).
  int black_territory = 0;
  int white_territory = 0;
  // Empty points reaching both colours, or neither (empty board).
  int dame = 0;
  // Totals with the dame rule applied: under kHalf, black + white equals
  // the number of points; under kNone dame count for nobody.
  double black = 0;
  double white = 0;
};

// Counts `board` under `dame`. Every stone counts as alive (self-play plays
// until both pass). Allocation-free.
AreaCount CountArea(const Board& board, DameRule dame);

// White's compensation in points for `handicap` stones under `rules`.
double HandicapPoints(const Rules& rules, int handicap);

// The scored result of a finished game: margin = black - white - komi -
// compensation; equal counts (integral komi) are a draw. Counting
// kAsPlayed (the caller says otherwise when it removed dead stones).
GameResult ScoreResult(const AreaCount& area, const Rules& rules, int handicap);

// GTP fixed_handicap stones for `stones` on a width x height board, in GTP
// order. InvalidArgument when the board does not allow that many (GTP:
// square boards of at least 7x7; at most 4 stones on even sizes and 7x7,
// at most 9 otherwise; 0 gives no stones, 1 is not a handicap).
absl::StatusOr<std::vector<Point>> FixedHandicap(int width, int height,
                                                 int stones);

}  // namespace qipu::rules

#endif  // QIPU_RULES_SCORING_H_
