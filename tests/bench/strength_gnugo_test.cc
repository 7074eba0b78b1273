// `qipu bench strength` against real GNU Go (/usr/games/gnugo, Debian
// package gnugo; skipped when it is missing): two tiny 9x9 games of
// mcts:playouts=100 against GNU Go level 1, Chinese rules, komi 7.5, dead
// stones captured so that qipu's area count is the result. Both games are
// played to a result (no void, no illegal move from either side), colours
// alternate, GNU Go's process is gone afterwards, and the SGF files name
// both players.
#include <unistd.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "bench/strength_bench.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/common/temp_dir.h"
#include "tests/gtp/process_util.h"

namespace qipu::bench {
namespace {

using ::qipu::gtp::ChildProcesses;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr char kGnuGo[] = "/usr/games/gnugo";
// Level 1, Chinese rules, dead stones captured before GNU Go passes; its
// reading cut short (as in tests/gtp/gnugo_match_test.cc) so that a move
// takes milliseconds, not seconds, under sanitizers.
constexpr char kGnuGoArgs[] =
    " --mode gtp --level 1 --chinese-rules --capture-all-dead"
    " --owl-node-limit 50 --semeai-node-limit 50 --depth 6 --owl-reading 6";

TEST(StrengthBenchGnuGo, TwoGamesToAResult) {
  if (access(kGnuGo, X_OK) != 0) {
    GTEST_SKIP() << kGnuGo << " is not installed (Debian package gnugo)";
  }
  ASSERT_THAT(ChildProcesses(), IsEmpty());
  test_util::TempDir tmp("strength-gnugo");
  StrengthBenchOptions o;
  o.policy_a = "mcts:playouts=100";
  o.policy_b = absl::StrCat("gtp:", kGnuGo, kGnuGoArgs);
  o.games = 2;
  o.size = 9;
  o.threads = 1;
  o.seed = 5;
  o.sgf_dir = tmp.path();
  auto r = RunStrengthBench(o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(ChildProcesses(), IsEmpty());
  EXPECT_EQ(r->voids, 0) << StrengthBenchText(*r);
  EXPECT_EQ(r->wins + r->losses + r->draws, 2);
  EXPECT_EQ(r->a.illegal_moves + r->b.illegal_moves, 0);
  EXPECT_EQ(r->a.engine_errors + r->b.engine_errors, 0);
  EXPECT_EQ(r->b.spec, o.policy_b);
  EXPECT_GT(r->b.moves, 0);
  EXPECT_GT(r->b.seconds_per_move, 0);
  EXPECT_EQ(r->b.playouts, 0);
  EXPECT_TRUE(r->game_list[0].a_black);
  EXPECT_FALSE(r->game_list[1].a_black);
  for (const StrengthGame& g : r->game_list) {
    EXPECT_TRUE(g.result.reason == rules::EndReason::kScore ||
                g.result.reason == rules::EndReason::kResign)
        << rules::EndReasonName(g.result.reason);
  }
  auto text = base::ReadFile(tmp.Sub("game-0001.sgf"));
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_THAT(*text, HasSubstr(absl::StrCat("PB[", o.policy_b, "]")));
  EXPECT_THAT(*text, HasSubstr("PW[mcts:playouts=100]"));
}

}  // namespace
}  // namespace qipu::bench
