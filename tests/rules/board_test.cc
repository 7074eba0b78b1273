// Board: placement, capture (opponent first), suicide, simple ko, eyes,
// liberties, hashing and copying, drawn as ASCII diagrams.
#include "rules/board.h"

#include <vector>

#include "gtest/gtest.h"
#include "rules/diagram.h"
#include "rules/playout.h"

namespace qipu::rules {
namespace {

Board Diagram(const char* text) {
  auto b = BoardFromDiagram(text);
  EXPECT_TRUE(b.ok()) << b.status();
  return *b;
}

TEST(Board, EmptyBoardHasAllPointsEmpty) {
  Board b(9, 9);
  EXPECT_EQ(b.num_empty(), 81);
  EXPECT_EQ(b.stones(Color::kBlack), 0);
  EXPECT_EQ(b.hash(), Hash128{});
  EXPECT_TRUE(b.Consistent());
  EXPECT_FALSE(b.OnBoard(MakePoint(9, 0)));
  EXPECT_TRUE(b.OnBoard(MakePoint(8, 8)));
}

TEST(Board, RectangularBoardsHaveWallsWhereTheyEnd) {
  Board b(5, 3);
  EXPECT_EQ(b.num_empty(), 15);
  EXPECT_TRUE(b.OnBoard(MakePoint(4, 2)));
  EXPECT_FALSE(b.OnBoard(MakePoint(5, 0)));
  EXPECT_FALSE(b.OnBoard(MakePoint(0, 3)));
}

TEST(Board, CaptureRemovesChain) {
  Board b = Diagram(R"(
    . X O O .
    . . X X .
    . . . . .
  )");
  ASSERT_EQ(b.Liberties(At(2, 0)), 1);
  ASSERT_TRUE(b.IsLegal(At(4, 0), Color::kBlack));
  b.Play(At(4, 0), Color::kBlack);
  EXPECT_EQ(b.last_play().captured, 2);
  EXPECT_FALSE(b.last_play().ko_capture);
  EXPECT_EQ(b.at(At(2, 0)), Color::kEmpty);
  EXPECT_EQ(b.at(At(3, 0)), Color::kEmpty);
  EXPECT_EQ(b.stones(Color::kWhite), 0);
  EXPECT_EQ(b.Liberties(At(4, 0)), 2);
  EXPECT_TRUE(b.Consistent());
}

TEST(Board, OpponentIsCapturedFirst) {
  // White's stone at the corner has no liberty of its own, but both black
  // stones next to it are in atari there: they go first (art. 4.2).
  Board b = Diagram(R"(
    . X O .
    X O . .
    O . . .
    . . . .
  )");
  EXPECT_EQ(b.Check(At(0, 0), Color::kWhite), MoveCheck::kLegal);
  EXPECT_EQ(b.Check(At(0, 0), Color::kBlack), MoveCheck::kSuicide);
  b.Play(At(0, 0), Color::kWhite);
  EXPECT_EQ(b.last_play().captured, 2);
  EXPECT_EQ(b.at(At(0, 0)), Color::kWhite);
  EXPECT_EQ(b.Liberties(At(0, 0)), 2);
  EXPECT_TRUE(b.Consistent());
}

TEST(Board, SingleStoneSuicideIsIllegal) {
  Board b = Diagram(R"(
    . X .
    X . .
    . . .
  )");
  EXPECT_EQ(b.Check(At(0, 0), Color::kWhite), MoveCheck::kSuicide);
  EXPECT_EQ(b.Check(At(0, 0), Color::kWhite, true), MoveCheck::kSuicide);
  EXPECT_EQ(b.Check(At(0, 0), Color::kBlack), MoveCheck::kLegal);
  EXPECT_EQ(b.Check(At(1, 0), Color::kWhite), MoveCheck::kOccupied);
}

TEST(Board, MultiStoneSuicideOnlyAsOption) {
  Board b = Diagram(R"(
    . O X .
    O O X .
    X X . .
    . . . .
  )");
  EXPECT_EQ(b.Check(At(0, 0), Color::kWhite), MoveCheck::kSuicide);
  EXPECT_EQ(b.Check(At(0, 0), Color::kWhite, true), MoveCheck::kLegal);
  const MovePreview pv = b.Preview(At(0, 0), Color::kWhite);
  b.Play(At(0, 0), Color::kWhite);
  EXPECT_EQ(b.last_play().suicided, 4);
  EXPECT_EQ(pv.suicided, 4);
  EXPECT_EQ(pv.hash, b.hash());
  EXPECT_EQ(b.stones(Color::kWhite), 0);
  EXPECT_TRUE(b.Consistent());
}

TEST(Board, SimpleKoForbidsImmediateRetake) {
  Board b = Diagram(R"(
    . X O .
    X O . O
    . X O .
    . . . .
  )");
  ASSERT_TRUE(b.IsLegal(At(2, 1), Color::kBlack));
  b.Play(At(2, 1), Color::kBlack);
  EXPECT_EQ(b.last_play().captured, 1);
  EXPECT_TRUE(b.last_play().ko_capture);
  EXPECT_EQ(b.ko_point(), At(1, 1));
  EXPECT_EQ(b.Check(At(1, 1), Color::kWhite), MoveCheck::kKo);
  // After an exchange elsewhere the ban is gone.
  b.Play(At(3, 3), Color::kWhite);
  EXPECT_EQ(b.ko_point(), kNoPoint);
  b.Play(At(0, 3), Color::kBlack);
  EXPECT_EQ(b.Check(At(1, 1), Color::kWhite), MoveCheck::kLegal);
  b.Play(At(1, 1), Color::kWhite);
  EXPECT_TRUE(b.last_play().ko_capture);
  EXPECT_EQ(b.ko_point(), At(2, 1));
}

TEST(Board, PassClearsKoPoint) {
  Board b = Diagram(R"(
    . X O .
    X O . O
    . X O .
    . . . .
  )");
  b.Play(At(2, 1), Color::kBlack);
  ASSERT_EQ(b.ko_point(), At(1, 1));
  b.Pass();
  EXPECT_EQ(b.ko_point(), kNoPoint);
}

TEST(Board, OwnEyeNeedsDiagonals) {
  Board b = Diagram(R"(
    . X . X .
    X . X . X
    . X . X .
    . . . . .
    . . . . .
  )");
  EXPECT_TRUE(b.IsEyeLike(At(1, 1), Color::kBlack));
  EXPECT_TRUE(b.IsOwnEye(At(1, 1), Color::kBlack));
  EXPECT_TRUE(b.IsOwnEye(At(0, 0), Color::kBlack));
  EXPECT_TRUE(b.IsOwnEye(At(2, 0), Color::kBlack));
  EXPECT_FALSE(b.IsEyeLike(At(1, 1), Color::kWhite));
  EXPECT_FALSE(b.IsEyeLike(At(0, 2), Color::kBlack));

  // In the middle one opponent diagonal still leaves an eye; two do not.
  Board one = Diagram(R"(
    . X . X .
    X . X . X
    . X O X .
    . . . . .
    . . . . .
  )");
  EXPECT_TRUE(one.IsOwnEye(At(1, 1), Color::kBlack));
  Board two = Diagram(R"(
    . X . X .
    X . X . X
    O X O X .
    . . . . .
    . . . . .
  )");
  EXPECT_FALSE(two.IsOwnEye(At(1, 1), Color::kBlack));

  // On the edge or in the corner, a single opponent diagonal is enough.
  Board corner = Diagram(R"(
    . X . .
    X O . .
    . . . .
    . . . .
  )");
  EXPECT_TRUE(corner.IsEyeLike(At(0, 0), Color::kBlack));
  EXPECT_FALSE(corner.IsOwnEye(At(0, 0), Color::kBlack));
}

TEST(Board, HashIsIncrementalAndOrderIndependent) {
  Board a(9, 9);
  Board b(9, 9);
  a.Play(MakePoint(2, 2), Color::kBlack);
  a.Play(MakePoint(6, 6), Color::kWhite);
  b.Play(MakePoint(6, 6), Color::kWhite);
  b.Play(MakePoint(2, 2), Color::kBlack);
  EXPECT_EQ(a.hash(), b.hash());
  EXPECT_NE(a.hash(), Hash128{});
  Board c(9, 9);
  c.SetStone(MakePoint(2, 2), Color::kBlack);
  c.SetStone(MakePoint(6, 6), Color::kWhite);
  EXPECT_EQ(c.hash(), a.hash());
}

TEST(Board, PreviewMatchesPlay) {
  Board b = Diagram(R"(
    . X O .
    X O . O
    . X O .
    . . . .
  )");
  const MovePreview pv = b.Preview(At(2, 1), Color::kBlack);
  b.Play(At(2, 1), Color::kBlack);
  EXPECT_EQ(pv.hash, b.hash());
  EXPECT_EQ(pv.captured, 1);
  EXPECT_TRUE(pv.ko_capture);
}

TEST(Board, CopyFromAcrossSizes) {
  Board big(19, 19);
  big.Play(MakePoint(18, 18), Color::kBlack);
  Board small(9, 9);
  small.Play(MakePoint(4, 4), Color::kWhite);
  big.CopyFrom(small);
  EXPECT_EQ(big.width(), 9);
  EXPECT_FALSE(big.OnBoard(MakePoint(18, 18)));
  EXPECT_EQ(big.at(MakePoint(4, 4)), Color::kWhite);
  EXPECT_TRUE(big.Consistent());
  Board again(19, 19);
  again.CopyFrom(big);
  EXPECT_EQ(again.hash(), small.hash());
}

TEST(Board, SetStonesIsSetStoneOneByOne) {
  // After play (ko point, chains, empty-point order from captures), random
  // setups: the same board, empty-point order included, either way; a
  // setup that changes nothing keeps the ko point.
  Rng rng(GameSeed(31, 0));
  for (int g = 0; g < 60; ++g) {
    const int size = 3 + g % 7;
    Board played(size, size);
    LightPlayout(played, Color::kBlack, rng, static_cast<int>(rng.Below(40)));
    std::vector<Point> lists[3];
    for (int k = 0; k < 6; ++k) {
      const Point p = MakePoint(static_cast<int>(rng.Below(size)),
                                static_cast<int>(rng.Below(size)));
      lists[rng.Below(3)].push_back(p);
    }
    if (g % 5 == 0) {
      for (auto& l : lists) l.clear();
    }
    Board one = played;
    for (Point p : lists[0]) one.SetStone(p, Color::kEmpty);
    for (Point p : lists[1]) one.SetStone(p, Color::kBlack);
    for (Point p : lists[2]) one.SetStone(p, Color::kWhite);
    Board bulk = played;
    bulk.SetStones(lists[0], lists[1], lists[2]);
    ASSERT_EQ(bulk.ToString(), one.ToString()) << g;
    EXPECT_EQ(bulk.hash(), one.hash()) << g;
    EXPECT_EQ(bulk.ko_point(), one.ko_point()) << g;
    ASSERT_EQ(bulk.num_empty(), one.num_empty()) << g;
    for (int i = 0; i < bulk.num_empty(); ++i) {
      EXPECT_EQ(bulk.empty_point(i), one.empty_point(i)) << g;
    }
    EXPECT_EQ(bulk.HasDeadChains(), one.HasDeadChains()) << g;
    if (!bulk.HasDeadChains()) {
      EXPECT_TRUE(bulk.Consistent()) << g;
    }
  }
}

TEST(Board, DiagramErrorsNameTheLine) {
  auto bad = BoardFromDiagram("X . .\nX Q .\n. . .\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("line 2"), std::string::npos);
  EXPECT_FALSE(BoardFromDiagram("X .\nX\n").ok());
  EXPECT_FALSE(BoardFromDiagram("X\n").ok());
}

}  // namespace
}  // namespace qipu::rules
