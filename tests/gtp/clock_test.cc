// Time keeping of the GTP front-end (gtp/clock.h): the allotment formula
// in each time system, time_left, and the clock's own bookkeeping.
#include "gtp/clock.h"

#include "gtest/gtest.h"

namespace qipu::gtp {
namespace {

constexpr rules::Color kB = rules::Color::kBlack;
constexpr rules::Color kW = rules::Color::kWhite;

double Allot(const Clock& c, rules::Color who, int empty) {
  return absl::ToDoubleSeconds(c.Allot(who, empty));
}

TEST(GtpClock, NoTimeSystemMeansNoLimit) {
  Clock c;
  EXPECT_EQ(c.Allot(kB, 81), absl::InfiniteDuration());
  // GTP: byo-yomi time with zero stones is "no time limit".
  ASSERT_TRUE(c.SetGtp(0, 5, 0).ok());
  EXPECT_EQ(c.system(), TimeSystem::kNone);
  EXPECT_EQ(c.Allot(kB, 81), absl::InfiniteDuration());
  EXPECT_FALSE(c.SetGtp(-1, 0, 0).ok());
}

TEST(GtpClock, AbsoluteSpreadsMainTimeOverExpectedMoves) {
  Clock c;
  ASSERT_TRUE(c.SetGtp(300, 0, 0).ok());
  EXPECT_EQ(c.system(), TimeSystem::kAbsolute);
  // 9x9, 81 empty: 27 expected moves; 300/27 * 0.9 - 0.2.
  EXPECT_NEAR(Allot(c, kB, 81), 300.0 / 27 * 0.9 - 0.2, 1e-9);
  // Late in the game at least 10 moves are expected.
  EXPECT_NEAR(Allot(c, kB, 12), 300.0 / 10 * 0.9 - 0.2, 1e-9);
  // Almost out of time: the floor, never more than is on the clock.
  c.TimeLeft(kB, 0.3, 0);
  EXPECT_NEAR(Allot(c, kB, 81), 0.05, 1e-9);
  c.TimeLeft(kB, 3, 0);
  EXPECT_NEAR(Allot(c, kB, 81), 0.05, 1e-9);  // 3/27*0.9-0.2 < 0.05
  c.TimeLeft(kB, 300, 0);
  EXPECT_NEAR(Allot(c, kB, 361), 300.0 / 120 * 0.9 - 0.2, 1e-9);
  // White's clock is its own.
  EXPECT_NEAR(Allot(c, kW, 81), 300.0 / 27 * 0.9 - 0.2, 1e-9);
}

TEST(GtpClock, CanadianByoYomi) {
  Clock c;
  ASSERT_TRUE(c.SetGtp(60, 100, 25).ok());
  EXPECT_EQ(c.system(), TimeSystem::kCanadian);
  // Main time: 60/27 plus a byo-yomi move's worth (100/25).
  EXPECT_NEAR(Allot(c, kB, 81), (60.0 / 27 + 4) * 0.9 - 0.2, 1e-9);
  // In byo-yomi: what is left over the stones left.
  c.TimeLeft(kB, 50, 10);
  EXPECT_TRUE(c.in_byoyomi(kB));
  EXPECT_NEAR(Allot(c, kB, 81), 5 * 0.9 - 0.2, 1e-9);
  c.TimeLeft(kB, 1, 1);
  EXPECT_NEAR(Allot(c, kB, 81), 0.5, 1e-9);  // capped at 1 - 0.5
}

TEST(GtpClock, JapaneseByoYomi) {
  Clock c;
  c.SetJapanese(0, 30, 5);
  EXPECT_EQ(c.system(), TimeSystem::kJapanese);
  EXPECT_TRUE(c.in_byoyomi(kB));
  EXPECT_NEAR(Allot(c, kB, 81), 30 * 0.9 - 0.2, 1e-9);
  c.SetJapanese(600, 30, 5);
  EXPECT_NEAR(Allot(c, kB, 361), (600.0 / 120 + 30) * 0.9 - 0.2, 1e-9);
}

TEST(GtpClock, SpentChargesMainTimeThenPeriods) {
  Clock c;
  c.SetCanadian(10, 30, 3);
  c.Spent(kB, absl::Seconds(4));
  EXPECT_DOUBLE_EQ(c.seconds_left(kB), 6);
  EXPECT_FALSE(c.in_byoyomi(kB));
  // Runs past main time: into the first period, one stone played.
  c.Spent(kB, absl::Seconds(8));
  EXPECT_TRUE(c.in_byoyomi(kB));
  EXPECT_DOUBLE_EQ(c.seconds_left(kB), 28);
  c.Spent(kB, absl::Seconds(3));
  c.Spent(kB, absl::Seconds(3));
  // Three stones in the period: a new one starts.
  EXPECT_DOUBLE_EQ(c.seconds_left(kB), 30);
  EXPECT_DOUBLE_EQ(c.seconds_left(kW), 10);
  c.ResetPlayers();
  EXPECT_DOUBLE_EQ(c.seconds_left(kB), 10);
  EXPECT_FALSE(c.in_byoyomi(kB));

  c.SetAbsolute(5);
  c.Spent(kW, absl::Seconds(7));
  EXPECT_DOUBLE_EQ(c.seconds_left(kW), 0);
  c.SetNone();
  c.Spent(kW, absl::Seconds(7));
  EXPECT_EQ(c.Allot(kW, 81), absl::InfiniteDuration());
}

TEST(GtpClock, SetTakesSettingsAsTheNamedSetters) {
  Clock a, b;
  a.Set({TimeSystem::kJapanese, 600, 30, 5});
  b.SetJapanese(600, 30, 5);
  EXPECT_EQ(a.settings(), b.settings());
  EXPECT_EQ(a.Allot(kB, 81), b.Allot(kB, 81));
  // Absolute time has no byo-yomi; "none" nothing at all.
  a.Set({TimeSystem::kAbsolute, 60, 30, 5});
  EXPECT_EQ(a.settings(), (TimeSettings{TimeSystem::kAbsolute, 60, 0, 0}));
  a.Set({TimeSystem::kNone, 60, 30, 5});
  EXPECT_EQ(a.settings(), TimeSettings{});
  EXPECT_EQ(a.Allot(kB, 81), absl::InfiniteDuration());
}

}  // namespace
}  // namespace qipu::gtp
