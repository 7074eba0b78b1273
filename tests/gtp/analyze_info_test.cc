// The analyze responses of external engines: Leela Zero's
// lz-genmove_analyze lines (as src/UCTSearch.cpp writes them: win rate,
// prior and LCB in 1/10000) and KataGo's kata-genmove_analyze lines
// (numbers in [0, 1], score lead, list keys), the last set of a response
// taken, the play line, and bad input named by line and token.
#include "gtp/analyze_info.h"

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "rules/coord.h"

namespace qipu::gtp {
namespace {

rules::Point At19(const char* vertex) {
  return rules::ParseGtpPoint(vertex, 19, 19).value();
}

TEST(AnalyzeInfo, LeelaZeroLinesScaleBy10000AndTheLastSetCounts) {
  const char* text =
      "=\n"
      "info move Q16 visits 1 winrate 4000 prior 2000 lcb 0 order 0 pv Q16\n"
      "info move D4 visits 12 winrate 5012 prior 1234 lcb 4900 order 0 pv "
      "D4 Q16 D16 info move pass visits 3 winrate 3000 prior 10 lcb 0 order "
      "1 pv pass\n"
      "play D4\n";
  auto r = ParseAnalyzeResponse(text, 19, 19, AnalyzeDialect::kLeelaZero);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->play, "D4");
  ASSERT_EQ(r->moves.size(), 2u);
  const AnalyzedMove& d4 = r->moves[0];
  EXPECT_EQ(d4.point, At19("D4"));
  EXPECT_EQ(d4.visits, 12);
  EXPECT_DOUBLE_EQ(d4.winrate, 0.5012);
  EXPECT_DOUBLE_EQ(d4.prior, 0.1234);
  EXPECT_DOUBLE_EQ(d4.lcb, 0.49);
  EXPECT_EQ(d4.order, 0);
  EXPECT_EQ(d4.pv, (std::vector<std::string>{"D4", "Q16", "D16"}));
  EXPECT_FALSE(d4.score_lead.has_value());
  EXPECT_EQ(r->moves[1].point, rules::kPass);
  EXPECT_EQ(r->moves[1].order, 1);
}

TEST(AnalyzeInfo, KataGoLinesKeepScoresAndSkipOtherKeys) {
  const char* text =
      "= \n"
      "info move C3 visits 40 edgeVisits 40 utility 0.21 winrate 0.61 "
      "scoreMean 2.5 scoreStdev 11.2 scoreLead 2.25 scoreSelfplay 3.1 prior "
      "0.3 lcb -0.02 utilityLcb 0.1 weight 40 order 0 pv C3 D5 pvVisits 40 "
      "12 info move E5 visits 9 utility 0.1 winrate 0.55 scoreLead 1.5 prior "
      "0.2 lcb 0.4 order 1 pv E5 ownership 0.1 -0.2 0.3\n"
      "play C3\n";
  auto r = ParseAnalyzeResponse(text, 9, 9, AnalyzeDialect::kKataGo);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->moves.size(), 2u);
  const AnalyzedMove& c3 = r->moves[0];
  EXPECT_EQ(c3.point, rules::ParseGtpPoint("C3", 9, 9).value());
  EXPECT_EQ(c3.visits, 40);
  EXPECT_DOUBLE_EQ(c3.winrate, 0.61);
  EXPECT_DOUBLE_EQ(c3.prior, 0.3);
  EXPECT_DOUBLE_EQ(c3.lcb, 0.0);  // clamped
  EXPECT_DOUBLE_EQ(c3.score_lead.value(), 2.25);
  EXPECT_DOUBLE_EQ(c3.score_mean.value(), 2.5);
  EXPECT_EQ(c3.pv, (std::vector<std::string>{"C3", "D5"}));
  EXPECT_EQ(r->moves[1].pv, (std::vector<std::string>{"E5"}));
  EXPECT_FALSE(r->moves[1].score_mean.has_value());
}

TEST(AnalyzeInfo, NoInfoLinesGiveThePlayAlone) {
  auto r =
      ParseAnalyzeResponse("=3\nplay resign\n", 9, 9, AnalyzeDialect::kKataGo);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->moves.empty());
  EXPECT_EQ(r->play, "resign");
}

TEST(AnalyzeInfo, BadInputIsNamedByLineAndToken) {
  struct Case {
    const char* text;
    const char* token;
  };
  const Case cases[] = {
      {"=\ninfo move K5 visits 3 winrate 5000 pv K5\n", "K5"},  // off 9x9
      {"=\ninfo move C3 visits -1 winrate 5000 pv C3\n", "-1"},
      {"=\ninfo move C3 winrate 5000 pv C3\n", "info"},
      {"=\ninfo move C3 visits 2 winrate 12000 pv C3\n", "12000"},
      {"=\ninfo move C3 visits 2 winrate x pv C3\n", "x"},
      {"=\ninfo move C3 visits 2 pv C3 info move C3 visits 1 pv C3\n", "C3"},
      {"=\ninfo move C3 visits\n", "visits"},
  };
  for (const Case& c : cases) {
    auto r = ParseAnalyzeResponse(c.text, 9, 9, AnalyzeDialect::kLeelaZero);
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_TRUE(absl::IsInvalidArgument(r.status()));
    EXPECT_NE(r.status().message().find("line 2"), std::string::npos)
        << r.status();
    EXPECT_NE(r.status().message().find(absl::StrCat("\"", c.token, "\"")),
              std::string::npos)
        << r.status();
  }
}

}  // namespace
}  // namespace qipu::gtp
