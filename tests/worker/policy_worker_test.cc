// A Worker playing policy jobs against a real Coordinator: Black mcts
// (30 playouts) against White random on 7x7, pattern against itself, and a
// random job beside them. Every game is validated and stored, with its
// policies and the root visits of its searches; queries filter by policy
// (a spec, a prefix at a token boundary, either colour); SGF export then
// or JSONL export then import keeps the visits; a bad spec is refused at
// submit.
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>

#include "engine/game_format.h"
#include "engine/prepare.h"
#include "gtest/gtest.h"
#include "proto/search_visits.h"
#include "rules/sgf_reader.h"
#include "tests/gtp/process_util.h"
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
    auto sgf = engine::GameToSgf(g);
    ASSERT_TRUE(sgf.ok()) << sgf.status();
    EXPECT_NE(sgf->find("QB[mcts:playouts=30]QW[random]"), std::string::npos)
        << *sgf;
    rules::SgfCollection read = rules::ReadSgf(*sgf);
    ASSERT_EQ(read.games.size(), 1u);
    engine::ImportContext ctx;
    ctx.now = absl::Now();
    auto imported = engine::PrepareImport(read.games[0], ctx, &c->configs());
    ASSERT_TRUE(imported.ok()) << imported.status();
    qipu::v1::Game back;
    ASSERT_TRUE(back.ParseFromString(imported->game.value));
    EXPECT_EQ(back.moves(), g.moves());
    EXPECT_EQ(back.search_visits(), g.search_visits());

    // The same through JSONL: policies in the provenance, visits in
    // `searches`.
    auto line = engine::GameToJsonLine(g, req.id());
    ASSERT_TRUE(line.ok()) << line.status();
    EXPECT_NE(line->find("\"black_policy\":\"mcts:playouts=30\""),
              std::string::npos)
        << *line;
    EXPECT_NE(line->find("\"searches\":[{\"move\":0,\"points\":["),
              std::string::npos)
        << *line;
    auto record = engine::JsonLineToRecord(*line);
    ASSERT_TRUE(record.ok()) << record.status();
    auto jsonl_import = engine::PrepareImport(*record, ctx, &c->configs());
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

TEST(PolicyWorker, AFailingEngineLeavesARecordOfEachFailure) {
  // Black is an external engine (a shell script) that misbehaves
  // differently in each game it starts, counted across its processes by a
  // file: game 1 it crashes at its first genmove, game 2 it plays A1 every
  // time (illegal from the second time on: occupied), game 3 it resigns,
  // later games it passes. White plays random. Every game is stored with a
  // result that says what happened, the crashed engine is replaced by a new
  // process, and no engine process is left behind.
  TempDir tmp;
  auto c = StartCoordinator(tmp.Sub("db"));
  ASSERT_NE(c, nullptr);
  const std::string games_file = tmp.Sub("engine-games");
  const std::string pids_file = tmp.Sub("engine-pids");
  const std::string script =
      gtp::WriteScript(tmp.path(), "engine.sh",
                       absl::StrCat("#!/bin/sh\n"
                                    "echo $$ >> ",
                                    pids_file, "\n",
                                    "while read -r cmd rest; do\n"
                                    "  case \"$cmd\" in\n"
                                    "    clear_board) echo g >> ",
                                    games_file,
                                    "; printf '= \\n\\n' ;;\n"
                                    "    genmove)\n"
                                    "      n=$(wc -l < ",
                                    games_file,
                                    ")\n"
                                    "      case $n in\n"
                                    "        1) kill -KILL $$ ;;\n"
                                    "        2) printf '= A1\\n\\n' ;;\n"
                                    "        3) printf '= resign\\n\\n' ;;\n"
                                    "        *) printf '= pass\\n\\n' ;;\n"
                                    "      esac ;;\n"
                                    "    quit) printf '= \\n\\n'; exit 0 ;;\n"
                                    "    *) printf '= \\n\\n' ;;\n"
                                    "  esac\n"
                                    "done\n"));
  qipu::v1::JobConfig config = Config(7, 21);
  config.set_black_policy(absl::StrCat("gtp:", script));
  config.set_white_policy("random");
  const uint64_t job = SubmitJob(*c, 4, config);

  WorkerOptions o;
  o.coordinator = c->address();
  o.spool_dir = tmp.Sub("spool");
  o.name = "fe";
  o.threads = 1;  // One engine, its games in order.
  o.exit_when_idle = absl::Milliseconds(400);
  o.rpc_timeout = absl::Seconds(10);
  o.max_idle_poll = absl::Milliseconds(50);
  {
    Worker w(o);
    ASSERT_TRUE(w.Start().ok());
    ASSERT_TRUE(w.Wait().ok());
  }
  EXPECT_TRUE(gtp::ChildProcesses().empty());
  const qipu::v1::JobStatus st = JobStatusOf(*c, job);
  EXPECT_EQ(st.rejected(), 0u);
  EXPECT_EQ(st.done(), 4u);

  std::multiset<std::string> outcomes;
  for (uint64_t i = 0; i < 4; ++i) {
    qipu::v1::GetGameRequest req;
    req.set_id(absl::StrCat("s", job, "-", i));
    auto got = c->queries().GetGame(req);
    ASSERT_TRUE(got.ok()) << got.status();
    const qipu::v1::Result& r = got->game().result();
    const std::string& detail = r.detail();
    if (detail.find("killed by signal 9") != std::string::npos) {
      EXPECT_EQ(r.winner(), qipu::v1::WINNER_NONE) << detail;
      EXPECT_NE(detail.find("black policy gtp:"), std::string::npos) << detail;
      outcomes.insert("crash");
    } else if (r.reason() == qipu::v1::END_REASON_ILLEGAL) {
      EXPECT_EQ(r.winner(), qipu::v1::WINNER_WHITE);
      EXPECT_NE(detail.find("black played A1"), std::string::npos) << detail;
      EXPECT_NE(got->sgf().find("RE[W+"), std::string::npos) << got->sgf();
      outcomes.insert("illegal");
    } else if (r.reason() == qipu::v1::END_REASON_RESIGN) {
      EXPECT_EQ(r.winner(), qipu::v1::WINNER_WHITE);
      EXPECT_NE(got->sgf().find("RE[W+R]"), std::string::npos) << got->sgf();
      outcomes.insert("resign");
    } else {
      EXPECT_EQ(r.reason(), qipu::v1::END_REASON_SCORE) << detail;
      // A game with a gtp: engine settles its dead stones as the arena
      // does (the engine's final_status_list, qipu's judgement for the
      // policy, art. 21.4 when they differ) and says how it was counted;
      // the coordinator checked the count (nothing rejected).
      EXPECT_NE(r.counting(), qipu::v1::COUNTING_UNSPECIFIED) << detail;
      EXPECT_NE(r.counting(), qipu::v1::COUNTING_AS_PLAYED) << detail;
      outcomes.insert("played");
    }
  }
  EXPECT_EQ(outcomes, (std::multiset<std::string>{"crash", "illegal", "played",
                                                  "resign"}));
  // The crashed engine was replaced: more than one process ran.
  std::ifstream pids(pids_file);
  std::set<std::string> distinct;
  for (std::string line; std::getline(pids, line);) distinct.insert(line);
  EXPECT_GE(distinct.size(), 2u);
}

}  // namespace
}  // namespace qipu::worker
