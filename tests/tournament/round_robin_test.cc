// Rotation tables (輪轉法) against the tables the method prints, and the
// properties every round robin schedule must have.
#include "tournament/round_robin.h"

#include <set>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace qipu::tournament {
namespace {

using Table = std::vector<std::vector<std::pair<int, int>>>;

// The schedule as (left, right) rows, colours left out.
Table Rows(int n) {
  Table table;
  for (const auto& round : RotationSchedule(n, false)) {
    std::vector<std::pair<int, int>> rows;
    for (const RotationGame& g : round) rows.emplace_back(g.left, g.right);
    table.push_back(rows);
  }
  return table;
}

// The tables below are the rotation method written out by hand: 1 fixed at
// the top left, the others moving one place anticlockwise each round; for
// an odd number the extra number is "0" (a bye).
TEST(RotationSchedule, FourEntrants) {
  const Table expected = {
      {{1, 4}, {2, 3}},
      {{1, 3}, {4, 2}},
      {{1, 2}, {3, 4}},
  };
  EXPECT_EQ(Rows(4), expected);
}

TEST(RotationSchedule, FiveEntrantsUseZeroForTheBye) {
  const Table expected = {
      {{1, 0}, {2, 5}, {3, 4}}, {{1, 5}, {0, 4}, {2, 3}},
      {{1, 4}, {5, 3}, {0, 2}}, {{1, 3}, {4, 2}, {5, 0}},
      {{1, 2}, {3, 0}, {4, 5}},
  };
  EXPECT_EQ(Rows(5), expected);
}

TEST(RotationSchedule, SixEntrants) {
  const Table expected = {
      {{1, 6}, {2, 5}, {3, 4}}, {{1, 5}, {6, 4}, {2, 3}},
      {{1, 4}, {5, 3}, {6, 2}}, {{1, 3}, {4, 2}, {5, 6}},
      {{1, 2}, {3, 6}, {4, 5}},
  };
  EXPECT_EQ(Rows(6), expected);
}

TEST(RotationSchedule, EightEntrants) {
  const Table expected = {
      {{1, 8}, {2, 7}, {3, 6}, {4, 5}}, {{1, 7}, {8, 6}, {2, 5}, {3, 4}},
      {{1, 6}, {7, 5}, {8, 4}, {2, 3}}, {{1, 5}, {6, 4}, {7, 3}, {8, 2}},
      {{1, 4}, {5, 3}, {6, 2}, {7, 8}}, {{1, 3}, {4, 2}, {5, 8}, {6, 7}},
      {{1, 2}, {3, 8}, {4, 7}, {5, 6}},
  };
  EXPECT_EQ(Rows(8), expected);
}

TEST(RotationSchedule, EveryPairMeetsOnceAndColoursBalance) {
  for (int n = 2; n <= 24; ++n) {
    SCOPED_TRACE(n);
    const auto schedule = RotationSchedule(n, false);
    const int even = n + n % 2;
    ASSERT_EQ(static_cast<int>(schedule.size()), even - 1);
    EXPECT_EQ(RoundRobinRounds(n, false), even - 1);
    std::set<std::pair<int, int>> met;
    std::vector<int> blacks(n + 1, 0), whites(n + 1, 0), byes(n + 1, 0);
    for (const auto& round : schedule) {
      std::set<int> seen;
      for (const RotationGame& g : round) {
        EXPECT_TRUE(seen.insert(g.left).second);
        EXPECT_TRUE(seen.insert(g.right).second);
        if (g.left == 0 || g.right == 0) {
          ++byes[g.left + g.right];
          continue;
        }
        EXPECT_TRUE(
            met.insert({std::min(g.left, g.right), std::max(g.left, g.right)})
                .second);
        ++(g.left_black ? blacks[g.left] : blacks[g.right]);
        ++(g.left_black ? whites[g.right] : whites[g.left]);
      }
      EXPECT_EQ(static_cast<int>(seen.size()), even);
    }
    EXPECT_EQ(static_cast<int>(met.size()), n * (n - 1) / 2);
    for (int x = 1; x <= n; ++x) {
      EXPECT_LE(std::abs(blacks[x] - whites[x]), 1) << "number " << x;
      EXPECT_EQ(byes[x], n % 2) << "number " << x;
    }
  }
}

TEST(RotationSchedule, DoubleRoundReversesColours) {
  for (const int n : {4, 5, 6, 9}) {
    const auto single = RotationSchedule(n, false);
    const auto twice = RotationSchedule(n, true);
    ASSERT_EQ(twice.size(), 2 * single.size());
    EXPECT_EQ(RoundRobinRounds(n, true), static_cast<int>(twice.size()));
    for (size_t r = 0; r < single.size(); ++r) {
      const auto& second = twice[r + single.size()];
      ASSERT_EQ(second.size(), single[r].size());
      for (size_t i = 0; i < second.size(); ++i) {
        EXPECT_EQ(second[i].left, single[r][i].left);
        EXPECT_EQ(second[i].right, single[r][i].right);
        EXPECT_NE(second[i].left_black, single[r][i].left_black);
      }
    }
  }
}

TEST(RotationSchedule, TooFewEntrants) {
  EXPECT_TRUE(RotationSchedule(1, false).empty());
  EXPECT_TRUE(RotationSchedule(0, true).empty());
  EXPECT_EQ(RoundRobinRounds(1, false), 0);
}

}  // namespace
}  // namespace qipu::tournament
