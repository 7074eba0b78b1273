// Shell-like splitting and quoting of external engines' command lines
// (gtp/command_line.h).
#include "gtp/command_line.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace qipu::gtp {
namespace {

using ::testing::ElementsAre;

std::vector<std::string> Split(absl::string_view s) {
  absl::StatusOr<std::vector<std::string>> w = SplitCommandLine(s);
  EXPECT_TRUE(w.ok()) << s << ": " << w.status();
  return w.ok() ? *w : std::vector<std::string>{};
}

TEST(GtpCommandLine, SplitsAtBlanks) {
  EXPECT_THAT(Split("gnugo --mode gtp --level 10"),
              ElementsAre("gnugo", "--mode", "gtp", "--level", "10"));
  EXPECT_THAT(Split("  a \t b\n c  "), ElementsAre("a", "b", "c"));
}

TEST(GtpCommandLine, Quotes) {
  EXPECT_THAT(Split("katago gtp -config 'my config.cfg'"),
              ElementsAre("katago", "gtp", "-config", "my config.cfg"));
  EXPECT_THAT(Split(R"(a "b c" d)"), ElementsAre("a", "b c", "d"));
  EXPECT_THAT(Split(R"("a\"b" "c\\d" "e\f" "$x")"),
              ElementsAre("a\"b", "c\\d", "e\\f", "$x"));
  EXPECT_THAT(Split(R"('it'\''s')"), ElementsAre("it's"));
  EXPECT_THAT(Split(R"(a\ b c\\d)"), ElementsAre("a b", "c\\d"));
  EXPECT_THAT(Split("x'y z'w"), ElementsAre("xy zw"));
  EXPECT_THAT(Split("a '' b \"\""), ElementsAre("a", "", "b", ""));
  EXPECT_THAT(Split("a\\\nb"), ElementsAre("ab"));
  EXPECT_THAT(Split("'#' ; | > $HOME"),
              ElementsAre("#", ";", "|", ">", "$HOME"));
}

TEST(GtpCommandLine, Errors) {
  for (const char* bad : {"", "   ", "a 'b", "a \"b", "a \\", "'"}) {
    absl::StatusOr<std::vector<std::string>> w = SplitCommandLine(bad);
    EXPECT_TRUE(absl::IsInvalidArgument(w.status())) << "'" << bad << "'";
  }
  EXPECT_THAT(std::string(SplitCommandLine("a 'b").status().message()),
              ::testing::HasSubstr("unterminated single quote at byte 2"));
}

TEST(GtpCommandLine, JoinIsCanonicalAndRoundTrips) {
  EXPECT_EQ(JoinCommandLine({"gnugo", "--mode", "gtp"}), "gnugo --mode gtp");
  EXPECT_EQ(JoinCommandLine({"a b", "", "it's", "x=1,y"}),
            R"('a b' '' 'it'\''s' x=1,y)");
  const std::vector<std::vector<std::string>> cases = {
      {"/usr/games/gnugo", "--mode", "gtp"},
      {"a b", "", "it's", "\"q\"", "back\\slash", "$v", "tab\there", "nl\n"},
      {"'", "''", "\\"}};
  for (const auto& words : cases) {
    EXPECT_EQ(Split(JoinCommandLine(words)), words);
  }
  // Canonical: any way of writing the same words joins the same.
  EXPECT_EQ(JoinCommandLine(Split("gnugo   \"--mode\" 'gtp'")),
            "gnugo --mode gtp");
}

}  // namespace
}  // namespace qipu::gtp
