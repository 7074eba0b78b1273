// The renderings of report/ on hand-made answers: the JSON fields --json
// documents, and the text lines people read.
#include <string>

#include "gtest/gtest.h"
#include "report/import_report.h"
#include "report/job_report.h"
#include "report/query_report.h"

namespace qipu::report {
namespace {

qipu::v1::Outcomes Outcomes(uint64_t b, uint64_t w, uint64_t d, uint64_t v) {
  qipu::v1::Outcomes o;
  o.set_black_wins(b);
  o.set_white_wins(w);
  o.set_draws(d);
  o.set_void_(v);
  o.set_games(b + w + d + v);
  return o;
}

TEST(QueryReport, OpeningsJsonAndText) {
  qipu::v1::OpeningsResponse r;
  *r.mutable_reached() = Outcomes(6, 3, 1, 2);
  r.set_position_key("k");
  auto* c = r.add_continuations();
  c->set_move("D4");
  *c->mutable_outcomes() = Outcomes(3, 1, 0, 1);
  c->add_example_game_ids("s1-2");
  const nlohmann::json j = OpeningsJson(r);
  EXPECT_EQ(j["games"], 12);
  EXPECT_EQ(j["void"], 2);
  EXPECT_DOUBLE_EQ(j["black_win_rate"].get<double>(), 0.6);
  EXPECT_EQ(j["position_key"], "k");
  ASSERT_EQ(j["continuations"].size(), 1u);
  EXPECT_EQ(j["continuations"][0]["move"], "D4");
  EXPECT_DOUBLE_EQ(j["continuations"][0]["black_win_rate"].get<double>(), 0.75);
  EXPECT_EQ(j["continuations"][0]["examples"][0], "s1-2");
  EXPECT_EQ(j["to_play"], "");
  qipu::v1::OpeningsRequest req;
  req.add_moves("Q16");
  const std::string t = OpeningsText(r, req);
  EXPECT_NE(t.find("Position after Q16 on 19x19 (key k)"), std::string::npos)
      << t;
  EXPECT_NE(t.find("Reached by 12 games: Black 6 (50.0%), White 3 (25.0%), "
                   "draws 1, void 2; Black's winning rate 60.0%"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("D4    5      41.7%  3       1       0      1     75.0%   "
                   "s1-2"),
            std::string::npos)
      << t;
  qipu::v1::OpeningsResponse empty;
  qipu::v1::OpeningsRequest nine;
  nine.mutable_filter()->set_width(9);
  nine.mutable_filter()->set_height(9);
  const std::string e = OpeningsText(empty, nine);
  EXPECT_NE(e.find("Position after no moves (empty board) on 9x9 (key )"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("No continuations."), std::string::npos);
}

// Coloured moves, setup stones and the side to move, as asked.
TEST(QueryReport, OpeningsShowTheColoursAsAsked) {
  qipu::v1::OpeningsResponse r;
  r.set_position_key("k");
  r.set_to_play(qipu::v1::COLOR_BLACK);
  qipu::v1::OpeningsRequest req;
  req.add_moves("B:Q16");
  req.add_moves("b:D4");
  EXPECT_NE(OpeningsText(r, req).find(
                "Position after B:Q16 b:D4 on 19x19, Black to move (key k)"),
            std::string::npos)
      << OpeningsText(r, req);
  EXPECT_EQ(OpeningsJson(r)["to_play"], "B");
  r.set_to_play(qipu::v1::COLOR_WHITE);
  EXPECT_EQ(OpeningsJson(r)["to_play"], "W");
  req.add_setup("B:Q4");
  req.add_setup("W:D16");
  EXPECT_NE(OpeningsText(r, req).find("Position after setup B:Q4 W:D16 and "
                                      "B:Q16 b:D4 on 19x19, White to move"),
            std::string::npos)
      << OpeningsText(r, req);
  req.clear_moves();
  EXPECT_NE(OpeningsText(r, req).find(
                "Position after setup B:Q4 W:D16 on 19x19, White to move"),
            std::string::npos)
      << OpeningsText(r, req);
}

TEST(QueryReport, CyclesListEveryClassAndOutcome) {
  qipu::v1::CyclesResponse r;
  r.set_games(1000);
  auto* row = r.add_rows();
  row->set_cls(qipu::v1::CYCLE_CLASS_TRIPLE_KO);
  row->set_outcome(qipu::v1::CYCLE_OUTCOME_NO_RESULT);
  row->set_cycles(4);
  row->set_games(3);
  row->set_per_10k(30);
  // A cycle under pure simple ko: completed, and the game went on.
  auto* continued = r.add_rows();
  continued->set_cls(qipu::v1::CYCLE_CLASS_SENDING_TWO_RETURNING_ONE);
  continued->set_outcome(qipu::v1::CYCLE_OUTCOME_CONTINUED);
  continued->set_cycles(2);
  continued->set_games(2);
  continued->set_per_10k(20);
  continued->add_example_game_ids("s4-17");
  const nlohmann::json j = CyclesJson(r);
  EXPECT_EQ(j["rows"][0]["class"], "triple_ko");
  EXPECT_EQ(j["rows"][0]["outcome"], "no-result");
  EXPECT_EQ(j["rows"][1]["class"], "sending_two_returning_one");
  EXPECT_EQ(j["rows"][1]["outcome"], "continued");
  const std::string t = CyclesText(r);
  // 5 classes x 6 outcomes, zeros included, under a header and a rule.
  size_t lines = 0;
  for (char ch : t) lines += ch == '\n';
  EXPECT_GE(lines, 30u + 2u);
  EXPECT_NE(t.find("triple_ko"), std::string::npos);
  EXPECT_NE(t.find("sending_two_returning_one"), std::string::npos);
  EXPECT_NE(t.find("prevented-cycle-rule"), std::string::npos);
  EXPECT_NE(t.find("other                      continued"), std::string::npos)
      << t;
  // The continued row with its counts and example.
  const size_t at = t.find("sending_two_returning_one  continued");
  ASSERT_NE(at, std::string::npos) << t;
  const std::string line = t.substr(at, t.find('\n', at) - at);
  EXPECT_NE(line.find("20.00"), std::string::npos) << line;
  EXPECT_NE(line.find("s4-17"), std::string::npos) << line;
}

TEST(QueryReport, KoAndResults) {
  qipu::v1::KoResponse k;
  k.mutable_all()->set_games(10);
  k.mutable_all()->set_games_with_ko(4);
  k.mutable_all()->set_mean(0.5);
  k.mutable_histogram()->set_bucket(1);
  for (int c : {6, 3, 1}) k.mutable_histogram()->add_counts(c);
  const nlohmann::json kj = KoJson(k);
  EXPECT_DOUBLE_EQ(kj["share_with_ko"].get<double>(), 0.4);
  EXPECT_EQ(kj["histogram"].size(), 3u);
  EXPECT_FALSE(kj.contains("label"));
  const std::string kt = KoText(k);
  EXPECT_NE(kt.find("Ko captures per game over 10 games"), std::string::npos);
  EXPECT_NE(kt.find("games with at least one: 4 (40.0%)"), std::string::npos);

  qipu::v1::ResultsResponse r;
  *r.mutable_outcomes() = Outcomes(2, 1, 0, 1);
  (*r.mutable_by_reason())["score"] = 3;
  (*r.mutable_by_reason())["resign"] = 1;
  const nlohmann::json rj = ResultsJson(r);
  EXPECT_EQ(rj["by_reason"]["score"], 3);
  const std::string rt = ResultsText(r);
  EXPECT_NE(rt.find("4 games: Black 2 (50.0%), White 1 (25.0%)"),
            std::string::npos)
      << rt;
  EXPECT_LT(rt.find("resign"), rt.find("score"));  // sorted rows
}

TEST(ImportReport, SummaryJsonAndText) {
  engine::ImportSummary s;
  s.files = 2;
  s.games = 5;
  s.imported = 3;
  s.duplicates = 1;
  s.rejected = 1;
  s.seconds = 0.5;
  s.normalised["komi"] = 2;
  s.normalised["result"] = 5;
  qipu::v1::ImportError e;
  e.set_file("a.sgf");
  e.set_game(2);
  e.set_move(7);
  e.set_reason("occupied");
  s.errors.push_back(e);
  s.errors.push_back(e);
  const nlohmann::ordered_json j = ImportJson(s);
  EXPECT_EQ(j["games_per_sec"], 10.0);
  EXPECT_EQ(j["normalised"]["result"], 5);
  EXPECT_EQ(j["errors"][0]["move"], 7);
  const std::string t = ImportText(s, 1);
  EXPECT_NE(t.find("files 2  games 5  imported 3  duplicates 1  rejected 1  "
                   "errors 2  (0.50 s, 10 games/s)"),
            std::string::npos)
      << t;
  EXPECT_LT(t.find("result"), t.find("komi"));  // by count
  EXPECT_NE(t.find("  a.sgf: game 2, move 7: occupied\n"), std::string::npos);
  EXPECT_NE(t.find("... 1 more (--json lists them all)"), std::string::npos);
  EXPECT_EQ(t.find("skipped"), std::string::npos);  // none skipped
  EXPECT_EQ(j["skipped"], 0);

  // A game of another game than Go: counted and listed apart.
  qipu::v1::ImportError k;
  k.set_file("b.sgf");
  k.set_game(2);
  k.set_byte_offset(39);
  k.set_reason("GM[19] at byte 41 (line 2, column 3): not a game of Go");
  s.skipped.push_back(k);
  const nlohmann::ordered_json j2 = ImportJson(s);
  EXPECT_EQ(j2["skipped"], 1);
  EXPECT_EQ(j2["skipped_games"][0]["byte_offset"], 39);
  const std::string t2 = ImportText(s, 1);
  EXPECT_NE(t2.find("rejected 1  skipped 1  errors 2"), std::string::npos)
      << t2;
  EXPECT_NE(t2.find("skipped (not Go):\n  b.sgf: game 2, byte 39: GM[19] at "
                    "byte 41"),
            std::string::npos)
      << t2;
  EXPECT_LT(t2.find("skipped (not Go):"), t2.find("errors:"));
}

TEST(JobReport, JsonAndTable) {
  qipu::v1::JobStatus st;
  st.set_job(4);
  st.set_requested(100);
  st.set_done(40);
  st.set_state(qipu::v1::JOB_STATE_CANCELLED);
  st.mutable_config()->set_width(9);
  st.mutable_config()->set_height(9);
  st.mutable_config()->mutable_rules()->set_preset("chinese");
  const nlohmann::json j = JobJson(st);
  EXPECT_EQ(j["state"], "cancelled");
  EXPECT_EQ(j["size"], 9);
  const std::string t = JobsText({st});
  EXPECT_NE(t.find("4    cancelled  40/100"), std::string::npos) << t;
}

}  // namespace
}  // namespace qipu::report
