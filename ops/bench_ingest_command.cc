// `qipu bench ingest --games N --size S [--index-depth D] [--streams K]
// [--batch B] [--upload-batch U] [--dir DIR] [--json]`: ingest throughput
// of the coordinator (bench/ingest_bench.h): N pre-generated games
// streamed over loopback gRPC until every one is acknowledged as durable,
// against the same keys written with raw RocksDB WriteBatches; prints both
// rates and their ratio.
#include <cstdio>
#include <memory>
#include <string>

#include "base/console.h"
#include "bench/ingest_bench.h"
#include "ops/commands.h"
#include "ops/flags.h"

namespace qipu::ops {
namespace {

constexpr char kBenchIngestCmd[] = "bench ingest";

struct IngestBenchFlags {
  JobSpecFlags spec;
  bench::IngestBenchOptions run;
  bool json = false;
};

int RunIngestBench(IngestBenchFlags f) {
  // The bench plays its games itself with the light (random) policy, and
  // the coordinator refuses games whose policy is not the job's.
  for (const std::string* p :
       {&f.spec.policy, &f.spec.black_policy, &f.spec.white_policy}) {
    if (!p->empty() && *p != "random") {
      return base::Fail(kBenchIngestCmd,
                        "--policy/--black-policy/--white-policy '" + *p +
                            "': the ingest bench generates random-"
                            "policy games; only 'random' is measured");
    }
  }
  auto req = f.spec.Request();
  if (!req.ok()) return base::Fail(kBenchIngestCmd, req.status().message());
  f.run.job = *std::move(req);
  f.run.verbose = true;
  auto r = bench::RunIngestBench(f.run);
  if (!r.ok()) return base::Fail(kBenchIngestCmd, r.status());
  if (f.json) {
    std::printf("%s\n", bench::IngestBenchJson(*r).dump().c_str());
  } else {
    std::fputs(bench::IngestBenchText(*r).c_str(), stdout);
  }
  return 0;
}

}  // namespace

void AddBenchIngestCommand(CLI::App& bench, int* exit_code) {
  auto f = std::make_shared<IngestBenchFlags>();
  f->spec.games = 20000;
  CLI::App* cmd = bench.add_subcommand(
      "ingest", "Games per second into the coordinator over loopback gRPC");
  f->spec.Add(cmd);
  cmd->add_option("--streams", f->run.streams, "Concurrent upload streams")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd->add_option("--batch", f->run.batch, "Games per WriteBatch (both paths)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd->add_option("--upload-batch", f->run.upload_batch,
                  "Games per upload message (1: one game a message)")
      ->check(CLI::Range(1, 4096))
      ->capture_default_str();
  cmd->add_option("--dir", f->run.dir,
                  "Keep the databases here (default: temp, removed)");
  cmd->add_option("--tls-dir", f->run.tls_dir,
                  "TLS on the coordinator and the streams, with the "
                  "certificates ops/tls/make-certs wrote in this directory "
                  "(ca.pem, server.pem, server.key)");
  cmd->add_flag("--auth", f->run.auth,
                "The coordinator requires tokens (--auth required); the "
                "streams send a worker token");
  cmd->add_flag("--json", f->json, "Print one JSON object");
  cmd->callback([f, exit_code] { *exit_code = RunIngestBench(*f); });
}

}  // namespace qipu::ops
