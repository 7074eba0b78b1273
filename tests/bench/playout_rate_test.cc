// MeasurePlayouts() (bench/playout_rate.h): both modes on 9x9 and two
// threads for a fraction of a second; the counts are positive and the
// rates are the counts over the measured time.
#include "bench/playout_rate.h"

#include "gtest/gtest.h"
#include "rules/rules.h"

namespace qipu::bench {
namespace {

void ExpectConsistent(const PlayoutRate& r, double seconds, int size) {
  EXPECT_GE(r.seconds, seconds);
  EXPECT_GT(r.playouts, 0u);
  // Every playout plays at least one move and at most the move cap.
  EXPECT_GE(r.moves, r.playouts);
  EXPECT_LE(r.moves, r.playouts * 3 * size * size);
  EXPECT_DOUBLE_EQ(r.playouts_per_sec, r.playouts / r.seconds);
  EXPECT_DOUBLE_EQ(r.moves_per_sec, r.moves / r.seconds);
  EXPECT_DOUBLE_EQ(r.avg_moves, static_cast<double>(r.moves) / r.playouts);
  // The playing threads ran (CPU time > 0) and no thread can use more CPU
  // than the wall-clock time it ran (2 threads; slack for clock ticks).
  EXPECT_GT(r.cpu_seconds, 0);
  EXPECT_LE(r.cpu_seconds, 2 * r.seconds + 0.05);
  EXPECT_DOUBLE_EQ(r.playouts_per_cpu_sec, r.playouts / r.cpu_seconds);
}

TEST(PlayoutRate, LightModeCountsAddUp) {
  PlayoutRateOptions o;
  o.size = 9;
  o.threads = 2;
  o.seconds = 0.2;
  o.mode = "light";
  ExpectConsistent(MeasurePlayouts(o), o.seconds, o.size);
}

TEST(PlayoutRate, FullModeCountsAddUp) {
  PlayoutRateOptions o;
  o.size = 9;
  o.threads = 2;
  o.seconds = 0.2;
  o.mode = "full";
  o.rules = *rules::PresetRules("chinese-superko");
  ExpectConsistent(MeasurePlayouts(o), o.seconds, o.size);
}

}  // namespace
}  // namespace qipu::bench
