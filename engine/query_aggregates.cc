// QueryEngine: the queries answered from the aggregates column family --
// Ko, Cycles and Results. Each merges the AggregateStats of the
// (configuration, day) buckets its filter matches; none reads a game.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/queries.h"
#include "rules/result.h"
#include "rules/rules.h"
#include "rules/rules_key.h"
#include "store/aggregate.h"
#include "store/game_id.h"
#include "store/keys.h"

namespace qipu::engine {
namespace {

using RepeatedU64 = google::protobuf::RepeatedField<uint64_t>;

void AddHistogram(const RepeatedU64& from, RepeatedU64* to) {
  while (to->size() < from.size()) to->Add(0);
  for (int i = 0; i < from.size(); ++i) to->Set(i, to->Get(i) + from.Get(i));
}

void CopyOutcomes(const qipu::v1::OutcomeCounts& from, qipu::v1::Outcomes* to) {
  to->set_games(from.games());
  to->set_black_wins(from.black_wins());
  to->set_white_wins(from.white_wins());
  to->set_draws(from.draws());
  to->set_void_(from.void_());
}

// The rules label of a configuration: the preset its rules key matches
// when komi and the move cap are ignored (as a preset filter ignores
// them), else the key without those two axes (a key that does not read:
// as stored).
std::string RulesLabel(const qipu::v1::ConfigRecord& c) {
  auto key = rules::RulesKey::Parse(c.rules_key());
  if (!key.ok()) return c.rules_key();
  const rules::RulesKey mine = key->WithoutKomiAndCap();
  for (absl::string_view name : rules::PresetNames()) {
    auto r = rules::PresetRules(name);
    if (r.ok() && rules::RulesKey(*r).WithoutKomiAndCap() == mine) {
      return std::string(name);
    }
  }
  return mine.Text();
}

// Ko-capture counts of a group of games: its per-game histogram and sums.
struct KoTally {
  RepeatedU64 histogram;
  uint64_t games = 0;
  uint64_t games_with_ko = 0;
  uint64_t ko_captures = 0;

  void AddStats(const qipu::v1::AggregateStats& a) {
    AddHistogram(a.ko_histogram(), &histogram);
    games += a.outcomes().games();
    games_with_ko += a.games_with_ko();
    ko_captures += a.ko_captures();
  }
  // For groups known only by their histogram (game-length buckets): the
  // sums are taken from it (games past store::kMaxKoCaptures count as that
  // many).
  void AddHistogramOnly(const RepeatedU64& h) {
    AddHistogram(h, &histogram);
    for (int i = 0; i < h.size(); ++i) {
      games += h.Get(i);
      if (i > 0) games_with_ko += h.Get(i);
      ko_captures += static_cast<uint64_t>(i) * h.Get(i);
    }
  }
};

// Nearest-rank percentile q (0..1] of a histogram of `total` entries.
double Percentile(const RepeatedU64& h, uint64_t total, double q) {
  if (total == 0) return 0;
  const uint64_t rank =
      std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(q * total)));
  uint64_t cum = 0;
  for (int i = 0; i < h.size(); ++i) {
    cum += h.Get(i);
    if (cum >= rank) return i;
  }
  return h.size() - 1;
}

qipu::v1::KoGroup ToGroup(const std::string& label, const KoTally& t) {
  qipu::v1::KoGroup g;
  g.set_label(label);
  g.set_games(t.games);
  g.set_games_with_ko(t.games_with_ko);
  g.set_ko_captures(t.ko_captures);
  g.set_mean(t.games ? static_cast<double>(t.ko_captures) / t.games : 0);
  g.set_p50(Percentile(t.histogram, t.games, 0.50));
  g.set_p90(Percentile(t.histogram, t.games, 0.90));
  g.set_p99(Percentile(t.histogram, t.games, 0.99));
  for (int i = t.histogram.size() - 1; i >= 0; --i) {
    if (t.histogram.Get(i) != 0) {
      g.set_max(static_cast<uint64_t>(i));
      break;
    }
  }
  return g;
}

qipu::v1::Histogram ToHistogram(double bucket, const RepeatedU64& counts) {
  qipu::v1::Histogram h;
  h.set_bucket(bucket);
  int n = counts.size();
  while (n > 0 && counts.Get(n - 1) == 0) --n;
  for (int i = 0; i < n; ++i) h.add_counts(counts.Get(i));
  return h;
}

}  // namespace

absl::Status QueryEngine::ForEachAggregate(const Filter& filter,
                                           const AggregateVisitor& fn) const {
  if (filter.by_game()) return ForEachGameAggregate(filter, fn);
  store::Cursor it = store_->Scan(store::Records::kAggregates);
  it.SeekToFirst();
  while (it.Valid()) {
    uint32_t config_id = 0;
    uint32_t day = 0;
    if (!store::DecodeAggregateKey(it.key(), &config_id, &day)) {
      return absl::DataLossError("aggregates: malformed key");
    }
    const auto config = configs_->Get(config_id);
    if (!config.has_value() || !filter.MatchesConfig(*config)) {
      // Skip the configuration's remaining days.
      if (config_id == UINT32_MAX) break;
      it.Seek(store::AggregateKey(config_id + 1, 0));
      continue;
    }
    if (filter.MatchesDay(day)) {
      qipu::v1::AggregateStats stats;
      if (!stats.ParseFromArray(it.value().data(),
                                static_cast<int>(it.value().size()))) {
        return absl::DataLossError(absl::StrCat(
            "aggregates of config ", config_id, " day ", day, " are damaged"));
      }
      fn(*config, day, stats);
    }
    it.Next();
  }
  return it.status();
}

