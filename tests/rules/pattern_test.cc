// rules/pattern.h: parsing (errors name row and column), the images of a
// pattern under the board symmetries and colour swap, wildcards, and
// matching against a slow reference that transforms the board instead of
// the pattern.
#include "rules/pattern.h"

#include <random>
#include <string>

#include "gtest/gtest.h"
#include "rules/board.h"
#include "rules/coord.h"
#include "rules/symmetry.h"

namespace qipu::rules {
namespace {

Board PatternTestBoard(int size, const std::vector<std::string>& rows) {
  Board b(size, size);
  for (int y = 0; y < static_cast<int>(rows.size()); ++y) {
    for (int x = 0; x < static_cast<int>(rows[y].size()); ++x) {
      if (rows[y][x] == 'X') b.SetStone(MakePoint(x, y), Color::kBlack);
      if (rows[y][x] == 'O') b.SetStone(MakePoint(x, y), Color::kWhite);
    }
  }
  return b;
}

PatternSearch::Match FindPattern(const PatternSearch& s, const Board& b) {
  BoardRows black;
  BoardRows white;
  BoardToRows(b, &black, &white);
  return s.FindOnBoard(black, white);
}

TEST(Pattern, ParsesRowsWithSlashesOrNewLines) {
  auto p = ParsePattern("X.O\n*xo\n");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->width, 3);
  EXPECT_EQ(p->height, 2);
  EXPECT_EQ(p->at(0, 0), PatternCell::kBlack);
  EXPECT_EQ(p->at(1, 0), PatternCell::kEmpty);
  EXPECT_EQ(p->at(2, 0), PatternCell::kWhite);
  EXPECT_EQ(p->at(0, 1), PatternCell::kAny);
  EXPECT_EQ(p->at(1, 1), PatternCell::kBlackOrEmpty);
  EXPECT_EQ(p->at(2, 1), PatternCell::kWhiteOrEmpty);
  EXPECT_EQ(PatternText(*p), "X.O/*xo");
  auto q = ParsePattern("X.O/*xo");
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(PatternText(*q), "X.O/*xo");
}

TEST(Pattern, ErrorsNameRowAndColumn) {
  auto bad = ParsePattern("X.O/.Z.");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("row 2, column 2"), std::string::npos)
      << bad.status();
  auto ragged = ParsePattern("X.O/..");
  ASSERT_FALSE(ragged.ok());
  EXPECT_NE(ragged.status().message().find("row 2 has 2 cells"),
            std::string::npos)
      << ragged.status();
  auto empty_row = ParsePattern("X.O//...");
  ASSERT_FALSE(empty_row.ok());
  EXPECT_NE(empty_row.status().message().find("row 2 is empty"),
            std::string::npos);
  EXPECT_FALSE(ParsePattern("").ok());
  auto wild = ParsePattern("**/**");
  ASSERT_FALSE(wild.ok());
  EXPECT_NE(wild.status().message().find("wildcards"), std::string::npos);
  EXPECT_FALSE(ParsePattern(std::string(26, '.')).ok());
}

TEST(Pattern, CornerPatternHasEightImagesAtTheFourCorners) {
  // An asymmetric corner shape: 8 distinct images.
  auto p = ParsePattern("X../..O/...");
  ASSERT_TRUE(p.ok());
  auto s = PatternSearch::Compile(*p, PatternPlacement::kCorner, 19, 19, 0, 0,
                                  false);
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(s->variants().size(), 8u);
  int offsets = 0;
  for (const PatternVariant& v : s->variants()) {
    for (uint32_t row : v.offsets) offsets += __builtin_popcount(row);
    EXPECT_FALSE(v.swapped);
  }
  EXPECT_EQ(offsets, 8);
  // The shape in the bottom-right corner, rotated: found, and the point
  // next to it maps back into the caller's frame.
  Board b = PatternTestBoard(19, {});
  b.SetStone(MakePoint(18, 18), Color::kBlack);
  b.SetStone(MakePoint(16, 17), Color::kWhite);
  const PatternSearch::Match m = FindPattern(*s, b);
  ASSERT_TRUE(m.found());
  EXPECT_EQ(m.ox, 16);
  EXPECT_EQ(m.oy, 16);
  const PatternVariant& v = s->variants()[m.variant];
  // (16, 18) in the board is the pattern's cell (2, 0) after a 180 degree
  // turn: C19 in the caller's frame.
  EXPECT_EQ(GtpPoint(s->ToCaller(v, m.ox, m.oy, MakePoint(16, 18)), 19), "C19");
  // Colours the other way round: no match without colour swap ...
  Board swapped = PatternTestBoard(19, {});
  swapped.SetStone(MakePoint(0, 0), Color::kWhite);
  swapped.SetStone(MakePoint(2, 1), Color::kBlack);
  EXPECT_FALSE(FindPattern(*s, swapped).found());
  // ... and a match with it, flagged swapped.
  auto sw =
      PatternSearch::Compile(*p, PatternPlacement::kCorner, 19, 19, 0, 0, true);
  ASSERT_TRUE(sw.ok());
  EXPECT_EQ(sw->variants().size(), 16u);
  const PatternSearch::Match ms = FindPattern(*sw, swapped);
  ASSERT_TRUE(ms.found());
  EXPECT_TRUE(sw->variants()[ms.variant].swapped);
}

