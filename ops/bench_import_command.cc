// `qipu bench import PATH... [--loops N] [--symmetries K] [--threads T]
// [--index-depth D] [--no-sync] [--json]`: import throughput -- games per
// second from SGF bytes in memory to durable, indexed games -- into a
// fresh temporary database per loop (bench/import_bench.h); --symmetries
// enlarges a small corpus with distinct games.
#include <cstdio>
#include <memory>
#include <string>

#include "base/console.h"
#include "bench/import_bench.h"
#include "engine/importer.h"
#include "ops/commands.h"

namespace qipu::ops {
namespace {

constexpr char kBenchImportCmd[] = "bench import";

struct ImportBenchFlags {
  bench::ImportBenchOptions run;
  bool no_sync = false;
  bool json = false;
};

int RunBenchImport(ImportBenchFlags f) {
  f.run.sync = !f.no_sync;
  auto r = bench::RunImportBench(f.run);
  if (!r.ok()) return base::Fail(kBenchImportCmd, r.status());
  if (f.json) {
    std::printf("%s\n", bench::ImportBenchJson(*r).dump().c_str());
  } else {
    std::fputs(bench::ImportBenchText(*r).c_str(), stdout);
  }
  return 0;
}

}  // namespace

void AddBenchImportCommand(CLI::App& bench, int* exit_code) {
  auto f = std::make_shared<ImportBenchFlags>();
  CLI::App* c = bench.add_subcommand(
      "import", "SGF import throughput into a fresh temporary database");
  c->add_option("paths", f->run.paths, "SGF files and folders")->required();
  c->add_option("--loops", f->run.loops, "Fresh databases to import into")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  c->add_option("--symmetries", f->run.symmetries,
                "Board symmetries each game is imported under (distinct "
                "games)")
      ->check(CLI::Range(1, 8))
      ->capture_default_str();
  c->add_option("--threads", f->run.threads, "Parse/replay threads")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  c->add_option("--index-depth", f->run.index_depth, "Plies indexed per game")
      ->check(CLI::Range(0, engine::kMaxIndexDepth))
      ->capture_default_str();
  c->add_flag("--no-sync", f->no_sync, "Do not fsync the WAL per batch");
  c->add_flag("--json", f->json, "Print one JSON object");
  c->callback([f, exit_code] { *exit_code = RunBenchImport(*f); });
}

}  // namespace qipu::ops
