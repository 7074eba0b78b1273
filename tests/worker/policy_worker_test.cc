// A Worker playing policy jobs against a real Coordinator: Black mcts
// (30 playouts) against White random on 7x7, pattern against itself, and a
// random job beside them. Every game is validated and stored, with its
// policies and the root visits of its searches; queries filter by policy
// (a spec, a prefix at a token boundary, either colour); SGF export then
// or JSONL export then import keeps the visits; a bad spec is refused at
// submit.
#include <memory>
#include <string>

#include "coordinator/game_format.h"
#include "coordinator/prepare.h"
#include "gtest/gtest.h"
#include "proto/search_visits.h"
#include "rules/sgf_reader.h"
#include "tests/worker/coordinator_fixture.h"
#include "tests/worker/test_util.h"
#include "worker/worker.h"

namespace qipu::worker {
namespace {

using testing::Config;
using testing::JobStatusOf;
using testing::StartCoordinator;
using testing::SubmitJob;
using testing::TempDir;

uint64_t GamesWithPolicy(coordinator::Coordinator& c,
                         const std::string& policy) {
  qipu::v1::ResultsRequest req;
  req.mutable_filter()->set_policy(policy);
  auto r = c.queries().Results(req);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? r->outcomes().games() : 0;
}

TEST(PolicyWorker, PlaysPolicyJobsAndStoresTheirSearches) {
  TempDir tmp;
  auto c = StartCoordinator(tmp.Sub("db"));
  ASSERT_NE(c, nullptr);
  qipu::v1::JobConfig bad = Config(7, 1);
  bad.set_black_policy("mcts:playouts=-3");
  const absl::Status refused = c->jobs().Submit(1, bad).status();
  EXPECT_TRUE(absl::IsInvalidArgument(refused));
  EXPECT_NE(refused.message().find("config.black_policy"), std::string::npos)
      << refused;

  const uint64_t random_job = SubmitJob(*c, 10, Config(7, 11));
  qipu::v1::JobConfig mcts = Config(7, 12);
  // Not canonical as written: stored canonical.
  mcts.set_black_policy("mcts: playouts=30 , threads=1");
  mcts.set_white_policy("random");
  const uint64_t mcts_job = SubmitJob(*c, 4, mcts);
  qipu::v1::JobConfig pattern = Config(7, 13);
  pattern.set_policy("pattern");
  const uint64_t pattern_job = SubmitJob(*c, 3, pattern);
  EXPECT_EQ(JobStatusOf(*c, mcts_job).config().black_policy(),
            "mcts:playouts=30");
  EXPECT_EQ(JobStatusOf(*c, mcts_job).config().policy(),
            "mcts:playouts=30 vs random");

  WorkerOptions o;
  o.coordinator = c->address();
  o.spool_dir = tmp.Sub("spool");
  o.name = "pw";
  o.threads = 2;
  o.exit_when_idle = absl::Milliseconds(400);
  o.rpc_timeout = absl::Seconds(10);
  o.max_idle_poll = absl::Milliseconds(50);
  Worker w(o);
  ASSERT_TRUE(w.Start().ok());
  ASSERT_TRUE(w.Wait().ok());
  for (uint64_t job : {random_job, mcts_job, pattern_job}) {
    const qipu::v1::JobStatus st = JobStatusOf(*c, job);
    EXPECT_EQ(st.rejected(), 0u) << job;
    EXPECT_EQ(st.done(), st.requested()) << job;
  }

  for (uint64_t i = 0; i < 4; ++i) {
    qipu::v1::GetGameRequest req;
    req.set_id(absl::StrCat("s", mcts_job, "-", i));
    auto got = c->queries().GetGame(req);
    ASSERT_TRUE(got.ok()) << got.status();
    const qipu::v1::Game& g = got->game();
    EXPECT_EQ(g.provenance().black_policy(), "mcts:playouts=30");
    EXPECT_EQ(g.provenance().white_policy(), "random");
    auto searches =
        wire::UnpackSearches(g.search_visits(), 7, 7, g.num_moves());
    ASSERT_TRUE(searches.ok()) << searches.status();
    EXPECT_FALSE(searches->empty());
    EXPECT_NE(got->sgf().find("PB[qipu mcts:playouts=30]"), std::string::npos)
        << got->sgf();
    EXPECT_NE(got->sgf().find("QM["), std::string::npos) << got->sgf();

    // Export as SGF, then import: the same moves and the same visits.
    auto sgf = coordinator::GameToSgf(g);
    ASSERT_TRUE(sgf.ok()) << sgf.status();
    EXPECT_NE(sgf->find("QB[mcts:playouts=30]QW[random]"), std::string::npos)
        << *sgf;
    rules::SgfCollection read = rules::ReadSgf(*sgf);
    ASSERT_EQ(read.games.size(), 1u);
    coordinator::ImportContext ctx;
    ctx.now = absl::Now();
    auto imported =
        coordinator::PrepareImport(read.games[0], ctx, &c->configs());
    ASSERT_TRUE(imported.ok()) << imported.status();
    qipu::v1::Game back;
    ASSERT_TRUE(back.ParseFromString(imported->game.value));
    EXPECT_EQ(back.moves(), g.moves());
    EXPECT_EQ(back.search_visits(), g.search_visits());

    // The same through JSONL: policies in the provenance, visits in
    // `searches`.
    auto line = coordinator::GameToJsonLine(g, req.id());
    ASSERT_TRUE(line.ok()) << line.status();
    EXPECT_NE(line->find("\"black_policy\":\"mcts:playouts=30\""),
              std::string::npos)
        << *line;
    EXPECT_NE(line->find("\"searches\":[{\"move\":0,\"points\":["),
              std::string::npos)
        << *line;
    auto record = coordinator::JsonLineToRecord(*line);
    ASSERT_TRUE(record.ok()) << record.status();
    auto jsonl_import =
        coordinator::PrepareImport(*record, ctx, &c->configs());
    ASSERT_TRUE(jsonl_import.ok()) << jsonl_import.status();
    qipu::v1::Game back_jsonl;
    ASSERT_TRUE(back_jsonl.ParseFromString(jsonl_import->game.value));
    EXPECT_EQ(back_jsonl.moves(), g.moves());
    EXPECT_EQ(back_jsonl.search_visits(), g.search_visits());
  }

  EXPECT_EQ(GamesWithPolicy(*c, "mcts:playouts=30"), 4u);
  EXPECT_EQ(GamesWithPolicy(*c, "mcts:threads=1,playouts=30"), 4u);
  EXPECT_EQ(GamesWithPolicy(*c, "mcts"), 4u);
  EXPECT_EQ(GamesWithPolicy(*c, "mcts:playouts=3"), 0u);
  // White played random in the mcts job.
  EXPECT_EQ(GamesWithPolicy(*c, "random"), 14u);
  EXPECT_EQ(GamesWithPolicy(*c, "pattern"), 3u);
  EXPECT_EQ(GamesWithPolicy(*c, "gtp:gnugo"), 0u);
  EXPECT_EQ(GamesWithPolicy(*c, ""), 17u);
}

}  // namespace
}  // namespace qipu::worker
