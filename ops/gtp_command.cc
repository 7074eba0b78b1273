// `qipu gtp [--policy P] [--rules R] [--ko K] [--cycle C] [--suicide]
// [--komi X] [--size N] [--seed S] [--engine-log FILE]`: a GTP v2 engine
// on stdin/stdout (gtp/engine.h) playing policy P -- for Sabaki, GoGui,
// gogui-twogtp and other controllers. Everything but GTP goes to stderr
// (--log-level info shows each move and its time). P is "random" or
// "gtp:<command line>" (an external engine, gtp/engine_policy.h; its
// stderr goes to --engine-log, else /dev/null), or any spec the policy
// library knows (gtp/policy_factory.h). Exit status 0 after `quit` or the
// end of the input, 2 for bad flags.
#include <cstdint>
#include <cstdio>
#include <optional>
#include <random>
#include <string>

#include "base/version.h"
#include "gtp/engine.h"
#include "gtp/policy_factory.h"
#include "ops/commands.h"
#include "ops/flags.h"
#include "rules/coord.h"
#include "rules/rules_key.h"
#include "spdlog/spdlog.h"

namespace qipu::ops {
namespace {

struct GtpOptions {
  std::string policy = "random";
  RuleFlags rules;
  int size = 19;
  std::optional<uint64_t> seed;
  std::string engine_log;
};

int RunGtp(const GtpOptions& o) {
  absl::StatusOr<rules::Rules> r = o.rules.Resolve(rules::Rules{});
  if (!r.ok()) {
    std::fprintf(stderr, "qipu gtp: %s\n",
                 std::string(r.status().message()).c_str());
    return 2;
  }
  if (!rules::ValidateSize(o.size, o.size).ok()) {
    std::fprintf(stderr, "qipu gtp: --size %d: not a board size (2-25)\n",
                 o.size);
    return 2;
  }
  const uint64_t seed =
      o.seed.has_value()
          ? *o.seed
          : (uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
  absl::StatusOr<std::unique_ptr<policy::Policy>> p =
      gtp::MakeAnyPolicy(o.policy, seed, o.engine_log);
  if (!p.ok()) {
    std::fprintf(stderr, "qipu gtp: --policy: %s\n",
                 std::string(p.status().message()).c_str());
    return 2;
  }
  spdlog::info("qipu gtp: policy {}, rules {}, seed {}", (*p)->spec(),
               rules::RulesKey(*r).Text(), seed);
  gtp::EngineOptions options;
  options.name = "qipu";
  options.version = base::Version();
  options.rules = *r;
  options.size = o.size;
  gtp::Engine engine(std::move(*p), options);
  engine.Run(stdin, stdout);
  return 0;
}

}  // namespace

void AddGtpCommand(CLI::App& app, int* exit_code) {
  auto opts = std::make_shared<GtpOptions>();
  CLI::App* cmd = app.add_subcommand(
      "gtp", "Speak GTP v2 on stdin/stdout (for Sabaki, GoGui, twogtp)");
  cmd->add_option("--policy", opts->policy,
                  "Policy: random, gtp:<engine command line>, or a spec of "
                  "the policy library")
      ->capture_default_str();
  opts->rules.Add(cmd);
  cmd->add_option("--size", opts->size, "Board size before any boardsize")
      ->capture_default_str();
  cmd->add_option("--seed", opts->seed,
                  "Seed of the policy (random when not given; logged)");
  cmd->add_option("--engine-log", opts->engine_log,
                  "File for the stderr of a gtp: policy's engine "
                  "(default: discarded)");
  cmd->callback([opts, exit_code] { *exit_code = RunGtp(*opts); });
}

}  // namespace qipu::ops
