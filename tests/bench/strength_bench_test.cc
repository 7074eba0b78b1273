// RunStrengthBench() (bench/strength_bench.h): mcts against random on 7x7
// wins clearly, colours alternate (game i: A Black when i is even) and the
// counts hang together, the same seed plays the same games, --sgf-out
// writes every game with the specs and the result; external engines (small
// shell scripts speaking GTP) that play an occupied point lose their games
// by an illegal move, and engines that crash or cannot start void their
// games -- reported, no crash, no child process left. The Wilson interval
// on known values; the renderings' fields and lines.
#include "bench/strength_bench.h"

#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rules/sgf_reader.h"
#include "tests/bench/bench_test_util.h"
#include "tests/common/temp_dir.h"
#include "tests/gtp/process_util.h"

namespace qipu::bench {
namespace {

using ::qipu::gtp::ChildProcesses;
using ::qipu::gtp::ScriptEngine;
using ::qipu::gtp::WriteScript;
using ::qipu::test_util::Keys;
using ::qipu::test_util::Lines;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

StrengthBenchOptions Match(const std::string& a, const std::string& b,
                           int games, int size) {
  StrengthBenchOptions o;
  o.policy_a = a;
  o.policy_b = b;
  o.games = games;
  o.size = size;
  o.threads = 2;
  o.seed = 11;
  return o;
}

// Counts add up, colours alternate, and the per-colour figures agree with
// the list of games.
void ExpectConsistent(const StrengthBenchResult& r) {
  EXPECT_EQ(r.wins + r.losses + r.draws + r.voids, r.games);
  ASSERT_EQ(static_cast<int>(r.game_list.size()), r.games);
  EXPECT_EQ(r.a_black_games, (r.games + 1) / 2);
  EXPECT_EQ(r.a_white_games, r.games / 2);
  EXPECT_EQ(r.a_black_wins + r.a_white_wins, r.wins);
  for (int i = 0; i < r.games; ++i) {
    EXPECT_EQ(r.game_list[i].index, i);
    EXPECT_EQ(r.game_list[i].a_black, i % 2 == 0) << i;
  }
  const int decided = r.wins + r.losses + r.draws;
  if (decided > 0) {
    EXPECT_DOUBLE_EQ(r.win_rate, (r.wins + 0.5 * r.draws) / decided);
  }
  EXPECT_LE(r.interval.low, r.win_rate);
  EXPECT_GE(r.interval.high, r.win_rate);
}

TEST(WilsonInterval, KnownValues) {
  Interval i = WilsonInterval(9, 10);
  EXPECT_NEAR(i.low, 0.595844, 1e-6);
  EXPECT_NEAR(i.high, 0.982124, 1e-6);
  i = WilsonInterval(5, 10);
  EXPECT_NEAR(i.low, 0.236590, 1e-6);
  EXPECT_NEAR(i.high, 0.763410, 1e-6);
  i = WilsonInterval(50, 100);
  EXPECT_NEAR(i.low, 0.403830, 1e-6);
  EXPECT_NEAR(i.high, 0.596170, 1e-6);
  // Draws count a half.
  i = WilsonInterval(7.5, 10);
  EXPECT_NEAR(i.low, 0.442176, 1e-6);
  EXPECT_NEAR(i.high, 0.919054, 1e-6);
  // The edges stay inside [0, 1].
  i = WilsonInterval(0, 10);
  EXPECT_DOUBLE_EQ(i.low, 0);
  EXPECT_NEAR(i.high, 0.277540, 1e-6);
  i = WilsonInterval(100, 100);
  EXPECT_NEAR(i.low, 0.963005, 1e-6);
  EXPECT_DOUBLE_EQ(i.high, 1);
  // No games: no information.
  i = WilsonInterval(0, 0);
  EXPECT_DOUBLE_EQ(i.low, 0);
  EXPECT_DOUBLE_EQ(i.high, 1);
}

TEST(StrengthBench, MctsBeatsRandomClearlyOn7x7) {
  auto r = RunStrengthBench(Match("mcts:playouts=200", "random", 10, 7));
  ASSERT_TRUE(r.ok()) << r.status();
  ExpectConsistent(*r);
  EXPECT_GE(r->wins, 9) << StrengthBenchText(*r);
  EXPECT_EQ(r->voids, 0);
  EXPECT_EQ(r->a.spec, "mcts:playouts=200");
  EXPECT_EQ(r->b.spec, "random");
  EXPECT_EQ(r->threads, 2);
  // mcts searches 200 playouts a move (none for a pass it makes at once
  // when the count already wins); random has no playouts.
  EXPECT_GT(r->a.moves, 0);
  EXPECT_GT(r->a.playouts_per_move, 100);
  EXPECT_LE(r->a.playouts_per_move, 200);
  EXPECT_DOUBLE_EQ(r->a.playouts_per_move,
                   static_cast<double>(r->a.playouts) / r->a.moves);
  EXPECT_EQ(r->b.playouts, 0);
  EXPECT_DOUBLE_EQ(r->a.seconds_per_move, r->a.seconds / r->a.moves);
  EXPECT_GT(r->a.seconds_per_move, r->b.seconds_per_move);
  for (const StrengthGame& g : r->game_list) {
    EXPECT_THAT(g.note, IsEmpty());
    EXPECT_GT(g.moves, 0);
  }

  const nlohmann::ordered_json j = StrengthBenchJson(*r);
  EXPECT_THAT(
      Keys(j),
      ElementsAre("policy_a", "policy_b", "size", "rules", "komi", "threads",
                  "seed", "games", "wins", "losses", "draws", "voids",
                  "win_rate", "win_rate_low", "win_rate_high", "a_black_games",
                  "a_white_games", "a_black_wins", "a_white_wins", "black_wins",
                  "seconds", "a", "b", "games_list"));
  EXPECT_THAT(Keys(j["a"]), ElementsAre("spec", "moves", "seconds_per_move",
                                        "playouts_per_move", "resignations",
                                        "illegal_moves", "engine_errors"));
  EXPECT_EQ(j["wins"], r->wins);
  EXPECT_EQ(j["komi"], 7.5);
  EXPECT_EQ(j["rules"], "chinese");
  ASSERT_EQ(j["games_list"].size(), 10u);
  EXPECT_THAT(Keys(j["games_list"][0]),
              ElementsAre("index", "a_black", "result", "moves", "note"));
  EXPECT_EQ(j["games_list"][1]["a_black"], false);

  const std::vector<std::string> lines = Lines(StrengthBenchText(*r));
  ASSERT_EQ(lines.size(), 7u) << StrengthBenchText(*r);
  EXPECT_EQ(lines[0], "A: mcts:playouts=200");
  EXPECT_EQ(lines[1], "B: random");
  EXPECT_THAT(lines[2], HasSubstr("7x7, chinese, komi 7.5, 10 games (A "
                                  "Black in even games), 2 threads, seed 11"));
  EXPECT_THAT(lines[3], HasSubstr(absl::StrCat("A: ", r->wins, " wins, ")));
  EXPECT_THAT(lines[3], HasSubstr("95% interval"));
  EXPECT_THAT(lines[4], HasSubstr("A as Black"));
  EXPECT_THAT(lines[5], HasSubstr("playouts/move"));
  EXPECT_THAT(lines[6], HasSubstr("B: "));
  EXPECT_THAT(lines[6], ::testing::Not(HasSubstr("playouts/move")));
}

TEST(StrengthBench, SameSeedSameGamesAndEveryGameAsSgf) {
  test_util::TempDir tmp("strength-sgf");
  StrengthBenchOptions o = Match("random", "pattern", 6, 9);
  o.sgf_dir = tmp.Sub("games");
  auto first = RunStrengthBench(o);
  ASSERT_TRUE(first.ok()) << first.status();
  ExpectConsistent(*first);
  EXPECT_EQ(first->voids, 0);
  o.sgf_dir.clear();
  auto second = RunStrengthBench(o);
  ASSERT_TRUE(second.ok()) << second.status();
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(first->game_list[i].result, second->game_list[i].result) << i;
    EXPECT_EQ(first->game_list[i].moves, second->game_list[i].moves) << i;
  }

