#include "bench/playout_rate.h"

#include <atomic>
#include <chrono>
#include <ctime>
#include <functional>
#include <thread>
#include <vector>

#include "rules/board.h"
#include "rules/game.h"
#include "rules/playout.h"

namespace qipu::bench {
namespace {

struct ThreadCount {
  uint64_t playouts = 0;
  uint64_t moves = 0;
  // CPU time of the thread while it played.
  double cpu_seconds = 0;
};

// CPU time the calling thread has used, in seconds.
double ThreadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

// Runs playouts until `stop`; counts into *out. One thread. The stop flag
// is read every few playouts, not every one.
void PlayoutLoop(const PlayoutRateOptions& o, uint64_t seed,
                 const std::atomic<bool>& stop, ThreadCount* out) {
  rules::Rng rng(seed);
  ThreadCount c;
  const double cpu0 = ThreadCpuSeconds();
  if (o.mode == "light") {
    const rules::Board root(o.size, o.size);
    rules::Board b(o.size, o.size);
    const int cap = 3 * o.size * o.size;
    while (!stop.load(std::memory_order_relaxed)) {
      for (int i = 0; i < 64; ++i) {
        b.CopyFrom(root);
        c.moves += rules::LightPlayout(b, rules::Color::kBlack, rng, cap);
        ++c.playouts;
      }
    }
  } else {
    rules::Game g(o.size, o.size, o.rules);
    while (!stop.load(std::memory_order_relaxed)) {
      for (int i = 0; i < 16; ++i) {
        g.Reset();
        c.moves += rules::FullPlayout(g, rng);
        ++c.playouts;
      }
    }
  }
  c.cpu_seconds = ThreadCpuSeconds() - cpu0;
  *out = c;
}

}  // namespace

PlayoutRate MeasurePlayouts(const PlayoutRateOptions& o) {
  // One plain thread per playing thread, not base::WorkPool: the threads
  // are what is measured (T threads playing for D seconds, each with its
  // own seed), not a loop of known length.
  std::atomic<bool> stop{false};
  std::vector<ThreadCount> counts(o.threads);
  std::vector<std::thread> threads;
  const auto t0 = std::chrono::steady_clock::now();
  for (int t = 0; t < o.threads; ++t) {
    threads.emplace_back(PlayoutLoop, std::cref(o), rules::GameSeed(o.seed, t),
                         std::cref(stop), &counts[t]);
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(o.seconds));
  stop = true;
  for (auto& th : threads) th.join();
  PlayoutRate r;
  r.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  for (const auto& c : counts) {
    r.playouts += c.playouts;
    r.moves += c.moves;
    r.cpu_seconds += c.cpu_seconds;
  }
  r.playouts_per_sec = r.playouts / r.seconds;
  r.moves_per_sec = r.moves / r.seconds;
  r.playouts_per_cpu_sec = r.cpu_seconds > 0 ? r.playouts / r.cpu_seconds : 0;
  r.avg_moves = r.playouts ? static_cast<double>(r.moves) / r.playouts : 0;
  return r;
}

}  // namespace qipu::bench
