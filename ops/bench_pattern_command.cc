// `qipu bench pattern`: latency of pattern queries (QueryEngine::Pattern,
// in process) on a database, and the pattern index's size per game.
// Patterns are cut from real positions of the database's games (a random
// game, a random position between moves 10 and 150), so every query has at
// least one match: corner patterns from the top-left corner, anywhere
// patterns from a random offset with at least two stones.
//
//   qipu bench pattern --db DIR [--games N] [--size 19] [--queries 20]
//       [--width 5] [--height 5] [--seed 1] [--json]
//
// --games N first adds N random self-play games of --size to DIR (created
// when missing), as `qipu local` does; otherwise the database is built
// beforehand (coordinator/README.md: the fox-pro corpus under its
// symmetries, then `qipu local`). Exit status: 0 done, 1 failure, 2 bad
// flags.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "base/console.h"
#include "engine/engine.h"
#include "local/local_run.h"
#include "nlohmann/json.hpp"
#include "ops/commands.h"
#include "proto/convert.h"
#include "rules/pattern.h"
#include "rules/rules.h"
#include "store/pattern_index.h"
#include "store/store.h"

namespace qipu::ops {
namespace {

constexpr char kBenchPatternCmd[] = "bench pattern";

struct PatternBenchFlags {
  std::string db;
  int size = 19;
  int queries = 20;
  int width = 5;
  int height = 5;
  uint64_t seed = 1;
  uint64_t games = 0;
  bool json = false;
};

// Plays f.games random self-play games of f.size into f.db (qipu local's
// coordinator and worker, in process).
absl::Status PatternBenchBuild(const PatternBenchFlags& f) {
  local::LocalOptions o;
  o.db = f.db;
  o.job.set_games(f.games);
  qipu::v1::JobConfig* c = o.job.mutable_config();
  c->set_width(static_cast<uint32_t>(f.size));
  c->set_height(static_cast<uint32_t>(f.size));
  auto chinese = rules::PresetRules("chinese");
  if (!chinese.ok()) return chinese.status();
  *c->mutable_rules() = wire::RulesToProto(*chinese);
  c->set_policy("random");
  c->set_index_depth(30);
  c->set_seed(f.seed);
  auto run = local::LocalRun::Start(o);
  if (!run.ok()) return run.status();
  for (;;) {
    auto p = (*run)->Poll();
    if (!p.ok()) return p.status();
    if (p->finished || p->cancelled) break;
    absl::SleepFor(absl::Milliseconds(100));
  }
  auto summary = (*run)->Finish();
  if (!summary.ok()) return summary.status();
  std::fprintf(stderr, "bench pattern: %llu games played in %.1f s\n",
               static_cast<unsigned long long>(f.games), summary->seconds);
  return absl::OkStatus();
}

// Latencies and answers of one kind of query.
struct PatternBenchSeries {
  std::vector<double> ms;
  uint64_t scanned = 0;
  uint64_t matched = 0;
};

double PatternBenchQuantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t i = std::min(v.size() - 1, static_cast<size_t>(q * v.size()));
  return v[i];
}

nlohmann::json PatternSeriesJson(const PatternBenchSeries& s) {
  const double n = s.ms.empty() ? 1 : static_cast<double>(s.ms.size());
  return {{"queries", s.ms.size()},
          {"p50_ms", PatternBenchQuantile(s.ms, 0.5)},
          {"p95_ms", PatternBenchQuantile(s.ms, 0.95)},
          {"max_ms", PatternBenchQuantile(s.ms, 1.0)},
          {"mean_candidates", s.scanned / n},
          {"mean_matched", s.matched / n}};
}

// A w x h pattern cut at (x0, y0) of the walk's board: X, O and '.'; the
// number of stones in *stones.
std::string CutPattern(const store::PositionWalk& walk, int x0, int y0, int w,
                       int h, int* stones) {
  std::string out;
  *stones = 0;
  for (int y = y0; y < y0 + h; ++y) {
    if (y > y0) out.push_back('/');
    for (int x = x0; x < x0 + w; ++x) {
      const uint32_t bit = uint32_t{1} << x;
      if (walk.black_rows()[y] & bit) {
        out.push_back('X');
        ++*stones;
      } else if (walk.white_rows()[y] & bit) {
        out.push_back('O');
        ++*stones;
      } else {
        out.push_back('.');
      }
    }
  }
  return out;
}

int RunPatternBench(const PatternBenchFlags& f) {
  if (f.games > 0) {
    if (absl::Status s = PatternBenchBuild(f); !s.ok()) {
      return base::Fail(kBenchPatternCmd, s,
                        absl::IsInvalidArgument(s) ? 2 : 1);
    }
  }
  auto db = engine::Engine::Open(f.db);
  if (!db.ok()) return base::Fail(kBenchPatternCmd, db.status());
  store::Store& st = (*db)->store();
  // The index's entries: their keys (games to cut patterns from) and bytes.
  std::vector<std::string> keys;
  uint64_t entry_bytes = 0;
  {
    store::PatternEntry entry;
    store::Cursor it = st.Scan(store::Records::kPatternEntries);
    for (it.SeekToFirst(); it.Valid(); it.Next()) {
      entry_bytes += it.key().size() + it.value().size();
      if (store::DecodePatternEntry(it.value(), &entry) &&
          entry.width == f.size && entry.height == f.size) {
        keys.emplace_back(it.key());
      }
    }
    if (!it.status().ok()) return base::Fail(kBenchPatternCmd, it.status());
  }
  if (keys.empty()) {
    return base::Fail(kBenchPatternCmd,
                      absl::StrCat("no ", f.size, "x", f.size,
                                   " games in the pattern index of ", f.db));
  }
  uint64_t sst_bytes = 0;
  for (const store::StoreSizes::Cf& cf : st.Sizes().column_families) {
    if (cf.name == store::kPatternsCf)
      sst_bytes = cf.sst_bytes + cf.memtable_bytes;
  }

  std::mt19937_64 rng(f.seed);
  store::PositionWalk walk;
  // A pattern from a random position of a random game; empty on failure.
  auto cut = [&](bool corner) -> std::string {
    for (int attempt = 0; attempt < 100; ++attempt) {
      const std::string& key = keys[rng() % keys.size()];
      auto bytes = st.Get(store::Records::kGames, key);
      if (!bytes.ok() || !bytes->has_value()) continue;
      qipu::v1::Game game;
      if (!game.ParseFromString(**bytes)) continue;
      auto record = wire::GameToRecord(game);
      if (!record.ok() || record->moves.size() < 12) continue;
      const int last =
          std::min<int>(150, static_cast<int>(record->moves.size()));
      const int ply = 10 + static_cast<int>(rng() % (last - 10));
      walk.Start(*record);
      while (walk.ply() < ply && !walk.AtEnd()) walk.Next();
      const int x0 =
          corner ? 0 : static_cast<int>(rng() % (f.size - f.width + 1));
      const int y0 =
          corner ? 0 : static_cast<int>(rng() % (f.size - f.height + 1));
      int stones = 0;
      std::string p = CutPattern(walk, x0, y0, f.width, f.height, &stones);
      if (stones >= (corner ? 1 : 2)) return p;
    }
    return "";
  };

  PatternBenchSeries series[2];
  for (int kind = 0; kind < 2; ++kind) {
    const bool corner = kind == 0;
    for (int q = 0; q < f.queries; ++q) {
      const std::string p = cut(corner);
      if (p.empty()) {
        return base::Fail(kBenchPatternCmd, "found no position to cut from");
      }
      qipu::v1::PatternRequest req;
      req.mutable_filter()->set_width(f.size);
      req.mutable_filter()->set_height(f.size);
      req.set_pattern(p);
      req.set_placement(corner ? qipu::v1::PATTERN_PLACEMENT_CORNER
                               : qipu::v1::PATTERN_PLACEMENT_ANYWHERE);
      const auto t0 = std::chrono::steady_clock::now();
      auto r = (*db)->queries().Pattern(req);
      const auto t1 = std::chrono::steady_clock::now();
      if (!r.ok()) return base::Fail(kBenchPatternCmd, r.status());
      if (r->matched().games() == 0) {
        return base::Fail(kBenchPatternCmd,
                          absl::StrCat("pattern ", p,
                                       " cut from a stored game matched none"));
      }
      series[kind].ms.push_back(
          std::chrono::duration<double, std::milli>(t1 - t0).count());
      series[kind].scanned += r->games_scanned();
      series[kind].matched += r->matched().games();
    }
  }
  const double games = static_cast<double>(keys.size());
  nlohmann::json j = {{"games", keys.size()},
                      {"size", f.size},
                      {"pattern", absl::StrCat(f.width, "x", f.height)},
                      {"index_bytes", entry_bytes},
                      {"index_bytes_per_game", entry_bytes / games},
                      {"index_disk_bytes", sst_bytes},
                      {"index_disk_bytes_per_game", sst_bytes / games},
                      {"corner", PatternSeriesJson(series[0])},
                      {"anywhere", PatternSeriesJson(series[1])}};
  if (f.json) {
    std::printf("%s\n", j.dump().c_str());
    return 0;
  }
  std::printf("%zu %dx%d games; pattern index %.0f bytes/game (%.0f on disk)\n",
              keys.size(), f.size, f.size, entry_bytes / games,
              sst_bytes / games);
  const char* names[2] = {"corner", "anywhere"};
  for (int k = 0; k < 2; ++k) {
    const nlohmann::json& s = j[names[k]];
    std::printf(
        "%-8s %dx%d: p50 %.1f ms  p95 %.1f ms  max %.1f ms  candidates %.0f  "
        "matched %.0f\n",
        names[k], f.width, f.height, s["p50_ms"].get<double>(),
        s["p95_ms"].get<double>(), s["max_ms"].get<double>(),
        s["mean_candidates"].get<double>(), s["mean_matched"].get<double>());
  }
  return 0;
}

}  // namespace

