// `qipu bench local --games N --size S [--threads T] [--index-depth D]
// [--playout-seconds X] [--dir DIR] [--json]`: what `qipu local` makes of
// the rules core's speed, measured in one run (this VM's speed drifts by
// 15-25% over minutes, so two separate commands compare badly).
//
//   1. Full-rules playouts on T threads for X seconds, as `qipu bench
//      playouts --mode full --threads T` measures them.
//   2. `qipu local` on the same board: an embedded coordinator over a fresh
//      RocksDB and a worker with T playing threads on the in-process gRPC
//      channel play an N-game job; games_per_sec from the worker's start to
//      the job's end, and the CPU the whole process used meanwhile
//      (getrusage: the coordinator's threads, RocksDB's, the worker's).
//   3. Where that CPU goes, one game at a time on one thread, over a sample
//      of the job's games: playing a game, replaying it (the rules check
//      alone) and everything the coordinator does to a game before storage
//      (coordinator::PrepareSelfPlay: checks, replay, index entries,
//      encoding). The rest of the CPU per game is storage, the position
//      index's files, transport and thread hand-offs.
// It prints games_per_sec, full_playouts_per_sec and their ratio.
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "coordinator/coordinator.h"
#include "coordinator/prepare.h"
#include "nlohmann/json.hpp"
#include "ops/commands.h"
#include "ops/flags.h"
#include "ops/playout_rate.h"
#include "proto/convert.h"
#include "rules/replay.h"
#include "rules/selfplay.h"
#include "worker/worker.h"

