#include "rules/scoring.h"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace qipu::rules {

AreaCount CountArea(const Board& board, DameRule dame) {
  AreaCount a;
  a.black_stones = board.stones(Color::kBlack);
  a.white_stones = board.stones(Color::kWhite);
  const Board::EmptyRegions regions = board.CountEmptyRegions();
  a.black_territory = regions.black;
  a.white_territory = regions.white;
  a.dame = regions.other;
  a.black = a.black_stones + a.black_territory;
  a.white = a.white_stones + a.white_territory;
  if (dame == DameRule::kHalf) {
    a.black += a.dame / 2.0;
    a.white += a.dame / 2.0;
  }
  return a;
}

double HandicapPoints(const Rules& rules, int handicap) {
  if (handicap < 2) return 0;
  switch (rules.handicap_compensation) {
    case HandicapCompensation::kNone:
      return 0;
    case HandicapCompensation::kFull:
      return handicap;
    case HandicapCompensation::kMinusOne:
      return handicap - 1;
  }
  return 0;
}

GameResult ScoreResult(const AreaCount& area, const Rules& rules,
                       int handicap) {
  const double margin =
      area.black - area.white - rules.komi - HandicapPoints(rules, handicap);
  GameResult r;
  r.reason = EndReason::kScore;
  r.counting = Counting::kAsPlayed;
  if (std::fabs(margin) < 1e-9) {
    r.winner = Winner::kDraw;
  } else {
    r.winner = margin > 0 ? Winner::kBlack : Winner::kWhite;
    r.margin = std::fabs(margin);
  }
  return r;
}

absl::StatusOr<std::vector<Point>> FixedHandicap(int width, int height,
                                                 int stones) {
  if (stones == 0) return std::vector<Point>{};
  if (width != height || width < 7 || stones < 2 || stones > 9) {
    return absl::InvalidArgumentError(absl::StrCat(
        "fixed handicap of ", stones, " on ", width, "x", height,
        " is not defined (GTP: 2..9 stones on square boards from 7x7)"));
  }
  const int n = width;
  const int max = (n % 2 == 0 || n == 7) ? 4 : 9;
  if (stones > max) {
    return absl::InvalidArgumentError(absl::StrCat(
        "at most ", max, " fixed handicap stones fit on ", n, "x", n));
  }
  // 0-based distance of the star points from the edge: the third line up
  // to 11x11, the fourth from 12x12 (as GNU Go's fixed_handicap).
  const int e = n < 12 ? 2 : 3;
  const int lo = e;
  const int hi = n - 1 - e;
  const int mid = n / 2;
  // Rows are from the top: GTP's D4 on 19x19 is (3, 15).
  auto at = [](int x, int y) { return MakePoint(x, y); };
  std::vector<Point> out;
  out.push_back(at(lo, hi));                   // D4: bottom left
  out.push_back(at(hi, lo));                   // Q16: top right
  if (stones >= 3) out.push_back(at(lo, lo));  // D16: top left
  if (stones >= 4) out.push_back(at(hi, hi));  // Q4: bottom right
  if (stones >= 6) {
    out.push_back(at(lo, mid));  // D10
    out.push_back(at(hi, mid));  // Q10
  }
  if (stones >= 8) {
    out.push_back(at(mid, hi));  // K4
    out.push_back(at(mid, lo));  // K16
  }
  if (stones % 2 == 1 && stones >= 5) out.push_back(at(mid, mid));  // K10
  return out;
}

}  // namespace qipu::rules