TEST(Pattern, SymmetricPatternsShareImages) {
  auto p = ParsePattern(".../.X./...");
  ASSERT_TRUE(p.ok());
  auto s =
      PatternSearch::Compile(*p, PatternPlacement::kAnywhere, 9, 9, 0, 0, true);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->variants().size(), 2u);  // black centre, white centre
  // Fixed at (2,1): the same cells at the 8 images of that place, each
  // image with its own transform (so continuations map back through it).
  auto fixed =
      PatternSearch::Compile(*p, PatternPlacement::kFixed, 9, 9, 2, 1, false);
  ASSERT_TRUE(fixed.ok());
  ASSERT_EQ(fixed->variants().size(), 8u);
  int offsets = 0;
  for (const PatternVariant& v : fixed->variants()) {
    for (uint32_t row : v.offsets) offsets += __builtin_popcount(row);
  }
  EXPECT_EQ(offsets, 8);
}

TEST(Pattern, SidePlacementStaysOnTheEdges) {
  auto p = ParsePattern("O/X");
  ASSERT_TRUE(p.ok());
  auto s =
      PatternSearch::Compile(*p, PatternPlacement::kSide, 9, 9, 0, 0, false);
  ASSERT_TRUE(s.ok());
  // On the first line with the white stone at the edge: found.
  EXPECT_TRUE(FindPattern(*s, PatternTestBoard(9, {"", "", "", "", "", "", "",
                                                   "...X", "...O"}))
                  .found());
  EXPECT_TRUE(FindPattern(*s, PatternTestBoard(9, {"", "", "", "OX"})).found());
  // In the middle: not on an edge.
  EXPECT_FALSE(
      FindPattern(*s, PatternTestBoard(9, {"", "", "...O", "...X"})).found());
}

TEST(Pattern, WildcardsAndHalfColours) {
  // Fixed at A9 on 9x9: also along the left edge (transposed) and in the
  // other corners, where a black stone is missing.
  auto p = ParsePattern("X*xo");
  ASSERT_TRUE(p.ok());
  auto s =
      PatternSearch::Compile(*p, PatternPlacement::kFixed, 9, 9, 0, 0, false);
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(FindPattern(*s, PatternTestBoard(9, {"XOXO", "O"})).found());
  EXPECT_TRUE(FindPattern(*s, PatternTestBoard(9, {"XX..", "O"})).found());
  // 'x' white: refused along the top edge; the left edge (transposed) has
  // a white stone on its 'x' too.
  EXPECT_FALSE(
      FindPattern(*s, PatternTestBoard(9, {"X.O.", ".", "O"})).found());
  // 'o' black on both edges.
  EXPECT_FALSE(
      FindPattern(*s, PatternTestBoard(9, {"X..X", ".", ".", "X"})).found());
  // No black stone in any corner.
  EXPECT_FALSE(FindPattern(*s, PatternTestBoard(9, {".XXO"})).found());
}

TEST(Pattern, AnchorMustFit) {
  auto p = ParsePattern("XX/OO");
  ASSERT_TRUE(p.ok());
  EXPECT_FALSE(
      PatternSearch::Compile(*p, PatternPlacement::kFixed, 9, 9, 8, 0, false)
          .ok());
  EXPECT_TRUE(
      PatternSearch::Compile(*p, PatternPlacement::kFixed, 9, 9, 7, 7, false)
          .ok());
}

