// `qipu bench strength --black SPEC --white SPEC --games G [--size 9]
// [--rules chinese] [--komi 7.5] [--threads T] [--seed S] [--sgf-out DIR]
// [--engine-log FILE] [--json]`: G games between two policies
// (bench/strength_bench.h), colours alternating: --black names policy A,
// Black in even games, --white policy B. Prints A's wins, losses, draws
// and void games, its win rate with a 95% Wilson interval, each side's
// seconds and playouts per move; --sgf-out writes every game as SGF.
#include <cstdio>
#include <memory>
#include <optional>
#include <random>
#include <string>

#include "base/console.h"
#include "bench/strength_bench.h"
#include "ops/commands.h"
#include "ops/flags.h"

namespace qipu::ops {
namespace {

constexpr char kBenchStrengthCmd[] = "bench strength";

struct StrengthFlags {
  bench::StrengthBenchOptions run;
  RuleFlags rules;
  // Random when not given (printed, so that a run can be repeated).
  std::optional<uint64_t> seed;
  bool json = false;
};

int RunStrength(StrengthFlags f) {
  absl::StatusOr<rules::Rules> r = f.rules.Resolve(rules::Rules{});
  if (!r.ok()) return base::Fail(kBenchStrengthCmd, r.status().message(), 2);
  f.run.rules = *r;
  f.run.rules_name = f.rules.preset.empty() ? "chinese" : f.rules.preset;
  if (rules::PresetName(*r) == "custom") f.run.rules_name = "custom";
  f.run.seed = f.seed.has_value() ? *f.seed
                                  : (uint64_t{std::random_device{}()} << 32) ^
                                        std::random_device{}();
  f.run.verbose = true;
  std::fprintf(stderr,
               "qipu bench strength: A = --black %s, B = --white %s, colours "
               "alternating (A Black in even games), seed %llu\n",
               f.run.policy_a.c_str(), f.run.policy_b.c_str(),
               static_cast<unsigned long long>(f.run.seed));
  auto result = bench::RunStrengthBench(f.run);
  if (!result.ok()) {
    return base::Fail(kBenchStrengthCmd, result.status(),
                      absl::IsInvalidArgument(result.status()) ? 2 : 1);
  }
  if (f.json) {
    std::printf("%s\n", bench::StrengthBenchJson(*result).dump().c_str());
  } else {
    std::fputs(bench::StrengthBenchText(*result).c_str(), stdout);
  }
  return 0;
}

}  // namespace

void AddBenchStrengthCommand(CLI::App& bench, int* exit_code) {
  auto f = std::make_shared<StrengthFlags>();
  CLI::App* cmd = bench.add_subcommand(
      "strength",
      "Games between two policies, colours alternating: win rate with a 95% "
      "interval, time and playouts per move");
  cmd->footer(
      "--black is policy A and --white policy B: A plays Black in the even "
      "games (0, 2, ...) and White in the odd ones, and every figure is "
      "from A's side. A policy is random, pattern, mcts[:key=value,...] or "
      "gtp:<engine command line>, e.g. \"gtp:gnugo --mode gtp --level 10 "
      "--chinese-rules --capture-all-dead\" (GNU Go needs the last two "
      "flags to play games out under area counting).");
  cmd->add_option("--black", f->run.policy_a, "Policy A (Black in even games)")
      ->required();
  cmd->add_option("--white", f->run.policy_b, "Policy B (White in even games)")
      ->required();
  cmd->add_option("--games", f->run.games, "Games to play")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  cmd->add_option("--size", f->run.size, "Board size")
      ->check(CLI::Range(2, 25))
      ->capture_default_str();
  f->rules.Add(cmd);
  cmd->add_option("--threads", f->run.threads,
                  "Games played at once (each thread its own policies, one "
                  "engine process per gtp: policy)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--seed", f->seed,
                  "Seed of the policies (random when not given; printed)");
  cmd->add_option("--sgf-out", f->run.sgf_dir,
                  "Write every game as DIR/game-NNNN.sgf");
  cmd->add_option("--engine-log", f->run.engine_log,
                  "File for the stderr of gtp: engines (default: discarded)");
  cmd->add_flag("--json", f->json, "Print one JSON object");
  cmd->callback([f, exit_code] { *exit_code = RunStrength(*f); });
}

}  // namespace qipu::ops
