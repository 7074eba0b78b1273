// Google Benchmark program for the policies (policy/), in one run so that
// the figures compare on the same machine state:
//  - LightPlayout: rules' Board::PlayLightGame() from the empty board, the
//    baseline (`qipu bench playouts --mode light`);
//  - Playout/random, Playout/pattern: PlayoutRunner::Run() as a search runs
//    it (with the AMAF first-play record), the light and the pattern
//    playout policies;
//  - Mcts: one MctsPolicy::Choose() of 2,000 playouts from the empty board
//    with 1 and 2 threads and each playout policy; playouts/s against the
//    playouts alone is the tree's overhead.
// 9x9 unless the arguments say otherwise; fixed seeds.
#include <cstdint>

#include "benchmark/benchmark.h"
#include "policy/mcts.h"
#include "policy/mcts_options.h"
#include "policy/playout.h"
#include "rules/board.h"
#include "rules/game.h"
#include "rules/playout.h"

namespace qipu::policy {
namespace {

void BM_LightPlayout(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  const rules::Board empty(size, size);
  rules::Board board(size, size);
  rules::Rng rng(1);
  int64_t moves = 0;
  for (auto _ : state) {
    board.CopyFrom(empty);
    moves += board.PlayLightGame(rules::Color::kBlack, rng, 3 * size * size);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["moves/s"] = benchmark::Counter(static_cast<double>(moves),
                                                 benchmark::Counter::kIsRate);
}
BENCHMARK(BM_LightPlayout)->Arg(9)->Arg(19);

void BM_Playout(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  const auto kind = static_cast<PlayoutKind>(state.range(1));
  state.SetLabel(PlayoutKindName(kind));
  const rules::Board empty(size, size);
  rules::Board board(size, size);
  PlayoutRunner runner(kind);
  FirstPlay first;
  rules::Rng rng(1);
  int64_t moves = 0;
  const rules::Rules chinese;
  int64_t black_wins = 0;
  for (auto _ : state) {
    board.CopyFrom(empty);
    first.fill(rules::Color::kEmpty);
    moves += runner.Run(board, rules::Color::kBlack, rules::kNoPoint, rng,
                        3 * size * size, false, &first);
    black_wins += CountWinner(board, chinese, 0) == rules::Winner::kBlack;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["moves/s"] = benchmark::Counter(static_cast<double>(moves),
                                                 benchmark::Counter::kIsRate);
  state.counters["moves/playout"] =
      static_cast<double>(moves) / static_cast<double>(state.iterations());
  state.counters["black_wins"] =
      static_cast<double>(black_wins) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_Playout)
    ->Args({9, static_cast<int>(PlayoutKind::kRandom)})
    ->Args({9, static_cast<int>(PlayoutKind::kPattern)})
    ->Args({19, static_cast<int>(PlayoutKind::kRandom)})
    ->Args({19, static_cast<int>(PlayoutKind::kPattern)});

void BM_Mcts(benchmark::State& state) {
  MctsOptions options;
  options.playouts = 2000;
  options.threads = static_cast<int>(state.range(0));
  options.playout = static_cast<PlayoutKind>(state.range(1));
  MctsPolicy policy(options, 1);
  state.SetLabel(policy.spec());
  const rules::Game game(9, 9, rules::Rules{});
  int64_t playouts = 0;
  for (auto _ : state) {
    const auto choice = policy.Choose(game, SearchLimits{});
    if (!choice.ok()) {
      state.SkipWithError("Choose failed");
      return;
    }
    playouts += choice->playouts;
  }
  state.counters["playouts/s"] = benchmark::Counter(
      static_cast<double>(playouts), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Mcts)
    ->Args({1, static_cast<int>(PlayoutKind::kRandom)})
    ->Args({2, static_cast<int>(PlayoutKind::kRandom)})
    ->Args({1, static_cast<int>(PlayoutKind::kPattern)})
    ->Args({2, static_cast<int>(PlayoutKind::kPattern)})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace qipu::policy

BENCHMARK_MAIN();
