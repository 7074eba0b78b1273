// Game: one test per rule of spec sections 1, 2 and 4 (arts. 1-8) --
// placement, alternation, capture with the opponent first (art. 4.2),
// suicide (multi-stone legal only as an option), passes, the end by two
// passes, resignation and the move cap -- on positions drawn as diagrams.
#include <vector>

#include "gtest/gtest.h"
#include "rules/diagram.h"
#include "rules/game.h"
#include "rules/result.h"
#include "rules/rules.h"
#include "tests/rules/reference_board.h"  // PrintTo for the value types

namespace qipu::rules {
namespace {

Game GameFrom(const char* diagram, const Rules& rules,
              Color to_play = Color::kBlack) {
  auto board = BoardFromDiagram(diagram);
  EXPECT_TRUE(board.ok()) << board.status();
  std::vector<Point> black;
  std::vector<Point> white;
  for (int y = 0; y < board->height(); ++y) {
    for (int x = 0; x < board->width(); ++x) {
      if (board->at(At(x, y)) == Color::kBlack) black.push_back(At(x, y));
      if (board->at(At(x, y)) == Color::kWhite) white.push_back(At(x, y));
    }
  }
  Game game(board->width(), board->height(), rules);
  EXPECT_TRUE(game.ApplySetup(black, white, {}, to_play).ok());
  return game;
}

TEST(GameRules, BlackPlaysFirstAndPlayersAlternate) {
  Game game(9, 9, Rules{});
  EXPECT_EQ(game.to_play(), Color::kBlack);
  EXPECT_TRUE(game.TryPlay(At(4, 4)).legal());
  EXPECT_EQ(game.board().at(At(4, 4)), Color::kBlack);
  EXPECT_EQ(game.to_play(), Color::kWhite);
  EXPECT_TRUE(game.TryPlay(At(2, 2)).legal());
  EXPECT_EQ(game.board().at(At(2, 2)), Color::kWhite);
  EXPECT_EQ(game.num_moves(), 2);
  const std::vector<Move> want = {{Color::kBlack, At(4, 4)},
                                  {Color::kWhite, At(2, 2)}};
  EXPECT_EQ(game.moves(), want);
  EXPECT_EQ(game.TryPlay(At(4, 4)).reason, IllegalReason::kOccupied);
  EXPECT_EQ(game.TryPlay(MakePoint(9, 0)).reason, IllegalReason::kOffBoard);
  EXPECT_EQ(game.TryPlay(kResign).reason, IllegalReason::kOffBoard);
  // Illegal attempts change nothing.
  EXPECT_EQ(game.num_moves(), 2);
  EXPECT_EQ(game.to_play(), Color::kBlack);
}

TEST(GameRules, CaptureRemovesChainsWithoutLiberties) {
  Game fresh = GameFrom(R"(
    . X O O .
    . . X X .
    . . . . .
    . . . . .
  )",
                        Rules{});
  // Black at the right end takes the last liberty of two white stones.
  ASSERT_TRUE(fresh.TryPlay(At(4, 0)).legal());
  EXPECT_EQ(fresh.captures(Color::kBlack), 2);
  EXPECT_EQ(fresh.board().at(At(2, 0)), Color::kEmpty);
  EXPECT_EQ(fresh.board().at(At(3, 0)), Color::kEmpty);
  EXPECT_EQ(fresh.board().stones(Color::kWhite), 0);
  EXPECT_EQ(fresh.ko_captures(), 0);
}

TEST(GameRules, OpponentIsCapturedFirst) {
  // White at the corner has no liberty of its own but takes the last
  // liberty of both black chains: they are removed first (art. 4.2).
  Game game = GameFrom(R"(
    . X O . .
    X O . . .
    O . . . .
    . . . . .
  )",
                       Rules{}, Color::kWhite);
  EXPECT_EQ(game.Check(Color::kBlack, At(0, 0)).reason,
            IllegalReason::kSuicide);
  ASSERT_TRUE(game.TryPlay(At(0, 0)).legal());
  EXPECT_EQ(game.captures(Color::kWhite), 2);
  EXPECT_EQ(game.board().at(At(0, 0)), Color::kWhite);
  EXPECT_EQ(game.board().stones(Color::kBlack), 0);
  EXPECT_EQ(game.board().Liberties(At(0, 0)), 2);
}

TEST(GameRules, SingleStoneSuicideIsNeverLegal) {
  constexpr char kEye[] = R"(
    . X . .
    X . . .
    . . . .
  )";
  for (const char* preset : {"chinese", "tromp-taylor", "new-zealand"}) {
    Game game = GameFrom(kEye, *PresetRules(preset), Color::kWhite);
    EXPECT_EQ(game.TryPlay(At(0, 0)).reason, IllegalReason::kSuicide) << preset;
    EXPECT_EQ(game.to_play(), Color::kWhite);
  }
}

TEST(GameRules, MultiStoneSuicideIsLegalOnlyAsAnOption) {
  constexpr char kCorner[] = R"(
    . O X .
    O O X .
    X X . .
    . . . .
  )";
  Game chinese = GameFrom(kCorner, Rules{}, Color::kWhite);
  EXPECT_EQ(chinese.TryPlay(At(0, 0)).reason, IllegalReason::kSuicide);

  Game tt = GameFrom(kCorner, *PresetRules("tromp-taylor"), Color::kWhite);
  ASSERT_TRUE(tt.TryPlay(At(0, 0)).legal());
  EXPECT_EQ(tt.board().stones(Color::kWhite), 0);
  // The suicided stones count for the opponent.
  EXPECT_EQ(tt.captures(Color::kBlack), 4);
  EXPECT_EQ(tt.to_play(), Color::kBlack);
  EXPECT_TRUE(tt.board().Consistent());
}

