// 3x3 patterns (codes, symmetries, colour swap, the fitted weights) and
// the pattern playout policy (tactics, following the weights, differing
// from the light policy).
#include <cmath>
#include <set>

#include "gtest/gtest.h"
#include "policy/pattern_mover.h"
#include "policy/patterns.h"
#include "policy/playout.h"
#include "rules/diagram.h"
#include "rules/playout.h"
#include "tests/policy/game_diagram.h"

namespace qipu::policy {
namespace {

using rules::At;
using rules::Color;

// The code of a pattern drawn as PatternText() draws it.
uint16_t CodeOf(const std::string& text) {
  for (int code = 0; code < kNumPatternCodes; ++code) {
    if (PatternText(static_cast<uint16_t>(code)) == text) {
      return static_cast<uint16_t>(code);
    }
  }
  ADD_FAILURE() << "no code draws as " << text;
  return 0;
}

TEST(Patterns, CodeReadsTheNeighbours) {
  const auto board = rules::BoardFromDiagram(R"(
    X O .
    . . X
    . O .
  )");
  ASSERT_TRUE(board.ok());
  EXPECT_EQ(PatternText(PatternCode(*board, At(1, 1))), "XO./.*X/.O.");
  EXPECT_EQ(PatternText(PatternCode(*board, At(0, 0))), "###/#*O/#..");
}

TEST(Patterns, SymmetriesAndColourSwap) {
  const uint16_t hane = CodeOf("XO./.*./...");
  std::set<uint16_t> images;
  for (int t = 0; t < 8; ++t) images.insert(TransformCode(hane, t));
  EXPECT_EQ(images.size(), 8u);
  for (uint16_t image : images) {
    EXPECT_EQ(CanonicalCode(image, Color::kBlack),
              CanonicalCode(hane, Color::kBlack));
    EXPECT_EQ(CanonicalCode(SwapColors(image), Color::kWhite),
              CanonicalCode(hane, Color::kBlack));
  }
  EXPECT_EQ(SwapColors(CodeOf("XO#/.*./...")), CodeOf("OX#/.*./..."));
  EXPECT_EQ(TransformCode(hane, 0), hane);
}

TEST(Patterns, FittedWeightsRankShapes) {
  const PatternWeights& w = PatternWeights::Default();
  ASSERT_GT(FittedPatternCounts().size(), 500u);
  const float empty = w.Gamma(CodeOf(".../.*./..."), Color::kBlack);
  const float first_line = w.Gamma(CodeOf("###/.*./..."), Color::kBlack);
  // Black's cut through White's diagonal and the hane at the head of
  // stones are pro favourites; filling an own eye-like point is not.
  const float cut = w.Gamma(CodeOf(".O./X*./..."), Color::kBlack);
  const float own_point = w.Gamma(CodeOf("XXX/X*X/XXX"), Color::kBlack);
  EXPECT_GT(cut, 3 * empty);
  EXPECT_LT(first_line, empty);
  EXPECT_LT(own_point, empty);
  // The same shape for White is the colour-swapped one.
  EXPECT_EQ(w.Gamma(CodeOf(".X./O*./..."), Color::kWhite), cut);
}

TEST(PatternMover, CapturesTheLastMoveInAtari) {
  const rules::Game game = GameFromDiagram(R"(
    . . . . .
    . X O X .
    . . X . .
    . . . . .
    . . . . .
  )",
                                           Color::kBlack);
  PatternMover mover;
  // White's stone at (2,1) has its last liberty at (2,0).
  EXPECT_EQ(mover.Tactic(game.board(), Color::kBlack, At(2, 1)), At(2, 0));
  rules::Rng rng(1);
  EXPECT_EQ(mover.Choose(game.board(), Color::kBlack, At(2, 1), rng), At(2, 0));
}

TEST(PatternMover, EscapesAtariByExtendingOrCapturing) {
  // White's last move at (1,3) leaves Black's two stones one liberty, at
  // (2,1), where extending gives them two.
  const rules::Game extend = GameFromDiagram(R"(
    . O . . .
    O X . . .
    O X O . .
    . O . . .
    . . . . .
  )",
                                             Color::kBlack);
  PatternMover mover;
  EXPECT_EQ(mover.Tactic(extend.board(), Color::kBlack, At(1, 3)), At(2, 1));
  // Here an attacker, (1,0), is itself in atari: capturing it at (0,0)
  // saves the chain.
  const rules::Game capture = GameFromDiagram(R"(
    . O X . .
    O X O . .
    O X . . .
    . O . . .
    . . . . .
  )",
                                              Color::kBlack);
  EXPECT_EQ(mover.Tactic(capture.board(), Color::kBlack, At(1, 3)), At(0, 0));
  // A chain whose only escape runs into a ladder (one liberty after
  // extending) is left alone.
  const rules::Game ladder = GameFromDiagram(R"(
    . . . . .
    . O O . .
    O X . O .
    . O . . .
    . . . . .
  )",
                                             Color::kBlack);
  EXPECT_EQ(mover.Tactic(ladder.board(), Color::kBlack, At(1, 3)),
            rules::kNoPoint);
}

