// The mcts policy on the real rules core: it finds captures and saves on
// small hand-built positions, ends won games by passing and never passes a
// lost count away, resigns hopeless positions, is reproducible from its
// seed (with one thread or several), bounds its tree, keeps to its time,
// and beats the random policy clearly.
#include "policy/mcts.h"

#include <cstdint>
#include <string>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "policy/mcts_search.h"
#include "policy/random_policy.h"
#include "policy/spec.h"
#include "rules/diagram.h"
#include "rules/game.h"
#include "tests/policy/game_diagram.h"

namespace qipu::policy {
namespace {

using rules::At;
using rules::Color;

MoveChoice ChooseWith(const std::string& spec, const rules::Game& game,
                      uint64_t seed = 1) {
  auto policy = MakePolicy(spec, seed);
  EXPECT_TRUE(policy.ok()) << policy.status();
  if (!policy.ok()) return {};
  EXPECT_TRUE((*policy)->NewGame(game).ok());
  absl::StatusOr<MoveChoice> choice = (*policy)->Choose(game, SearchLimits{});
  EXPECT_TRUE(choice.ok()) << choice.status();
  return choice.ok() ? *choice : MoveChoice{};
}

// The tactical positions use random playouts: pattern playouts, which
// capture and save by themselves, judge them won (lost) whatever Black
// plays first, so every first move looks alike to them.
TEST(Mcts, CapturesAChainInAtari) {
  const rules::Game game = GameFromDiagram(R"(
    . . . . . . .
    . . . . . . .
    . . X X X . .
    . X O O O . .
    . . X X X . .
    . . . . . . .
    . . . . . . .
  )",
                                           Color::kBlack);
  for (const char* spec : {"mcts:playouts=400,playout=random",
                           "mcts:playouts=2000,playout=random,threads=2"}) {
    const MoveChoice c = ChooseWith(spec, game);
    EXPECT_EQ(c.point, At(5, 3)) << spec;
    EXPECT_GT(c.winrate, 0.5) << spec;
  }
}

TEST(Mcts, SavesAChainInAtari) {
  const rules::Game game = GameFromDiagram(R"(
    . . . . . . .
    . . . . . . .
    . . O O O . .
    . O X X X . .
    . . O O O . .
    . . . . . . .
    . . . . . . .
  )",
                                           Color::kBlack);
  for (const char* spec : {"mcts:playouts=400,playout=random",
                           "mcts:playouts=2000,playout=random,threads=2"}) {
    EXPECT_EQ(ChooseWith(spec, game).point, At(5, 3)) << spec;
  }
}

TEST(Mcts, VisitsAreTheRootCountsMostVisitedFirst) {
  rules::Game game(9, 9, rules::Rules{});
  const MoveChoice c = ChooseWith("mcts:playouts=300", game);
  EXPECT_EQ(c.playouts, 300);
  ASSERT_FALSE(c.visits.empty());
  EXPECT_EQ(c.visits[0].point, c.point);
  uint64_t sum = 0;
  for (size_t i = 0; i < c.visits.size(); ++i) {
    EXPECT_GT(c.visits[i].visits, 0u);
    if (i > 0) {
      EXPECT_GE(c.visits[i - 1].visits, c.visits[i].visits);
    }
    EXPECT_TRUE(game.Check(c.visits[i].point).legal());
    sum += c.visits[i].visits;
  }
  EXPECT_EQ(sum, 300u);  // Every playout goes through one root move.
}

TEST(Mcts, ReproducibleFromItsSeedWithOneOrTwoThreads) {
  rules::Game game(9, 9, rules::Rules{});
  RandomPolicy opening(4);
  for (int i = 0; i < 20; ++i) {
    const rules::Point p = opening.Choose(game, {})->point;
    game.Play(game.to_play(), p, game.Check(p));
  }
  for (const char* spec :
       {"mcts:playouts=500", "mcts:playouts=500,threads=2,playout=random"}) {
    const MoveChoice a = ChooseWith(spec, game, 7);
    const MoveChoice b = ChooseWith(spec, game, 7);
    EXPECT_EQ(a.point, b.point) << spec;
    EXPECT_EQ(a.visits, b.visits) << spec;
    EXPECT_EQ(a.winrate, b.winrate) << spec;
    const MoveChoice c = ChooseWith(spec, game, 8);
    EXPECT_NE(a.visits, c.visits) << spec;
  }
}

