// GameId's text: "s<job>-<index>" and "i<32 hex digits>", the one form the
// store, the worker and the services write and read. Pinned: the text is
// what users type and what the tools print.
#include "rules/game_id.h"

#include <cstdint>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace qipu::rules {
namespace {

TEST(GameId, SelfPlayText) {
  EXPECT_EQ(GameIdText(GameId::SelfPlay(3, 17)), "s3-17");
  EXPECT_EQ(GameIdText(GameId::SelfPlay(1, 0)), "s1-0");
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  EXPECT_EQ(GameIdText(GameId::SelfPlay(max, max)),
            "s18446744073709551615-18446744073709551615");
}

TEST(GameId, ImportedTextIs32LowerCaseHexDigits) {
  const GameId id{GameId::Kind::kImported, 0x0123456789abcdefULL, 0xfULL};
  EXPECT_EQ(GameIdText(id), "i0123456789abcdef000000000000000f");
}

TEST(GameId, TextRoundTrips) {
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  for (const GameId& id :
       {GameId::SelfPlay(0, 0), GameId::SelfPlay(42, 99999),
        GameId::SelfPlay(max, max), GameId{GameId::Kind::kImported, 0, 0},
        GameId{GameId::Kind::kImported, max, 1},
        GameId{GameId::Kind::kImported, 0xfeedfacecafebeefULL,
               0x8badf00d0ddba11ULL}}) {
    const std::string text = GameIdText(id);
    auto back = ParseGameId(text);
    ASSERT_TRUE(back.ok()) << text << ": " << back.status();
    EXPECT_EQ(*back, id) << text;
  }
  // Upper-case hex reads as the same id.
  auto upper = ParseGameId("iFEEDFACECAFEBEEF08BADF00D0DDBA11");
  ASSERT_TRUE(upper.ok()) << upper.status();
  EXPECT_EQ(GameIdText(*upper), "ifeedfacecafebeef08badf00d0ddba11");
}

TEST(GameId, BadTextIsInvalidArgumentQuotingIt) {
  for (const char* bad : {"", "s", "s1", "s-1", "s1-", "sx-1", "s1-y", "x1-2",
                          "i123", "i0123456789abcdef0123456789abcde",
                          "i0123456789abcdef0123456789abcdefa",
                          "izzzzzzzzzzzzzzzz0000000000000000"}) {
    auto id = ParseGameId(bad);
    ASSERT_FALSE(id.ok()) << bad;
    EXPECT_EQ(id.status().code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(id.status().message().find(absl::StrCat("'", bad, "'")),
              std::string::npos)
        << id.status();
    EXPECT_NE(id.status().message().find("s<job>-<index>"), std::string::npos);
  }
}

}  // namespace
}  // namespace qipu::rules
