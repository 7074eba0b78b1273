// The clients of backend/ against both kinds of target: a real coordinator
// on 127.0.0.1 (gRPC) and the same database opened in this process. The
// answers must be the same messages either way; imports and exports see
// the same games; bad targets and unreachable servers are clear errors.
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "backend/corpus_client.h"
#include "backend/job_client.h"
#include "backend/query_client.h"
#include "coordinator/coordinator.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "store/game_id.h"
#include "tests/common/job_config.h"
#include "tests/common/temp_dir.h"

namespace qipu::backend {
namespace {

using google::protobuf::util::MessageDifferencer;

// Four files: two legal games, a record that cannot go on (kept, cut
// where it stops: issue 32) and a file that is not SGF (rejected).
void WriteCorpus(const std::string& dir) {
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/a.sgf")
      << "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]RE[B+R];B[ee];W[cc];B[gg];W[gc])";
  std::ofstream(dir + "/b.sgf")
      << "(;GM[1]FF[4]SZ[19]KM[7.5]RE[W+3.5];B[pd];W[dp];B[pp];W[dd])";
  std::ofstream(dir + "/c.sgf")
      << "(;GM[1]FF[4]SZ[9]RE[B+1];B[ee];W[ee])";  // W plays on a stone
  std::ofstream(dir + "/d.sgf") << "not a game record\n";
}

// Every game id an export of everything yields.
std::set<std::string> ExportIds(const Target& t) {
  std::set<std::string> ids;
  const absl::Status s =
      Export(t, qipu::v1::ExportRequest(),
             [&](const store::GameId& id, const qipu::v1::Game&) {
               ids.insert(store::GameIdText(id));
               return absl::OkStatus();
             });
  EXPECT_TRUE(s.ok()) << s;
  return ids;
}

TEST(Target, ExactlyOneOfServerAndDb) {
  EXPECT_TRUE(absl::IsInvalidArgument(ValidateTarget(Target{})));
  Target both;
  both.server = "127.0.0.1:1";
  both.db = "/tmp/x";
  const absl::Status s = ValidateTarget(both);
  EXPECT_TRUE(absl::IsInvalidArgument(s));
  EXPECT_NE(s.message().find("--server"), std::string::npos);
  EXPECT_TRUE(absl::IsInvalidArgument(QueryClient::Open(both).status()));
  EXPECT_TRUE(absl::IsInvalidArgument(JobClient::Open(both).status()));
}

TEST(Clients, ServerAndDatabaseGiveTheSameAnswers) {
  test_util::TempDir dir("client");
  const std::string db = dir.Sub("db");
  WriteCorpus(dir.Sub("sgf"));
  ImportOptions io;
  io.settings.source = "test";

  Target server;
  qipu::v1::ResultsResponse results;
  qipu::v1::OpeningsResponse openings;
  std::vector<qipu::v1::JobStatus> jobs;
  std::set<std::string> exported;
  {
    coordinator::CoordinatorOptions co;
    co.db_dir = db;
    co.listen = "127.0.0.1:0";
    auto c = coordinator::Coordinator::Start(co);
    ASSERT_TRUE(c.ok()) << c.status();
    server.server = (*c)->address();
    int progress_calls = 0;
    auto summary = Import(server, {dir.Sub("sgf")}, io,
                          [&](const engine::ImportProgress& p) {
                            ++progress_calls;
                            EXPECT_EQ(p.files_total, 4u);
                          });
    ASSERT_TRUE(summary.ok()) << summary.status();
    EXPECT_EQ(summary->files, 4u);
    EXPECT_EQ(summary->imported, 3u);
    EXPECT_EQ(summary->cut, 1u);
    // The file that is not SGF holds no game to reject: it is an error row.
    EXPECT_EQ(summary->rejected, 0u);
    ASSERT_EQ(summary->errors.size(), 1u);
    EXPECT_NE(summary->errors[0].file().find("d.sgf"), std::string::npos);
    EXPECT_EQ(summary->errors[0].game(), 0u);
    EXPECT_EQ(progress_calls, 4);

    auto job_client = JobClient::Open(server);
    ASSERT_TRUE(job_client.ok());
    qipu::v1::SubmitJobRequest req;
    req.set_games(10);
    *req.mutable_config() = test_util::SelfPlayConfig(9, 3);
    auto job = (*job_client)->Submit(req);
    ASSERT_TRUE(job.ok()) << job.status();
    auto cancelled = (*job_client)->Cancel(*job);
    ASSERT_TRUE(cancelled.ok()) << cancelled.status();
    EXPECT_EQ(cancelled->state(), qipu::v1::JOB_STATE_CANCELLED);
    auto st = (*job_client)->Status(0);
    ASSERT_TRUE(st.ok());
    jobs = *st;

    auto q = QueryClient::Open(server);
    ASSERT_TRUE(q.ok());
    auto r = (*q)->Results(qipu::v1::ResultsRequest());
    ASSERT_TRUE(r.ok()) << r.status();
    results = *r;
    qipu::v1::OpeningsRequest orq;
    orq.mutable_filter()->set_width(9);
    orq.mutable_filter()->set_height(9);
    auto o = (*q)->Openings(orq);
    ASSERT_TRUE(o.ok()) << o.status();
    openings = *o;
    exported = ExportIds(server);
    (*c)->Shutdown();
  }
  EXPECT_EQ(results.outcomes().games(), 3u);
  EXPECT_EQ(openings.reached().games(), 2u);
  EXPECT_EQ(exported.size(), 3u);

  Target local;
  local.db = db;
  {
    auto q = QueryClient::Open(local);
    ASSERT_TRUE(q.ok()) << q.status();
    auto r = (*q)->Results(qipu::v1::ResultsRequest());
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(MessageDifferencer::Equals(*r, results));
    qipu::v1::OpeningsRequest orq;
    orq.mutable_filter()->set_width(9);
    orq.mutable_filter()->set_height(9);
    auto o = (*q)->Openings(orq);
    ASSERT_TRUE(o.ok());
    EXPECT_TRUE(MessageDifferencer::Equals(*o, openings));
  }
  {
    auto job_client = JobClient::Open(local);
    ASSERT_TRUE(job_client.ok()) << job_client.status();
    auto st = (*job_client)->Status(0);
    ASSERT_TRUE(st.ok());
    ASSERT_EQ(st->size(), jobs.size());
    EXPECT_TRUE(MessageDifferencer::Equals((*st)[0], jobs[0]));
    auto refused = (*job_client)->Submit(qipu::v1::SubmitJobRequest());
    EXPECT_TRUE(absl::IsFailedPrecondition(refused.status()));
  }
  EXPECT_EQ(ExportIds(local), exported);
  // Imported again into the database here: every game is a duplicate.
  auto again = Import(local, {dir.Sub("sgf")}, io);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->duplicates, 3u);
  EXPECT_EQ(again->imported, 0u);
}

TEST(Clients, UnreachableServerAndMissingDatabase) {
  test_util::TempDir dir("client");
  Target nowhere;
  nowhere.server = "127.0.0.1:1";
  nowhere.timeout = absl::Seconds(5);
  auto q = QueryClient::Open(nowhere);
  ASSERT_TRUE(q.ok());
  auto r = (*q)->Ko(qipu::v1::KoRequest());
  EXPECT_TRUE(absl::IsUnavailable(r.status())) << r.status();
  EXPECT_NE(r.status().message().find("is the coordinator running"),
            std::string::npos);
  Target missing;
  missing.db = dir.Sub("none");
  EXPECT_FALSE(QueryClient::Open(missing).ok());
  EXPECT_FALSE(std::filesystem::exists(dir.Sub("none/CURRENT")));
}

}  // namespace
}  // namespace qipu::backend
