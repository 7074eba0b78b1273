// Tests of worker/backoff.h and worker/crc32c.h.
#include "worker/backoff.h"

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

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

TEST(SpoolCrc32c, KnownValues) {
  EXPECT_EQ(Crc32c(""), 0u);
  EXPECT_EQ(Crc32c("123456789"), 0xE3069283u);
  // 32 zero bytes (RFC 3720 B.4).
  EXPECT_EQ(Crc32c(std::string(32, '\0')), 0x8A9136AAu);
  EXPECT_EQ(Crc32c("56789", Crc32c("1234")), Crc32c("123456789"));
  EXPECT_NE(MaskCrc(0x12345678u), 0x12345678u);
}

// The test vectors of RFC 3720 B.4, on both implementations.
TEST(SpoolCrc32c, Rfc3720Vectors) {
  std::string ascending(32, '\0');
  std::string descending(32, '\0');
  for (int i = 0; i < 32; ++i) {
    ascending[i] = static_cast<char>(i);
    descending[i] = static_cast<char>(31 - i);
  }
  // An iSCSI read command PDU.
  const unsigned char kPdu[48] = {
      0x01, 0xC0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
      0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x28, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
  const std::string pdu(reinterpret_cast<const char*>(kPdu), sizeof(kPdu));
  const std::vector<std::pair<std::string, uint32_t>> vectors = {
      {std::string(32, '\0'), 0x8A9136AAu},
      {std::string(32, '\xFF'), 0x62A8AB43u},
      {ascending, 0x46DD794Eu},
      {descending, 0x113FDB5Cu},
      {pdu, 0xD9963A56u},
      {"123456789", 0xE3069283u},
  };
  for (const auto& [data, want] : vectors) {
    EXPECT_EQ(Crc32c(data), want);
    EXPECT_EQ(crc32c_internal::Portable(data, 0), want);
    if (crc32c_internal::HardwareAvailable()) {
      EXPECT_EQ(crc32c_internal::Hardware(data, 0), want);
    }
  }
}

// Both implementations agree on every length and alignment, whole or in
// pieces, with a bit-at-a-time reference.
TEST(SpoolCrc32c, ImplementationsAgree) {
  auto reference = [](absl::string_view data, uint32_t crc) {
    uint32_t c = ~crc;
    for (unsigned char b : data) {
      c ^= b;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    }
    return ~c;
  };
  std::mt19937_64 rng(17);
  std::string buf(1100, '\0');
  for (char& c : buf) c = static_cast<char>(rng());
  const bool hw = crc32c_internal::HardwareAvailable();
  for (size_t start = 0; start < 9; ++start) {
    for (size_t n = 0; n + start <= buf.size(); n += (n < 70 ? 1 : 37)) {
      const absl::string_view data(buf.data() + start, n);
      const uint32_t want = reference(data, 0);
      ASSERT_EQ(crc32c_internal::Portable(data, 0), want) << start << " " << n;
      if (hw) {
        ASSERT_EQ(crc32c_internal::Hardware(data, 0), want);
      }
      ASSERT_EQ(Crc32c(data), want);
      const size_t cut = n == 0 ? 0 : static_cast<size_t>(rng() % n);
      ASSERT_EQ(Crc32c(data.substr(cut), Crc32c(data.substr(0, cut))), want);
      ASSERT_EQ(crc32c_internal::Portable(
                    data.substr(cut),
                    crc32c_internal::Portable(data.substr(0, cut), 0)),
                want);
    }
  }
}

}  // namespace
}  // namespace qipu::worker
