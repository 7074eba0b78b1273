// GameClock: absolute time, byo-yomi periods, readings while a clock
// runs, the thinking time given to computers, and the clock faces.
#include "play/game_clock.h"

#include "gtest/gtest.h"

namespace qipu::play {
namespace {

using rules::Color;

const absl::Time kT0 = absl::FromUnixSeconds(1700000000);

TEST(GameClock, UntimedNeverFlags) {
  GameClock clock;
  EXPECT_FALSE(clock.timed());
  clock.Start(Color::kBlack, kT0);
  EXPECT_FALSE(clock.Flagged(Color::kBlack, kT0 + absl::Hours(100)));
  EXPECT_TRUE(clock.Stop(kT0 + absl::Hours(100)));
  EXPECT_EQ(clock.Describe(Color::kBlack, kT0), "untimed");
  EXPECT_EQ(clock.Allot(Color::kBlack, kT0, 81), absl::InfiniteDuration());
}

TEST(GameClock, AbsoluteTimeRunsOutOnlyForThePlayerWhoseClockRuns) {
  GameClock clock({absl::Seconds(60), absl::ZeroDuration(), 0});
  clock.Start(Color::kBlack, kT0);
  EXPECT_EQ(clock.Read(Color::kBlack, kT0 + absl::Seconds(20)).main,
            absl::Seconds(40));
  EXPECT_EQ(clock.Describe(Color::kBlack, kT0 + absl::Seconds(20)), "0:40");
  EXPECT_EQ(clock.Describe(Color::kWhite, kT0 + absl::Seconds(20)), "1:00");
  EXPECT_TRUE(clock.Stop(kT0 + absl::Seconds(20)));
  clock.Start(Color::kWhite, kT0 + absl::Seconds(20));
  EXPECT_TRUE(clock.Stop(kT0 + absl::Seconds(79)));
  EXPECT_EQ(clock.Read(Color::kWhite, kT0).main, absl::Seconds(1));
  // Black has 40 s left: at 0:00 exactly it still plays, past it loses.
  clock.Start(Color::kBlack, kT0 + absl::Seconds(79));
  EXPECT_FALSE(clock.Flagged(Color::kBlack, kT0 + absl::Seconds(119)));
  EXPECT_EQ(clock.Read(Color::kBlack, kT0 + absl::Seconds(119)).main,
            absl::ZeroDuration());
  EXPECT_TRUE(clock.Flagged(Color::kBlack, kT0 + absl::Seconds(121)));
  EXPECT_EQ(clock.Describe(Color::kBlack, kT0 + absl::Seconds(121)),
            "out of time");
  EXPECT_FALSE(clock.Stop(kT0 + absl::Seconds(121)));
  EXPECT_TRUE(clock.Read(Color::kBlack, kT0).flagged);
  EXPECT_FALSE(clock.Read(Color::kWhite, kT0).flagged);
}

TEST(GameClock, ByoyomiPeriodsAreSpentOnlyWhenOverrun) {
  // 10 s main time, then 3 periods of 5 s.
  GameClock clock({absl::Seconds(10), absl::Seconds(5), 3});
  clock.Start(Color::kBlack, kT0);
  // 12 s: main time gone, 2 s into the first period.
  ClockReading r = clock.Read(Color::kBlack, kT0 + absl::Seconds(12));
  EXPECT_TRUE(r.in_byoyomi);
  EXPECT_EQ(r.period, absl::Seconds(3));
  EXPECT_EQ(r.periods, 3);
  EXPECT_EQ(clock.Describe(Color::kBlack, kT0 + absl::Seconds(12)),
            "BY 0:03 (3)");
  ASSERT_TRUE(clock.Stop(kT0 + absl::Seconds(12)));
  // The next move starts a fresh period; 5 s exactly stays within it.
  clock.Start(Color::kBlack, kT0);
  ASSERT_TRUE(clock.Stop(kT0 + absl::Seconds(5)));
  r = clock.Read(Color::kBlack, kT0);
  EXPECT_EQ(r.periods, 3);
  EXPECT_EQ(r.period, absl::Seconds(5));
  // 11 s: two periods overrun, one left.
  clock.Start(Color::kBlack, kT0);
  ASSERT_TRUE(clock.Stop(kT0 + absl::Seconds(11)));
  EXPECT_EQ(clock.Read(Color::kBlack, kT0).periods, 1);
  // The last period overrun loses.
  clock.Start(Color::kBlack, kT0);
  EXPECT_FALSE(clock.Flagged(Color::kBlack, kT0 + absl::Milliseconds(4900)));
  EXPECT_TRUE(clock.Flagged(Color::kBlack, kT0 + absl::Milliseconds(5100)));
  EXPECT_FALSE(clock.Stop(kT0 + absl::Milliseconds(5100)));
}

TEST(GameClock, AllotmentStaysInsideTheTimeLeft) {
  GameClock clock({absl::Seconds(100), absl::Seconds(10), 1});
  // 81 empty points: 100 / 27 + 10 = 13.7 s, x 0.9 - 0.2.
  EXPECT_NEAR(absl::ToDoubleSeconds(clock.Allot(Color::kWhite, kT0, 81)),
              (100.0 / 27 + 10) * 0.9 - 0.2, 1e-9);
  // In byo-yomi: the period left.
  clock.Start(Color::kWhite, kT0);
  EXPECT_NEAR(absl::ToDoubleSeconds(
                  clock.Allot(Color::kWhite, kT0 + absl::Seconds(104), 81)),
              6 * 0.9 - 0.2, 1e-9);
  // Never below 0.05 s.
  EXPECT_NEAR(absl::ToDoubleSeconds(clock.Allot(
                  Color::kWhite, kT0 + absl::Milliseconds(109900), 81)),
              0.05, 1e-9);
}

TEST(GameClock, Faces) {
  EXPECT_EQ(GameClock::Format(absl::Seconds(754)), "12:34");
  EXPECT_EQ(GameClock::Format(absl::Milliseconds(6100)), "0:07");
  EXPECT_EQ(GameClock::Format(absl::Seconds(3723)), "1:02:03");
  EXPECT_EQ(GameClock::Format(-absl::Seconds(3)), "0:00");
  GameClock clock({absl::Minutes(10), absl::Seconds(30), 3});
  EXPECT_EQ(clock.Describe(Color::kWhite, kT0), "10:00 +3x0:30");
}

TEST(GameClock, SettingsAreChecked) {
  EXPECT_TRUE(ValidateClockSettings({}).ok());
  EXPECT_FALSE(ValidateClockSettings({-absl::Seconds(1), {}, 0}).ok());
  EXPECT_FALSE(
      ValidateClockSettings({absl::Seconds(1), absl::ZeroDuration(), 2}).ok());
  EXPECT_FALSE(
      ValidateClockSettings({absl::Seconds(1), absl::Seconds(1), 101}).ok());
}

}  // namespace
}  // namespace qipu::play
