// Query filters include and exclude configuration buckets correctly: every
// query's game count under a filter equals the count of stored games with
// those properties, read from the games themselves.
#include <functional>
#include <string>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "engine/filter.h"
#include "engine/prepare.h"
#include "engine/queries.h"
#include "gtest/gtest.h"
#include "proto/convert.h"
#include "tests/coordinator/query_fixture.h"

namespace qipu::coordinator {
namespace {

using testing::Counts;
using testing::Import;
using testing::JobConfigFor;
using testing::PlayJob;
using testing::RecordOf;
using testing::StartCoordinator;
using testing::StoredGame;
using testing::StoredGames;
using testing::TempDir;

// The day a stored game is filed under, read from the game.
uint32_t DayOfGame(const qipu::v1::Game& g) {
  if (g.provenance().job() != 0) {
    return engine::DayOf(
        absl::FromUnixMicros(g.provenance().stored_unix_micros()));
  }
  return g.meta().date_ymd();
}

bool IsChinese(const qipu::v1::Game& g) {
  auto r = wire::RulesFromProto(g.rules());
  auto c = rules::PresetRules("chinese");
  return r.ok() && r->ko == c->ko && r->cycle == c->cycle &&
         r->multi_stone_suicide == c->multi_stone_suicide &&
         r->dame == c->dame &&
         r->handicap_compensation == c->handicap_compensation;
}

TEST(QueryFilters, IncludeAndExcludeBuckets) {
  TempDir dir;
  auto c = StartCoordinator(dir.path());
  ASSERT_NE(c, nullptr);
  const uint64_t a = PlayJob(*c, JobConfigFor(9, "chinese", 4, 1), 40);
  const uint64_t b = PlayJob(*c, JobConfigFor(9, "tromp-taylor", 4, 2), 40);
  PlayJob(*c, JobConfigFor(7, "chinese", 4, 3, 5.5), 30);
  qipu::v1::JobConfig handicap = JobConfigFor(9, "chinese", 4, 4);
  handicap.set_handicap(2);
  const uint64_t d = PlayJob(*c, handicap, 20);
  Import(*c, RecordOf(9, "E5 C3 G7", "B+R", "2018-05-03"), "pro");
  Import(*c, RecordOf(9, "E5 C7 G3", "W+R", "2018-05-03"), "pro");
  Import(*c, RecordOf(9, "E5 G3", "B+2.5", "2018-05-03,04"), "pro");
  Import(*c, RecordOf(9, "C3 E5", "W+R", "2019-01-02"), "pro");
  Import(*c, RecordOf(9, "D4 E5", "Draw", "2019-01-02"), "pro");
  Import(*c, RecordOf(9, "E5", "B+R"));
  Import(*c, RecordOf(9, "G7", "?"));
  const std::vector<StoredGame> games = StoredGames(c->store());
  ASSERT_EQ(games.size(), 137u);
  const uint32_t today = engine::DayOf(absl::Now());

  struct Case {
    std::string name;
    std::function<void(qipu::v1::Filter*)> set;
    std::function<bool(const qipu::v1::Game&)> want;
  };
  using G = const qipu::v1::Game&;
  using F = qipu::v1::Filter*;
  const std::vector<Case> cases = {
      {"all", [](F) {}, [](G) { return true; }},
      {"9x9", [](F f) { f->set_width(9), f->set_height(9); },
       [](G g) { return g.width() == 9; }},
      {"7x7", [](F f) { f->set_width(7), f->set_height(7); },
       [](G g) { return g.width() == 7; }},
      {"chinese", [](F f) { f->set_rules("chinese"); }, IsChinese},
      {"tromp-taylor", [](F f) { f->set_rules("tromp-taylor"); },
       [&](G g) { return g.provenance().job() == b; }},
      {"ko=positional", [](F f) { f->set_rules("ko=positional"); },
       [&](G g) { return g.provenance().job() == b; }},
      {"suicide=1 dame=none", [](F f) { f->set_rules("suicide=1 dame=none"); },
       [&](G g) { return g.provenance().job() == b; }},
      {"ko=simple,cycle=no-result",
       [](F f) { f->set_rules("ko=simple,cycle=no-result"); }, IsChinese},
      {"komi 5.5", [](F f) { f->set_has_komi(true), f->set_komi(5.5); },
       [](G g) { return g.rules().komi() == 5.5; }},
      {"komi 7.5", [](F f) { f->set_has_komi(true), f->set_komi(7.5); },
       [](G g) { return g.rules().komi() == 7.5; }},
      {"handicap 2", [](F f) { f->set_has_handicap(true), f->set_handicap(2); },
       [&](G g) { return g.provenance().job() == d; }},
      {"handicap 0", [](F f) { f->set_has_handicap(true), f->set_handicap(0); },
       [&](G g) { return g.provenance().job() != d; }},
      {"source job:a", [&](F f) { f->set_source(absl::StrCat("job:", a)); },
       [&](G g) { return g.provenance().job() == a; }},
      {"source pro", [](F f) { f->set_source("pro"); },
       [](G g) { return g.provenance().source() == "pro"; }},
      {"source import", [](F f) { f->set_source("import"); },
       [](G g) { return g.provenance().source() == "import"; }},
      {"policy random", [](F f) { f->set_policy("random"); },
       [](G g) { return g.provenance().job() != 0; }},
      {"policy import", [](F f) { f->set_policy("import"); },
       [](G g) { return g.provenance().job() == 0; }},
      {"from today", [&](F f) { f->set_date_from(today); },
       [&](G g) { return DayOfGame(g) >= today; }},
      {"to 2018", [](F f) { f->set_date_to(20181231); },
       [](G g) { return DayOfGame(g) != 0 && DayOfGame(g) <= 20181231; }},
      {"2018-05-03",
       [](F f) { f->set_date_from(20180503), f->set_date_to(20180503); },
       [](G g) { return DayOfGame(g) == 20180503; }},
      {"January 2019",
       [](F f) { f->set_date_from(20190101), f->set_date_to(20190131); },
       [](G g) { return DayOfGame(g) / 100 == 201901; }},
      {"9x9 chinese random even",
       [](F f) {
         f->set_width(9), f->set_height(9), f->set_rules("chinese");
         f->set_policy("random"), f->set_has_handicap(true), f->set_handicap(0);
       },
       [&](G g) { return g.provenance().job() == a; }},
      {"nothing", [](F f) { f->set_source("job:999"); },
       [](G) { return false; }},
  };
  engine::QueryEngine& q = c->queries();
  for (const Case& k : cases) {
    SCOPED_TRACE(k.name);
    qipu::v1::Filter filter;
    k.set(&filter);
    Counts want;
    Counts want_openings;
    const uint32_t size = filter.width() != 0 ? filter.width() : 19;
    const uint32_t hcp = filter.has_handicap() ? filter.handicap() : 0;
    for (const StoredGame& g : games) {
      if (!k.want(g.game)) continue;
      want.Add(g.game.result().winner());
      if (g.game.width() == size && g.game.handicap() == hcp) {
        want_openings.Add(g.game.result().winner());
      }
    }
    qipu::v1::ResultsRequest results;
    *results.mutable_filter() = filter;
    auto r = q.Results(results);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(Counts::Of(r->outcomes()), want);
    qipu::v1::KoRequest ko;
    *ko.mutable_filter() = filter;
    auto k2 = q.Ko(ko);
    ASSERT_TRUE(k2.ok()) << k2.status();
    EXPECT_EQ(k2->all().games(), want.games);
    qipu::v1::CyclesRequest cycles;
    *cycles.mutable_filter() = filter;
    auto cy = q.Cycles(cycles);
    ASSERT_TRUE(cy.ok()) << cy.status();
    EXPECT_EQ(cy->games(), want.games);
    qipu::v1::OpeningsRequest openings;
    *openings.mutable_filter() = filter;
    auto o = q.Openings(openings);
    ASSERT_TRUE(o.ok()) << o.status();
    EXPECT_EQ(Counts::Of(o->reached()), want_openings);
    if (k.name != "nothing") {
      EXPECT_GT(want.games, 0u);
    }
  }
}

// Filter.records against the configuration's record dimension (imported
// records kept against their rules: engine/prepare.h): all (or empty),
// clean, noted (cut ones too), cut; anything else refused, naming it.
TEST(QueryFilters, RecordsSelectHowImportedRecordsWereKept) {
  qipu::v1::ConfigRecord clean, noted, cut;
  noted.set_record("noted");
  cut.set_record("cut");
  auto matches = [&](const std::string& records) {
    qipu::v1::Filter f;
    f.set_records(records);
    auto filter = engine::Filter::Compile(f);
    EXPECT_TRUE(filter.ok()) << filter.status();
    std::string out;
    for (const auto* c : {&clean, &noted, &cut}) {
      out += filter.ok() && filter->MatchesConfig(*c) ? "1" : "0";
    }
    return out;
  };
  EXPECT_EQ(matches(""), "111");
  EXPECT_EQ(matches("all"), "111");
  EXPECT_EQ(matches("clean"), "100");
  EXPECT_EQ(matches("Noted"), "011");
  EXPECT_EQ(matches("cut"), "001");
  qipu::v1::Filter bad;
  bad.set_records("some");
  auto refused = engine::Filter::Compile(bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(refused.status().message(),
            "filter.records: 'some' is not all, clean, noted or cut");
}

}  // namespace
}  // namespace qipu::coordinator