void AddBenchPatternCommand(CLI::App& bench, int* exit_code) {
  auto f = std::make_shared<PatternBenchFlags>();
  CLI::App* p = bench.add_subcommand(
      "pattern",
      "Pattern query latency (corner and anywhere patterns cut from stored "
      "games) and the pattern index's bytes per game");
  p->add_option("--db", f->db, "Database directory")->required();
  p->add_option("--games", f->games,
                "First add this many random self-play games of --size "
                "(created when missing)")
      ->check(CLI::Range(uint64_t{0}, uint64_t{100000000}));
  p->add_option("--size", f->size, "Board size of the games searched")
      ->check(CLI::Range(2, 25))
      ->capture_default_str();
  p->add_option("--queries", f->queries, "Queries of each kind")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  p->add_option("--width", f->width, "Pattern width")
      ->check(CLI::Range(1, 25))
      ->capture_default_str();
  p->add_option("--height", f->height, "Pattern height")
      ->check(CLI::Range(1, 25))
      ->capture_default_str();
  p->add_option("--seed", f->seed, "Seed of the sampling")
      ->capture_default_str();
  p->add_flag("--json", f->json, "Print one JSON object");
  p->callback([f, exit_code] {
    if (f->width > f->size || f->height > f->size) {
      *exit_code = base::Fail(kBenchPatternCmd,
                              "--width/--height larger than --size", 2);
      return;
    }
    *exit_code = RunPatternBench(*f);
  });
}

}  // namespace qipu::ops
