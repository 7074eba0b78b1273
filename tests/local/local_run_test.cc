// LocalRun (local/local_run.h) on a temp-dir database: a small job played
// to its end, its summary equal to what the queries answer from the
// database afterwards; a finished job resumed plays nothing more; a
// cancelled or unknown --job is refused; the report renders the summary.
#include "local/local_run.h"

#include <string>

#include "absl/time/clock.h"
#include "backend/query_client.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "local/local_report.h"
#include "tests/common/job_config.h"
#include "tests/common/temp_dir.h"

namespace qipu::local {
namespace {

LocalOptions Options(const std::string& db, uint64_t games) {
  LocalOptions o;
  o.db = db;
  o.threads = 2;
  o.job.set_games(games);
  *o.job.mutable_config() = test_util::SelfPlayConfig(9, 7, 8);
  return o;
}

// Polls `run` until its job is finished (each poll is a cheap status read).
LocalProgress RunToEnd(LocalRun& run) {
  for (;;) {
    auto p = run.Poll();
    EXPECT_TRUE(p.ok()) << p.status();
    if (!p.ok() || p->finished || p->cancelled)
      return p.ok() ? *p : LocalProgress{};
    absl::SleepFor(absl::Milliseconds(20));
  }
}

TEST(LocalRun, PlaysTheJobAndSummarisesWhatTheDatabaseHolds) {
  test_util::TempDir dir("local");
  const std::string db = dir.Sub("db");
  LocalSummary summary;
  {
    auto run = LocalRun::Start(Options(db, 300));
    ASSERT_TRUE(run.ok()) << run.status();
    EXPECT_EQ((*run)->requested(), 300u);
    EXPECT_TRUE((*run)->OtherUnfinishedJobs().empty());
    const LocalProgress p = RunToEnd(**run);
    EXPECT_TRUE(p.finished);
    EXPECT_EQ(p.done, 300u);
    EXPECT_EQ(p.rejected, 0u);
    auto s = (*run)->Finish();
    ASSERT_TRUE(s.ok()) << s.status();
    summary = *s;
  }
  EXPECT_EQ(summary.job, 1u);
  EXPECT_EQ(summary.results.outcomes().games(), 300u);
  EXPECT_GT(summary.games_per_sec, 0);
  EXPECT_EQ(summary.interrupted_by, 0);
  EXPECT_FALSE(summary.cancelled);
  uint64_t first_moves = 0;
  for (const auto& c : summary.openings.continuations()) {
    first_moves += c.outcomes().games();
  }
  EXPECT_LE(summary.openings.continuations_size(), 8);
  EXPECT_GT(first_moves, 0u);

  // The same answers from the database, as `qipu query --db` reads them.
  backend::Target t;
  t.db = db;
  auto q = backend::QueryClient::Open(t);
  ASSERT_TRUE(q.ok()) << q.status();
  qipu::v1::ResultsRequest rr;
  rr.mutable_filter()->set_source("job:1");
  auto results = (*q)->Results(rr);
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(
      *results, summary.results));

  const nlohmann::json j = SummaryJson(summary);
  EXPECT_EQ(j["games"], 300);
  EXPECT_EQ(j["job"], 1);
  EXPECT_EQ(j["black_wins"].get<uint64_t>() + j["white_wins"].get<uint64_t>() +
                j["draws"].get<uint64_t>() + j["void"].get<uint64_t>(),
            300u);
  EXPECT_FALSE(j.contains("interrupted"));
  const std::string text = SummaryText(summary);
  EXPECT_NE(text.find("qipu local: job 1, 300 games of 9x9 chinese"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("top openings (first move, all symmetries folded):"),
            std::string::npos);
  EXPECT_NE(text.find("ask more: qipu query openings --db " + db),
            std::string::npos);
}

// `qipu local --cycle none`: under pure simple ko the cycles the worker's
// games complete go through the coordinator's replay into the database,
// and the summary lists them as continued.
TEST(LocalRun, CyclesUnderPureSimpleKoAreStoredAndSummarised) {
  test_util::TempDir dir("local");
  const std::string db = dir.Sub("db");
  constexpr uint64_t kGames = 4000;
  LocalOptions o = Options(db, kGames);
  o.job.mutable_config()->mutable_rules()->set_cycle(qipu::v1::CYCLE_RULE_NONE);
  auto run = LocalRun::Start(o);
  ASSERT_TRUE(run.ok()) << run.status();
  const LocalProgress p = RunToEnd(**run);
  EXPECT_EQ(p.done, kGames);
  EXPECT_EQ(p.rejected, 0u);
  auto s = (*run)->Finish();
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_GT(s->cycles.rows_size(), 0);
  bool sending_two = false;
  for (const qipu::v1::CycleRow& row : s->cycles.rows()) {
    EXPECT_EQ(row.outcome(), qipu::v1::CYCLE_OUTCOME_CONTINUED);
    EXPECT_GT(row.games(), 0u);
    sending_two |= row.cls() == qipu::v1::CYCLE_CLASS_SENDING_TWO_RETURNING_ONE;
  }
  EXPECT_TRUE(sending_two);
  const std::string text = SummaryText(*s);
  EXPECT_NE(text.find("  sending_two_returning_one  continued "),
            std::string::npos)
      << text;
}

TEST(LocalRun, ResumedAndRefusedJobs) {
  test_util::TempDir dir("local");
  const std::string db = dir.Sub("db");
  {
    auto run = LocalRun::Start(Options(db, 50));
    ASSERT_TRUE(run.ok()) << run.status();
    RunToEnd(**run);
    ASSERT_TRUE((*run)->Finish().ok());
  }
  // Job 1 is done: resuming it stores nothing more, its summary has its 50.
  LocalOptions again = Options(db, 999);
  again.resume_job = 1;
  {
    auto run = LocalRun::Start(again);
    ASSERT_TRUE(run.ok()) << run.status();
    EXPECT_EQ((*run)->requested(), 50u);
    EXPECT_TRUE(RunToEnd(**run).finished);
    auto s = (*run)->Finish();
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(s->results.outcomes().games(), 50u);
  }
  LocalOptions unknown = Options(db, 10);
  unknown.resume_job = 77;
  auto refused = LocalRun::Start(unknown);
  EXPECT_TRUE(absl::IsNotFound(refused.status())) << refused.status();
  EXPECT_NE(refused.status().message().find("--job 77"), std::string::npos);
}

TEST(LocalReport, StartLineAndUnfinishedNote) {
  qipu::v1::JobConfig c = test_util::SelfPlayConfig(13, 1);
  c.mutable_rules()->set_preset("chinese");
  EXPECT_EQ(StartLine(3, 500, c, "/d"),
            "qipu local: job 3 started: 500 games of 13x13 chinese, random, "
            "database /d\n");
  c.set_black_policy("mcts:playouts=50");
  c.set_white_policy("random");
  EXPECT_EQ(StartLine(3, 500, c, "/d"),
            "qipu local: job 3 started: 500 games of 13x13 chinese, "
            "mcts:playouts=50 vs random, database /d\n");
  qipu::v1::JobStatus st;
  st.set_job(2);
  st.set_done(10);
  st.set_requested(40);
  EXPECT_EQ(UnfinishedJobNote(st, "/d"),
            "qipu local: job 2 of an earlier run has 10 of 40 games stored; "
            "it is left as it is (qipu local --job 2 continues it, qipu job "
            "cancel --db /d --job 2 ends it)\n");
}

}  // namespace
}  // namespace qipu::local
