// The mcts policy on the real rules core: it finds captures and saves on
// small hand-built positions, ends won games by passing and never passes a
// lost count away, resigns hopeless positions, is reproducible from its
// seed (with one thread or several), reuses the subtree of the moves
// played, bounds its tree, keeps to its time, and beats the random policy
// clearly.
#include "policy/mcts.h"

#include <cstdint>
#include <string>
#include <vector>

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

TEST(Mcts, ReusesTheSubtreeOfTheMovesPlayed) {
  // A search, then its chosen move and a reply: the next search starts
  // from the subtree the two moves lead to, with its statistics, and the
  // result is still reproducible. A new game, a takeback or reuse=0 start
  // afresh.
  rules::Game game(9, 9, rules::Rules{});
  SearchParams params;
  params.prior = 10;
  Search search(params);
  EXPECT_EQ(search.Start(game, 1, /*reuse=*/true), 0);
  search.Run(2000, absl::InfiniteFuture());
  // The most visited root child and its most visited child.
  const Tree& t = search.tree();
  auto most_visited = [&](uint32_t parent) {
    const Node& p = t.node(parent);
    uint32_t best = p.first_child;
    for (uint32_t k = 0; k < p.num_children; ++k) {
      if (t.node(p.first_child + k).visits > t.node(best).visits) {
        best = p.first_child + k;
      }
    }
    return best;
  };
  const uint32_t a = most_visited(Tree::kRoot);
  const uint32_t b = most_visited(a);
  const rules::Point pa = t.node(a).move;
  const rules::Point pb = t.node(b).move;
  const uint32_t kept_visits = t.node(b).visits;
  const uint32_t kept_children = t.node(b).num_children;
  ASSERT_GT(kept_visits, 10u);
  rules::Game next = game;
  next.Play(next.to_play(), pa, next.Check(pa));
  next.Play(next.to_play(), pb, next.Check(pb));
  EXPECT_EQ(search.Start(next, 2, /*reuse=*/true), kept_visits);
  EXPECT_EQ(search.tree().node(Tree::kRoot).num_children, kept_children);
  EXPECT_EQ(search.tree().node(Tree::kRoot).move, rules::kNoPoint);
  search.Run(500, absl::InfiniteFuture());
  uint64_t sum = 0;
  const Node& root = search.tree().node(Tree::kRoot);
  for (uint32_t k = 0; k < root.num_children; ++k) {
    sum += search.tree().node(root.first_child + k).visits;
  }
  EXPECT_GE(sum, kept_visits + 500 - 1);
  // Without reuse, or after a takeback (the moves are not a continuation):
  // afresh.
  EXPECT_EQ(search.Start(next, 3, /*reuse=*/false), 0);
  search.Run(100, absl::InfiniteFuture());
  EXPECT_EQ(search.Start(game, 4, /*reuse=*/true), 0);
  search.Run(100, absl::InfiniteFuture());
  search.Forget();
  EXPECT_EQ(search.Start(next, 5, /*reuse=*/true), 0);

  // Through the policy: the same calls give the same moves; the visits
  // after a reply hold more than this move's playouts.
  auto play_three = [&](const std::string& spec) {
    auto policy = MakePolicy(spec, 9);
    EXPECT_TRUE(policy.ok());
    rules::Game g(9, 9, rules::Rules{});
    EXPECT_TRUE((*policy)->NewGame(g).ok());
    std::vector<MoveChoice> out;
    for (int i = 0; i < 3; ++i) {
      const MoveChoice c = *(*policy)->Choose(g, SearchLimits{});
      out.push_back(c);
      g.Play(g.to_play(), c.point, g.Check(c.point));
      // The opponent replies with the policy's own second choice.
      const rules::Point reply =
          c.visits.size() > 1 ? c.visits[1].point : rules::kPass;
      g.Play(g.to_play(), reply, g.Check(reply));
    }
    return out;
  };
  const auto r1 = play_three("mcts:playouts=400");
  const auto r2 = play_three("mcts:playouts=400");
  const auto fresh = play_three("mcts:playouts=400,reuse=0");
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(r1[i].point, r2[i].point) << i;
    EXPECT_EQ(r1[i].visits, r2[i].visits) << i;
    EXPECT_EQ(r1[i].playouts, 400);
    uint64_t reused = 0;
    uint64_t afresh = 0;
    for (const MoveVisits& v : r1[i].visits) reused += v.visits;
    for (const MoveVisits& v : fresh[i].visits) afresh += v.visits;
    EXPECT_EQ(afresh, 400u) << i;
    if (i == 0) {
      EXPECT_EQ(reused, 400u);
    } else {
      EXPECT_GE(reused, 400u) << i;
    }
  }
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
