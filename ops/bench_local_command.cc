// `qipu bench local --games N --size S [--threads T] [--index-depth D]
// [--playout-seconds X] [--sample K] [--dir DIR] [--json]`: what `qipu
// local` makes of the rules core's speed, measured in one run
// (bench/local_bench.h): full-rules playouts on T threads, then `qipu
// local`'s embedded coordinator and worker on an N-game job, then each
// stage timed one game at a time on a sample. Prints games_per_sec,
// full_playouts_per_sec and their ratio, the CPU per game and its stages.
#include <cstdio>
#include <memory>
#include <string>

#include "base/console.h"
#include "bench/local_bench.h"
#include "ops/commands.h"
#include "ops/flags.h"

namespace qipu::ops {
namespace {

constexpr char kBenchLocalCmd[] = "bench local";

struct LocalBenchFlags {
  JobSpecFlags spec;
  bench::LocalBenchOptions run;
  bool json = false;
};

int RunLocalBench(LocalBenchFlags f) {
  auto req = f.spec.Request();
  if (!req.ok()) return base::Fail(kBenchLocalCmd, req.status().message());
  f.run.job = *std::move(req);
  f.run.verbose = true;
  auto r = bench::RunLocalBench(f.run);
  if (!r.ok()) return base::Fail(kBenchLocalCmd, r.status());
  if (f.json) {
    std::printf("%s\n", bench::LocalBenchJson(*r).dump().c_str());
  } else {
    std::fputs(bench::LocalBenchText(*r).c_str(), stdout);
  }
  return 0;
}

}  // namespace

void AddBenchLocalCommand(CLI::App& bench, int* exit_code) {
  auto f = std::make_shared<LocalBenchFlags>();
  f->spec.games = 60000;
  CLI::App* cmd = bench.add_subcommand(
      "local",
      "qipu local against full playouts on as many threads, in one run");
  f->spec.Add(cmd);
  cmd->add_option("--threads", f->run.threads,
                  "Playing threads (worker and playout benchmark)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--playout-seconds", f->run.playout_seconds,
                  "Duration of the playout measurement")
      ->check(CLI::Range(0.1, 600.0))
      ->capture_default_str();
  cmd->add_option("--sample", f->run.sample,
                  "Games timed one at a time for the stage costs")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  cmd->add_option("--dir", f->run.dir,
                  "Keep the database here (default: temp, removed)");
  cmd->add_flag("--json", f->json, "Print one JSON object");
  cmd->callback([f, exit_code] { *exit_code = RunLocalBench(*f); });
}

}  // namespace qipu::ops
