// UTF-16 input (rules/utf16.h): detection by byte order mark, by a CA
// written in UTF-16 and by zero bytes; decoding to UTF-8 (surrogate pairs,
// both byte orders); malformed input as errors naming the byte; decoded
// offsets mapped back to the input.
#include "rules/utf16.h"

#include <optional>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/rules/utf16_util.h"

namespace qipu::rules {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

TEST(Utf16, DetectsAByteOrderMark) {
  const std::optional<Utf16Detection> le =
      DetectUtf16(ToUtf16("(;GM[1])", Utf16Order::kLittleEndian, true));
  ASSERT_TRUE(le.has_value());
  EXPECT_EQ(le->order, Utf16Order::kLittleEndian);
  EXPECT_EQ(le->evidence, Utf16Evidence::kByteOrderMark);
  EXPECT_EQ(le->bom_bytes, 2u);
  const std::optional<Utf16Detection> be =
      DetectUtf16(ToUtf16("(;GM[1])", Utf16Order::kBigEndian, true));
  ASSERT_TRUE(be.has_value());
  EXPECT_EQ(be->order, Utf16Order::kBigEndian);
  EXPECT_EQ(be->evidence, Utf16Evidence::kByteOrderMark);
}

TEST(Utf16, DetectsACharsetWrittenInUtf16) {
  for (Utf16Order order : {Utf16Order::kLittleEndian, Utf16Order::kBigEndian}) {
    // Mostly CJK text: too few zero bytes to tell by them alone.
    std::string names;
    for (int i = 0; i < 20; ++i) names += "柯洁申真";
    EXPECT_FALSE(
        DetectUtf16(ToUtf16("(;PB[" + names + "])", order, false)).has_value());
    const std::string sgf =
        ToUtf16("(;CA[UTF-16LE]PB[" + names + "])", order, false);
    const std::optional<Utf16Detection> d = DetectUtf16(sgf);
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->order, order);
    EXPECT_EQ(d->evidence, Utf16Evidence::kCharset);
    EXPECT_EQ(d->charset, "UTF-16LE");
    EXPECT_EQ(d->bom_bytes, 0u);
  }
}

TEST(Utf16, DetectsZeroBytesWithoutMarkOrCharset) {
  for (Utf16Order order : {Utf16Order::kLittleEndian, Utf16Order::kBigEndian}) {
    const std::optional<Utf16Detection> d =
        DetectUtf16(ToUtf16("(;GM[1]PB[柯洁];B[pd])", order, false));
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->order, order);
    EXPECT_EQ(d->evidence, Utf16Evidence::kZeroBytes);
  }
}

TEST(Utf16, EightBitTextIsNotUtf16) {
  EXPECT_FALSE(DetectUtf16("(;GM[1]PB[\xE6\x9F\xAF];B[pd])").has_value());
  EXPECT_FALSE(DetectUtf16("\xEF\xBB\xBF(;GM[1])").has_value());
  EXPECT_FALSE(DetectUtf16("").has_value());
  EXPECT_FALSE(DetectUtf16("(").has_value());
  // NUL padding after 8-bit text: zero bytes at both parities.
  EXPECT_FALSE(
      DetectUtf16(std::string("(;GM[1])") + std::string(64, '\0')).has_value());
  // A stray NUL or two.
  EXPECT_FALSE(
      DetectUtf16(std::string("\x01\x89PNG\r\n\x1a\n\0\0(x;", 14)).has_value());
  // CA[UTF-16] written in 8-bit text says nothing about the bytes.
  EXPECT_FALSE(DetectUtf16("(;CA[UTF-16]GM[1])").has_value());
}

TEST(Utf16, DecodesBothOrdersAndSurrogatePairs) {
  const std::string text = "(;PB[柯洁 \xF0\x9F\x98\x80]C[é])";  // U+1F600
  for (Utf16Order order : {Utf16Order::kLittleEndian, Utf16Order::kBigEndian}) {
    for (bool bom : {false, true}) {
      const std::string input = ToUtf16(text, order, bom);
      absl::StatusOr<Utf16Text> t =
          Utf16Text::Decode(input, order, bom ? 2 : 0, nullptr);
      ASSERT_TRUE(t.ok()) << t.status();
      EXPECT_EQ(t->utf8(), text);
    }
  }
}

