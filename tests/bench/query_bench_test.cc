// RunQueryBench() (bench/query_bench.h): a 300-game 9x9 database built and
// compacted, then queried by two client threads; the same database again
// through a coordinator started on it (`db`) and through a running one
// (`server`). The queries succeed, the rate is the count over the
// measuring time, the percentiles are ordered, the sampled positions lie
// within `plies`; bad combinations are refused; the renderings carry the
// fields and lines `qipu bench query` prints.
#include "bench/query_bench.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "coordinator/coordinator.h"
#include "gtest/gtest.h"
#include "tests/bench/bench_test_util.h"
#include "tests/common/temp_dir.h"

namespace qipu::bench {
namespace {

using ::qipu::test_util::Keys;
using ::qipu::test_util::Lines;

// A short measurement of 50 positions from plies 0..4.
QueryBenchOptions ShortRun() {
  QueryBenchOptions o;
  o.size = 9;
  o.seconds = 0.5;
  o.threads = 2;
  o.inflight = 2;
  o.plies = 4;
  o.samples = 50;
  o.seed = 5;
  return o;
}

void ExpectConsistent(const QueryBenchResult& r) {
  EXPECT_EQ(r.size, 9);
  EXPECT_EQ(r.threads, 2);
  EXPECT_EQ(r.inflight, 2);
  EXPECT_EQ(r.errors, 0u) << r.first_error;
  EXPECT_GT(r.queries, 0u);
  EXPECT_GE(r.seconds, 0.5);
  EXPECT_DOUBLE_EQ(r.qps, r.queries / r.seconds);
  EXPECT_GT(r.p50_ms, 0);
  EXPECT_LE(r.p50_ms, r.p90_ms);
  EXPECT_LE(r.p90_ms, r.p99_ms);
  EXPECT_LE(r.p99_ms, r.max_ms);
  EXPECT_EQ(r.positions, 50u);
  EXPECT_GE(r.mean_plies, 0);
  EXPECT_LE(r.mean_plies, 4);
}

TEST(QueryBench, BuildsCompactsAndMeasuresThenReusesTheDatabase) {
  test_util::TempDir tmp("query-bench");
  QueryBenchOptions o = ShortRun();
  o.db = tmp.Sub("db");
  o.games = 300;
  o.depth = 10;
  o.build_threads = 2;
  o.compact = true;
  auto built = RunQueryBench(o);
  ASSERT_TRUE(built.ok()) << built.status();
  ExpectConsistent(*built);
  ASSERT_TRUE(built->build.has_value());
  EXPECT_EQ(built->build->games, 300u);
  EXPECT_EQ(built->build->index_depth, 10);
  EXPECT_GT(built->build->seconds, 0);
  EXPECT_GT(built->build->sst_bytes, 0u);
  ASSERT_TRUE(built->compact_seconds.has_value());
  EXPECT_GE(*built->compact_seconds, 0);
  EXPECT_TRUE(absl::StartsWith(built->address, "127.0.0.1:")) << built->address;

  // The database as it is: no build, no compaction.
  o.games = 0;
  o.compact = false;
  auto again = RunQueryBench(o);
  ASSERT_TRUE(again.ok()) << again.status();
  ExpectConsistent(*again);
  EXPECT_FALSE(again->build.has_value());
  EXPECT_FALSE(again->compact_seconds.has_value());

  // Through a running coordinator.
  coordinator::CoordinatorOptions co;
  co.db_dir = o.db;
  co.listen = "127.0.0.1:0";
  auto c = coordinator::Coordinator::Start(co);
  ASSERT_TRUE(c.ok()) << c.status();
  QueryBenchOptions remote = ShortRun();
  remote.server = (*c)->address();
  auto served = RunQueryBench(remote);
  ASSERT_TRUE(served.ok()) << served.status();
  ExpectConsistent(*served);
  EXPECT_EQ(served->address, (*c)->address());
  EXPECT_FALSE(served->build.has_value());
}

TEST(QueryBench, RefusesBadCombinationsAndAnEmptyDatabase) {
  QueryBenchOptions none = ShortRun();
  EXPECT_EQ(RunQueryBench(none).status().code(),
            absl::StatusCode::kInvalidArgument);
  QueryBenchOptions both = ShortRun();
  both.server = "127.0.0.1:1";
  both.games = 10;
  EXPECT_EQ(RunQueryBench(both).status().code(),
            absl::StatusCode::kInvalidArgument);

  test_util::TempDir tmp("query-bench-refused");
  QueryBenchOptions empty = ShortRun();
  empty.db = tmp.Sub("db");
  auto r = RunQueryBench(empty);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition)
      << r.status();
  EXPECT_TRUE(absl::StrContains(r.status().message(), "no stored 9x9 games"))
      << r.status();
  // That run left a database behind: --games wants a fresh one.
  QueryBenchOptions fresh = ShortRun();
  fresh.db = empty.db;
  fresh.games = 10;
  auto refused = RunQueryBench(fresh);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(refused.status().message(), "not empty"))
      << refused.status();
}

TEST(QueryBench, RenderingsHaveTheDocumentedFieldsAndLines) {
  QueryBenchResult r;
  r.address = "127.0.0.1:5000";
  r.size = 9;
  r.threads = 2;
  r.inflight = 4;
  r.positions = 50;
  r.mean_plies = 2.5;
  r.queries = 1000;
  r.seconds = 0.5;
  r.qps = 2000;
  r.p50_ms = 0.25;
  r.p90_ms = 0.5;
  r.p99_ms = 1;
  r.max_ms = 2;
  const std::vector<std::string> fields = {
      "errors",  "inflight", "max_ms",    "mean_plies", "p50_ms",
      "p90_ms",  "p99_ms",   "positions", "qps",        "queries",
      "seconds", "size",     "threads"};
  EXPECT_EQ(Keys(QueryBenchJson(r)), fields);
  const std::vector<std::string> measured = {
      "openings queries over gRPC at 127.0.0.1:5000: 2 thread(s) x 4 in "
      "flight, 0.5 s, 50 positions (mean 2.5 plies)",
      "  queries/s        2000",
      "  p50             0.250 ms",
      "  p90             0.500 ms",
      "  p99             1.000 ms",
      "  max             2.000 ms",
      "  errors              0"};
  EXPECT_EQ(Lines(QueryBenchText(r)), measured);

  // With a build and a compaction.
  r.build = QueryBuildReport{300, 0.5, 1234567, 10};
  r.compact_seconds = 0.3;
  const nlohmann::json j = QueryBenchJson(r);
  std::vector<std::string> more = fields;
  more.insert(more.begin(), "build");
  more.insert(more.begin() + 1, "compact_seconds");
  EXPECT_EQ(Keys(j), more);
  EXPECT_EQ(Keys(j["build"]),
            (std::vector<std::string>{"games", "games_per_sec", "index_depth",
                                      "seconds", "sst_bytes"}));
  EXPECT_EQ(j["build"]["games_per_sec"], 600.0);
  std::vector<std::string> lines = {
      "position index compacted in 0.3 s",
      "built 300 9x9 games (index depth 10) in 0.5 s (600 games/s), 1.2 MB "
      "of SST files"};
  lines.insert(lines.end(), measured.begin(), measured.end());
  EXPECT_EQ(Lines(QueryBenchText(r)), lines);
}

}  // namespace
}  // namespace qipu::bench
