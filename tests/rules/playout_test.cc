// The playout fast paths against their plain definitions: FullPlayout()
// (Game::PlayLightFrom(), the board's fused scan-and-play with its
// repetition guard) must play exactly the game that FullMove() + Game::Play()
// play from the same seed, under every rule axis and on every board shape;
// LightPlayout() (Board::PlayLightGame()) exactly what LightMove() +
// Board::Play() play. The pinned signatures (signature_test.cc) cover the
// default rules only.
#include "rules/playout.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "rules/board.h"
#include "rules/game.h"
#include "rules/rules.h"
#include "tests/rules/reference_board.h"  // PrintTo for the records
#include "tests/rules/rule_variants.h"

namespace qipu::rules {
namespace {

struct Size {
  int width;
  int height;
  int games;
};

constexpr Size kSizes[] = {{2, 2, 40},  {3, 3, 40}, {4, 4, 30}, {5, 5, 20},
                           {3, 6, 20},  {7, 7, 10}, {9, 9, 10}, {13, 13, 3},
                           {19, 19, 2}, {25, 4, 3}};

TEST(Playout, FullPlayoutIsFullMoveThenPlayUnderEveryRuleVariant) {
  int games = 0;
  int cycles = 0;
  for (const auto& [name, rules] : AllRuleVariants()) {
    for (const Size& s : kSizes) {
      for (int g = 0; g < s.games; ++g) {
        const std::string where =
            absl::StrCat(name, " ", s.width, "x", s.height, " game ", g);
        const uint64_t seed = GameSeed(
            21, static_cast<uint64_t>(s.width * 100 + s.height) * 1000 + g);
        Game fast(s.width, s.height, rules);
        Rng fast_rng(seed);
        FullPlayout(fast, fast_rng);
        Game plain(s.width, s.height, rules);
        Rng plain_rng(seed);
        while (!plain.over()) {
          MoveVerdict v;
          const Color c = plain.to_play();
          const Point p = FullMove(plain, plain_rng, &v);
          ASSERT_TRUE(v.legal()) << where;
          plain.Play(c, p, v);
        }
        ASSERT_EQ(fast.moves(), plain.moves()) << where;
        EXPECT_EQ(fast.cycles(), plain.cycles()) << where;
        EXPECT_EQ(fast.result(), plain.result()) << where;
        EXPECT_EQ(fast.ended_at(), plain.ended_at()) << where;
        EXPECT_EQ(fast.ko_captures(), plain.ko_captures()) << where;
        EXPECT_EQ(fast.board().hash(), plain.board().hash()) << where;
        EXPECT_TRUE(fast.board().Consistent()) << where;
        // The same number of draws.
        EXPECT_EQ(fast_rng.Next(), plain_rng.Next()) << where;
        if (HasFailure()) return;
        ++games;
        cycles += static_cast<int>(fast.cycles().size());
      }
    }
  }
  EXPECT_GT(games, 2000);
  EXPECT_GT(cycles, 100);
}

TEST(Playout, LightPlayoutIsLightMoveThenPlay) {
  for (const Size& s : kSizes) {
    for (int g = 0; g < s.games; ++g) {
      const std::string where =
          absl::StrCat(s.width, "x", s.height, " game ", g);
      const uint64_t seed = GameSeed(
          22, static_cast<uint64_t>(s.width * 100 + s.height) * 1000 + g);
      const int cap = 3 * s.width * s.height;
      Board fast(s.width, s.height);
      Rng fast_rng(seed);
      const int plies = LightPlayout(fast, Color::kBlack, fast_rng, cap);
      Board plain(s.width, s.height);
      Rng plain_rng(seed);
      Color c = Color::kBlack;
      int passes = 0;
      int plain_plies = 0;
      while (plain_plies < cap && passes < 2) {
        const Point p = LightMove(plain, c, plain_rng);
        if (p == kPass) {
          plain.Pass();
          ++passes;
        } else {
          plain.Play(p, c);
          passes = 0;
        }
        ++plain_plies;
        c = Opponent(c);
      }
      ASSERT_EQ(plies, plain_plies) << where;
      ASSERT_EQ(fast.hash(), plain.hash()) << where;
      ASSERT_EQ(fast.ToString(), plain.ToString()) << where;
      ASSERT_EQ(fast.num_empty(), plain.num_empty()) << where;
      for (int i = 0; i < fast.num_empty(); ++i) {
        ASSERT_EQ(fast.empty_point(i), plain.empty_point(i)) << where;
      }
      EXPECT_TRUE(fast.Consistent()) << where;
      EXPECT_EQ(fast_rng.Next(), plain_rng.Next()) << where;
    }
  }
}

}  // namespace
}  // namespace qipu::rules
