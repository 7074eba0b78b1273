// qipu's judgement of dead and seki stones with pattern playouts
// (policy/stone_judge.h) on final positions: invaders in a settled area,
// sekis, a group with two eyes inside the opponent's area, and the open
// board where nothing is dead.
#include "policy/stone_judge.h"

#include <vector>

#include "gtest/gtest.h"
#include "rules/diagram.h"

namespace qipu::policy {
namespace {

using rules::At;
using rules::Color;
using rules::Point;
using rules::StoneStatus;

rules::Board Drawn(const char* text) {
  absl::StatusOr<rules::Board> b = rules::BoardFromDiagram(text);
  EXPECT_TRUE(b.ok()) << b.status();
  return b.ok() ? *b : rules::Board(9, 9);
}

TEST(StoneJudge, InvadersOfASettledAreaAreDead) {
  const rules::Board b = Drawn(R"(
    . . . O X . . . .
    . X . O X . . . .
    . X . O X . . . .
    . . . O X . . . .
    . . . O X . . O .
    . . . O X . . . .
    . . . O X . . . .
    . . . O X . . . .
    . . . O X . . . .
  )");
  const rules::StoneJudgement j = JudgeDeadStones(b);
  EXPECT_EQ(j.dead, (std::vector<Point>{At(1, 1), At(1, 2), At(7, 4)}));
  // The walls hold in most playouts; the lone invader of a wide open
  // area (room for a fight in playouts) is captured in more than half.
  EXPECT_GT(j.Owned(At(4, 4), Color::kBlack), 0.8);
  EXPECT_GT(j.Owned(At(3, 4), Color::kWhite), 0.8);
  EXPECT_LT(j.Owned(At(7, 4), Color::kWhite), 0.5);
  EXPECT_LT(j.Owned(At(1, 1), Color::kBlack), 0.5);
  // The same options: the same judgement, every time.
  const rules::StoneJudgement again = JudgeDeadStones(b);
  EXPECT_EQ(again.dead, j.dead);
  EXPECT_EQ(again.black_owned, j.black_owned);
}

TEST(StoneJudge, TwoEyesInsideTheOpponentsAreaLive) {
  const rules::Board b = Drawn(R"(
    . . . . X . . . .
    . . . . X . . . .
    . . . . X X X X X
    . . . . X O O O O
    . . . . X O . O .
    X X X X X O O O O
    O O O O X X X X X
    . . . O X . . . .
    . . . O X . . . .
  )");
  const rules::StoneJudgement j = JudgeDeadStones(b);
  EXPECT_TRUE(j.dead.empty());
  EXPECT_EQ(j.status[At(5, 3)], StoneStatus::kAlive);
}

TEST(StoneJudge, SekiStaysAlive) {
  const rules::Board b = Drawn(R"(
    X . O X . . . . .
    X . O X . . . . .
    X X O X . . . . .
    O O X X . . . . .
    . O X . . . . . .
    O O X . . . . . .
    . O X . . . . . .
    O O X . . . . . .
    . O X . . . . . .
  )");
  const rules::StoneJudgement j = JudgeDeadStones(b);
  EXPECT_TRUE(j.dead.empty());
  EXPECT_EQ(j.status[At(0, 0)], StoneStatus::kSeki);
  EXPECT_EQ(j.status[At(2, 0)], StoneStatus::kSeki);
  EXPECT_EQ(j.status[At(1, 4)], StoneStatus::kAlive);
}

TEST(StoneJudge, NothingIsDeadOnAnOpenBoard) {
  rules::Board b(9, 9);
  b.Play(At(4, 4), Color::kBlack);
  b.Play(At(2, 2), Color::kWhite);
  EXPECT_TRUE(JudgeDeadStones(b).dead.empty());
}

}  // namespace
}  // namespace qipu::policy