TEST(Utf16, OddLengthIsAnErrorAtTheLastByte) {
  std::string input = ToUtf16("(;GM[1])", Utf16Order::kLittleEndian, true);
  input.push_back('x');
  size_t at = 0;
  absl::StatusOr<Utf16Text> t =
      Utf16Text::Decode(input, Utf16Order::kLittleEndian, 2, &at);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(at, input.size() - 1);
  EXPECT_THAT(t.status().message(),
              AllOf(HasSubstr("UTF-16LE"), HasSubstr("odd number of bytes"),
                    HasSubstr("at byte 18")));
}

TEST(Utf16, UnpairedSurrogatesAreErrorsAtTheirByte) {
  // "(;C[" then a high surrogate followed by 'x'.
  std::string input = ToUtf16("(;C[", Utf16Order::kBigEndian, false) +
                      "\xD8\x3D" +
                      ToUtf16("x])", Utf16Order::kBigEndian, false);
  size_t at = 0;
  absl::StatusOr<Utf16Text> t =
      Utf16Text::Decode(input, Utf16Order::kBigEndian, 0, &at);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(at, 8u);
  EXPECT_THAT(t.status().message(),
              AllOf(HasSubstr("UTF-16BE"), HasSubstr("byte 8"),
                    HasSubstr("U+D83D"), HasSubstr("high surrogate")));
  // A high surrogate at the very end.
  input = ToUtf16("(;", Utf16Order::kLittleEndian, false) + "\x3D\xD8";
  t = Utf16Text::Decode(input, Utf16Order::kLittleEndian, 0, &at);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(at, 4u);
  // A low surrogate alone.
  input = ToUtf16("(;", Utf16Order::kLittleEndian, true) +
          std::string("\x00\xDC", 2);
  t = Utf16Text::Decode(input, Utf16Order::kLittleEndian, 2, &at);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(at, 6u);
  EXPECT_THAT(t.status().message(),
              AllOf(HasSubstr("U+DC00"), HasSubstr("low surrogate")));
}

TEST(Utf16, MapsDecodedOffsetsBackToTheInput) {
  // Long enough for several anchors; non-ASCII text of every UTF-8 length.
  std::string text;
  for (int i = 0; i < 300; ++i) text += "a\xC3\xA9\xE6\x9F\xAF\xF0\x9F\x98\x80";
  const std::string input = ToUtf16(text, Utf16Order::kLittleEndian, true);
  absl::StatusOr<Utf16Text> t =
      Utf16Text::Decode(input, Utf16Order::kLittleEndian, 2, nullptr);
  ASSERT_TRUE(t.ok());
  ASSERT_EQ(t->utf8(), text);
  // Per group: 'a' (1 byte, 2 in), é (2, 2), 柯 (3, 2), U+1F600 (4, 4).
  for (int i = 0; i < 300; ++i) {
    const size_t d = static_cast<size_t>(i) * 10;
    const size_t in = 2 + static_cast<size_t>(i) * 10;
    EXPECT_EQ(t->InputOffset(d), in);
    EXPECT_EQ(t->InputOffset(d + 1), in + 2);
    EXPECT_EQ(t->InputOffset(d + 2), in + 2);  // inside é
    EXPECT_EQ(t->InputOffset(d + 3), in + 4);
    EXPECT_EQ(t->InputOffset(d + 6), in + 6);
    EXPECT_EQ(t->InputOffset(d + 9), in + 6);  // inside U+1F600
  }
  EXPECT_EQ(t->InputOffset(text.size()), input.size());
  EXPECT_EQ(t->InputOffset(text.size() + 100), input.size());
}

TEST(Utf16, CharsetNames) {
  for (const char* name :
       {"UTF-16", "utf-16le", " UTF-16BE ", "UTF16", "UCS-2", "Unicode"}) {
    EXPECT_TRUE(IsUtf16CharsetName(name)) << name;
    EXPECT_TRUE(IsWideCharsetName(name)) << name;
  }
  for (const char* name : {"UTF-32", "UCS-4", "utf-32le"}) {
    EXPECT_FALSE(IsUtf16CharsetName(name)) << name;
    EXPECT_TRUE(IsWideCharsetName(name)) << name;
  }
  for (const char* name : {"UTF-8", "GB2312", "", "ISO-8859-1"}) {
    EXPECT_FALSE(IsWideCharsetName(name)) << name;
  }
  EXPECT_STREQ(Utf16OrderName(Utf16Order::kLittleEndian), "UTF-16LE");
  EXPECT_STREQ(Utf16OrderName(Utf16Order::kBigEndian), "UTF-16BE");
}

}  // namespace
}  // namespace qipu::rules
