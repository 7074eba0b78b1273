// Every policy plays only moves the game's full rules allow, under every
// rule variant (each ko rule, cycle outcome, suicide setting, small move
// caps) and on several board shapes: games played to their end with the
// policy on both sides, each move checked with Game::Check() before it is
// played.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "policy/spec.h"
#include "rules/game.h"
#include "rules/rules.h"
#include "tests/rules/rule_variants.h"

namespace qipu::policy {
namespace {

struct Shape {
  int width;
  int height;
};

// Plays `games` games of `spec` against itself on each shape under each
// rule variant; fails on the first illegal move. Returns the moves played.
int PlayAll(const std::string& spec, const std::vector<Shape>& shapes,
            int games) {
  int moves = 0;
  uint64_t seed = 1;
  for (const auto& [name, rules] : rules::AllRuleVariants()) {
    for (const Shape& s : shapes) {
      for (int g = 0; g < games; ++g) {
        const std::string where = absl::StrCat(spec, " ", name, " ", s.width,
                                               "x", s.height, " game ", g);
        auto policy = MakePolicy(spec, seed++);
        EXPECT_TRUE(policy.ok()) << policy.status();
        if (!policy.ok()) return moves;
        rules::Game game(s.width, s.height, rules);
        EXPECT_TRUE((*policy)->NewGame(game).ok());
        while (!game.over()) {
          auto choice = (*policy)->Choose(game, SearchLimits{});
          EXPECT_TRUE(choice.ok()) << where << ": " << choice.status();
          if (!choice.ok()) return moves;
          if (choice->point == rules::kResign) {
            game.Resign(game.to_play());
            break;
          }
          const rules::MoveVerdict v = game.Check(choice->point);
          EXPECT_TRUE(v.legal())
              << where << " move " << game.num_moves() + 1 << ": "
              << rules::IllegalReasonName(v.reason) << "\n"
              << game.board().ToString();
          if (!v.legal()) return moves;
          const rules::Move m{game.to_play(), choice->point};
          game.Play(m.color, m.point, v);
          (*policy)->Played(game, m);
          ++moves;
        }
      }
    }
  }
  return moves;
}

TEST(PolicyLegality, RandomUnderEveryRuleVariant) {
  EXPECT_GT(PlayAll("random", {{2, 2}, {3, 3}, {5, 5}, {9, 9}, {4, 7}}, 6),
            1000);
}

TEST(PolicyLegality, PatternUnderEveryRuleVariant) {
  EXPECT_GT(PlayAll("pattern", {{2, 2}, {3, 3}, {5, 5}, {9, 9}, {4, 7}}, 6),
            1000);
}

TEST(PolicyLegality, MctsRandomPlayoutsUnderEveryRuleVariant) {
  EXPECT_GT(PlayAll("mcts:playouts=24,playout=random,resign=0",
                    {{2, 2}, {3, 3}, {5, 5}}, 2),
            100);
}

TEST(PolicyLegality, MctsPatternPlayoutsUnderEveryRuleVariant) {
  EXPECT_GT(PlayAll("mcts:playouts=24,resign=0,threads=2", {{3, 3}, {4, 5}}, 1),
            100);
}

}  // namespace
}  // namespace qipu::policy