  for (int i = 0; i < 6; ++i) {
    const std::string path = tmp.Sub(absl::StrCat("games/game-000", i, ".sgf"));
    auto text = base::ReadFile(path);
    ASSERT_TRUE(text.ok()) << text.status();
    const rules::SgfCollection c = rules::ReadSgf(*text);
    ASSERT_EQ(c.games.size(), 1u) << path;
    const rules::GameRecord& g = c.games[0];
    EXPECT_EQ(g.black_player, i % 2 == 0 ? "random" : "pattern");
    EXPECT_EQ(g.white_player, i % 2 == 0 ? "pattern" : "random");
    EXPECT_EQ(g.result.text, rules::ResultToSgf(first->game_list[i].result));
    EXPECT_EQ(static_cast<int>(g.moves.size()), first->game_list[i].moves);
    EXPECT_EQ(g.width, 9);
    EXPECT_DOUBLE_EQ(g.komi, 7.5);
    EXPECT_EQ(g.rules, "chinese");
  }
  EXPECT_FALSE(std::filesystem::exists(tmp.Sub("games/game-0006.sgf")));
}

class StrengthBenchEngines : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_THAT(ChildProcesses(), IsEmpty()); }
  void TearDown() override { EXPECT_THAT(ChildProcesses(), IsEmpty()); }

  // "gtp:<script>" for a script engine whose genmove does `genmove`.
  std::string Engine(const std::string& name, const std::string& genmove) {
    return absl::StrCat("gtp:",
                        WriteScript(tmp_.path(), name, ScriptEngine(genmove)));
  }

  test_util::TempDir tmp_{"strength-engines"};
};