absl::StatusOr<qipu::v1::KoResponse> QueryEngine::Ko(
    const qipu::v1::KoRequest& req) const {
  auto filter = Filter::Compile(req.filter());
  if (!filter.ok()) return filter.status();
  KoTally all;
  std::map<std::pair<uint32_t, uint32_t>, KoTally> by_size;
  std::map<std::string, KoTally> by_rules;
  std::map<uint32_t, KoTally> by_length;
  absl::Status s =
      ForEachAggregate(*filter, [&](const qipu::v1::ConfigRecord& c, uint32_t,
                                    const qipu::v1::AggregateStats& a) {
        all.AddStats(a);
        by_size[{c.width(), c.height()}].AddStats(a);
        by_rules[RulesLabel(c)].AddStats(a);
        for (const qipu::v1::KoByLength& kl : a.ko_by_length()) {
          by_length[kl.bucket()].AddHistogramOnly(kl.ko_histogram());
        }
      });
  if (!s.ok()) return s;
  qipu::v1::KoResponse resp;
  *resp.mutable_all() = ToGroup("all", all);
  *resp.mutable_histogram() = ToHistogram(1, all.histogram);
  for (const auto& [size, t] : by_size) {
    *resp.add_by_size() =
        ToGroup(absl::StrCat("size=", size.first, "x", size.second), t);
  }
  for (const auto& [label, t] : by_rules) {
    *resp.add_by_rules() = ToGroup(absl::StrCat("rules=", label), t);
  }
  for (const auto& [bucket, t] : by_length) {
    const uint32_t lo = bucket * store::kKoLengthBucketMoves;
    *resp.add_by_length() = ToGroup(
        absl::StrCat("length=", lo, "-", lo + store::kKoLengthBucketMoves - 1),
        t);
  }
  return resp;
}

absl::StatusOr<qipu::v1::CyclesResponse> QueryEngine::Cycles(
    const qipu::v1::CyclesRequest& req) const {
  auto filter = Filter::Compile(req.filter());
  if (!filter.ok()) return filter.status();
  auto examples = ExamplesWanted(req.examples());
  if (!examples.ok()) return examples.status();
  uint64_t games = 0;
  qipu::v1::OutcomeCounts with_cycle;
  // (class, outcome) -> merged cell; examples collected up to the request's.
  std::map<std::pair<int, int>, qipu::v1::CycleCell> cells;
  absl::Status s =
      ForEachAggregate(*filter, [&](const qipu::v1::ConfigRecord&, uint32_t,
                                    const qipu::v1::AggregateStats& a) {
        games += a.outcomes().games();
        store::AddOutcomes(a.results_with_cycle(), &with_cycle);
        for (const qipu::v1::CycleCell& cell : a.cycles()) {
          qipu::v1::CycleCell& into = cells[{cell.cls(), cell.outcome()}];
          into.set_cls(cell.cls());
          into.set_outcome(cell.outcome());
          into.set_cycles(into.cycles() + cell.cycles());
          into.set_games(into.games() + cell.games());
          store::AddOutcomes(cell.results(), into.mutable_results());
          for (const std::string& e : cell.examples()) {
            if (into.examples_size() >= *examples) break;
            *into.add_examples() = e;
          }
        }
      });
  if (!s.ok()) return s;
  qipu::v1::CyclesResponse resp;
  resp.set_games(games);
  CopyOutcomes(with_cycle, resp.mutable_results_with_cycle());
  for (const auto& [key, cell] : cells) {
    if (cell.cycles() == 0) continue;
    qipu::v1::CycleRow* row = resp.add_rows();
    row->set_cls(cell.cls());
    row->set_outcome(cell.outcome());
    row->set_cycles(cell.cycles());
    row->set_games(cell.games());
    row->set_per_10k(games ? 1e4 * static_cast<double>(cell.games()) / games
                           : 0);
    for (const std::string& e : cell.examples()) {
      if (auto id = store::DecodeGameKey(e)) {
        row->add_example_game_ids(store::GameIdText(*id));
      }
    }
    CopyOutcomes(cell.results(), row->mutable_results());
  }
  return resp;
}

absl::StatusOr<qipu::v1::ResultsResponse> QueryEngine::Results(
    const qipu::v1::ResultsRequest& req) const {
  auto filter = Filter::Compile(req.filter());
  if (!filter.ok()) return filter.status();
  qipu::v1::AggregateStats sum;
  absl::Status s =
      ForEachAggregate(*filter, [&](const qipu::v1::ConfigRecord&, uint32_t,
                                    const qipu::v1::AggregateStats& a) {
        store::AddOutcomes(a.outcomes(), sum.mutable_outcomes());
        AddHistogram(a.by_reason(), sum.mutable_by_reason());
        AddHistogram(a.black_margin(), sum.mutable_black_margin());
        AddHistogram(a.white_margin(), sum.mutable_white_margin());
        AddHistogram(a.length(), sum.mutable_length());
        sum.set_total_moves(sum.total_moves() + a.total_moves());
      });
  if (!s.ok()) return s;
  qipu::v1::ResultsResponse resp;
  CopyOutcomes(sum.outcomes(), resp.mutable_outcomes());
  for (int i = 0; i < sum.by_reason_size(); ++i) {
    if (sum.by_reason(i) == 0) continue;
    (*resp.mutable_by_reason())[rules::EndReasonName(
        static_cast<rules::EndReason>(i))] += sum.by_reason(i);
  }
  *resp.mutable_black_margin() = ToHistogram(1, sum.black_margin());
  *resp.mutable_white_margin() = ToHistogram(1, sum.white_margin());
  *resp.mutable_length() = ToHistogram(store::kLengthBucketMoves, sum.length());
  const uint64_t games = sum.outcomes().games();
  resp.set_mean_length(games ? static_cast<double>(sum.total_moves()) / games
                             : 0);
  return resp;
}

}  // namespace qipu::engine
