// `qipu bench arena [--size S] [--entrants N] [--local-games G]
// [--threads T] [--dir DIR] [--json]`: the arena's own overhead -- a round
// robin of N random entrants refereed and stored by the arena, against
// `qipu local`'s rate for random self-play, in one run
// (bench/arena_bench.h).
#include <cstdio>
#include <memory>

#include "base/console.h"
#include "bench/arena_bench.h"
#include "ops/commands.h"

namespace qipu::ops {
namespace {

struct ArenaBenchFlags {
  bench::ArenaBenchOptions run;
  bool json = false;
};

int RunArenaBench(const ArenaBenchFlags& f) {
  auto r = bench::RunArenaBench(f.run);
  if (!r.ok()) {
    return base::Fail("bench arena", r.status(),
                      absl::IsInvalidArgument(r.status()) ? 2 : 1);
  }
  if (f.json) {
    std::printf("%s\n", bench::ArenaBenchJson(*r).dump().c_str());
  } else {
    std::fputs(bench::ArenaBenchText(*r).c_str(), stdout);
  }
  return 0;
}

}  // namespace

void AddBenchArenaCommand(CLI::App& bench, int* exit_code) {
  auto f = std::make_shared<ArenaBenchFlags>();
  CLI::App* cmd = bench.add_subcommand(
      "arena", "Arena games/s (random round robin) against qipu local's");
  cmd->add_option("--size", f->run.size, "Board size")
      ->check(CLI::Range(2, 25))
      ->capture_default_str();
  cmd->add_option("--entrants", f->run.entrants,
                  "Random entrants of the round robin")
      ->check(CLI::Range(2, 1000))
      ->capture_default_str();
  cmd->add_option("--local-games", f->run.local_games,
                  "Games of the qipu local reference")
      ->check(CLI::Range(1, 100000000))
      ->capture_default_str();
  cmd->add_option("--threads", f->run.threads, "Games at once")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--dir", f->run.dir,
                  "Directory for the two databases (default: a temporary "
                  "one; removed at the end)");
  cmd->add_flag("--json", f->json, "Print JSON");
  cmd->callback([f, exit_code] { *exit_code = RunArenaBench(*f); });
}

}  // namespace qipu::ops
