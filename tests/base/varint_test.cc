// base/varint.h: round trips at every length boundary, pinned bytes (the
// encoding is part of stored formats), the branchless one- and two-byte
// coder against the general one, and errors on truncated and over-long
// input.
#include "base/varint.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace qipu::base {
namespace {

std::string Encoded(uint64_t v) {
  std::string s;
  PutVarint64(&s, v);
  return s;
}

TEST(Varint, RoundTripsAtEveryLengthBoundary) {
  std::vector<uint64_t> values = {0, 1, ~uint64_t{0}};
  for (int bits = 7; bits < 64; bits += 7) {
    values.push_back((uint64_t{1} << bits) - 1);
    values.push_back(uint64_t{1} << bits);
  }
  std::string all;
  for (uint64_t v : values) {
    const std::string one = Encoded(v);
    size_t want = 1;
    while (want < kMaxVarint64Bytes && (v >> (7 * want)) != 0) ++want;
    EXPECT_EQ(one.size(), want) << v;
    char buf[kMaxVarint64Bytes];
    const char* end = EncodeVarint64(buf, v);
    EXPECT_EQ(std::string(buf, static_cast<size_t>(end - buf)), one);
    all += one;
  }
  absl::string_view in = all;
  for (uint64_t v : values) {
    uint64_t got = 0;
    ASSERT_TRUE(GetVarint64(&in, &got));
    EXPECT_EQ(got, v);
  }
  EXPECT_TRUE(in.empty());
  EXPECT_EQ(CountVarints(all), values.size());
}

TEST(Varint, BytesArePinned) {
  EXPECT_EQ(Encoded(0), std::string(1, '\0'));
  EXPECT_EQ(Encoded(127), "\x7f");
  EXPECT_EQ(Encoded(128), "\x80\x01");
  EXPECT_EQ(Encoded(300), "\xac\x02");
  EXPECT_EQ(Encoded(~uint64_t{0}), "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01");
}

TEST(Varint, TruncatedAndOverLongInputIsRefused) {
  uint64_t v = 0;
  absl::string_view empty;
  EXPECT_FALSE(GetVarint64(&empty, &v));
  const std::string truncated = Encoded(300).substr(0, 1);
  absl::string_view in = truncated;
  EXPECT_FALSE(GetVarint64(&in, &v));
  EXPECT_TRUE(in.empty());
  const std::string too_long(11, '\x80');
  in = too_long;
  EXPECT_FALSE(GetVarint64(&in, &v));
  EXPECT_EQ(CountVarints(truncated), 0u);
}

// Every value below 2^14: the branchless coder writes the general coder's
// bytes and reads them back, alone, followed by more bytes, and at the end
// of its input.
TEST(Varint, Varint14IsTheGeneralEncodingOfItsValues) {
  for (uint32_t v = 0; v < (1u << 14); ++v) {
    const std::string want = Encoded(v);
    char buf[2];
    const char* end = EncodeVarint14(buf, v);
    ASSERT_EQ(std::string(buf, static_cast<size_t>(end - buf)), want) << v;
    uint32_t got = ~0u;
    ASSERT_EQ(DecodeVarint14(want.data(), want.size(), 0, &got), want.size());
    ASSERT_EQ(got, v);
    const std::string placed = "\x85" + want + "\x85";
    got = ~0u;
    ASSERT_EQ(DecodeVarint14(placed.data(), placed.size(), 1, &got),
              want.size());
    ASSERT_EQ(got, v);
  }
}

TEST(Varint, Varint14LeavesLongerAndTruncatedVarintsToTheGeneralCoder) {
  uint32_t v = 7;
  const std::string three = Encoded(1u << 14);
  ASSERT_EQ(three.size(), 3u);
  EXPECT_EQ(DecodeVarint14(three.data(), three.size(), 0, &v), 0u);
  const std::string cut = "\x01" + Encoded(300).substr(0, 1);
  EXPECT_EQ(DecodeVarint14(cut.data(), cut.size(), 1, &v), 0u);
  EXPECT_EQ(v, 7u);
}

}  // namespace
}  // namespace qipu::base
