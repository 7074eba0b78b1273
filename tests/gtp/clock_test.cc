// qipu's one clock (gtp/clock.h): the seed's rules (arts. 12 and 22 of the
// Chinese competition rules) at their exact boundaries -- a byo-yomi move
// that reaches the period's length uses the period, Canadian time left in
// a block carries into the next, art. 22.5's last period (a loss, or a
// pass with the same byo-yomi) -- with made-up durations (the clock never
// reads a real clock: these are its fake time); the allotment formula in
// each time system, and GTP's time_left.
#include "gtp/clock.h"

#include "gtest/gtest.h"
#include "gtp/time_settings.h"

namespace qipu::gtp {
namespace {

constexpr rules::Color kB = rules::Color::kBlack;
constexpr rules::Color kW = rules::Color::kWhite;

absl::Duration S(double s) { return absl::Seconds(s); }
absl::Duration Ms(int64_t ms) { return absl::Milliseconds(ms); }

double Allot(const Clock& c, rules::Color who, int empty) {
  return absl::ToDoubleSeconds(c.Allot(who, empty));
}

Clock ClockOf(const char* text) {
  absl::StatusOr<TimeSettings> t = ParseTimeSettings(text);
  EXPECT_TRUE(t.ok()) << t.status();
  return Clock(t.ok() ? *t : TimeSettings{});
}

// Read() of a move running `t` says flagged exactly when Charge() of it
// would make the flag fall.
void ExpectReadAgreesWithCharge(const Clock& c, rules::Color who,
                                absl::Duration t) {
  Clock copy = c;
  const bool falls = copy.Charge(who, t) == Charged::kFlagFell;
  EXPECT_EQ(c.Read(who, t).flagged, falls) << t;
  EXPECT_EQ(t >= c.TimeToFlag(who), falls) << t;
}

// Art. 12 (讀秒): "不足60秒的著手不予計時；達到60秒的視為已使用…1分鍾".
TEST(GtpClock, ByoYomiMoveReachingThePeriodUsesIt) {
  Clock c = ClockOf("byoyomi:0+3x60");
  ASSERT_TRUE(c.in_byoyomi(kB));
  EXPECT_EQ(c.TimeToFlag(kB), S(180));
  // Short of the period by a millisecond: costs nothing.
  EXPECT_EQ(c.Charge(kB, S(60) - Ms(1)), Charged::kInTime);
  EXPECT_EQ(c.player(kB).stones, 3);
  EXPECT_EQ(c.player(kB).period_left, S(60));
  // Exactly the period: the period is used (the referee's "10" said as
  // the stone is played counts as used).
  EXPECT_EQ(c.Charge(kB, S(60)), Charged::kInTime);
  EXPECT_EQ(c.player(kB).stones, 2);
  EXPECT_EQ(c.Left(kB).seconds, 60);
  EXPECT_EQ(c.Left(kB).stones, 2);
  // One period and a bit less than a second: one period used.
  EXPECT_EQ(c.Charge(kB, S(120) - Ms(1)), Charged::kInTime);
  EXPECT_EQ(c.player(kB).stones, 1);
  EXPECT_FALSE(c.player(kB).flagged);
  EXPECT_EQ(c.TimeToFlag(kB), S(60));
  ExpectReadAgreesWithCharge(c, kB, S(60) - Ms(1));
  ExpectReadAgreesWithCharge(c, kB, S(60));
  // The last period reached: the flag falls (art. 22.5, in principle).
  EXPECT_EQ(c.Charge(kB, S(60)), Charged::kFlagFell);
  EXPECT_TRUE(c.player(kB).flagged);
  EXPECT_EQ(c.TimeToFlag(kB), absl::ZeroDuration());
  // White's clock is its own; used time and moves add up.
  EXPECT_EQ(c.player(kW).stones, 3);
  EXPECT_EQ(c.player(kB).used, S(60) - Ms(1) + S(60) + S(120) - Ms(1) + S(60));
  EXPECT_EQ(c.player(kB).moves, 4);
}

TEST(GtpClock, MainTimeReachedGoesOnIntoByoYomi) {
  Clock c = ClockOf("byoyomi:10+3x60");
  EXPECT_EQ(c.TimeToFlag(kB), S(190));
  // Main time used up exactly: byo-yomi from the next move, no period
  // used.
  EXPECT_EQ(c.Charge(kB, S(10)), Charged::kInTime);
  EXPECT_TRUE(c.in_byoyomi(kB));
  EXPECT_EQ(c.player(kB).stones, 3);
  // A move past main time goes on into the first period: reaching it
  // (10 + 60) uses it.
  Clock d = ClockOf("byoyomi:10+3x60");
  EXPECT_EQ(d.Charge(kB, S(70) - Ms(1)), Charged::kInTime);
  EXPECT_EQ(d.player(kB).stones, 3);
  Clock e = ClockOf("byoyomi:10+3x60");
  EXPECT_EQ(e.Charge(kB, S(70)), Charged::kInTime);
  EXPECT_EQ(e.player(kB).stones, 2);
  ExpectReadAgreesWithCharge(ClockOf("byoyomi:10+3x60"), kB, S(190) - Ms(1));
  ExpectReadAgreesWithCharge(ClockOf("byoyomi:10+3x60"), kB, S(190));
}

TEST(GtpClock, AbsoluteTimeReachedLoses) {
  Clock c = ClockOf("absolute:10");
  EXPECT_EQ(c.Charge(kB, S(4)), Charged::kInTime);
  EXPECT_EQ(c.player(kB).main_left, S(6));
  EXPECT_EQ(c.Charge(kB, S(6) - Ms(1)), Charged::kInTime);
  EXPECT_EQ(c.player(kB).main_left, Ms(1));
  ExpectReadAgreesWithCharge(c, kB, Ms(1));
  EXPECT_EQ(c.Charge(kB, Ms(1)), Charged::kFlagFell);
  EXPECT_TRUE(c.player(kB).flagged);
  // A fallen flag stays so.
  EXPECT_EQ(c.Charge(kB, absl::ZeroDuration()), Charged::kFlagFell);
  // No time system: nothing ever falls.
  Clock none;
  EXPECT_EQ(none.Charge(kB, absl::Hours(100)), Charged::kInTime);
  EXPECT_EQ(none.TimeToFlag(kB), absl::InfiniteDuration());
}

// 定時限步制: "節余時間可延至下一節使用".
TEST(GtpClock, CanadianCarriesUnusedTimeIntoTheNextBlock) {
  Clock c = ClockOf("canadian:0+2/10");
  ASSERT_TRUE(c.in_byoyomi(kB));
  EXPECT_EQ(c.Charge(kB, S(3)), Charged::kInTime);
  EXPECT_EQ(c.player(kB).period_left, S(7));
  EXPECT_EQ(c.player(kB).stones, 1);
  // The block's last move: 3 s left over go into the next block.
  EXPECT_EQ(c.Charge(kB, S(4)), Charged::kInTime);
  EXPECT_EQ(c.player(kB).period_left, S(13));
  EXPECT_EQ(c.player(kB).stones, 2);
  EXPECT_EQ(c.Left(kB).seconds, 13);
  EXPECT_EQ(c.Left(kB).stones, 2);
  EXPECT_EQ(c.TimeToFlag(kB), S(13));
  // Using all but a millisecond of the block: in time.
  Clock d = c;
  EXPECT_EQ(d.Charge(kB, S(13) - Ms(1)), Charged::kInTime);
  EXPECT_EQ(d.player(kB).period_left, Ms(1));
  ExpectReadAgreesWithCharge(c, kB, S(13) - Ms(1));
  ExpectReadAgreesWithCharge(c, kB, S(13));
  // The block's time reaching zero: out of time.
  EXPECT_EQ(c.Charge(kB, S(13)), Charged::kFlagFell);
  EXPECT_TRUE(c.player(kB).flagged);
}

TEST(GtpClock, CanadianAfterMainTime) {
  Clock c = ClockOf("canadian:10+2/10");
  EXPECT_EQ(c.TimeToFlag(kB), S(20));
  // 12 s: main time and 2 s of the first block, one move of it played.
  EXPECT_EQ(c.Charge(kB, S(12)), Charged::kInTime);
  EXPECT_TRUE(c.in_byoyomi(kB));
  EXPECT_EQ(c.player(kB).period_left, S(8));
  EXPECT_EQ(c.player(kB).stones, 1);
  EXPECT_EQ(c.Charge(kB, S(1)), Charged::kInTime);
  EXPECT_EQ(c.player(kB).period_left, S(17));
}

// Art. 22.5: "…亦可規定超時一次判棄權一次（即停一手），仍按最後一次讀秒計時".
TEST(GtpClock, LastPeriodRunOutIsAPassWhenTheEventSaysSo) {
  Clock c = ClockOf("byoyomi:0+2x30,pass");
  EXPECT_EQ(c.settings().last_period, LastPeriod::kPass);
  EXPECT_EQ(c.Charge(kB, S(30)), Charged::kInTime);
  EXPECT_EQ(c.player(kB).stones, 1);
  EXPECT_EQ(c.Charge(kB, S(30) - Ms(1)), Charged::kInTime);
  EXPECT_EQ(c.Charge(kB, S(30)), Charged::kPassed);
  // The same byo-yomi goes on: the last period again, no flag.
  EXPECT_FALSE(c.player(kB).flagged);
  EXPECT_EQ(c.player(kB).stones, 1);
  EXPECT_EQ(c.TimeToFlag(kB), S(30));
  EXPECT_EQ(c.Charge(kB, S(5)), Charged::kInTime);
  EXPECT_EQ(c.Charge(kB, S(95)), Charged::kPassed);

  Clock k = ClockOf("canadian:0+2/10,pass");
  EXPECT_EQ(k.Charge(kB, S(6)), Charged::kInTime);
  EXPECT_EQ(k.Charge(kB, S(4)), Charged::kPassed);
  // A Canadian player gets a new block.
  EXPECT_EQ(k.player(kB).period_left, S(10));
  EXPECT_EQ(k.player(kB).stones, 2);
  EXPECT_FALSE(k.player(kB).flagged);

  // Without the option the same move loses.
  Clock l = ClockOf("byoyomi:0+2x30");
  EXPECT_EQ(l.Charge(kB, S(30)), Charged::kInTime);
  EXPECT_EQ(l.Charge(kB, S(30)), Charged::kFlagFell);
}

TEST(GtpClock, ReadShowsTheRunningMoveWithoutChargingIt) {
  Clock c = ClockOf("byoyomi:10+3x60");
  PlayerClock r = c.Read(kB, S(75));
  EXPECT_TRUE(r.in_byoyomi);
  EXPECT_EQ(r.stones, 2);
  EXPECT_EQ(r.period_left, S(55));
  EXPECT_FALSE(r.flagged);
  EXPECT_EQ(c.player(kB).main_left, S(10));
  EXPECT_FALSE(c.in_byoyomi(kB));
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
  c.SetTimeLeft(kB, 0.3, 0);
  EXPECT_NEAR(Allot(c, kB, 81), 0.05, 1e-9);
  c.SetTimeLeft(kB, 3, 0);
  EXPECT_NEAR(Allot(c, kB, 81), 0.05, 1e-9);  // 3/27*0.9-0.2 < 0.05
  c.SetTimeLeft(kB, 300, 0);
  EXPECT_NEAR(Allot(c, kB, 361), 300.0 / 120 * 0.9 - 0.2, 1e-9);
  // White's clock is its own.
  EXPECT_NEAR(Allot(c, kW, 81), 300.0 / 27 * 0.9 - 0.2, 1e-9);
}

TEST(GtpClock, CanadianAllotment) {
  Clock c;
  ASSERT_TRUE(c.SetGtp(60, 100, 25).ok());
  EXPECT_EQ(c.system(), TimeSystem::kCanadian);
  // Main time: 60/27 plus a byo-yomi move's worth (100/25).
  EXPECT_NEAR(Allot(c, kB, 81), (60.0 / 27 + 4) * 0.9 - 0.2, 1e-9);
  // In byo-yomi: what is left over the stones left.
  c.SetTimeLeft(kB, 50, 10);
  EXPECT_TRUE(c.in_byoyomi(kB));
  EXPECT_NEAR(Allot(c, kB, 81), 5 * 0.9 - 0.2, 1e-9);
  c.SetTimeLeft(kB, 1, 1);
  EXPECT_NEAR(Allot(c, kB, 81), 0.5, 1e-9);  // capped at 1 - 0.5
}

TEST(GtpClock, JapaneseAllotment) {
  Clock c;
  c.SetJapanese(0, 30, 5);
  EXPECT_EQ(c.system(), TimeSystem::kJapanese);
  EXPECT_TRUE(c.in_byoyomi(kB));
  EXPECT_NEAR(Allot(c, kB, 81), 30 * 0.9 - 0.2, 1e-9);
  c.SetJapanese(600, 30, 5);
  EXPECT_NEAR(Allot(c, kB, 361), (600.0 / 120 + 30) * 0.9 - 0.2, 1e-9);
}

TEST(GtpClock, TimeLeftSetsTheControllersTime) {
  Clock c;
  c.SetCanadian(10, 30, 3);
  EXPECT_EQ(c.Charge(kB, S(4)), Charged::kInTime);
  EXPECT_DOUBLE_EQ(c.seconds_left(kB), 6);
  // The controller says where the clock stands; a fallen flag is lifted.
  c.SetTimeLeft(kB, 12.5, 2);
  EXPECT_TRUE(c.in_byoyomi(kB));
  EXPECT_DOUBLE_EQ(c.Left(kB).seconds, 12.5);
  EXPECT_EQ(c.Left(kB).stones, 2);
  EXPECT_EQ(c.Charge(kB, S(13)), Charged::kFlagFell);
  c.SetTimeLeft(kB, 20, 0);
  EXPECT_FALSE(c.player(kB).flagged);
  EXPECT_FALSE(c.in_byoyomi(kB));
  EXPECT_DOUBLE_EQ(c.seconds_left(kB), 20);
  EXPECT_DOUBLE_EQ(c.seconds_left(kW), 10);
  c.ResetPlayers();
  EXPECT_DOUBLE_EQ(c.seconds_left(kB), 10);
  EXPECT_FALSE(c.in_byoyomi(kB));
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
