// `qipu bench playouts`: light-playout throughput of the rules core, in
// light mode (board rules only, simple ko) or full mode (the rule set's
// superko / cycle checks, as self-play uses), on T threads for D seconds.
#include <cstdio>
#include <memory>
#include <string>

#include "bench/playout_rate.h"
#include "nlohmann/json.hpp"
#include "ops/commands.h"
#include "rules/coord.h"
#include "rules/rules.h"

namespace qipu::ops {
namespace {

struct PlayoutBenchOptions {
  int size = 9;
  int threads = 1;
  double seconds = 5;
  std::string mode = "light";
  std::string rules = "chinese";
  uint64_t seed = 1;
  bool json = false;
};

int RunPlayoutBench(const PlayoutBenchOptions& o) {
  if (absl::Status s = rules::ValidateSize(o.size, o.size); !s.ok()) {
    std::fprintf(stderr, "qipu bench playouts: --size: %s\n",
                 std::string(s.message()).c_str());
    return 2;
  }
  auto r = rules::PresetRules(o.rules);
  if (!r.ok()) {
    std::fprintf(stderr, "qipu bench playouts: --rules: %s\n",
                 std::string(r.status().message()).c_str());
    return 2;
  }
  bench::PlayoutRateOptions ro;
  ro.size = o.size;
  ro.threads = o.threads;
  ro.seconds = o.seconds;
  ro.mode = o.mode;
  ro.rules = *r;
  ro.seed = o.seed;
  const bench::PlayoutRate rate = bench::MeasurePlayouts(ro);
  const double dt = rate.seconds;
  const double pps = rate.playouts_per_sec;
  const double mps = rate.moves_per_sec;
  const double avg = rate.avg_moves;
  if (o.json) {
    nlohmann::json j = {{"size", o.size},
                        {"threads", o.threads},
                        {"mode", o.mode},
                        {"rules", o.rules},
                        {"seconds", dt},
                        {"playouts", rate.playouts},
                        {"playouts_per_sec", pps},
                        {"moves_per_sec", mps},
                        {"avg_moves", avg},
                        {"cpu_seconds", rate.cpu_seconds},
                        {"playouts_per_cpu_sec", rate.playouts_per_cpu_sec}};
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf("%dx%d %s playouts, %d thread(s), %.1f s\n", o.size, o.size,
                o.mode.c_str(), o.threads, dt);
    std::printf(
        "  playouts/s  %12.0f\n  moves/s     %12.0f\n"
        "  avg moves   %12.1f\n"
        "  playouts/CPU-s %9.0f  (over %.2f s of the playing threads' CPU "
        "time, as libego counts)\n",
        pps, mps, avg, rate.playouts_per_cpu_sec, rate.cpu_seconds);
  }
  return 0;
}

}  // namespace

void AddBenchCommand(CLI::App& app, int* exit_code) {
  CLI::App* bench = app.add_subcommand("bench", "Throughput benchmarks");
  bench->require_subcommand(1);

  auto o = std::make_shared<PlayoutBenchOptions>();
  CLI::App* p = bench->add_subcommand(
      "playouts", "Light playouts per second of the rules core");
  p->add_option("--size", o->size, "Board size (2..25)")->capture_default_str();
  p->add_option("--threads", o->threads, "Worker threads")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  p->add_option("--seconds", o->seconds, "Duration")
      ->check(CLI::Range(0.01, 3600.0))
      ->capture_default_str();
  p->add_option("--mode", o->mode,
                "light: board rules only (simple ko); full: the rule set's "
                "superko and cycle checks, as self-play uses")
      ->check(CLI::IsMember({"light", "full"}))
      ->capture_default_str();
  p->add_option("--rules", o->rules, "Rule preset for --mode full")
      ->capture_default_str();
  p->add_option("--seed", o->seed, "Random seed")->capture_default_str();
  p->add_flag("--json", o->json, "Print one JSON object");
  p->callback([o, exit_code] { *exit_code = RunPlayoutBench(*o); });
  AddBenchPatternCommand(*bench, exit_code);
  AddBenchPlayersCommand(*bench, exit_code);
}

}  // namespace qipu::ops
