#include "bench/local_bench.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "base/files.h"
#include "base/status_macros.h"
#include "coordinator/coordinator.h"
#include "engine/prepare.h"
#include "proto/convert.h"
#include "proto/job_policies.h"
#include "rules/replay.h"
#include "rules/selfplay.h"
#include "worker/policy_game.h"
#include "worker/worker.h"

namespace qipu::bench {
namespace {

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
absl::StatusOr<StageCosts> MeasureStages(const engine::JobInfo& job, int n) {
  const qipu::v1::JobConfig& cfg = job.config;
  rules::SelfPlaySpec spec = wire::SelfPlaySpecFor(cfg, job.rules);
  rules::Game game(spec.width, spec.height, spec.rules);
  rules::SelfPlayOutcome outcome;
  std::vector<qipu::v1::Game> uploads(n);
  absl::Duration play;
  // A job of other policies than the light one plays as the worker plays
  // it (worker::PolicyGame), so that its uploads claim what they are.
  const wire::ColourPolicies policies = wire::JobPolicies(cfg);
  std::unique_ptr<worker::PolicyGame> player;
  if (!policies.light()) {
    QIPU_ASSIGN_OR_RETURN(player, worker::PolicyGame::Create(policies));
  }
  worker::PolicyGameOutcome policy_outcome;
  for (int i = 0; i < n; ++i) {
    spec.index = static_cast<uint64_t>(i);
    const absl::Time t = absl::Now();
    if (player != nullptr) {
      if (absl::Status s = player->Play(spec, &game, &policy_outcome);
          !s.ok()) {
        return s;
      }
    } else if (absl::Status s = rules::PlaySelfPlay(spec, &game, &outcome);
               !s.ok()) {
      return s;
    }
    play += absl::Now() - t;
    if (player != nullptr) {
      worker::PolicyGameToProto(game, spec, policy_outcome, policies, job.job,
                                "bench-local", &uploads[i]);
    } else {
      wire::SelfPlayToProto(game, spec, outcome, job.job, "bench-local",
                            &uploads[i]);
    }
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
    auto p = engine::PrepareSelfPlay(uploads[i], job, now);
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

}  // namespace

absl::StatusOr<LocalBenchResult> RunLocalBench(const LocalBenchOptions& o) {
  if (o.job.config().width() != o.job.config().height()) {
    return absl::InvalidArgumentError(
        "the playout benchmark plays square boards only");
  }
  QIPU_ASSIGN_OR_RETURN(const base::RunDir run_dir,
                        base::RunDir::Open(o.dir, "bench-local"));
  const std::filesystem::path root = run_dir.path();

  coordinator::CoordinatorOptions co;
  co.db_dir = (root / "db").string();
  co.listen = "127.0.0.1:0";
  QIPU_ASSIGN_OR_RETURN(std::unique_ptr<coordinator::Coordinator> c,
                        coordinator::Coordinator::Start(co));
  QIPU_ASSIGN_OR_RETURN(const uint64_t job,
                        c->jobs().Submit(o.job.games(), o.job.config()));
  QIPU_ASSIGN_OR_RETURN(const engine::JobInfo info, c->jobs().Find(job));
  LocalBenchResult r;
  r.size = static_cast<int>(info.config.width());
  r.threads = o.threads;
  r.index_depth = info.config.index_depth();

  // 1. The rules core alone, before anything else runs.
  if (o.verbose) {
    std::fprintf(stderr, "full playouts on %d threads for %.1f s...\n",
                 o.threads, o.playout_seconds);
  }
  PlayoutRateOptions po;
  po.size = r.size;
  po.threads = o.threads;
  po.seconds = o.playout_seconds;
  po.mode = "full";
  po.rules = info.rules;
  po.seed = info.config.seed();
  r.playouts = MeasurePlayouts(po);

  // 2. qipu local.
  if (o.verbose) {
    std::fprintf(stderr, "qipu local: %llu games...\n",
                 static_cast<unsigned long long>(o.job.games()));
  }
  QIPU_ASSIGN_OR_RETURN(const EmbeddedRun run,
                        PlayJob(*c, job, o.threads, (root / "spool").string()));
  c->Shutdown();

  // 3. Stage costs, with nothing else running.
  const int sample = static_cast<int>(
      std::min<uint64_t>(o.job.games(), static_cast<uint64_t>(o.sample)));
  if (o.verbose) {
    std::fprintf(stderr, "stage costs over %d games...\n", sample);
  }
  QIPU_ASSIGN_OR_RETURN(const StageCosts stages, MeasureStages(info, sample));

  r.games = run.games;
  r.seconds = run.seconds;
  r.cpu_seconds = run.cpu_seconds;
  r.games_per_sec = run.games / run.seconds;
  r.ratio = r.games_per_sec / r.playouts.playouts_per_sec;
  r.cpu_us_per_game = 1e6 * run.cpu_seconds / run.games;
  r.cores_busy = run.cpu_seconds / run.seconds;
  r.sample_games = stages.games;
  r.play_us_per_game = stages.play_us;
  r.replay_us_per_game = stages.replay_us;
  r.prepare_us_per_game = stages.prepare_us;
  r.rest_us_per_game = r.cpu_us_per_game - stages.play_us - stages.prepare_us;
  return r;
}

nlohmann::json LocalBenchJson(const LocalBenchResult& r) {
  return {{"size", r.size},
          {"threads", r.threads},
          {"index_depth", r.index_depth},
          {"games", r.games},
          {"seconds", r.seconds},
          {"games_per_sec", r.games_per_sec},
          {"full_playouts_per_sec", r.playouts.playouts_per_sec},
          {"ratio", r.ratio},
          {"cpu_us_per_game", r.cpu_us_per_game},
          {"cores_busy", r.cores_busy},
          {"sample_games", r.sample_games},
          {"play_us_per_game", r.play_us_per_game},
          {"replay_us_per_game", r.replay_us_per_game},
          {"prepare_us_per_game", r.prepare_us_per_game},
          {"rest_us_per_game", r.rest_us_per_game}};
}

std::string LocalBenchText(const LocalBenchResult& r) {
  std::string out;
  absl::StrAppendFormat(&out, "%dx%d, %d threads, index depth %u\n", r.size,
                        r.size, r.threads, r.index_depth);
  absl::StrAppendFormat(&out, "  full playouts      %10.0f /s\n",
                        r.playouts.playouts_per_sec);
  // Searching policies play a few games a second: keep their digits.
  absl::StrAppendFormat(
      &out, "  qipu local         %10.*f games/s (%llu games in %.2f s)\n",
      r.games_per_sec < 100 ? 2 : 0, r.games_per_sec,
      static_cast<unsigned long long>(r.games), r.seconds);
  absl::StrAppendFormat(&out, "  ratio              %10.*f\n",
                        r.ratio < 0.01 ? 6 : 3, r.ratio);
  absl::StrAppendFormat(&out,
                        "  CPU per game       %10.1f us (%.2f cores busy)\n",
                        r.cpu_us_per_game, r.cores_busy);
  absl::StrAppendFormat(&out, "    play             %10.1f us\n",
                        r.play_us_per_game);
  absl::StrAppendFormat(&out,
                        "    coordinator      %10.1f us before storage "
                        "(replay alone %.1f us)\n",
                        r.prepare_us_per_game, r.replay_us_per_game);
  absl::StrAppendFormat(&out,
                        "    rest             %10.1f us (storage, index "
                        "files, transport, threads)\n",
                        r.rest_us_per_game);
  return out;
}

}  // namespace qipu::bench
