// base/quote.h: caller input quoted whole when short, cut at a UTF-8
// boundary with its length when long; whole messages capped.
#include "base/quote.h"

#include <string>

#include "absl/strings/match.h"
#include "gtest/gtest.h"

namespace qipu::base {
namespace {

TEST(QuoteInput, ShortInputIsQuotedWhole) {
  EXPECT_EQ(QuoteInput("Q16"), "'Q16'");
  EXPECT_EQ(QuoteInput(""), "''");
  EXPECT_EQ(QuoteInput(std::string(200, 'x')),
            "'" + std::string(200, 'x') + "'");
  EXPECT_EQ(QuoteInput("mcts", kMaxQuotedBytes, '"'), "\"mcts\"");
  // Control characters keep the message on one printable line.
  EXPECT_EQ(QuoteInput("a\nb\x7f"), "'a\\x0ab\\x7f'");
}

TEST(QuoteInput, LongInputIsCutWithItsLength) {
  const std::string big(1 << 20, 'p');
  const std::string q = QuoteInput(big);
  EXPECT_EQ(q, "'" + std::string(200, 'p') + "...' (1048576 bytes)");
  EXPECT_EQ(QuoteInput(big, 10, '"'), "\"pppppppppp...\" (1048576 bytes)");
}

TEST(QuoteInput, CutsAtACharacterBoundary) {
  // 'é' is two bytes: 10 bytes of "ééééé" and one more byte would split
  // the sixth; the cut keeps five whole characters.
  std::string s;
  for (int i = 0; i < 10; ++i) s += "\xc3\xa9";
  EXPECT_EQ(QuoteInput(s, 11), "'" + s.substr(0, 10) + "...' (20 bytes)");
  // A 4-byte character across the cut.
  const std::string emoji =
      "ab\xf0\x9f\x98\x80"
      "cd";
  EXPECT_EQ(QuoteInput(emoji, 4), "'ab...' (8 bytes)");
}

TEST(CapMessage, KeepsShortMessagesAndCapsLongOnes) {
  EXPECT_EQ(CapMessage("fine"), "fine");
  const std::string big(5000, 'm');
  const std::string c = CapMessage(big);
  EXPECT_LE(c.size(), kMaxMessageBytes);
  EXPECT_TRUE(absl::EndsWith(c, " ... (5000 bytes in all)")) << c;
  EXPECT_EQ(c.rfind(std::string(900, 'm'), 0), 0u);
}

}  // namespace
}  // namespace qipu::base
