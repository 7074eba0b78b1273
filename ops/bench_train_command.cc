// `qipu bench train`: how fast training rows come out (bench/train_bench.h)
// -- the server alone, a C++ client and the Python client over loopback
// gRPC -- and their size in .npz files.
//
//   qipu bench train --db DIR                  rows of the games in DIR
//   qipu bench train --games N [--build-size 19] build N self-play games first
//                                              (in --db, or a temp dir)
//   ... [--python /usr/bin/python3 --python-script S --python-path P]
//
// Exit status: 0 done, 1 failure, 2 bad flags.
#include <cstdio>
#include <memory>
#include <string>

#include "base/console.h"
#include "bench/train_bench.h"
#include "ops/commands.h"
#include "ops/flags.h"

namespace qipu::ops {
namespace {

constexpr char kBenchTrainCmd[] = "bench train";

struct TrainBenchFlags {
  bench::TrainBenchOptions run;
  TrainingFlags rows;
  uint32_t batch_size = 256;
  bool json = false;
};

int RunBenchTrain(TrainBenchFlags& f) {
  absl::StatusOr<qipu::v1::TrainingRequest> req = f.rows.Request();
  if (!req.ok())
    return base::Fail(kBenchTrainCmd, "flags", req.status().message(), 2);
  req->set_batch_size(f.batch_size);
  f.run.request = *std::move(req);
  absl::StatusOr<bench::TrainBenchResult> r = bench::RunTrainBench(f.run);
  if (!r.ok()) {
    return base::Fail(kBenchTrainCmd, r.status().message(),
                      absl::IsInvalidArgument(r.status()) ? 2 : 1);
  }
  if (f.json) {
    std::printf("%s\n", bench::TrainBenchJson(*r).dump().c_str());
  } else {
    std::fputs(bench::TrainBenchText(*r).c_str(), stdout);
  }
  return 0;
}

}  // namespace

void AddBenchTrainCommand(CLI::App& bench, int* exit_code) {
  auto f = std::make_shared<TrainBenchFlags>();
  f->rows.symmetries = 8;
  CLI::App* c = bench.add_subcommand(
      "train", "Training rows per second: server, C++ and Python clients");
  c->add_option("--db", f->run.db, "Database directory");
  c->add_option("--games", f->run.games, "Build this many self-play games");
  c->add_option("--build-size", f->run.size, "Board size of the built games")
      ->check(CLI::Range(2, 25))
      ->capture_default_str();
  f->rows.Add(c);
  c->add_option("--batch-size", f->batch_size, "Rows per batch")
      ->capture_default_str();
  c->add_option("--seconds", f->run.seconds, "Seconds per measurement")
      ->check(CLI::Range(0.1, 3600.0))
      ->capture_default_str();
  c->add_option("--python", f->run.python,
                "Python interpreter for the Python client's measurement");
  c->add_option("--python-script", f->run.python_script,
                "python/bench_pull.py");
  c->add_option("--python-path", f->run.python_path,
                "PYTHONPATH holding qipu_client (the build's python/ folder)");
  c->add_option("--export-rows", f->run.export_rows,
                "Rows written to .npz for the bytes-per-row figure")
      ->capture_default_str();
  c->add_flag("--json", f->json, "Print JSON");
  c->callback([f, exit_code] { *exit_code = RunBenchTrain(*f); });
}

}  // namespace qipu::ops
