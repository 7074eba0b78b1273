// Helpers of the query tests: a real Coordinator on 127.0.0.1 with a fresh
// RocksDB in a temp dir, populated through the real ingest paths --
// self-play games of a job (rules::PlaySelfPlay, wire::SelfPlayToProto,
// PrepareSelfPlay, the Ingestor) and imported records (PrepareImport) --
// and independent readings of what was stored (the games CF, the
// exporter).
#ifndef QIPU_TESTS_COORDINATOR_QUERY_FIXTURE_H_
#define QIPU_TESTS_COORDINATOR_QUERY_FIXTURE_H_

#include <stdlib.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <ostream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "coordinator/coordinator.h"
#include "engine/exporter.h"
#include "engine/prepare.h"
#include "gtest/gtest.h"
#include "proto/convert.h"
#include "qipu/v1/game.pb.h"
#include "qipu/v1/query.pb.h"
#include "qipu/v1/work.pb.h"
#include "rules/coord.h"
#include "rules/record.h"
#include "rules/rules.h"
#include "rules/selfplay.h"
#include "store/game_id.h"
#include "store/keys.h"
#include "tests/common/job_config.h"
#include "tests/common/temp_dir.h"

namespace qipu::coordinator::testing {

// Outcome counts as the test tallies them.
struct Counts {
  uint64_t games = 0, black = 0, white = 0, draws = 0, voids = 0;
  void Add(qipu::v1::Winner w) {
    ++games;
    if (w == qipu::v1::WINNER_BLACK) ++black;
    if (w == qipu::v1::WINNER_WHITE) ++white;
    if (w == qipu::v1::WINNER_DRAW) ++draws;
    if (w == qipu::v1::WINNER_NONE || w == qipu::v1::WINNER_UNSPECIFIED)
      ++voids;
  }
  static Counts Of(const qipu::v1::Outcomes& o) {
    return {o.games(), o.black_wins(), o.white_wins(), o.draws(), o.void_()};
  }
  friend bool operator==(const Counts&, const Counts&) = default;
};

inline std::ostream& operator<<(std::ostream& os, const Counts& c) {
  return os << c.games << " games (B " << c.black << " W " << c.white << " D "
            << c.draws << " V " << c.voids << ")";
}

using ::qipu::test_util::TempDir;

// A coordinator on 127.0.0.1:0 over a new database in `dir` (small block
// cache, default memtables, no fsync: tests do not survive power loss).
inline std::unique_ptr<Coordinator> StartCoordinator(const std::string& dir) {
  CoordinatorOptions o;
  o.db_dir = dir;
  o.listen = "127.0.0.1:0";
  o.store.block_cache_bytes = 16u << 20;
  o.store.sync = false;
  auto c = Coordinator::Start(o);
  EXPECT_TRUE(c.ok()) << c.status();
  return c.ok() ? std::move(*c) : nullptr;
}

// A job configuration: size x size, a preset (komi overridden when given),
// the random policy, `depth` plies indexed.
inline qipu::v1::JobConfig JobConfigFor(int size, const char* preset, int depth,
                                        uint64_t seed, double komi = -1) {
  return test_util::SelfPlayConfig(size, seed, depth, preset, komi);
}

// Submits a job of `games` games, plays all of them with the rules core on
// `threads` threads and stores them through PrepareSelfPlay and the
// Ingestor (as WorkService does for uploads). Returns the job id.
inline uint64_t PlayJob(Coordinator& c, const qipu::v1::JobConfig& config,
                        uint64_t games, int threads = 2) {
  auto job = c.jobs().Submit(games, config);
  EXPECT_TRUE(job.ok()) << job.status();
  if (!job.ok()) return 0;
  auto info = c.jobs().Find(*job);
  EXPECT_TRUE(info.ok()) << info.status();
  std::atomic<uint64_t> next{0};
  std::atomic<uint64_t> failed{0};
  std::atomic<int64_t> pending{0};
  auto work = [&] {
    rules::Game game(static_cast<int>(config.width()),
                     static_cast<int>(config.height()), info->rules);
    rules::SelfPlayOutcome outcome;
    for (uint64_t i = next++; i < games; i = next++) {
      rules::SelfPlaySpec spec;
      spec.width = static_cast<int>(config.width());
      spec.height = static_cast<int>(config.height());
      spec.rules = info->rules;
      spec.handicap = static_cast<int>(config.handicap());
      spec.job_seed = config.seed();
      spec.index = i;
      if (!rules::PlaySelfPlay(spec, &game, &outcome).ok()) {
        ++failed;
        continue;
      }
      qipu::v1::Game proto;
      wire::SelfPlayToProto(game, spec, outcome, *job, "test", &proto);
      auto prepared = engine::PrepareSelfPlay(proto, *info, absl::Now());
      if (!prepared.ok()) {
        ADD_FAILURE() << prepared.status();
        ++failed;
        continue;
      }
      ++pending;
      c.ingestor().Submit(
          *std::move(prepared),
          [&](absl::StatusOr<engine::IngestOutcome> stored) {
            if (!stored.ok() || *stored != engine::IngestOutcome::kStored) {
              ++failed;
            }
            --pending;
          });
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(work);
  for (auto& t : pool) t.join();
  while (pending.load() != 0) absl::SleepFor(absl::Milliseconds(2));
  EXPECT_EQ(failed.load(), 0u);
  return *job;
}

// A record of GTP moves ("pass" allowed) alternating from Black.
inline rules::GameRecord RecordOf(int size, const std::string& moves,
                                  const std::string& result,
                                  const std::string& date = "") {
  rules::GameRecord r;
  r.width = r.height = size;
  rules::Color c = rules::Color::kBlack;
  for (absl::string_view m : absl::StrSplit(moves, ' ', absl::SkipEmpty())) {
    auto p = rules::ParseGtpPoint(m, size, size);
    EXPECT_TRUE(p.ok()) << p.status();
    r.moves.push_back(rules::Move{c, p.ok() ? *p : rules::kPass});
    c = rules::Opponent(c);
  }
  r.result = rules::RecordResult::Read(result);
  r.date = date;
  return r;
}

// Imports `record` from source `source` through PrepareImport and the
// Ingestor. Returns the game's id.
inline store::GameId Import(Coordinator& c, const rules::GameRecord& record,
                            const std::string& source = "import",
                            int depth = 60) {
  engine::ImportContext ctx;
  ctx.source = source;
  ctx.file = "test.sgf";
  ctx.index_depth = depth;
  ctx.now = absl::Now();
  auto prepared = engine::PrepareImport(record, ctx, &c.configs());
  EXPECT_TRUE(prepared.ok()) << prepared.status();
  if (!prepared.ok()) return {};
  const store::GameId id = prepared->game.id;
  auto stored = c.ingestor().SubmitAndWait(std::move(prepared->game));
  EXPECT_TRUE(stored.ok() && *stored == engine::IngestOutcome::kStored);
  return id;
}

// A stored game as the test reads it back.
struct StoredGame {
  store::GameId id;
  qipu::v1::Game game;
};

// Every game of the games CF, in key order.
inline std::vector<StoredGame> StoredGames(store::Store& s) {
  std::vector<StoredGame> out;
  store::Cursor it = s.Scan(store::Records::kGames);
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    StoredGame g;
    auto id = store::DecodeGameKey(it.key());
    EXPECT_TRUE(id.has_value());
    if (!id) continue;
    g.id = *id;
    EXPECT_TRUE(g.game.ParseFromArray(it.value().data(),
                                      static_cast<int>(it.value().size())));
    out.push_back(std::move(g));
  }
  EXPECT_TRUE(it.status().ok()) << it.status();
  return out;
}

// Every game as the exporter (engine/exporter.h) streams it out.
inline std::vector<StoredGame> ExportedGames(store::Store& s) {
  std::vector<StoredGame> out;
  engine::Exporter exporter(&s);
  auto stats =
      exporter.Export(qipu::v1::ExportRequest(),
                      [&](const store::GameId& id, const qipu::v1::Game& g) {
                        out.push_back(StoredGame{id, g});
                        return true;
                      });
  EXPECT_TRUE(stats.ok()) << stats.status();
  return out;
}

}  // namespace qipu::coordinator::testing

#endif  // QIPU_TESTS_COORDINATOR_QUERY_FIXTURE_H_
