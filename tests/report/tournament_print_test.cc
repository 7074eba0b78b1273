// The printable pages of report/tournament_print.h and the OpenGotha
// export of report/tournament_report.h on tournaments made through the
// library: terminal columns of names in two scripts, the round sheet as
// text (aligned) and HTML (escaped, UTF-8), the standings page, the
// history, and the participating string of a player who withdrew, entered
// late or sat a round out.
#include "report/tournament_print.h"

#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "report/tournament_report.h"
#include "tournament/tournament.h"

namespace qipu::report {
namespace {

using tournament::PlayerEntry;

// A Swiss of `rounds` rounds with the players "name:alt".
qipu::v1::Tournament Event(const std::vector<std::string>& players,
                           int rounds) {
  tournament::TournamentOptions o;
  o.name = "Spring <Open>";
  o.system = qipu::v1::TOURNAMENT_SYSTEM_SWISS;
  o.rounds = rounds;
  o.sit_out_points = 1;
  auto t = tournament::CreateTournament(o);
  EXPECT_TRUE(t.ok());
  for (const std::string& p : players) {
    const std::vector<std::string> f = absl::StrSplit(p, ':');
    PlayerEntry e;
    e.name = f[0];
    e.alt_name = f.size() > 1 ? f[1] : "";
    e.rank = "2d";
    EXPECT_TRUE(tournament::AddPlayer(&*t, e).ok());
  }
  return *t;
}

void PairAndBlackWins(qipu::v1::Tournament* t) {
  ASSERT_TRUE(tournament::PairNextRound(t, {}).ok());
  const int r = t->round_size();
  for (const auto& p : t->round(r - 1).pairings()) {
    ASSERT_TRUE(
        tournament::SetResult(t, r, p.table(), qipu::v1::GAME_RESULT_BLACK_WINS)
            .ok());
  }
}

TEST(TournamentPrint, DisplayWidthCountsWideCharactersTwice) {
  EXPECT_EQ(DisplayWidth("Li Wei"), 6);
  EXPECT_EQ(DisplayWidth("李偉"), 4);
  EXPECT_EQ(DisplayWidth("Li Wei 李偉"), 11);
  EXPECT_EQ(DisplayWidth("ｱ"), 1);          // halfwidth katakana
  EXPECT_EQ(DisplayWidth("Ａ"), 2);         // fullwidth A
  EXPECT_EQ(DisplayWidth("e\xcc\x81"), 1);  // e + combining acute
  EXPECT_EQ(DisplayWidth("\xff"), 1);       // a malformed byte counts one
  EXPECT_EQ(PadRight("李偉", 6), "李偉  ");
  EXPECT_EQ(PadRight("toolong", 3), "toolong");
}

TEST(TournamentPrint, RoundSheetLinesUpNamesInBothScripts) {
  qipu::v1::Tournament t = Event({"Li Wei:李偉", "Wang Fang:王芳", "Zhang:張",
                                  "Chen Jie", "Liu <b>&:劉", "Zhao:趙"},
                                 3);
  ASSERT_TRUE(tournament::SitOut(&t, "Chen Jie", 2).ok());
  PairAndBlackWins(&t);
  ASSERT_TRUE(tournament::PairNextRound(&t, {}).ok());
  auto text = RoundSheetText(t, 2);
  ASSERT_TRUE(text.ok()) << text.status();
  std::set<int> widths;
  int tables = 0;
  for (const std::string& line :
       std::vector<std::string>(absl::StrSplit(*text, '\n'))) {
    if (line.size() > 5 && line[4] >= '1' && line[4] <= '9') {
      widths.insert(DisplayWidth(line));
      ++tables;
    }
  }
  EXPECT_EQ(tables, 2) << *text;  // 5 play: two tables and a bye
  EXPECT_EQ(widths.size(), 1u) << *text;
  EXPECT_NE(text->find("bye: "), std::string::npos) << *text;
  EXPECT_NE(text->find("sitting out (1 point each): Chen Jie"),
            std::string::npos)
      << *text;
  // Points before the round: the winners of round 1 have 2.
  EXPECT_NE(text->find("   2  "), std::string::npos) << *text;
  auto html = RoundSheetHtml(t, 2);
  ASSERT_TRUE(html.ok());
  EXPECT_EQ(html->rfind("<!doctype html>", 0), 0u);
  EXPECT_NE(html->find("<title>Spring &lt;Open&gt; -- round 2 (swiss)"),
            std::string::npos);
  EXPECT_NE(html->find("Liu &lt;b&gt;&amp; 劉"), std::string::npos) << *html;
  EXPECT_EQ(html->find("<b>&"), std::string::npos);
  EXPECT_EQ(RoundSheetText(t, 3).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(RoundSheetHtml(t, 0).status().message(),
            "round 0 is not paired (2 paired)");
}

TEST(TournamentPrint, StandingsPageAndHistory) {
  qipu::v1::Tournament t = Event({"Li Wei:李偉", "Wang Fang:王芳"}, 2);
  PairAndBlackWins(&t);
  tournament::ResultOptions o;
  o.actor = {"alice (local)", 1767225600000};  // 2026-01-01 00:00:00 UTC
  ASSERT_TRUE(
      tournament::EnterResult(&t, 1, 1, 0, qipu::v1::GAME_RESULT_WHITE_WINS, o)
          .ok());
  auto s = tournament::GetStandings(t);
  ASSERT_TRUE(s.ok());
  const std::string page = StandingsHtml(t, *s);
  EXPECT_NE(page.find("<table class=\"standings\">"), std::string::npos);
  EXPECT_NE(page.find("<td>Li Wei 李偉</td>"), std::string::npos) << page;
  EXPECT_NE(page.find("<th>SOS</th>"), std::string::npos);
  const std::string history = HistoryText(t);
  EXPECT_NE(history.find("2026-01-01 00:00:00 UTC  alice (local)  result  "
                         "round 1 table 1: B+ -> W+\n"),
            std::string::npos)
      << history;
  const nlohmann::json j = HistoryJson(t);
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[1]["when"], "2026-01-01T00:00:00.000Z");
  EXPECT_EQ(j[1]["old"], "B+");
  EXPECT_EQ(j[1]["new"], "W+");
  EXPECT_EQ(j[1]["who"], "alice (local)");
}

// The participating string of OpenGotha's XML for `name`.
std::string Participating(const std::string& xml, const std::string& name) {
  const size_t at = xml.find("name=\"" + name + "\"");
  if (at == std::string::npos) return "";
  const size_t p = xml.find("participating=\"", at);
  return xml.substr(p + 15, xml.find('"', p + 15) - p - 15);
}

TEST(TournamentPrint, OpenGothaParticipatingFollowsWithdrawalsAndAbsences) {
  qipu::v1::Tournament t = Event({"a", "b", "c", "d", "e", "f", "g", "h"}, 7);
  ASSERT_TRUE(tournament::SitOut(&t, "b", 2).ok());
  for (int r = 1; r <= 3; ++r) PairAndBlackWins(&t);
  // Withdrew after round 3: played rounds 1-3 (not "1111000").
  ASSERT_TRUE(tournament::WithdrawPlayer(&t, "a").ok());
  PlayerEntry late;
  late.name = "late";
  ASSERT_TRUE(tournament::AddPlayer(&t, late).ok());
  ASSERT_TRUE(tournament::SitOut(&t, "c", 6).ok());
  const std::string xml = OpenGothaXml(t);
  EXPECT_EQ(Participating(xml, "a"), "1110000");
  EXPECT_EQ(Participating(xml, "b"), "1011111");
  EXPECT_EQ(Participating(xml, "c"), "1111101");
  EXPECT_EQ(Participating(xml, "late"), "0001111");
  EXPECT_EQ(Participating(xml, "d"), "1111111");
}

}  // namespace
}  // namespace qipu::report