TEST(GameRules, PassIsAlwaysLegalAndTwoPassesEndTheGame) {
  Game game = GameFrom(R"(
    . X O .
    . X O .
    . X O .
    . X O .
  )",
                       Rules{});
  EXPECT_TRUE(game.TryPlay(kPass).legal());
  EXPECT_FALSE(game.over());
  EXPECT_EQ(game.to_play(), Color::kWhite);
  // A move in between resets the count.
  EXPECT_TRUE(game.TryPlay(At(3, 0)).legal());
  EXPECT_TRUE(game.TryPlay(kPass).legal());
  EXPECT_FALSE(game.over());
  EXPECT_TRUE(game.TryPlay(kPass).legal());
  EXPECT_TRUE(game.over());
  EXPECT_EQ(game.ended_at(), 4);
  // Black: 4 stones and 4 points; White: 5 stones and 3 points; no dame.
  const AreaCount area = game.Area();
  EXPECT_EQ(area.black, 8);
  EXPECT_EQ(area.white, 8);
  EXPECT_EQ(game.result(),
            (GameResult{Winner::kWhite, EndReason::kScore, 7.5}));
  EXPECT_EQ(game.result(), game.ScoreNow());
  EXPECT_EQ(game.TryPlay(kPass).reason, IllegalReason::kGameOver);
  EXPECT_EQ(game.TryPlay(At(0, 0)).reason, IllegalReason::kGameOver);
}

TEST(GameRules, ResignationEndsTheGame) {
  Game game(9, 9, Rules{});
  ASSERT_TRUE(game.TryPlay(At(4, 4)).legal());
  game.Resign(Color::kWhite);
  EXPECT_TRUE(game.over());
  EXPECT_EQ(game.result(), (GameResult{Winner::kBlack, EndReason::kResign, 0}));
  EXPECT_EQ(ResultToSgf(game.result()), "B+R");
  EXPECT_EQ(game.ended_at(), 1);
  // A second resignation does not overturn the first.
  game.Resign(Color::kBlack);
  EXPECT_EQ(game.result().winner, Winner::kBlack);

  Game timed(9, 9, Rules{});
  timed.Resign(Color::kBlack, EndReason::kTime);
  EXPECT_EQ(ResultToSgf(timed.result()), "W+T");
}

TEST(GameRules, MoveCapEndsAsVoid) {
  Rules r;
  r.move_cap = 6;
  Game game(9, 9, r);
  EXPECT_EQ(game.move_cap(), 6);
  const std::vector<Point> moves = {At(0, 0), At(8, 8), At(0, 8),
                                    At(8, 0), kPass,    At(4, 4)};
  for (int i = 0; i < 6; ++i) {
    EXPECT_FALSE(game.over()) << i;
    ASSERT_TRUE(game.TryPlay(moves[i]).legal()) << i;
  }
  EXPECT_TRUE(game.over());
  EXPECT_EQ(game.result(),
            (GameResult{Winner::kNone, EndReason::kMoveLimit, 0}));
  EXPECT_EQ(game.ended_at(), 6);
  EXPECT_EQ(ResultToSgf(game.result()), "Void");
  EXPECT_EQ(ResultInStones(game.result()), "No result");

  // The default cap is 3 N^2 plies.
  EXPECT_EQ(Game(19, 19, Rules{}).move_cap(), 3 * 361);
  EXPECT_EQ(Game(7, 5, Rules{}).move_cap(), 105);
}

TEST(GameRules, TwoPassesAtTheCapAreScoredNotVoid) {
  Rules r;
  r.move_cap = 2;
  Game game(5, 5, r);
  ASSERT_TRUE(game.TryPlay(kPass).legal());
  ASSERT_TRUE(game.TryPlay(kPass).legal());
  EXPECT_EQ(game.result().reason, EndReason::kScore);
  // Empty board: 12.5 each, White wins by komi.
  EXPECT_EQ(game.result(),
            (GameResult{Winner::kWhite, EndReason::kScore, 7.5}));
}

TEST(GameRules, HandicapGivesWhiteTheFirstMove) {
  Game game(19, 19, Rules{});
  ASSERT_TRUE(game.PlaceHandicap(4).ok());
  EXPECT_EQ(game.handicap(), 4);
  EXPECT_EQ(game.to_play(), Color::kWhite);
  EXPECT_EQ(game.board().stones(Color::kBlack), 4);
  EXPECT_EQ(game.num_moves(), 0);
  EXPECT_TRUE(game.TryPlay(At(9, 9)).legal());
  EXPECT_FALSE(game.PlaceHandicap(2).ok());  // only before the first move
  Game small(5, 5, Rules{});
  EXPECT_FALSE(small.PlaceHandicap(2).ok());
  EXPECT_EQ(small.to_play(), Color::kBlack);
  EXPECT_EQ(small.handicap(), 0);
}

TEST(GameRules, ResetStartsAgain) {
  Game game(9, 9, Rules{});
  ASSERT_TRUE(game.PlaceHandicap(2).ok());
  ASSERT_TRUE(game.TryPlay(At(4, 4)).legal());
  game.Resign(Color::kBlack);
  game.Reset();
  EXPECT_FALSE(game.over());
  EXPECT_EQ(game.num_moves(), 0);
  EXPECT_EQ(game.handicap(), 0);
  EXPECT_EQ(game.to_play(), Color::kBlack);
  EXPECT_EQ(game.board().num_empty(), 81);
  EXPECT_EQ(game.board().hash(), Hash128{});
  EXPECT_TRUE(game.moves().empty());
}

}  // namespace
}  // namespace qipu::rules