namespace qipu::ops {
namespace {

struct LocalBenchOptions {
  JobSpecFlags spec;
  int threads = 2;
  double playout_seconds = 3;
  // Games of the job timed one at a time in step 3 (at most --games).
  int sample = 2000;
  std::string dir;
  bool json = false;
};

int Fail(const std::string& what) {
  std::fprintf(stderr, "qipu bench local: %s\n", what.c_str());
  return 1;
}

// User plus system CPU seconds of this process so far.
double ProcessCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

// Step 2's outcome.
struct EmbeddedRun {
  uint64_t games = 0;
  double seconds = 0;
  double cpu_seconds = 0;
};

// Plays job `job` of `c` to its end with a worker of `threads` threads on
// the in-process channel; spool under `spool_dir`.
absl::StatusOr<EmbeddedRun> PlayJob(coordinator::Coordinator& c, uint64_t job,
                                    int threads, const std::string& spool_dir) {
  worker::WorkerOptions wo;
  wo.coordinator = c.address();
  wo.channel = c.InProcessChannel();
  wo.job = job;
  wo.threads = threads;
  wo.spool_dir = spool_dir;
  wo.name = "bench-local";
  worker::Worker w(wo);
  const double cpu0 = ProcessCpuSeconds();
  const absl::Time t0 = absl::Now();
  if (absl::Status s = w.Start(); !s.ok()) return s;
  EmbeddedRun run;
  for (;;) {
    auto st = c.jobs().Status(job);
    if (!st.ok()) return st.status();
    const qipu::v1::JobStatus& js = (*st)[0];
    if (js.rejected() > 0) {
      return absl::InternalError(absl::StrCat(
          js.rejected(), " games of the job were rejected by the coordinator"));
    }
    if (c.store().health().fatal()) return c.store().health().Get();
    if (js.state() == qipu::v1::JOB_STATE_DONE) {
      run.games = js.done();
      break;
    }
    absl::SleepFor(absl::Milliseconds(5));
  }
  run.seconds = absl::ToDoubleSeconds(absl::Now() - t0);
  run.cpu_seconds = ProcessCpuSeconds() - cpu0;
  w.Stop(/*graceful=*/true);
  if (absl::Status s = w.Wait(); !s.ok()) return s;
  return run;
}

// Step 3's outcome: microseconds per game on one thread.
struct StageCosts {
  int games = 0;
  double play_us = 0;
  double replay_us = 0;
  double prepare_us = 0;
};

// Plays games [0, n) of `job` again, one thread, timing each stage over
// all of them.
absl::StatusOr<StageCosts> MeasureStages(const coordinator::JobInfo& job,
                                         int n) {
  const qipu::v1::JobConfig& cfg = job.config;
  rules::SelfPlaySpec spec = wire::SelfPlaySpecFor(cfg, job.rules);
  rules::Game game(spec.width, spec.height, spec.rules);
  rules::SelfPlayOutcome outcome;
  std::vector<qipu::v1::Game> uploads(n);
  absl::Duration play;
  for (int i = 0; i < n; ++i) {
    spec.index = static_cast<uint64_t>(i);
    const absl::Time t = absl::Now();
    if (absl::Status s = rules::PlaySelfPlay(spec, &game, &outcome); !s.ok()) {
      return s;
    }
    play += absl::Now() - t;
    wire::SelfPlayToProto(game, spec, outcome, job.job, "bench-local",
                          &uploads[i]);
  }
  // The rules check alone: the records replayed into one reused Game, as
  // the coordinator's handler does.
  std::vector<rules::GameRecord> records;
  std::vector<std::vector<rules::CycleRecord>> prevented(n);
  records.reserve(n);
  for (int i = 0; i < n; ++i) {
    auto r = wire::GameToRecord(uploads[i]);
    if (!r.ok()) return r.status();
    records.push_back(*std::move(r));
    for (const auto& c : uploads[i].cycles()) {
      auto cr = wire::CycleFromProto(c, spec.width, spec.height);
      if (!cr.ok()) return cr.status();
      if (cr->outcome == rules::CycleOutcome::kPreventedSuperko ||
          cr->outcome == rules::CycleOutcome::kPreventedCycleRule) {
        prevented[i].push_back(*cr);
      }
    }
  }
  absl::Time t = absl::Now();
  for (int i = 0; i < n; ++i) {
    auto report = rules::ReplayInto(records[i], job.rules, prevented[i], &game);
    if (!report.ok()) return report.status();
    if (!report->legal) {
      return absl::InternalError(
          absl::StrCat("game ", i, " of the job does not replay"));
    }
  }
  const absl::Duration replay = absl::Now() - t;
  // Everything the coordinator does to an uploaded game before storage.
  const absl::Time now = absl::Now();
  t = absl::Now();
  for (int i = 0; i < n; ++i) {
    auto p = coordinator::PrepareSelfPlay(uploads[i], job, now);
    if (!p.ok()) return p.status();
  }
  const absl::Duration prepare = absl::Now() - t;
  StageCosts out;
  out.games = n;
  out.play_us = absl::ToDoubleMicroseconds(play) / n;
  out.replay_us = absl::ToDoubleMicroseconds(replay) / n;
  out.prepare_us = absl::ToDoubleMicroseconds(prepare) / n;
  return out;
}

int RunLocalBench(const LocalBenchOptions& o) {
  auto req = o.spec.Request();
  if (!req.ok()) return Fail(std::string(req.status().message()));
  if (req->config().width() != req->config().height()) {
    return Fail("the playout benchmark plays square boards only");
  }
  const std::filesystem::path root =
      o.dir.empty()
          ? std::filesystem::temp_directory_path() /
                absl::StrCat("qipu-bench-local-", std::random_device{}())
          : std::filesystem::path(o.dir);
  std::error_code ec;
  std::filesystem::remove_all(root, ec);
  std::filesystem::create_directories(root, ec);
  if (ec)
    return Fail(absl::StrCat("--dir ", root.string(), ": ", ec.message()));

  coordinator::CoordinatorOptions co;
  co.db_dir = (root / "db").string();
  co.listen = "127.0.0.1:0";
  auto c = coordinator::Coordinator::Start(co);
  if (!c.ok()) return Fail(c.status().ToString());
  auto job = (*c)->jobs().Submit(req->games(), req->config());
  if (!job.ok()) return Fail(job.status().ToString());
  auto info = (*c)->jobs().Find(*job);
  if (!info.ok()) return Fail(info.status().ToString());
  const int size = static_cast<int>(info->config.width());

  // 1. The rules core alone, before anything else runs.
  std::fprintf(stderr, "full playouts on %d threads for %.1f s...\n", o.threads,
               o.playout_seconds);
  PlayoutRateOptions po;
  po.size = size;
  po.threads = o.threads;
  po.seconds = o.playout_seconds;
  po.mode = "full";
  po.rules = info->rules;
  po.seed = info->config.seed();
  const PlayoutRate playouts = MeasurePlayouts(po);

  // 2. qipu local.
  std::fprintf(stderr, "qipu local: %llu games...\n",
               static_cast<unsigned long long>(req->games()));
  auto run = PlayJob(**c, *job, o.threads, (root / "spool").string());
  if (!run.ok()) return Fail(run.status().ToString());
  (*c)->Shutdown();

  // 3. Stage costs, with nothing else running.
  const int sample = static_cast<int>(
      std::min<uint64_t>(req->games(), static_cast<uint64_t>(o.sample)));
  std::fprintf(stderr, "stage costs over %d games...\n", sample);
  auto stages = MeasureStages(*info, sample);
  if (!stages.ok()) return Fail(stages.status().ToString());
  if (o.dir.empty()) std::filesystem::remove_all(root, ec);

  const double gps = run->games / run->seconds;
  const double ratio = gps / playouts.playouts_per_sec;
  const double cpu_us = 1e6 * run->cpu_seconds / run->games;
  const double busy = run->cpu_seconds / run->seconds;
  const double rest_us = cpu_us - stages->play_us - stages->prepare_us;
  if (o.json) {
    nlohmann::json j = {{"size", size},
                        {"threads", o.threads},
                        {"index_depth", info->config.index_depth()},
                        {"games", run->games},
                        {"seconds", run->seconds},
                        {"games_per_sec", gps},
                        {"full_playouts_per_sec", playouts.playouts_per_sec},
                        {"ratio", ratio},
                        {"cpu_us_per_game", cpu_us},
                        {"cores_busy", busy},
                        {"sample_games", stages->games},
                        {"play_us_per_game", stages->play_us},
                        {"replay_us_per_game", stages->replay_us},
                        {"prepare_us_per_game", stages->prepare_us},
                        {"rest_us_per_game", rest_us}};
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf("%dx%d, %d threads, index depth %u\n", size, size, o.threads,
                info->config.index_depth());
    std::printf("  full playouts      %10.0f /s\n", playouts.playouts_per_sec);
    std::printf("  qipu local         %10.0f games/s (%llu games in %.2f s)\n",
                gps, static_cast<unsigned long long>(run->games), run->seconds);
    std::printf("  ratio              %10.3f\n", ratio);
    std::printf("  CPU per game       %10.1f us (%.2f cores busy)\n", cpu_us,
                busy);
    std::printf("    play             %10.1f us\n", stages->play_us);
    std::printf(
        "    coordinator      %10.1f us before storage (replay "
        "alone %.1f us)\n",
        stages->prepare_us, stages->replay_us);
    std::printf(
        "    rest             %10.1f us (storage, index files, "
        "transport, threads)\n",
        rest_us);
  }
  return 0;
}

}  // namespace

void AddBenchLocalCommand(CLI::App& bench, int* exit_code) {
  auto o = std::make_shared<LocalBenchOptions>();
  o->spec.games = 60000;
  CLI::App* cmd = bench.add_subcommand(
      "local",
      "qipu local against full playouts on as many threads, in one run");
  o->spec.Add(cmd);
  cmd->add_option("--threads", o->threads,
                  "Playing threads (worker and playout benchmark)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--playout-seconds", o->playout_seconds,
                  "Duration of the playout measurement")
      ->check(CLI::Range(0.1, 600.0))
      ->capture_default_str();
  cmd->add_option("--sample", o->sample,
                  "Games timed one at a time for the stage costs")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  cmd->add_option("--dir", o->dir,
                  "Keep the database here (default: temp, removed)");
  cmd->add_flag("--json", o->json, "Print one JSON object");
  cmd->callback([o, exit_code] { *exit_code = RunLocalBench(*o); });
}

}  // namespace qipu::ops
