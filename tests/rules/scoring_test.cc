// Scoring: area counting (spec section 5, arts. 9 and 11) with dame halves
// (chinese) and without (tromp-taylor), a seki, the 19x19 examples of the
// spec in points and in stones, draws, handicap compensation, and fixed
// handicap placement against GNU Go's `fixed_handicap`.
#include "rules/scoring.h"

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "rules/coord.h"
#include "rules/diagram.h"
#include "rules/game.h"
#include "rules/result.h"
#include "rules/rules.h"
#include "tests/rules/reference_board.h"  // PrintTo for the value types

namespace qipu::rules {
namespace {

Board Diagram(const char* text) {
  auto b = BoardFromDiagram(text);
  EXPECT_TRUE(b.ok()) << b.status();
  return *b;
}

TEST(Scoring, EmptyBoardIsAllDame) {
  const AreaCount half = CountArea(Board(9, 9), DameRule::kHalf);
  EXPECT_EQ(half.dame, 81);
  EXPECT_EQ(half.black, 40.5);
  EXPECT_EQ(half.white, 40.5);
  const AreaCount none = CountArea(Board(9, 9), DameRule::kNone);
  EXPECT_EQ(none.black, 0);
  EXPECT_EQ(none.white, 0);
}

TEST(Scoring, StonesPlusTerritoryPlusHalfTheDame) {
  // One dame point (C3) touches both colours.
  const Board b = Diagram(R"(
    . . X O .
    . . X O .
    . X . O .
    X X O . O
    . X O . .
  )");
  const AreaCount a = CountArea(b, DameRule::kHalf);
  EXPECT_EQ(a.black_stones, 6);
  EXPECT_EQ(a.white_stones, 6);
  EXPECT_EQ(a.black_territory, 6);
  EXPECT_EQ(a.white_territory, 6);
  EXPECT_EQ(a.dame, 1);
  EXPECT_EQ(a.black, 12.5);
  EXPECT_EQ(a.white, 12.5);
  EXPECT_EQ(a.black + a.white, 25);
  const AreaCount tt = CountArea(b, DameRule::kNone);
  EXPECT_EQ(tt.black, 12);
  EXPECT_EQ(tt.white, 12);
}

// A seki: the inner black chain (C1 C2 C3 D3 from the top) and the inner
// white chain (E column) share their only two liberties D1 and D2 (x=3,
// rows 0-1); neither can approach. Both outer groups have two eyes.
constexpr char kSeki[] = R"(
  . O X . O X X .
  O O X . O X X X
  . O X X O X X .
  O O O O X X X X
  . O . O X . X .
)";

TEST(Scoring, SekiSharedLibertiesCountHalfEach) {
  const Board b = Diagram(kSeki);
  // Approaching is self-atari for both sides.
  EXPECT_EQ(b.Liberties(At(2, 0)), 2);
  EXPECT_EQ(b.Liberties(At(4, 0)), 2);
  const AreaCount a = CountArea(b, DameRule::kHalf);
  EXPECT_EQ(a.black_stones, 17);
  EXPECT_EQ(a.white_stones, 13);
  EXPECT_EQ(a.black_territory, 4);
  EXPECT_EQ(a.white_territory, 4);
  EXPECT_EQ(a.dame, 2);
  EXPECT_EQ(a.black, 22);
  EXPECT_EQ(a.white, 18);
  EXPECT_EQ(a.black + a.white, b.num_points());
  const AreaCount tt = CountArea(b, DameRule::kNone);
  EXPECT_EQ(tt.black, 21);
  EXPECT_EQ(tt.white, 17);
  EXPECT_EQ(ScoreResult(a, Rules{}, 0),
            (GameResult{Winner::kWhite, EndReason::kScore, 3.5}));
}

// A 19x19 position split by two walls. Black's wall stands on column
// `black_col` for the first `rows` rows and one column further right
// below; White's wall just right of it. With `dame` the last row has an
// empty point between the walls.
Board Split19(int rows, bool dame) {
  Board b(19, 19);
  for (int y = 0; y < 19; ++y) {
    const int bx = y < rows ? 8 : 9;
    if (dame && y == 18) {
      b.SetStone(MakePoint(bx - 1, y), Color::kBlack);
      b.SetStone(MakePoint(bx + 1, y), Color::kWhite);
    } else {
      b.SetStone(MakePoint(bx, y), Color::kBlack);
      b.SetStone(MakePoint(bx + 1, y), Color::kWhite);
    }
  }
  EXPECT_FALSE(b.HasDeadChains());
  return b;
}

TEST(Scoring, SpecExamplesOn19x19) {
  const Rules chinese;
  // Black 185: wins by 3/4 stone = 1.5 points.
  const AreaCount a185 = CountArea(Split19(5, false), DameRule::kHalf);
  EXPECT_EQ(a185.black, 185);
  EXPECT_EQ(a185.white, 176);
  const GameResult r185 = ScoreResult(a185, chinese, 0);
  EXPECT_EQ(r185, (GameResult{Winner::kBlack, EndReason::kScore, 1.5}));
  EXPECT_EQ(ResultToSgf(r185), "B+1.5");
  EXPECT_EQ(ResultInStones(r185), "Black wins by ¾ stone");
  // Black 184: loses by 1/4 stone.
  const AreaCount a184 = CountArea(Split19(6, false), DameRule::kHalf);
  EXPECT_EQ(a184.black, 184);
  const GameResult r184 = ScoreResult(a184, chinese, 0);
  EXPECT_EQ(r184, (GameResult{Winner::kWhite, EndReason::kScore, 0.5}));
  EXPECT_EQ(ResultToSgf(r184), "W+0.5");
  EXPECT_EQ(ResultInStones(r184), "White wins by ¼ stone");
  // Black 184.5 (one dame point): wins by 1/4 stone.
  const AreaCount a1845 = CountArea(Split19(5, true), DameRule::kHalf);
  EXPECT_EQ(a1845.dame, 1);
  EXPECT_EQ(a1845.black, 184.5);
  EXPECT_EQ(a1845.white, 176.5);
  const GameResult r1845 = ScoreResult(a1845, chinese, 0);
  EXPECT_EQ(r1845, (GameResult{Winner::kBlack, EndReason::kScore, 0.5}));
  EXPECT_EQ(ResultInStones(r1845), "Black wins by ¼ stone");
  for (const AreaCount& a : {a185, a184, a1845}) {
    EXPECT_EQ(a.black + a.white, 361);
  }
}

TEST(Scoring, IntegralKomiAllowsADraw) {
  Rules r;
  r.komi = 7;
  const AreaCount a = CountArea(Split19(6, false), DameRule::kHalf);  // 184
  const GameResult jigo = ScoreResult(a, r, 0);
  EXPECT_EQ(jigo, (GameResult{Winner::kDraw, EndReason::kScore, 0}));
  EXPECT_EQ(ResultToSgf(jigo), "Draw");
  EXPECT_EQ(ResultInStones(jigo), "Draw");
  r.komi = 0;  // 讓先: no compensation
  EXPECT_EQ(ScoreResult(a, r, 0),
            (GameResult{Winner::kBlack, EndReason::kScore, 7}));
}

TEST(Scoring, HandicapCompensationPerRuleSet) {
  const Rules chinese;
  const Rules aga = *PresetRules("aga");
  const Rules tt = *PresetRules("tromp-taylor");
  for (int h = 2; h <= 9; ++h) {
    EXPECT_EQ(HandicapPoints(chinese, h), h);
    EXPECT_EQ(HandicapPoints(aga, h), h - 1);
    EXPECT_EQ(HandicapPoints(tt, h), 0);
  }
  // No handicap, and "handicap 1" (Black simply moves first), give nothing.
  for (int h : {0, 1}) {
    EXPECT_EQ(HandicapPoints(chinese, h), 0);
    EXPECT_EQ(HandicapPoints(aga, h), 0);
  }
  // Black 185 with 4 stones under chinese: 185 - 176 - 7.5 - 4 = -2.5.
  const AreaCount a = CountArea(Split19(5, false), DameRule::kHalf);
  EXPECT_EQ(ScoreResult(a, chinese, 4),
            (GameResult{Winner::kWhite, EndReason::kScore, 2.5}));
  EXPECT_EQ(ScoreResult(a, aga, 4),
            (GameResult{Winner::kWhite, EndReason::kScore, 1.5}));
  EXPECT_EQ(ScoreResult(a, tt, 4),
            (GameResult{Winner::kBlack, EndReason::kScore, 1.5}));
}

TEST(Scoring, HandicapGameIsScoredWithCompensation) {
  Game game(9, 9, Rules{});
  ASSERT_TRUE(game.PlaceHandicap(2).ok());
  ASSERT_TRUE(game.TryPlay(kPass).legal());
  ASSERT_TRUE(game.TryPlay(kPass).legal());
  // Black's two stones own the whole board: 81 - 0 - 7.5 - 2.
  EXPECT_EQ(game.result(),
            (GameResult{Winner::kBlack, EndReason::kScore, 71.5}));
}

// GNU Go 3.8 `fixed_handicap N` after `boardsize S` (its output lists the
// stones in board order, top row first).
const std::map<int, std::map<int, std::string>>& GnuGoHandicaps() {
  static const auto* kTable = new std::map<int, std::map<int, std::string>>{
      {7, {{2, "E5 C3"}, {3, "C5 E5 C3"}, {4, "C5 E5 C3 E3"}}},
      {8, {{2, "F6 C3"}, {3, "C6 F6 C3"}, {4, "C6 F6 C3 F3"}}},
      {9,
       {{2, "G7 C3"},
        {3, "C7 G7 C3"},
        {4, "C7 G7 C3 G3"},
        {5, "C7 G7 E5 C3 G3"},
        {6, "C7 G7 C5 G5 C3 G3"},
        {7, "C7 G7 C5 E5 G5 C3 G3"},
        {8, "C7 E7 G7 C5 G5 C3 E3 G3"},
        {9, "C7 E7 G7 C5 E5 G5 C3 E3 G3"}}},
      {10, {{2, "H8 C3"}, {3, "C8 H8 C3"}, {4, "C8 H8 C3 H3"}}},
      {11, {{5, "C9 J9 F6 C3 J3"}, {8, "C9 F9 J9 C6 J6 C3 F3 J3"}}},
      {12, {{2, "J9 D4"}, {3, "D9 J9 D4"}, {4, "D9 J9 D4 J4"}}},
      {13,
       {{2, "K10 D4"},
        {5, "D10 K10 G7 D4 K4"},
        {6, "D10 K10 D7 K7 D4 K4"},
        {9, "D10 G10 K10 D7 G7 K7 D4 G4 K4"}}},
      {14, {{4, "D11 L11 D4 L4"}}},
      {15, {{7, "D12 M12 D8 H8 M8 D4 M4"}}},
      {17, {{8, "D14 J14 O14 D9 O9 D4 J4 O4"}}},
      {19,
       {{2, "Q16 D4"},
        {3, "D16 Q16 D4"},
        {4, "D16 Q16 D4 Q4"},
        {5, "D16 Q16 K10 D4 Q4"},
        {6, "D16 Q16 D10 Q10 D4 Q4"},
        {7, "D16 Q16 D10 K10 Q10 D4 Q4"},
        {8, "D16 K16 Q16 D10 Q10 D4 K4 Q4"},
        {9, "D16 K16 Q16 D10 K10 Q10 D4 K4 Q4"}}},
  };
  return *kTable;
}

// The stones in board order (top row first), as GNU Go lists them.
std::string InBoardOrder(std::vector<Point> points, int size) {
  std::sort(points.begin(), points.end());
  std::vector<std::string> names;
  for (Point p : points) names.push_back(GtpPoint(p, size));
  return absl::StrJoin(names, " ");
}

TEST(Scoring, FixedHandicapMatchesGnuGo) {
  for (const auto& [size, by_stones] : GnuGoHandicaps()) {
    for (const auto& [stones, want] : by_stones) {
      auto got = FixedHandicap(size, size, stones);
      ASSERT_TRUE(got.ok()) << size << "/" << stones << ": " << got.status();
      EXPECT_EQ(got->size(), static_cast<size_t>(stones));
      EXPECT_EQ(InBoardOrder(*got, size), want) << size << "/" << stones;
    }
  }
}

TEST(Scoring, FixedHandicapOrderAndLargeBoards) {
  // qipu lists the stones in the traditional order of placement.
  auto nine = FixedHandicap(19, 19, 9);
  ASSERT_TRUE(nine.ok());
  std::vector<std::string> names;
  for (Point p : *nine) names.push_back(GtpPoint(p, 19));
  EXPECT_EQ(absl::StrJoin(names, " "), "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10");
  // Beyond GNU Go's 19x19: the fourth line and the middle.
  auto big = FixedHandicap(25, 25, 5);
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(InBoardOrder(*big, 25), "D22 W22 N13 D4 W4");
  EXPECT_EQ(FixedHandicap(24, 24, 4)->size(), 4u);
}

TEST(Scoring, FixedHandicapErrors) {
  // GTP: 2..9 stones, square boards from 7x7, at most 4 on 7x7 and on
  // even sizes. qipu reads 0 as "no handicap".
  EXPECT_TRUE(FixedHandicap(19, 19, 0)->empty());
  for (const auto& [w, h, n] : std::vector<std::array<int, 3>>{{19, 19, 1},
                                                               {19, 19, 10},
                                                               {19, 19, -1},
                                                               {6, 6, 2},
                                                               {5, 5, 2},
                                                               {2, 2, 2},
                                                               {7, 7, 5},
                                                               {8, 8, 5},
                                                               {12, 12, 5},
                                                               {9, 9, 10},
                                                               {19, 13, 2}}) {
    auto r = FixedHandicap(w, h, n);
    EXPECT_FALSE(r.ok()) << w << "x" << h << "/" << n;
    if (!r.ok()) {
      EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
    }
  }
}

}  // namespace
}  // namespace qipu::rules