TEST(Mcts, PassesToWinAfterTheOpponentPasses) {
  rules::Game game = GameFromDiagram(R"(
    . . . X O .
    . . . X O .
    . . . X O .
    . . . X O .
    . . . X O .
  )",
                                     Color::kWhite);
  game.Play(Color::kWhite, rules::kPass, game.Check(rules::kPass));
  ASSERT_EQ(game.ScoreNow().winner, rules::Winner::kBlack);
  const MoveChoice c = ChooseWith("mcts:playouts=100", game);
  EXPECT_EQ(c.point, rules::kPass);
  EXPECT_EQ(c.winrate, 1.0);
}

TEST(Mcts, PlaysOnRatherThanPassALostCount) {
  // White passed; Black is behind by count but White's wall can be cut:
  // Black must not end the game by passing.
  rules::Game game = GameFromDiagram(R"(
    . . X O .
    . . X O .
    . . X O .
    . . X O .
    . . X O .
  )",
                                     Color::kWhite);
  game.Play(Color::kWhite, rules::kPass, game.Check(rules::kPass));
  ASSERT_EQ(game.ScoreNow().winner, rules::Winner::kWhite);
  const MoveChoice c = ChooseWith("mcts:playouts=200,resign=0", game);
  EXPECT_NE(c.point, rules::kPass);
  EXPECT_TRUE(game.Check(c.point).legal());
}

TEST(Mcts, ResignsWhenHopeless) {
  // Black has no legal move and White's two eyes live.
  const rules::Game game = GameFromDiagram(R"(
    O O O O O
    O . O . O
    O O O O O
    O O . O O
    O O O O O
  )",
                                           Color::kBlack);
  EXPECT_EQ(ChooseWith("mcts:playouts=200", game).point, rules::kResign);
  const MoveChoice c = ChooseWith("mcts:playouts=200,resign=0", game);
  EXPECT_EQ(c.point, rules::kPass);
  EXPECT_EQ(c.winrate, 0.0);
}

TEST(Mcts, TreeStaysWithinItsNodeBound) {
  rules::Game game(9, 9, rules::Rules{});
  SearchParams params;
  params.max_nodes = 1000;
  params.expand = 1;
  Search search(params);
  search.Start(game, 1);
  EXPECT_EQ(search.Run(3000, absl::InfiniteFuture()), 3000);
  EXPECT_LE(search.tree().size(), 1000);
  EXPECT_GT(search.tree().size(), 500);
}

TEST(Mcts, KeepsToItsTimeLimit) {
  rules::Game game(9, 9, rules::Rules{});
  auto policy = MakePolicy("mcts:threads=2", 1);
  ASSERT_TRUE(policy.ok());
  SearchLimits limits;
  limits.playouts = 100'000'000;
  limits.time = absl::Milliseconds(100);
  const absl::Time start = absl::Now();
  const absl::StatusOr<MoveChoice> c = (*policy)->Choose(game, limits);
  ASSERT_TRUE(c.ok());
  EXPECT_LT(absl::Now() - start, absl::Seconds(5));
  EXPECT_GT(c->playouts, 0);
  EXPECT_LT(c->playouts, 100'000'000);
  EXPECT_TRUE(game.Check(c->point).legal());
}

// Plays `games` 7x7 games of `spec` against the random policy, colours
// alternating; returns the mcts side's wins.
int WinsAgainstRandom(const std::string& spec, int games) {
  int wins = 0;
  for (int g = 0; g < games; ++g) {
    auto mcts = MakePolicy(spec, 100 + g);
    EXPECT_TRUE(mcts.ok());
    RandomPolicy random(200 + g);
    rules::Game game(7, 7, rules::Rules{});
    const Color mcts_colour = g % 2 == 0 ? Color::kBlack : Color::kWhite;
    while (!game.over()) {
      Policy& p = game.to_play() == mcts_colour ? **mcts : random;
      const absl::StatusOr<MoveChoice> c = p.Choose(game, {});
      EXPECT_TRUE(c.ok());
      if (!c.ok()) return wins;
      if (c->point == rules::kResign) {
        game.Resign(game.to_play());
        break;
      }
      game.Play(game.to_play(), c->point, game.Check(c->point));
    }
    const rules::Winner w = game.result().winner;
    wins += (w == rules::Winner::kBlack) == (mcts_colour == Color::kBlack) &&
            (w == rules::Winner::kBlack || w == rules::Winner::kWhite);
  }
  return wins;
}

TEST(Mcts, BeatsRandomClearly) {
  EXPECT_GE(WinsAgainstRandom("mcts:playouts=150,playout=random", 6), 6);
  EXPECT_GE(WinsAgainstRandom("mcts:playouts=150", 6), 6);
}

}  // namespace
}  // namespace qipu::policy
