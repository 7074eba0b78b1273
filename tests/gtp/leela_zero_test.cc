// Real Leela Zero (/usr/lib/leelaz/bin/leelaz, Debian package leela-zero;
// skipped when it is missing) as a `gtp:` policy that reports its search:
// the policy asks lz-genmove_analyze (leelaz lists it) and the visits and
// win rate it posts are the move's search. The network is a file the test
// writes in Leela Zero's text format (src/Network.cpp load_v1_network():
// the version line "1", an input convolution of 4 lines, 8 lines per
// residual block, 14 lines of policy and value heads) -- one block of 2
// filters, every weight 0 and every batch-norm variance 1, so that every
// move has the same prior and every position is worth 0.5. Labelled
// "leela-zero".
#include <unistd.h>

#include <fstream>
#include <numeric>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "gtp/policy_factory.h"
#include "rules/game.h"
#include "tests/common/temp_dir.h"

namespace qipu::gtp {
namespace {

constexpr char kLeelaZero[] = "/usr/lib/leelaz/bin/leelaz";

// `n` copies of `v`, space-separated: one line of the weights file.
std::string Weights(int n, const char* v = "0") {
  std::string line;
  for (int i = 0; i < n; ++i) absl::StrAppend(&line, i ? " " : "", v);
  return line + "\n";
}

// A 1-block, `filters`-filter Leela Zero network for 19x19 (18 input
// planes, 362 moves, a value layer of 256) written to `path`.
void WriteTinyNetwork(const std::string& path, int filters) {
  const int f = filters;
  std::ofstream out(path);
  out << "1\n";
  out << Weights(f * 18 * 9) << Weights(f) << Weights(f) << Weights(f, "1");
  for (int conv = 0; conv < 2; ++conv) {
    out << Weights(f * f * 9) << Weights(f) << Weights(f) << Weights(f, "1");
  }
  out << Weights(2 * f) << Weights(2) << Weights(2) << Weights(2, "1")
      << Weights(2 * 361 * 362) << Weights(362);
  out << Weights(f) << Weights(1) << Weights(1) << Weights(1, "1")
      << Weights(361 * 256) << Weights(256) << Weights(256) << Weights(1);
}

TEST(LeelaZero, ItsAnalysisIsTheSearchOfEachMove) {
  if (access(kLeelaZero, X_OK) != 0) {
    GTEST_SKIP() << kLeelaZero << " is not installed (Debian package "
                 << "leela-zero)";
  }
  test_util::TempDir dir("leela-zero");
  const std::string weights = dir.path() + "/tiny.txt";
  WriteTinyNetwork(weights, 2);
  auto policy = MakeAnyPolicy(
      absl::StrCat("gtp:", kLeelaZero, " --gtp --cpu-only --noponder -q -t 1 ",
                   "-p 40 -w ", weights),
      1, dir.path() + "/leelaz.log");
  ASSERT_TRUE(policy.ok()) << policy.status();
  rules::Game game(19, 19, rules::Rules{});
  ASSERT_TRUE((*policy)->NewGame(game).ok());
  for (int move = 0; move < 4; ++move) {
    SCOPED_TRACE(move);
    absl::StatusOr<policy::MoveChoice> c = (*policy)->Choose(game, {});
    ASSERT_TRUE(c.ok()) << c.status();
    ASSERT_FALSE(c->visits.empty());
    int64_t sum = 0;
    bool chosen_searched = false;
    for (size_t i = 0; i < c->visits.size(); ++i) {
      EXPECT_GT(c->visits[i].visits, 0u);
      if (i > 0) EXPECT_GE(c->visits[i - 1].visits, c->visits[i].visits);
      sum += c->visits[i].visits;
      chosen_searched |= c->visits[i].point == c->point;
    }
    // -p 40 new playouts a move; Leela Zero keeps the subtree of the moves
    // played, so the root may hold those of earlier searches too.
    EXPECT_EQ(c->playouts, sum);
    EXPECT_GE(sum, 20);
    EXPECT_LE(sum, 41 * (move + 1));
    EXPECT_TRUE(chosen_searched);
    // A network worth 0.5 everywhere.
    EXPECT_NEAR(c->winrate, 0.5, 0.01);
    ASSERT_TRUE(game.TryPlay(c->point).legal());
  }
}

}  // namespace
}  // namespace qipu::gtp
