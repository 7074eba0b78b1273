// The referee's clock (arena/game_clock.h): byo-yomi, Canadian and
// absolute bookkeeping on exact durations, what engines are told, the
// allotment of qipu's policies, and the text form of time controls.
#include "arena/game_clock.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace qipu::arena {
namespace {

using ::testing::HasSubstr;

constexpr rules::Color kB = rules::Color::kBlack;
constexpr rules::Color kW = rules::Color::kWhite;

absl::Duration S(double s) { return absl::Seconds(s); }

gtp::TimeSettings Parse(const char* text) {
  absl::StatusOr<gtp::TimeSettings> t = ParseTimeSettings(text);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *t : gtp::TimeSettings{};
}

TEST(ArenaGameClock, ByoYomiPeriodIsUsedUpOnlyWhenExceeded) {
  GameClock c(Parse("byoyomi:10+3x1"));
  EXPECT_EQ(c.TimeToFlag(kB), S(13));
  EXPECT_TRUE(c.Charge(kB, S(4)));
  EXPECT_EQ(c.player(kB).main_left, S(6));
  EXPECT_FALSE(c.player(kB).in_byoyomi);
  // Main time used up exactly: byo-yomi from the next move.
  EXPECT_TRUE(c.Charge(kB, S(6)));
  EXPECT_TRUE(c.player(kB).in_byoyomi);
  EXPECT_EQ(c.player(kB).stones, 3);
  EXPECT_EQ(c.TimeToFlag(kB), S(3));
  // Within a period (to the end of it): nothing used up.
  EXPECT_TRUE(c.Charge(kB, S(0.9)));
  EXPECT_TRUE(c.Charge(kB, S(1)));
  EXPECT_EQ(c.player(kB).stones, 3);
  // Past one period: it is gone; past two more: the last one exceeded.
  EXPECT_TRUE(c.Charge(kB, S(1.5)));
  EXPECT_EQ(c.player(kB).stones, 2);
  EXPECT_EQ(c.Left(kB).seconds, 1);
  EXPECT_EQ(c.Left(kB).stones, 2);
  EXPECT_TRUE(c.Charge(kB, S(2)));  // the end of the last period exactly
  EXPECT_EQ(c.player(kB).stones, 1);
  EXPECT_FALSE(c.player(kB).flagged);
  EXPECT_FALSE(c.Charge(kB, S(1.001)));
  EXPECT_TRUE(c.player(kB).flagged);
  EXPECT_EQ(c.TimeToFlag(kB), absl::ZeroDuration());
  // White's clock is its own; used time adds up.
  EXPECT_EQ(c.player(kW).main_left, S(10));
  EXPECT_EQ(c.player(kB).used, S(4 + 6 + 0.9 + 1 + 1.5 + 2 + 1.001));
  EXPECT_EQ(c.player(kB).moves, 7);
}

TEST(ArenaGameClock, AMovePastMainTimeGoesOnIntoTheFirstPeriod) {
  GameClock c(Parse("byoyomi:5+3x1"));
  EXPECT_TRUE(c.Charge(kB, S(6.5)));  // 1.5 s into byo-yomi: one period
  EXPECT_EQ(c.player(kB).stones, 2);
  GameClock d(Parse("byoyomi:5+3x1"));
  EXPECT_FALSE(d.Charge(kB, S(8.01)));  // past main time and all periods
  GameClock e(Parse("byoyomi:5+3x1"));
  EXPECT_TRUE(e.Charge(kB, S(8)));
  EXPECT_EQ(e.player(kB).stones, 1);
  // No main time: byo-yomi from the first move.
  GameClock f(Parse("byoyomi:0+1x2"));
  EXPECT_TRUE(f.player(kB).in_byoyomi);
  EXPECT_EQ(f.TimeToFlag(kB), S(2));
  EXPECT_TRUE(f.Charge(kB, S(2)));
  EXPECT_FALSE(f.Charge(kB, S(2.5)));
}

TEST(ArenaGameClock, CanadianPeriodsAreMovesInATime) {
  GameClock c(Parse("canadian:10+5/10"));
  EXPECT_EQ(c.TimeToFlag(kB), S(20));
  // 2 s past main time: the first period, one of its 5 moves.
  EXPECT_TRUE(c.Charge(kB, S(12)));
  EXPECT_TRUE(c.player(kB).in_byoyomi);
  EXPECT_EQ(c.player(kB).period_left, S(8));
  EXPECT_EQ(c.player(kB).stones, 4);
  EXPECT_EQ(c.Left(kB).seconds, 8);
  EXPECT_EQ(c.Left(kB).stones, 4);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(c.Charge(kB, S(2)));
  EXPECT_EQ(c.player(kB).period_left, S(2));
  EXPECT_EQ(c.player(kB).stones, 1);
  // The period's last move: a new period, nothing carried over.
  EXPECT_TRUE(c.Charge(kB, S(1)));
  EXPECT_EQ(c.player(kB).period_left, S(10));
  EXPECT_EQ(c.player(kB).stones, 5);
  EXPECT_TRUE(c.Charge(kB, S(9)));
  EXPECT_EQ(c.TimeToFlag(kB), S(1));
  EXPECT_FALSE(c.Charge(kB, S(1.5)));
  EXPECT_TRUE(c.player(kB).flagged);
}

TEST(ArenaGameClock, AbsoluteTimeAndNoTime) {
  GameClock c(Parse("absolute:10"));
  EXPECT_TRUE(c.Charge(kB, S(9.99)));
  EXPECT_EQ(c.Left(kB).seconds, absl::ToDoubleSeconds(S(0.01)));
  EXPECT_EQ(c.Left(kB).stones, 0);
  EXPECT_FALSE(c.Charge(kB, S(0.02)));
  EXPECT_TRUE(c.player(kB).flagged);

  GameClock none(gtp::TimeSettings{});
  EXPECT_EQ(none.TimeToFlag(kW), absl::InfiniteDuration());
  EXPECT_EQ(none.Allot(kW, 81), absl::InfiniteDuration());
  EXPECT_TRUE(none.Charge(kW, absl::Hours(100)));
  EXPECT_EQ(none.player(kW).used, absl::Hours(100));
  EXPECT_FALSE(none.player(kW).flagged);
}

TEST(ArenaGameClock, AllotmentIsTheGtpClocksForTheTimeLeft) {
  GameClock c(Parse("byoyomi:60+3x10"));
  gtp::Clock g;
  g.SetJapanese(60, 10, 3);
  EXPECT_EQ(c.Allot(kB, 81), g.Allot(kB, 81));
  ASSERT_TRUE(c.Charge(kB, S(75)));  // into byo-yomi, one period used up
  g.TimeLeft(kB, 10, 2);
  EXPECT_EQ(c.Allot(kB, 50), g.Allot(kB, 50));
  // 10 * 0.9 - 0.2, under the period less the reserve.
  EXPECT_NEAR(absl::ToDoubleSeconds(c.Allot(kB, 50)), 8.8, 1e-6);
}

TEST(ArenaGameClock, TextFormsReadBack) {
  for (const char* text : {"none", "absolute:1800", "byoyomi:600+3x30",
                           "byoyomi:0+1x1", "canadian:600+25/300"}) {
    SCOPED_TRACE(text);
    EXPECT_EQ(TimeSettingsText(Parse(text)), text);
  }
  EXPECT_EQ(Parse("byoyomi:600+3x30"),
            (gtp::TimeSettings{gtp::TimeSystem::kJapanese, 600, 30, 3}));
  EXPECT_EQ(Parse("canadian:600+25/300"),
            (gtp::TimeSettings{gtp::TimeSystem::kCanadian, 600, 300, 25}));
  EXPECT_EQ(OvertimeText(Parse("byoyomi:600+3x30")), "3x30 byo-yomi");
  EXPECT_EQ(OvertimeText(Parse("canadian:600+25/300")), "25/300 Canadian");
  EXPECT_EQ(OvertimeText(Parse("absolute:60")), "");
  for (const char* bad :
       {"", "absolute", "absolute:0", "absolute:-5", "byoyomi:600+3x0",
        "byoyomi:600+0x30", "byoyomi:600", "canadian:600+25x300",
        "fischer:60+5", "absolute:99999999", "byoyomi:1+2x3x4"}) {
    SCOPED_TRACE(bad);
    absl::StatusOr<gtp::TimeSettings> t = ParseTimeSettings(bad);
    ASSERT_FALSE(t.ok());
    EXPECT_TRUE(absl::IsInvalidArgument(t.status()));
    EXPECT_THAT(std::string(t.status().message()), HasSubstr("expected"));
  }
  EXPECT_FALSE(
      ValidateTimeSettings({gtp::TimeSystem::kCanadian, 0, 0, 5}).ok());
  EXPECT_TRUE(ValidateTimeSettings({}).ok());
}

}  // namespace
}  // namespace qipu::arena
