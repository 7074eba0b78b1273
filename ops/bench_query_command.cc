// `qipu bench query`: latency and throughput of openings queries over
// loopback gRPC (bench/query_bench.h).
//
//   qipu bench query --server HOST:PORT [--size 9]       a running coordinator
//   qipu bench query --db DIR                           a coordinator started
//                                                       here on DIR
//   qipu bench query --games N --size 9 [--depth 30] [--db DIR]
//                                                       build a fresh database
//                                                       first (DIR, or a temp
//                                                       dir removed afterwards)
//
// Exit status: 0 done, 1 failure (or a query failed while measuring), 2 bad
// flags.
#include <cstdio>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/console.h"
#include "bench/query_bench.h"
#include "ops/commands.h"
#include "ops/flags.h"
#include "rules/rules.h"

namespace qipu::ops {
namespace {

constexpr char kBenchQueryCmd[] = "bench query";

struct QueryBenchFlags {
  bench::QueryBenchOptions run;
  SecurityFlags security;
  std::string rules = "chinese";
  bool json = false;
};

int RunQueryBench(QueryBenchFlags f) {
  auto preset = rules::PresetRules(f.rules);
  if (!preset.ok()) {
    return base::Fail(kBenchQueryCmd, "--rules", preset.status().message(), 2);
  }
  f.run.rules = *preset;
  f.run.verbose = true;
  if (absl::Status s =
          f.security.Resolve(&f.run.channel.tls, &f.run.channel.token);
      !s.ok()) {
    return base::Fail(kBenchQueryCmd, s, absl::IsInvalidArgument(s) ? 2 : 1);
  }
  auto r = bench::RunQueryBench(f.run);
  if (!r.ok()) {
    return base::Fail(kBenchQueryCmd, r.status(),
                      absl::IsInvalidArgument(r.status()) ? 2 : 1);
  }
  if (f.json) {
    std::printf("%s\n", bench::QueryBenchJson(*r).dump().c_str());
  } else {
    std::fputs(bench::QueryBenchText(*r).c_str(), stdout);
  }
  if (r->errors != 0) {
    return base::Fail(
        kBenchQueryCmd,
        absl::StrCat(r->errors, " queries failed, first: ", r->first_error));
  }
  return 0;
}

}  // namespace

void AddBenchQueryCommand(CLI::App& bench, int* exit_code) {
  auto f = std::make_shared<QueryBenchFlags>();
  bench::QueryBenchOptions& o = f->run;
  CLI::App* q = bench.add_subcommand(
      "query", "Openings query latency and throughput over loopback gRPC");
  q->add_option("--server", o.server, "Coordinator address HOST:PORT");
  f->security.Add(q);
  q->add_option("--db", o.db,
                "Database directory (a coordinator is started on it here)");
  q->add_option("--games", o.games,
                "Build a fresh database of this many self-play games first")
      ->check(CLI::Range(uint64_t{1}, uint64_t{100000000}));
  q->add_option("--size", o.size, "Board size")
      ->check(CLI::Range(2, 25))
      ->capture_default_str();
  q->add_option("--depth", o.depth, "Index depth (plies) of the built games")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  q->add_option("--rules", f->rules, "Rule preset of the built games")
      ->capture_default_str();
  q->add_option("--build-threads", o.build_threads,
                "Threads playing games while building (0 = one per core)");
  q->add_flag(
      "--compact", o.compact,
      "Compact the position index fully before measuring (a database at rest)");
  q->add_option("--seconds", o.seconds, "Measuring time")
      ->check(CLI::Range(0.1, 3600.0))
      ->capture_default_str();
  q->add_option("--threads", o.threads, "Client threads, one channel each")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  q->add_option("--inflight", o.inflight,
                "Calls each client thread keeps in flight (async API)")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  q->add_option("--plies", o.plies, "Positions come from plies 0..N of games")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  q->add_option("--samples", o.samples, "Distinct positions queried")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  q->add_option("--seed", o.seed, "Seed of the games and the sampling")
      ->capture_default_str();
  q->add_flag("--json", f->json, "Print one JSON object");
  q->callback([f, exit_code] { *exit_code = RunQueryBench(*f); });
}

}  // namespace qipu::ops
