// Ko, Cycles and Results answers equal what the test recomputes from the
// exported games themselves (engine/exporter.h reads the games
// column family, independently of the aggregates): 5,000 9x9 self-play games
// under chinese and 5,000 under tromp-taylor.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "engine/prepare.h"
#include "engine/queries.h"
#include "gtest/gtest.h"
#include "proto/convert.h"
#include "rules/rules.h"
#include "store/aggregate.h"
#include "tests/coordinator/query_fixture.h"

namespace qipu::coordinator {
namespace {

using testing::Counts;
using testing::ExportedGames;
using testing::JobConfigFor;
using testing::PlayJob;
using testing::StartCoordinator;
using testing::StoredGame;
using testing::TempDir;

// Ko-capture statistics of a group, from the per-game counts.
void ExpectGroup(const qipu::v1::KoGroup& got, const std::string& label,
                 std::vector<uint64_t> ko) {
  SCOPED_TRACE(label);
  EXPECT_EQ(got.label(), label);
  for (uint64_t& k : ko) k = std::min<uint64_t>(k, store::kMaxKoCaptures);
  std::sort(ko.begin(), ko.end());
  uint64_t sum = 0;
  uint64_t with = 0;
  for (uint64_t k : ko) {
    sum += k;
    with += k > 0;
  }
  const size_t n = ko.size();
  EXPECT_EQ(got.games(), n);
  EXPECT_EQ(got.games_with_ko(), with);
  EXPECT_EQ(got.ko_captures(), sum);
  EXPECT_DOUBLE_EQ(got.mean(), n ? static_cast<double>(sum) / n : 0);
  auto rank = [&](double q) {
    return static_cast<double>(
        ko[std::max<size_t>(1, static_cast<size_t>(std::ceil(q * n))) - 1]);
  };
  ASSERT_GT(n, 0u);
  EXPECT_EQ(got.p50(), rank(0.5));
  EXPECT_EQ(got.p90(), rank(0.9));
  EXPECT_EQ(got.p99(), rank(0.99));
  EXPECT_EQ(got.max(), ko.back());
}

std::vector<uint64_t> Histogram(const std::vector<uint64_t>& values,
                                uint64_t cap) {
  std::vector<uint64_t> h;
  for (uint64_t v : values) {
    v = std::min(v, cap);
    if (h.size() <= v) h.resize(v + 1, 0);
    ++h[v];
  }
  return h;
}

std::vector<uint64_t> Counted(const qipu::v1::Histogram& h) {
  return std::vector<uint64_t>(h.counts().begin(), h.counts().end());
}

TEST(QueryStats, KoCyclesAndResultsMatchTheStoredGames) {
  TempDir dir;
  auto c = StartCoordinator(dir.path());
  ASSERT_NE(c, nullptr);
  constexpr uint64_t kGames = 5000;
  PlayJob(*c, JobConfigFor(9, "chinese", 2, 101), kGames);
  PlayJob(*c, JobConfigFor(9, "tromp-taylor", 2, 202), kGames);
  // The test's independent view: every game, as exported.
  const std::vector<StoredGame> games = ExportedGames(c->store());
  ASSERT_EQ(games.size(), 2 * kGames);

  std::vector<uint64_t> ko_all;
  std::map<std::string, std::vector<uint64_t>> ko_rules;
  std::map<uint32_t, std::vector<uint64_t>> ko_length;
  Counts outcomes;
  std::map<std::string, uint64_t> by_reason;
  std::vector<uint64_t> black_margin, white_margin, length;
  uint64_t total_moves = 0;
  struct Cell {
    uint64_t cycles = 0;
    Counts results;
    std::vector<std::string> ids;
    // Games per (job, day) bucket.
    std::map<std::pair<uint64_t, uint32_t>, uint64_t> per_bucket;
  };
  std::map<std::pair<int, int>, Cell> cells;
  Counts with_cycle;
  for (const StoredGame& g : games) {
    const qipu::v1::Game& game = g.game;
    const qipu::v1::Winner w = game.result().winner();
    ko_all.push_back(game.ko_captures());
    ko_rules[rules::PresetName(*wire::RulesFromProto(game.rules()))].push_back(
        game.ko_captures());
    ko_length[game.num_moves() / store::kKoLengthBucketMoves].push_back(
        game.ko_captures());
    outcomes.Add(w);
    const rules::GameResult result = *wire::ResultFromProto(game.result());
    ++by_reason[rules::EndReasonName(result.reason)];
    if (result.reason == rules::EndReason::kScore &&
        (result.winner == rules::Winner::kBlack ||
         result.winner == rules::Winner::kWhite)) {
      (result.winner == rules::Winner::kBlack ? black_margin : white_margin)
          .push_back(static_cast<uint64_t>(std::floor(result.margin)));
    }
    length.push_back(game.num_moves() / store::kLengthBucketMoves);
    total_moves += game.num_moves();
    std::map<std::pair<int, int>, bool> seen;
    for (const auto* list : {&game.cycles(), &game.voided_cycles()}) {
      for (const qipu::v1::Cycle& cy : *list) {
        Cell& cell = cells[{cy.cls(), cy.outcome()}];
        ++cell.cycles;
        if (!seen[{cy.cls(), cy.outcome()}]) {
          seen[{cy.cls(), cy.outcome()}] = true;
          cell.results.Add(w);
          cell.ids.push_back(store::GameIdText(g.id));
          ++cell.per_bucket[{game.provenance().job(),
                             engine::DayOf(absl::FromUnixMicros(
                                 game.provenance().stored_unix_micros()))}];
        }
      }
    }
    if (!seen.empty()) with_cycle.Add(w);
  }

  engine::QueryEngine& q = c->queries();
  // Ko.
  auto ko = q.Ko(qipu::v1::KoRequest());
  ASSERT_TRUE(ko.ok()) << ko.status();
  ExpectGroup(ko->all(), "all", ko_all);
  EXPECT_EQ(Counted(ko->histogram()), Histogram(ko_all, store::kMaxKoCaptures));
  ASSERT_EQ(ko->by_size_size(), 1);
  ExpectGroup(ko->by_size(0), "size=9x9", ko_all);
  ASSERT_EQ(ko->by_rules_size(), 2);
  ExpectGroup(ko->by_rules(0), "rules=chinese", ko_rules["chinese"]);
  ExpectGroup(ko->by_rules(1), "rules=tromp-taylor", ko_rules["tromp-taylor"]);
  ASSERT_EQ(static_cast<size_t>(ko->by_length_size()), ko_length.size());
  int i = 0;
  for (const auto& [bucket, values] : ko_length) {
    const uint32_t lo = bucket * store::kKoLengthBucketMoves;
    ExpectGroup(
        ko->by_length(i++),
        absl::StrCat("length=", lo, "-", lo + store::kKoLengthBucketMoves - 1),
        values);
  }
  EXPECT_GT(ko->all().games_with_ko(), 0u);

  // Cycles, over all games and per rule set.
  qipu::v1::CyclesRequest creq;
  creq.set_examples(10);
  auto cycles = q.Cycles(creq);
  ASSERT_TRUE(cycles.ok()) << cycles.status();
  EXPECT_EQ(cycles->games(), games.size());
  EXPECT_EQ(Counts::Of(cycles->results_with_cycle()), with_cycle);
  ASSERT_EQ(static_cast<size_t>(cycles->rows_size()), cells.size());
  i = 0;
  for (const auto& [key, cell] : cells) {
    const qipu::v1::CycleRow& row = cycles->rows(i++);
    SCOPED_TRACE(absl::StrCat(row.cls(), "/", row.outcome()));
    EXPECT_EQ(row.cls(), key.first);
    EXPECT_EQ(row.outcome(), key.second);
    EXPECT_EQ(row.cycles(), cell.cycles);
    EXPECT_EQ(row.games(), cell.results.games);
    EXPECT_DOUBLE_EQ(row.per_10k(), 1e4 * cell.results.games / games.size());
    EXPECT_EQ(Counts::Of(row.results()), cell.results);
    // Each bucket keeps up to store::kMaxExamples.
    uint64_t examples = 0;
    for (const auto& [bucket, n] : cell.per_bucket) {
      examples += std::min<uint64_t>(n, store::kMaxExamples);
    }
    EXPECT_EQ(static_cast<uint64_t>(row.example_game_ids_size()),
              std::min<uint64_t>(examples, 10));
    for (const std::string& id : row.example_game_ids()) {
      EXPECT_NE(std::find(cell.ids.begin(), cell.ids.end(), id), cell.ids.end())
          << id << " has no such cycle";
    }
  }
  EXPECT_GT(cycles->rows_size(), 0);
  qipu::v1::CyclesRequest tt;
  tt.mutable_filter()->set_rules("tromp-taylor");
  auto tt_cycles = q.Cycles(tt);
  ASSERT_TRUE(tt_cycles.ok()) << tt_cycles.status();
  EXPECT_EQ(tt_cycles->games(), kGames);
  for (const auto& row : tt_cycles->rows()) {
    // Positional superko: a cycle can only be prevented, never completed.
    EXPECT_EQ(row.outcome(), qipu::v1::CYCLE_OUTCOME_PREVENTED_SUPERKO);
  }

  // Results.
  auto res = q.Results(qipu::v1::ResultsRequest());
  ASSERT_TRUE(res.ok()) << res.status();
  EXPECT_EQ(Counts::Of(res->outcomes()), outcomes);
  const std::map<std::string, uint64_t> reasons(res->by_reason().begin(),
                                                res->by_reason().end());
  EXPECT_EQ(reasons, by_reason);
  EXPECT_EQ(Counted(res->black_margin()),
            Histogram(black_margin, store::kMaxMarginPoints));
  EXPECT_EQ(Counted(res->white_margin()),
            Histogram(white_margin, store::kMaxMarginPoints));
  EXPECT_EQ(Counted(res->length()),
            Histogram(length, store::kMaxLengthBuckets - 1));
  EXPECT_EQ(res->length().bucket(), store::kLengthBucketMoves);
  EXPECT_DOUBLE_EQ(res->mean_length(),
                   static_cast<double>(total_moves) / games.size());
}

// Under pure simple ko (`--cycle none`) a repetition is legal and the game
// plays on: the cycles self-play games complete are claimed by the game,
// re-validated by the replay, stored, and reported as continued.
TEST(QueryStats, CyclesUnderPureSimpleKoAreStoredAsContinued) {
  TempDir dir;
  auto c = StartCoordinator(dir.path());
  ASSERT_NE(c, nullptr);
  constexpr uint64_t kGames = 5000;
  qipu::v1::JobConfig config = JobConfigFor(9, "chinese", 2, 303);
  config.mutable_rules()->set_cycle(qipu::v1::CYCLE_RULE_NONE);
  PlayJob(*c, config, kGames);
  const std::vector<StoredGame> games = ExportedGames(c->store());
  ASSERT_EQ(games.size(), kGames);

  // Per class: cycles, and games with at least one.
  std::map<int, std::pair<uint64_t, uint64_t>> by_class;
  Counts with_cycle;
  for (const StoredGame& g : games) {
    const rules::GameResult result = *wire::ResultFromProto(g.game.result());
    // No cycle ends a game under these rules.
    EXPECT_NE(result.reason, rules::EndReason::kCycle);
    std::map<int, bool> seen;
    for (const qipu::v1::Cycle& cy : g.game.cycles()) {
      EXPECT_EQ(cy.outcome(), qipu::v1::CYCLE_OUTCOME_CONTINUED);
      // The cycle lies inside the game, which went on after it or ran
      // into the move cap.
      EXPECT_LE(cy.first_move() + cy.period() - 1, g.game.num_moves());
      ++by_class[cy.cls()].first;
      if (!seen[cy.cls()]) ++by_class[cy.cls()].second;
      seen[cy.cls()] = true;
    }
    EXPECT_LE(g.game.cycles_size(), rules::kMaxContinuedCycles);
    if (!seen.empty()) with_cycle.Add(g.game.result().winner());
  }
  // About 0.15% of 9x9 light-policy games send two and return one.
  ASSERT_GT(by_class[qipu::v1::CYCLE_CLASS_SENDING_TWO_RETURNING_ONE].first,
            0u);

  auto cycles = c->queries().Cycles(qipu::v1::CyclesRequest());
  ASSERT_TRUE(cycles.ok()) << cycles.status();
  EXPECT_EQ(cycles->games(), kGames);
  EXPECT_EQ(Counts::Of(cycles->results_with_cycle()), with_cycle);
  ASSERT_EQ(static_cast<size_t>(cycles->rows_size()), by_class.size());
  int i = 0;
  for (const auto& [cls, counts] : by_class) {
    const qipu::v1::CycleRow& row = cycles->rows(i++);
    EXPECT_EQ(row.cls(), cls);
    EXPECT_EQ(row.outcome(), qipu::v1::CYCLE_OUTCOME_CONTINUED);
    EXPECT_EQ(row.cycles(), counts.first);
    EXPECT_EQ(row.games(), counts.second);
    EXPECT_GT(row.example_game_ids_size(), 0);
  }
}

}  // namespace
}  // namespace qipu::coordinator
