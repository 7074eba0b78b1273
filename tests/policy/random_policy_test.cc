// RandomPolicy is today's light policy: seeded with s and playing both
// sides, it plays exactly the game rules::FullPlayout() plays with Rng(s)
// (self-play's games), under every rule variant.
#include "policy/random_policy.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "policy/pattern_policy.h"
#include "rules/game.h"
#include "rules/playout.h"
#include "tests/rules/rule_variants.h"

namespace qipu::policy {
namespace {

// Plays a whole game with `policy` on both sides.
std::vector<rules::Move> PlayGame(Policy& policy, rules::Game& game) {
  EXPECT_TRUE(policy.NewGame(game).ok());
  while (!game.over()) {
    const absl::StatusOr<MoveChoice> c = policy.Choose(game, SearchLimits{});
    EXPECT_TRUE(c.ok());
    if (!c.ok()) break;
    const rules::MoveVerdict v = game.Check(c->point);
    EXPECT_TRUE(v.legal());
    if (!v.legal()) break;
    game.Play(game.to_play(), c->point, v);
  }
  return game.moves();
}

TEST(RandomPolicy, PlaysTheGamesOfFullPlayout) {
  for (const auto& [name, rules] : rules::AllRuleVariants()) {
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      rules::Game expected(7, 7, rules);
      rules::Rng rng(seed);
      rules::FullPlayout(expected, rng);
      rules::Game game(7, 7, rules);
      RandomPolicy policy(seed);
      EXPECT_EQ(PlayGame(policy, game), expected.moves())
          << name << " seed " << seed;
      EXPECT_EQ(game.result(), expected.result()) << name;
    }
  }
}

TEST(RandomPolicy, SeedsGiveReproducibleAndDistinctGames) {
  const rules::Rules chinese;
  rules::Game a(9, 9, chinese);
  rules::Game b(9, 9, chinese);
  rules::Game c(9, 9, chinese);
  RandomPolicy pa(5), pb(5), pc(6);
  EXPECT_EQ(PlayGame(pa, a), PlayGame(pb, b));
  EXPECT_NE(a.moves(), PlayGame(pc, c));
}

TEST(PatternPolicy, SeedsGiveReproducibleAndDistinctGames) {
  const rules::Rules chinese;
  rules::Game a(9, 9, chinese);
  rules::Game b(9, 9, chinese);
  rules::Game c(9, 9, chinese);
  PatternPolicy pa(5), pb(5), pc(6);
  EXPECT_EQ(PlayGame(pa, a), PlayGame(pb, b));
  EXPECT_NE(a.moves(), PlayGame(pc, c));
  EXPECT_EQ(pa.spec(), "pattern");
}

TEST(PolicyChoose, RefusesAGameThatIsOver) {
  rules::Game game(5, 5, rules::Rules{});
  game.Resign(rules::Color::kBlack);
  RandomPolicy r(1);
  PatternPolicy p(1);
  EXPECT_EQ(r.Choose(game, {}).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(p.Choose(game, {}).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace qipu::policy
