// The judgement of dead and seki stones in final positions
// (rules/dead_stones.h), the count without them, and Game::Resume().
#include "rules/dead_stones.h"

#include <vector>

#include "gtest/gtest.h"
#include "rules/diagram.h"
#include "rules/game.h"
#include "rules/scoring.h"

namespace qipu::rules {
namespace {

Board JudgedBoard(const char* text) {
  absl::StatusOr<Board> b = BoardFromDiagram(text);
  EXPECT_TRUE(b.ok()) << b.status();
  return b.ok() ? *b : Board(9, 9);
}

// White's area on the left, Black's on the right; two dead black stones in
// White's area, one dead white stone in Black's.
constexpr char kDeadInside[] = R"(
  . . . O X . . . .
  . X . O X . . . .
  . X . O X . . . .
  . . . O X . . . .
  . . . O X . . O .
  . . . O X . . . .
  . . . O X . . . .
  . . . O X . . . .
  . . . O X . . . .
)";

// A seki in the top-left corner: the black chain A1..B3 region (columns A
// and B, rows 7-9) and the white chain on column C share the liberties B9
// and B8, neither with an eye; White's wall below (three eyes) and Black's
// area on the right are alive.
constexpr char kSeki[] = R"(
  X . O X . . . . .
  X . O X . . . . .
  X X O X . . . . .
  O O X X . . . . .
  . O X . . . . . .
  O O X . . . . . .
  . O X . . . . . .
  O O X . . . . . .
  . O X . . . . . .
)";

TEST(DeadStones, StonesInsideTheOpponentsAreaAreDead) {
  const Board b = JudgedBoard(kDeadInside);
  const StoneJudgement j = JudgeStones(b);
  EXPECT_EQ(j.dead, (std::vector<Point>{At(1, 1), At(1, 2), At(7, 4)}));
  EXPECT_EQ(j.status[At(1, 1)], StoneStatus::kDead);
  EXPECT_EQ(j.status[At(7, 4)], StoneStatus::kDead);
  EXPECT_EQ(j.status[At(3, 0)], StoneStatus::kAlive);
  EXPECT_EQ(j.status[At(4, 8)], StoneStatus::kAlive);
  // The walls' points end their colour's in most light playouts (random
  // play breaks a one-stone wall now and then).
  EXPECT_GT(j.Owned(At(3, 4), Color::kWhite), 0.6);
  EXPECT_GT(j.Owned(At(4, 4), Color::kBlack), 0.6);
  EXPECT_EQ(ChainsWithStatus(b, j, StoneStatus::kDead).size(), 2u);
  EXPECT_EQ(ChainsWithStatus(b, j, StoneStatus::kSeki).size(), 0u);
}

TEST(DeadStones, TheCountTakesTheDeadStonesOff) {
  Game g(9, 9, Rules{});
  ASSERT_TRUE(
      g.ApplySetup({At(1, 1), At(1, 2), At(4, 0), At(4, 1), At(4, 2), At(4, 3),
                    At(4, 4), At(4, 5), At(4, 6), At(4, 7), At(4, 8)},
                   {At(7, 4), At(3, 0), At(3, 1), At(3, 2), At(3, 3), At(3, 4),
                    At(3, 5), At(3, 6), At(3, 7), At(3, 8)},
                   {}, Color::kBlack)
          .ok());
  g.TryPlay(kPass);
  g.TryPlay(kPass);
  ASSERT_EQ(g.result().reason, EndReason::kScore);
  EXPECT_EQ(g.result().counting, Counting::kAsPlayed);
  const StoneJudgement j = JudgeStones(g.board());
  const GameResult r = CountWithout(g, j.dead, Counting::kJudged);
  // Black: 9 wall stones and 36 points of area; White: 9 and 27; komi 7.5.
  EXPECT_EQ(r, (GameResult{Winner::kBlack, EndReason::kScore, 1.5}));
  EXPECT_EQ(r.counting, Counting::kJudged);
  EXPECT_EQ(ScoringText(r), "counted, dead stones judged");
  // As the board stands the dead stones count for their side.
  EXPECT_NE(g.result(), r);
}

TEST(DeadStones, ChainsSharingLibertiesWithNoWayInAreSeki) {
  const Board b = JudgedBoard(kSeki);
  const StoneJudgement j = JudgeStones(b);
  EXPECT_TRUE(j.dead.empty());
  for (Point p :
       {At(0, 0), At(0, 1), At(0, 2), At(1, 2), At(2, 0), At(2, 1), At(2, 2)}) {
    EXPECT_EQ(j.status[p], StoneStatus::kSeki) << p;
  }
  EXPECT_EQ(j.status[At(1, 4)], StoneStatus::kAlive);
  EXPECT_EQ(j.status[At(3, 0)], StoneStatus::kAlive);
  const std::array<bool, kNumCells> shared = SharedLiberties(b);
  EXPECT_TRUE(shared[At(1, 0)]);
  EXPECT_TRUE(shared[At(1, 1)]);
  EXPECT_FALSE(shared[At(5, 5)]);
  EXPECT_EQ(ChainsWithStatus(b, j, StoneStatus::kSeki).size(), 2u);
}

TEST(DeadStones, TheJudgementIsTheSameEveryTime) {
  const Board b = JudgedBoard(kDeadInside);
  const StoneJudgement a = JudgeStones(b);
  const StoneJudgement c = JudgeStones(b);
  EXPECT_EQ(a.black_owned, c.black_owned);
  EXPECT_EQ(a.dead, c.dead);
  // Another seed, as many playouts: the same verdict.
  JudgeOptions other;
  other.seed = 99;
  EXPECT_EQ(JudgeStones(b, other).dead, a.dead);
}

TEST(DeadStones, WholeChainsMakesAListOfStonesWhole) {
  const Board b = JudgedBoard(kDeadInside);
  EXPECT_EQ(WholeChains(b, {At(1, 2), At(0, 0), kPass}),
            (std::vector<Point>{At(1, 1), At(1, 2)}));
  EXPECT_EQ(WithoutStones(b, {At(7, 4)}).at(At(7, 4)), Color::kEmpty);
}

TEST(GameResume, PlayGoesOnAfterTwoPassesWithEitherSideToMove) {
  Game g(9, 9, Rules{});
  g.TryPlay(At(4, 4));
  g.TryPlay(kPass);
  g.TryPlay(kPass);
  ASSERT_TRUE(g.over());
  EXPECT_EQ(g.ended_at(), 3);
  // White, who passed last, moves first (the side that calls stones dead).
  g.Resume(Color::kWhite);
  EXPECT_FALSE(g.over());
  EXPECT_EQ(g.ended_at(), 0);
  EXPECT_EQ(g.to_play(), Color::kWhite);
  EXPECT_TRUE(g.TryPlay(Color::kWhite, At(4, 3)).legal());
  EXPECT_EQ(g.to_play(), Color::kBlack);
  g.TryPlay(kPass);
  EXPECT_FALSE(g.over());
  g.TryPlay(kPass);
  EXPECT_TRUE(g.over());
  EXPECT_EQ(g.result().reason, EndReason::kScore);
  EXPECT_EQ(g.num_moves(), 6);
  // A resignation is not resumed.
  Game r(9, 9, Rules{});
  r.Resign(Color::kBlack);
  r.Resume(Color::kBlack);
  EXPECT_TRUE(r.over());
}

}  // namespace
}  // namespace qipu::rules