TEST(PatternMover, PassesRatherThanBreakASeki) {
  // A seki: Black's only playable point, (4,1), would put its whole chain
  // into atari, as would both of White's, (4,1) and (0,4). The light
  // policy plays (4,1) and loses the chain; the pattern mover passes with
  // either colour, whatever it draws.
  const rules::Game game = GameFromDiagram(R"(
    X X X X X
    X . X O .
    X X X O O
    O O O O O
    . O O O O
  )",
                                           Color::kBlack);
  rules::Rng light_rng(3);
  EXPECT_EQ(rules::LightMove(game.board(), Color::kBlack, light_rng), At(4, 1));
  PatternMover mover;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    rules::Rng rng(seed);
    EXPECT_EQ(mover.Choose(game.board(), Color::kBlack, At(0, 4), rng),
              rules::kPass);
    EXPECT_EQ(mover.Choose(game.board(), Color::kWhite, rules::kPass, rng),
              rules::kPass);
  }
}

TEST(PatternPlayouts, FollowTheWeightsAndDifferFromRandom) {
  // Over the first 40 plies of playouts from the empty 9x9 board, the
  // pattern policy's moves have much better shapes (higher mean log gamma)
  // than the light policy's.
  const PatternWeights& w = PatternWeights::Default();
  double sum[2] = {0, 0};
  int count[2] = {0, 0};
  for (int kind = 0; kind < 2; ++kind) {
    PatternMover mover;
    rules::Rng rng(11);
    for (int g = 0; g < 40; ++g) {
      rules::Board board(9, 9);
      Color c = Color::kBlack;
      rules::Point last = rules::kNoPoint;
      for (int ply = 0; ply < 40; ++ply) {
        const rules::Point p = kind == 0 ? rules::LightMove(board, c, rng)
                                         : mover.Choose(board, c, last, rng);
        if (p == rules::kPass) break;
        sum[kind] += std::log(w.Gamma(board, p, c));
        ++count[kind];
        board.Play(p, c);
        last = p;
        c = rules::Opponent(c);
      }
    }
  }
  ASSERT_GT(count[0], 1000);
  ASSERT_GT(count[1], 1000);
  const double random_mean = sum[0] / count[0];
  const double pattern_mean = sum[1] / count[1];
  EXPECT_GT(pattern_mean, random_mean + 0.5)
      << "random " << random_mean << " pattern " << pattern_mean;
}

TEST(PatternPlayouts, LocalChoicesFollowTheGammas) {
  // After White's move at the centre of an otherwise empty 9x9 board, the
  // eight neighbours are chosen in proportion to their gammas (against
  // the rest mass kLocalRest): the diagonal (attach-free) and the
  // orthogonal contact points have different weights, and their frequencies
  // must come out in the same ratio.
  rules::Board board(9, 9);
  const rules::Point centre = At(4, 4);
  board.Play(centre, Color::kWhite);
  PatternMover mover;
  const PatternWeights& w = PatternWeights::Default();
  const double g_contact = w.Gamma(board, At(4, 3), Color::kBlack);
  const double g_diagonal = w.Gamma(board, At(3, 3), Color::kBlack);
  int contact = 0;
  int diagonal = 0;
  rules::Rng rng(3);
  const int kDraws = 20000;
  for (int i = 0; i < kDraws; ++i) {
    const rules::Point p = mover.Choose(board, Color::kBlack, centre, rng);
    const int dx = std::abs(rules::PointX(p) - 4);
    const int dy = std::abs(rules::PointY(p) - 4);
    if (dx + dy == 1) ++contact;
    if (dx == 1 && dy == 1) ++diagonal;
  }
  const double local = 4 * (g_contact + g_diagonal);
  const double expected_contact =
      kDraws * 4 * g_contact / (local + PatternMover::kLocalRest);
  const double expected_diagonal =
      kDraws * 4 * g_diagonal / (local + PatternMover::kLocalRest);
  // Global draws land next to the centre too, rarely (8 of 80 points).
  EXPECT_NEAR(contact, expected_contact,
              0.06 * kDraws + 0.1 * expected_contact);
  EXPECT_NEAR(diagonal, expected_diagonal,
              0.06 * kDraws + 0.1 * expected_diagonal);
}

}  // namespace
}  // namespace qipu::policy
