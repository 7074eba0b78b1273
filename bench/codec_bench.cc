// Google Benchmark programs for the coordinator's per-game encoding paths:
//  - IndexGameOps: the opening indexer's fast path (store/indexer.h), the
//    first 30 plies of recorded games encoded into a reused PositionOps
//    buffer, as ingest does for every stored game (items are games);
//  - EncodePositionValue / DecodePositionValue: the position-index value
//    codec (store/position_value.h) on the merged root value of the recorded
//    games (many continuations) and on one game's value (items are values);
//  - PackMoves: wire::RecordToGame() of the recorded games (its packed move
//    list is most of it) into a reused message (items are games);
//  - UnpackPoints: wire::UnpackPoints() of their packed moves, as validating
//    an upload does (items are games).
// Recorded games: full-rules (`chinese`) random playouts from fixed seeds on
// 9x9, 13x13 and 19x19, so runs are comparable.
#include <cstdint>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "proto/convert.h"
#include "qipu/v1/game.pb.h"
#include "rules/game.h"
#include "rules/playout.h"
#include "rules/record.h"
#include "rules/rules.h"
#include "store/game_id.h"
#include "store/indexer.h"
#include "store/position_value.h"

namespace qipu::store {
namespace {

constexpr uint64_t kSeed = 20240611;
constexpr int kGames = 64;
constexpr int kDepth = 30;

// kGames recorded games on a size x size board.
const std::vector<rules::GameRecord>& Records(int size) {
  static std::vector<std::vector<rules::GameRecord>> cache(rules::kMaxSize + 1);
  std::vector<rules::GameRecord>& out = cache[size];
  if (!out.empty()) return out;
  rules::Rng rng(rules::GameSeed(kSeed, static_cast<uint64_t>(size)));
  for (int g = 0; g < kGames; ++g) {
    rules::Game game(size, size, *rules::PresetRules("chinese"));
    rules::FullPlayout(game, rng);
    rules::GameRecord r;
    r.width = r.height = size;
    r.moves = game.moves();
    out.push_back(std::move(r));
  }
  return out;
}

rules::Winner WinnerOf(int g) {
  return g % 2 == 0 ? rules::Winner::kBlack : rules::Winner::kWhite;
}

void BM_IndexGameOps(benchmark::State& state) {
  const auto& records = Records(static_cast<int>(state.range(0)));
  PositionOps ops;
  for (auto _ : state) {
    ops.Clear();
    for (int g = 0; g < kGames; ++g) {
      const rules::GameRecord& r = records[g];
      IndexGameOps(r, static_cast<int>(r.moves.size()), kDepth, WinnerOf(g),
                   GameId::SelfPlay(7, static_cast<uint64_t>(g)), 3, 20240611,
                   &ops);
    }
    benchmark::DoNotOptimize(ops.bytes());
  }
  state.SetItemsProcessed(state.iterations() * kGames);
}
BENCHMARK(BM_IndexGameOps)->Arg(9)->Arg(13)->Arg(19);

// The values benchmarked: arg 0, the root value of all recorded 19x19 games
// merged; arg 1, one game's value of a position it left by a move.
PositionValue ValueOf(int which) {
  const auto& records = Records(19);
  if (which == 1) {
    return IndexGame(records[0], kDepth, kDepth, rules::Winner::kBlack,
                     GameId::SelfPlay(7, 0))[1]
        .delta;
  }
  PositionValue root;
  for (int g = 0; g < kGames; ++g) {
    const rules::GameRecord& r = records[g];
    MergePositionValues(
        &root, IndexGame(r, kDepth, kDepth, WinnerOf(g),
                         GameId::SelfPlay(7, static_cast<uint64_t>(g)))[0]
                   .delta);
  }
  return root;
}

void BM_EncodePositionValue(benchmark::State& state) {
  const PositionValue v = ValueOf(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    std::string s = EncodePositionValue(v);
    benchmark::DoNotOptimize(s.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EncodePositionValue)->Arg(0)->Arg(1);

void BM_DecodePositionValue(benchmark::State& state) {
  const std::string s =
      EncodePositionValue(ValueOf(static_cast<int>(state.range(0))));
  for (auto _ : state) {
    auto v = DecodePositionValue(s);
    benchmark::DoNotOptimize(v.ok());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DecodePositionValue)->Arg(0)->Arg(1);

void BM_PackMoves(benchmark::State& state) {
  const auto& records = Records(static_cast<int>(state.range(0)));
  qipu::v1::Game game;
  for (auto _ : state) {
    for (const rules::GameRecord& r : records) {
      wire::RecordToGame(r, &game);
      benchmark::DoNotOptimize(game.moves().data());
    }
  }
  state.SetItemsProcessed(state.iterations() * kGames);
}
BENCHMARK(BM_PackMoves)->Arg(9)->Arg(19);

void BM_UnpackPoints(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  std::vector<std::string> packed;
  for (const rules::GameRecord& r : Records(size)) {
    qipu::v1::Game game;
    wire::RecordToGame(r, &game);
    packed.push_back(game.moves());
  }
  for (auto _ : state) {
    for (const std::string& p : packed) {
      auto points = wire::UnpackPoints(p, size, size, true);
      benchmark::DoNotOptimize(points->data());
    }
  }
  state.SetItemsProcessed(state.iterations() * kGames);
}
BENCHMARK(BM_UnpackPoints)->Arg(9)->Arg(19);

}  // namespace
}  // namespace qipu::store

BENCHMARK_MAIN();
