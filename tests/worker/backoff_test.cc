// Tests of worker/backoff.h and worker/crc32c.h.
#include "worker/backoff.h"

#include <algorithm>
#include <string>

#include "gtest/gtest.h"
#include "worker/crc32c.h"

namespace qipu::worker {
namespace {

BackoffOptions Exact() {
  BackoffOptions o;
  o.initial = absl::Milliseconds(100);
  o.max = absl::Seconds(2);
  o.multiplier = 2;
  o.jitter = 0;
  return o;
}

TEST(Backoff, DoublesUpToTheCap) {
  Backoff b(Exact());
  const int64_t want[] = {100, 200, 400, 800, 1600, 2000, 2000, 2000};
  for (int64_t ms : want) EXPECT_EQ(b.Next(), absl::Milliseconds(ms));
  EXPECT_EQ(b.attempts(), 8);
}

TEST(Backoff, ResetStartsOver) {
  Backoff b(Exact());
  b.Next();
  b.Next();
  b.Next();
  b.Reset();
  EXPECT_EQ(b.attempts(), 0);
  EXPECT_EQ(b.Next(), absl::Milliseconds(100));
}

TEST(Backoff, JitterStaysWithinItsFraction) {
  BackoffOptions o = Exact();
  o.jitter = 0.5;
  Backoff b(o, 42);
  absl::Duration lo = absl::InfiniteDuration(), hi = absl::ZeroDuration();
  for (int i = 0; i < 200; ++i) {
    if (i % 4 == 0) b.Reset();
    const absl::Duration bound = b.Bound();
    const absl::Duration d = b.Next();
    EXPECT_LE(d, bound);
    EXPECT_GE(d, bound * 0.5);
    if (i % 4 == 0) {
      lo = std::min(lo, d);
      hi = std::max(hi, d);
    }
  }
  // The first delays spread over most of [50 ms, 100 ms].
  EXPECT_LT(lo, absl::Milliseconds(60));
  EXPECT_GT(hi, absl::Milliseconds(90));
}

TEST(Backoff, SameSeedSameDelays) {
  BackoffOptions o = Exact();
  o.jitter = 1;
  Backoff a(o, 7), b(o, 7), c(o, 8);
  bool differs = false;
  for (int i = 0; i < 10; ++i) {
    const absl::Duration da = a.Next();
    EXPECT_EQ(da, b.Next());
    differs |= da != c.Next();
  }
  EXPECT_TRUE(differs);
}

TEST(Backoff, ClampsNonsense) {
  BackoffOptions o;
  o.initial = absl::ZeroDuration();
  o.max = absl::Milliseconds(-5);
  o.multiplier = 0.1;
  o.jitter = 3;
  Backoff b(o);
  for (int i = 0; i < 5; ++i) {
    const absl::Duration d = b.Next();
    EXPECT_GE(d, absl::ZeroDuration());
    EXPECT_LE(d, absl::Milliseconds(1));
  }
}

TEST(Crc32c, KnownValues) {
  EXPECT_EQ(Crc32c(""), 0u);
  EXPECT_EQ(Crc32c("123456789"), 0xE3069283u);
  // 32 zero bytes (RFC 3720 B.4).
  EXPECT_EQ(Crc32c(std::string(32, '\0')), 0x8A9136AAu);
  EXPECT_EQ(Crc32c("56789", Crc32c("1234")), Crc32c("123456789"));
  EXPECT_NE(MaskCrc(0x12345678u), 0x12345678u);
}

}  // namespace
}  // namespace qipu::worker
