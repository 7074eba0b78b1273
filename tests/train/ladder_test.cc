// KataGo's ladder planes (train/ladder.h) on hand-made ladders.
#include "train/ladder.h"

#include <algorithm>
#include <set>
#include <string>

#include "gtest/gtest.h"
#include "rules/diagram.h"

namespace qipu::train {
namespace {

using rules::At;

rules::Board Diagram(const char* text) {
  absl::StatusOr<rules::Board> board = rules::BoardFromDiagram(text);
  EXPECT_TRUE(board.ok()) << board.status();
  return *board;
}

std::set<std::string> Names(const std::vector<rules::Point>& points) {
  std::set<std::string> out;
  for (rules::Point p : points) {
    out.insert(std::to_string(rules::PointX(p)) + "," +
               std::to_string(rules::PointY(p)));
  }
  return out;
}

// O (2,2) in atari; its extension to (2,3) gets 2 liberties and Black
// chases it down and left to the edge: a ladder.
constexpr char kLadder[] = R"(
  . . . . . . . . .
  . . X . . . . . .
  . X O X . . . . .
  . . . X . . . . .
  . . . . . . . . .
  . . . . . . . . .
  . . . . . . . . .
  . . . . . . . . .
  . . . . . . . . .
)";

// The same with a white stone on the ladder's path: it breaks.
constexpr char kBrokenLadder[] = R"(
  . . . . . . . . .
  . . X . . . . . .
  . X O X . . . . .
  . . . X . . . . .
  . O . . . . . . .
  . . . . . . . . .
  . . . . . . . . .
  . . . . . . . . .
  . . . . . . . . .
)";

// O (2,2) with 2 liberties: Black laddering it from either side works.
constexpr char kTwoLiberties[] = R"(
  . . . . . . . . .
  . . X . . . . . .
  . X O . . . . . .
  . . . X . . . . .
  . . . . . . . . .
  . . . . . . . . .
  . . . . . . . . .
  . . . . . . . . .
  . . . . . . . . .
)";

// Atari in the open: extending gives 3 liberties, no ladder.
constexpr char kOpenAtari[] = R"(
  . . . . . . . . .
  . . X . . . . . .
  . X O X . . . . .
  . . . . . . . . .
  . . . . . . . . .
  . . . . . . . . .
  . . . . . . . . .
  . . . . . . . . .
  . . . . . . . . .
)";

// Once O extends to (2,3), Black's (3,2)-(3,3) is left with one liberty
// (3,4): whatever Black's next atari, O captures there and escapes.
constexpr char kCaptureEscapes[] = R"(
  . . . . . . . . .
  . . X O . . . . .
  . X O X O . . . .
  . . . X O . . . .
  . . . . . . . . .
  . . . . . . . . .
  . . . . . . . . .
  . . . . . . . . .
  . . . . . . . . .
)";

TEST(LadderReader, ALadderToTheEdgeCaptures) {
  LadderReader reader;
  EXPECT_TRUE(reader.IsLaddered(Diagram(kLadder), At(2, 2)));
  // The attackers themselves have 3 or more liberties: not laddered.
  EXPECT_FALSE(reader.IsLaddered(Diagram(kLadder), At(3, 2)));
}

TEST(LadderReader, ABreakerOnThePathSavesTheChain) {
  LadderReader reader;
  EXPECT_FALSE(reader.IsLaddered(Diagram(kBrokenLadder), At(2, 2)));
}

TEST(LadderReader, AnAtariInTheOpenIsNoLadder) {
  LadderReader reader;
  EXPECT_FALSE(reader.IsLaddered(Diagram(kOpenAtari), At(2, 2)));
}

TEST(LadderReader, CapturingTheAtariStoneEscapes) {
  LadderReader reader;
  EXPECT_FALSE(reader.IsLaddered(Diagram(kCaptureEscapes), At(2, 2)));
}

TEST(LadderReader, TwoLibertiesAndTheWorkingMoves) {
  LadderReader reader;
  const rules::Board b = Diagram(kTwoLiberties);
  Cells cells;
  SnapshotCells(b, &cells);
  Ladders found;
  reader.Read(cells, 9, 9, rules::Color::kWhite, &found);
  EXPECT_EQ(Names(found.stones), (std::set<std::string>{"2,2"}));
  EXPECT_EQ(Names(found.working_moves), (std::set<std::string>{"3,2", "2,3"}));
  // Working moves are only collected for the colour asked for.
  reader.Read(cells, 9, 9, rules::Color::kBlack, &found);
  EXPECT_EQ(Names(found.stones), (std::set<std::string>{"2,2"}));
  EXPECT_TRUE(found.working_moves.empty());
}

}  // namespace
}  // namespace qipu::train