TEST_F(StrengthBenchEngines, AnEngineThatPlaysAnOccupiedPointLoses) {
  // A1 every time: occupied (or suicide) by its second move at the latest.
  test_util::TempDir sgf("strength-illegal");
  StrengthBenchOptions o =
      Match("random", Engine("a1.sh", "printf '= A1\\n\\n'"), 4, 9);
  o.sgf_dir = sgf.path();
  auto r = RunStrengthBench(o);
  ASSERT_TRUE(r.ok()) << r.status();
  ExpectConsistent(*r);
  EXPECT_EQ(r->wins, 4) << StrengthBenchText(*r);
  EXPECT_EQ(r->b.illegal_moves, 4);
  EXPECT_EQ(r->a.illegal_moves, 0);
  EXPECT_EQ(r->voids, 0);
  EXPECT_THAT(r->b.spec, HasSubstr("gtp:"));
  for (const StrengthGame& g : r->game_list) {
    EXPECT_EQ(g.result.reason, rules::EndReason::kIllegal);
    EXPECT_THAT(g.note, HasSubstr(absl::StrCat(g.a_black ? "W" : "B",
                                               " played an illegal move")));
    EXPECT_THAT(g.note, HasSubstr("at A1"));
    EXPECT_EQ(rules::ResultToSgf(g.result),
              g.a_black ? "B+Illegal" : "W+Illegal");
  }
  EXPECT_THAT(StrengthBenchText(*r), HasSubstr("illegal move"));
  EXPECT_EQ(StrengthBenchJson(*r)["b"]["illegal_moves"], 4);
  // The SGF keeps the note as the game comment.
  auto text = base::ReadFile(sgf.Sub("game-0000.sgf"));
  ASSERT_TRUE(text.ok());
  EXPECT_THAT(*text, HasSubstr("RE[B+Illegal]"));
  EXPECT_THAT(*text, HasSubstr("GC[W played an illegal move"));
}

TEST_F(StrengthBenchEngines, ACrashingEngineVoidsItsGames) {
  auto r = RunStrengthBench(
      Match(Engine("crash.sh", "kill -SEGV $$"), "random", 4, 9));
  ASSERT_TRUE(r.ok()) << r.status();
  ExpectConsistent(*r);
  EXPECT_EQ(r->voids, 4);
  EXPECT_EQ(r->wins + r->losses + r->draws, 0);
  EXPECT_EQ(r->a.engine_errors, 4);
  EXPECT_EQ(r->b.engine_errors, 0);
  EXPECT_DOUBLE_EQ(r->win_rate, 0);
  EXPECT_DOUBLE_EQ(r->interval.low, 0);
  EXPECT_DOUBLE_EQ(r->interval.high, 1);
  for (const StrengthGame& g : r->game_list) {
    EXPECT_TRUE(g.engine_error);
    EXPECT_EQ(g.result.winner, rules::Winner::kNone);
    EXPECT_EQ(rules::ResultToSgf(g.result), "Void");
    EXPECT_THAT(g.note, HasSubstr("engine error at move"));
    EXPECT_THAT(g.note, HasSubstr("killed by signal 11"));
  }
  EXPECT_THAT(StrengthBenchText(*r), HasSubstr("4 void"));
}

TEST_F(StrengthBenchEngines, AnEngineThatCannotStartVoidsItsGames) {
  auto r = RunStrengthBench(
      Match("random", absl::StrCat("gtp:", tmp_.Sub("no-such-engine")), 2, 9));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->voids, 2);
  EXPECT_EQ(r->b.engine_errors, 2);
  for (const StrengthGame& g : r->game_list) {
    EXPECT_THAT(g.note, HasSubstr("engine error at the start"));
  }
}

TEST(StrengthBench, BadOptionsAreInvalidArgument) {
  EXPECT_TRUE(absl::IsInvalidArgument(
      RunStrengthBench(Match("mcts:playouts=0", "random", 2, 9)).status()));
  EXPECT_TRUE(absl::IsInvalidArgument(
      RunStrengthBench(Match("random", "nonsense", 2, 9)).status()));
  EXPECT_TRUE(absl::IsInvalidArgument(
      RunStrengthBench(Match("random", "random", 0, 9)).status()));
  EXPECT_TRUE(absl::IsInvalidArgument(
      RunStrengthBench(Match("random", "random", 2, 1)).status()));
}

}  // namespace
}  // namespace qipu::bench
