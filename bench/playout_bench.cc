// Google Benchmark programs for the rules core's hot paths:
//  - LightPlayout / FullPlayout: whole playouts from the empty board, as
//    `qipu bench playouts` runs them (light: board rules only; full: Game
//    under the `chinese` preset), on 9x9, 13x13 and 19x19;
//  - BoardPlay: Board::Play() replaying recorded light playouts;
//  - BoardCheck / GameCheck: Board::Check() and Game::Check() on every
//    empty point of recorded mid-game positions, for both colours;
//  - Replay: ReplayInto() of recorded full-rules self-play games (the
//    coordinator's validation of uploaded games), into a reused Game;
//  - CopyFrom: Board::CopyFrom() of a mid-game board into a 19x19 one.
// Every position is generated from fixed seeds, so runs are comparable.
#include <cstdint>
#include <vector>

#include "benchmark/benchmark.h"
#include "rules/board.h"
#include "rules/game.h"
#include "rules/playout.h"
#include "rules/record.h"
#include "rules/replay.h"
#include "rules/rules.h"

namespace qipu::rules {
namespace {

constexpr uint64_t kSeed = 20240611;

// Move cap of a light playout on a size x size board.
int LightCap(int size) { return 3 * size * size; }

// Recorded light playouts on one board size: their moves, and a few
// positions taken halfway through.
struct Recorded {
  // Moves of each playout, passes included, Black first.
  std::vector<std::vector<Point>> games;
  // Boards halfway through some of the playouts.
  std::vector<Board> middles;
  // Games (chinese rules) at the same points.
  std::vector<Game> middle_games;
};

const Recorded& Record(int size) {
  static std::vector<Recorded> cache(kMaxSize + 1);
  Recorded& r = cache[size];
  if (!r.games.empty()) return r;
  const Rules chinese = *PresetRules("chinese");
  Rng rng(GameSeed(kSeed, static_cast<uint64_t>(size)));
  for (int g = 0; g < 64; ++g) {
    Board board(size, size);
    std::vector<Point> moves;
    Color c = Color::kBlack;
    int passes = 0;
    while (static_cast<int>(moves.size()) < LightCap(size) && passes < 2) {
      const Point p = LightMove(board, c, rng);
      if (p == kPass) {
        board.Pass();
        ++passes;
      } else {
        board.Play(p, c);
        passes = 0;
      }
      moves.push_back(p);
      c = Opponent(c);
    }
    if (g < 8) {
      // Replay the first half into a Board and a Game.
      Board middle(size, size);
      Game game(size, size, chinese);
      Color m = Color::kBlack;
      for (size_t i = 0; i < moves.size() / 2; ++i) {
        const MoveVerdict v = game.Check(m, moves[i]);
        if (!v.legal()) break;  // Light rules allowed a cycle: stop here.
        game.Play(m, moves[i], v);
        if (moves[i] == kPass) {
          middle.Pass();
        } else {
          middle.Play(moves[i], m);
        }
        m = Opponent(m);
      }
      r.middles.push_back(middle);
      r.middle_games.push_back(game);
    }
    r.games.push_back(std::move(moves));
  }
  return r;
}

void SizeArgs(benchmark::internal::Benchmark* b) {
  b->Arg(9)->Arg(13)->Arg(19);
}

void BM_LightPlayout(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  const Board root(size, size);
  Board board(size, size);
  Rng rng(GameSeed(kSeed, 1));
  int64_t moves = 0;
  for (auto _ : state) {
    board.CopyFrom(root);
    moves += LightPlayout(board, Color::kBlack, rng, LightCap(size));
    benchmark::DoNotOptimize(board.hash());
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["moves/s"] = benchmark::Counter(static_cast<double>(moves),
                                                 benchmark::Counter::kIsRate);
}
BENCHMARK(BM_LightPlayout)->Apply(SizeArgs);

void BM_FullPlayout(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  Game game(size, size, *PresetRules("chinese"));
  Rng rng(GameSeed(kSeed, 2));
  int64_t moves = 0;
  for (auto _ : state) {
    game.Reset();
    moves += FullPlayout(game, rng);
    benchmark::DoNotOptimize(game.board().hash());
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["moves/s"] = benchmark::Counter(static_cast<double>(moves),
                                                 benchmark::Counter::kIsRate);
}
BENCHMARK(BM_FullPlayout)->Apply(SizeArgs);

// Recorded full-rules self-play games: the first 64 games BM_FullPlayout
// plays on a size x size board (same seed), as records plus the cycles the
// policy prevented (what a worker uploads).
struct RecordedGames {
  std::vector<GameRecord> records;
  std::vector<std::vector<CycleRecord>> prevented;
  int64_t moves = 0;
};

const RecordedGames& RecordFull(int size) {
  static std::vector<RecordedGames> cache(kMaxSize + 1);
  RecordedGames& r = cache[size];
  if (!r.records.empty()) return r;
  Game game(size, size, *PresetRules("chinese"));
  Rng rng(GameSeed(kSeed, 2));
  for (int g = 0; g < 64; ++g) {
    game.Reset();
    FullPlayout(game, rng);
    GameRecord record;
    record.width = size;
    record.height = size;
    record.moves = game.moves();
    r.moves += game.num_moves();
    std::vector<CycleRecord> prevented;
    for (const CycleRecord& c : game.cycles()) {
      if (c.outcome == CycleOutcome::kPreventedSuperko ||
          c.outcome == CycleOutcome::kPreventedCycleRule) {
        prevented.push_back(c);
      }
    }
    r.records.push_back(std::move(record));
    r.prevented.push_back(std::move(prevented));
  }
  return r;
}

// One iteration validates one recorded game as the coordinator does:
// ReplayInto() under the rules it was played with, the cycles the worker
// claims to have prevented, into a Game reused across iterations. Items
// are games; compare with BM_FullPlayout, which plays the same games.
void BM_Replay(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  const RecordedGames& r = RecordFull(size);
  const Rules chinese = *PresetRules("chinese");
  Game game(size, size, chinese);
  size_t g = 0;
  int64_t moves = 0;
  for (auto _ : state) {
    auto report = ReplayInto(r.records[g], chinese, r.prevented[g], &game);
    if (!report.ok() || !report->legal || report->ended_at == 0) {
      state.SkipWithError("a recorded game does not replay");
      break;
    }
    moves += report->played;
    benchmark::DoNotOptimize(report->area_result);
    if (++g == r.records.size()) g = 0;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["moves/s"] = benchmark::Counter(static_cast<double>(moves),
                                                 benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Replay)->Apply(SizeArgs);

// One iteration replays a whole recorded playout (CopyFrom included);
// items are moves.
void BM_BoardPlay(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  const Recorded& r = Record(size);
  const Board root(size, size);
  Board board(size, size);
  size_t g = 0;
  int64_t moves = 0;
  for (auto _ : state) {
    const std::vector<Point>& game = r.games[g];
    if (++g == r.games.size()) g = 0;
    board.CopyFrom(root);
    Color c = Color::kBlack;
    for (const Point p : game) {
      if (p == kPass) {
        board.Pass();
      } else {
        board.Play(p, c);
      }
      c = Opponent(c);
    }
    moves += static_cast<int64_t>(game.size());
    benchmark::DoNotOptimize(board.hash());
  }
  state.SetItemsProcessed(moves);
}
BENCHMARK(BM_BoardPlay)->Apply(SizeArgs);

// Board::Check() of both colours at every empty point of a mid-game board.
void BM_BoardCheck(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  const Recorded& r = Record(size);
  size_t m = 0;
  int64_t checks = 0;
  for (auto _ : state) {
    const Board& board = r.middles[m];
    if (++m == r.middles.size()) m = 0;
    int legal = 0;
    for (int i = 0; i < board.num_empty(); ++i) {
      const Point p = board.empty_point(i);
      legal += board.Check(p, Color::kBlack) == MoveCheck::kLegal;
      legal += board.Check(p, Color::kWhite) == MoveCheck::kLegal;
    }
    benchmark::DoNotOptimize(legal);
    checks += 2 * board.num_empty();
  }
  state.SetItemsProcessed(checks);
}
BENCHMARK(BM_BoardCheck)->Apply(SizeArgs);

// Game::Check() (chinese rules) of both colours at every empty point of a
// mid-game position.
void BM_GameCheck(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  const Recorded& r = Record(size);
  size_t m = 0;
  int64_t checks = 0;
  for (auto _ : state) {
    const Game& game = r.middle_games[m];
    if (++m == r.middle_games.size()) m = 0;
    const Board& board = game.board();
    int legal = 0;
    for (int i = 0; i < board.num_empty(); ++i) {
      const Point p = board.empty_point(i);
      legal += game.Check(Color::kBlack, p).legal();
      legal += game.Check(Color::kWhite, p).legal();
    }
    benchmark::DoNotOptimize(legal);
    checks += 2 * board.num_empty();
  }
  state.SetItemsProcessed(checks);
}
BENCHMARK(BM_GameCheck)->Apply(SizeArgs);

// CopyFrom() of a mid-game board into a board that last held a 19x19
// position (the playout workers' pattern: one scratch board, any size).
void BM_CopyFrom(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  const Recorded& r = Record(size);
  Board scratch(19, 19);
  size_t m = 0;
  for (auto _ : state) {
    scratch.CopyFrom(r.middles[m]);
    if (++m == r.middles.size()) m = 0;
    benchmark::DoNotOptimize(scratch.hash());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CopyFrom)->Apply(SizeArgs);

}  // namespace
}  // namespace qipu::rules

BENCHMARK_MAIN();