// The reference: for each board transform t, map the board back and check
// the pattern cell by cell at the base placement's offsets.
bool PatternReferenceMatch(const Pattern& p, PatternPlacement placement, int ax,
                           int ay, const Board& b, bool swap) {
  const int n = b.width();
  for (int sw = 0; sw < (swap ? 2 : 1); ++sw) {
    for (int t = 0; t < 8; ++t) {
      for (int oy = 0; oy + p.height <= n; ++oy) {
        for (int ox = 0; ox + p.width <= n; ++ox) {
          const bool allowed =
              placement == PatternPlacement::kAnywhere ||
              (placement == PatternPlacement::kSide && oy == 0) ||
              (placement == PatternPlacement::kFixed && ox == ax && oy == ay);
          if (!allowed) continue;
          bool ok = true;
          for (int y = 0; y < p.height && ok; ++y) {
            for (int x = 0; x < p.width && ok; ++x) {
              const Point q =
                  TransformPoint(t, MakePoint(ox + x, oy + y), n, n);
              Color c = b.at(q);
              if (sw == 1 && c != Color::kEmpty) c = Opponent(c);
              switch (p.at(x, y)) {
                case PatternCell::kBlack:
                  ok = c == Color::kBlack;
                  break;
                case PatternCell::kWhite:
                  ok = c == Color::kWhite;
                  break;
                case PatternCell::kEmpty:
                  ok = c == Color::kEmpty;
                  break;
                case PatternCell::kBlackOrEmpty:
                  ok = c != Color::kWhite;
                  break;
                case PatternCell::kWhiteOrEmpty:
                  ok = c != Color::kBlack;
                  break;
                case PatternCell::kAny:
                  break;
              }
            }
          }
          if (ok) return true;
        }
      }
    }
  }
  return false;
}

TEST(Pattern, AgreesWithReferenceOnRandomBoards) {
  std::mt19937 rng(20261206);
  const char kCells[] = "XO.*xo";
  int found = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const int n = 5 + static_cast<int>(rng() % 5);
    Board b(n, n);
    for (int y = 0; y < n; ++y) {
      for (int x = 0; x < n; ++x) {
        const int r = static_cast<int>(rng() % 3);
        if (r == 1) b.SetStone(MakePoint(x, y), Color::kBlack);
        if (r == 2) b.SetStone(MakePoint(x, y), Color::kWhite);
      }
    }
    const int w = 1 + static_cast<int>(rng() % 3);
    const int h = 1 + static_cast<int>(rng() % 3);
    std::string text;
    for (int y = 0; y < h; ++y) {
      if (y > 0) text.push_back('/');
      for (int x = 0; x < w; ++x) text.push_back(kCells[rng() % 6]);
    }
    auto p = ParsePattern(text);
    if (!p.ok()) continue;  // wildcards only
    const auto placement = static_cast<PatternPlacement>(rng() % 4);
    const int ax = static_cast<int>(rng() % (n - w + 1));
    const int ay = static_cast<int>(rng() % (n - h + 1));
    const bool swap = rng() % 2 == 0;
    auto s = PatternSearch::Compile(*p, placement, n, n, ax, ay, swap);
    ASSERT_TRUE(s.ok()) << s.status();
    const int rax = placement == PatternPlacement::kCorner ? 0 : ax;
    const int ray = placement == PatternPlacement::kCorner ||
                            placement == PatternPlacement::kSide
                        ? 0
                        : ay;
    const PatternPlacement ref_placement =
        placement == PatternPlacement::kCorner ? PatternPlacement::kFixed
                                               : placement;
    const bool want =
        PatternReferenceMatch(*p, ref_placement, rax, ray, b, swap);
    const PatternSearch::Match m = FindPattern(*s, b);
    ASSERT_EQ(m.found(), want)
        << text << " " << PatternPlacementName(placement) << " anchor " << ax
        << "," << ay << " swap " << swap << " on " << n << "x" << n;
    if (want) ++found;
  }
  EXPECT_GT(found, 300);
}

}  // namespace
}  // namespace qipu::rules
