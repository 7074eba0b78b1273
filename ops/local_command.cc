// `qipu local --games N --size S [job flags] [--threads T] --db DIR`: the
// one-machine mode behind ./ops/run. Starts a coordinator in this process
// (RocksDB in DIR; its gRPC server on 127.0.0.1) and a worker with T
// playing threads talking to it over the server's in-process channel
// (--transport tcp: over 127.0.0.1, as a remote worker), submits one job, shows
// a progress bar, and prints a summary of what the games hold: results,
// ko captures, cycles and the top openings -- all answered by the query
// engine from the database, as `qipu query --db DIR` would. SIGINT or
// SIGTERM stops the run cleanly: the games in progress finish, the
// summary covers the games stored, and the exit status is 128 + signal.
#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "coordinator/coordinator.h"
#include "coordinator/jobs.h"
#include "coordinator/queries.h"
#include "nlohmann/json.hpp"
#include "ops/cli_util.h"
#include "ops/commands.h"
#include "ops/job_spec.h"
#include "rules/game.h"
#include "spdlog/spdlog.h"
#include "store/store.h"
#include "worker/worker.h"

namespace qipu::ops {
namespace {

struct LocalOptions {
  JobSpecFlags spec;
  int threads = 2;
  std::string db = "./qipu-data";
  int top = 8;
  bool json = false;
  // How the embedded worker reaches the coordinator: "inproc" (gRPC's
  // in-process transport) or "tcp" (127.0.0.1, as a remote worker would).
  std::string transport = "inproc";
  // A job of the database to continue instead of submitting one (0: new).
  uint64_t resume_job = 0;
};

std::string Pct(uint64_t n, uint64_t of) {
  return of == 0 ? "-" : absl::StrFormat("%.1f%%", 100.0 * n / of);
}

// How long the store may refuse writes before `qipu local` gives up.
constexpr absl::Duration kStorageFailureGrace = absl::Seconds(5);

int Fail(const std::string& what) {
  std::fprintf(stderr, "qipu local: %s\n", what.c_str());
  return 1;
}

// This run's job: a new one from the flags, or (--job) one an earlier run
// left unfinished, with its own configuration.
struct LocalJob {
  uint64_t id = 0;
  uint64_t requested = 0;
  qipu::v1::JobConfig config;
  uint64_t done_before = 0;  // games an earlier run of it stored
};

absl::StatusOr<LocalJob> StartJob(coordinator::JobManager& jobs,
                                  const LocalOptions& o,
                                  const qipu::v1::SubmitJobRequest& req) {
  LocalJob job;
  if (o.resume_job == 0) {
    job.requested = req.games();
    job.config = req.config();
    auto id = jobs.Submit(job.requested, job.config);
    if (!id.ok()) return id.status();
    job.id = *id;
    return job;
  }
  auto info = jobs.Find(o.resume_job);
  if (!info.ok()) {
    return absl::NotFoundError(absl::StrCat(
        "--job ", o.resume_job, ": ", info.status().message(), " in ", o.db));
  }
  auto st = jobs.Status(o.resume_job);
  if (!st.ok()) return st.status();
  if ((*st)[0].state() == qipu::v1::JOB_STATE_CANCELLED) {
    return absl::FailedPreconditionError(
        absl::StrCat("--job ", o.resume_job, ": the job was cancelled (its ",
                     (*st)[0].done(), " stored games stay in ", o.db,
                     "); it cannot be continued"));
  }
  job.id = o.resume_job;
  job.requested = info->requested;
  job.config = info->config;
  job.done_before = (*st)[0].done();
  return job;
}

// Jobs an earlier run left unfinished (interrupted, killed) stay as they
// are -- this run's worker plays its own job only --; says so on stderr.
void NoteUnfinishedJobs(const coordinator::JobManager& jobs, uint64_t own,
                        const std::string& db) {
  auto all = jobs.Status(0);
  if (!all.ok()) return;
  for (const auto& st : *all) {
    if (st.job() == own || st.state() != qipu::v1::JOB_STATE_RUNNING) continue;
    std::fprintf(stderr,
                 "qipu local: job %llu of an earlier run has %llu of %llu "
                 "games stored; it is left as it is (qipu local --job %llu "
                 "continues it, qipu job cancel --db %s --job %llu ends "
                 "it)\n",
                 static_cast<unsigned long long>(st.job()),
                 static_cast<unsigned long long>(st.done()),
                 static_cast<unsigned long long>(st.requested()),
                 static_cast<unsigned long long>(st.job()), db.c_str(),
                 static_cast<unsigned long long>(st.job()));
  }
}

int RunLocal(const LocalOptions& o) {
  auto req = o.spec.Request();
  if (!req.ok()) return Fail(std::string(req.status().message()));
  std::error_code ec;
  std::filesystem::create_directories(o.db, ec);
  if (ec) return Fail(absl::StrCat("--db ", o.db, ": ", ec.message()));

  // SIGINT and SIGTERM are blocked in every thread (the coordinator's and
  // worker's inherit the mask) and taken by the progress loop below: the
  // run stops cleanly and still prints what it stored.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  coordinator::CoordinatorOptions co;
  co.db_dir = o.db;
  co.listen = "127.0.0.1:0";
  auto c = coordinator::Coordinator::Start(co);
  if (!c.ok()) return Fail(c.status().ToString());
  auto started = StartJob((*c)->jobs(), o, *req);
  if (!started.ok()) {
    // A bad --job is the user's: its message alone; a refused submission
    // keeps its status code.
    return Fail(o.resume_job != 0 ? std::string(started.status().message())
                                  : started.status().ToString());
  }
  const uint64_t job = started->id;
  const uint64_t requested = started->requested;
  const qipu::v1::JobConfig& config = started->config;
  NoteUnfinishedJobs((*c)->jobs(), job, o.db);

  worker::WorkerOptions wo;
  wo.coordinator = (*c)->address();
  wo.job = job;
  if (o.transport == "inproc") wo.channel = (*c)->InProcessChannel();
  wo.threads = o.threads;
  wo.spool_dir = (std::filesystem::path(o.db) / "worker-spool").string();
  wo.name = "local";
  worker::Worker w(wo);
  if (absl::Status s = w.Start(); !s.ok()) return Fail(s.ToString());

  const absl::Time t0 = absl::Now();
  // Without a terminal there is no progress bar: one line says the run
  // started (for logs, and for whoever waits on them).
  if (!IsTerminal(2)) {
    std::fprintf(stderr,
                 "qipu local: job %llu started: %llu games of %ux%u %s, "
                 "database %s\n",
                 static_cast<unsigned long long>(job),
                 static_cast<unsigned long long>(requested), config.width(),
                 config.height(), config.rules().preset().c_str(),
                 o.db.c_str());
  }
  ProgressBar bar(absl::StrCat("job ", job), requested);
  uint64_t done = 0;
  int interrupted = 0;     // the stop signal taken, or 0
  bool cancelled = false;  // someone cancelled the job (qipu job cancel)
  for (;;) {
    auto st = (*c)->jobs().Status(job);
    if (!st.ok()) return Fail(st.status().ToString());
    done = (*st)[0].done();
    bar.Update(done, absl::StrCat("rejected ", (*st)[0].rejected()));
    if ((*st)[0].state() == qipu::v1::JOB_STATE_DONE) break;
    if ((*st)[0].state() == qipu::v1::JOB_STATE_CANCELLED) {
      cancelled = true;
      break;
    }
    // A store that refuses writes (full disk, deleted directory) would
    // have the worker resend forever: give it a few of the store's resume
    // attempts, then stop with the cause.
    const store::StorageHealth& health = (*c)->store().health();
    if (health.failing() && (health.fatal() || absl::Now() - health.Since() >
                                                   kStorageFailureGrace)) {
      const absl::Status cause = health.Get();
      bar.Finish();
      w.Stop(/*graceful=*/false);
      (void)w.Wait();
      (*c)->Shutdown(absl::Seconds(1));
      return Fail(absl::StrCat(
          "stopped: the database no longer takes writes: ", cause.ToString(),
          "\n  ", done, " games of job ", job,
          " were stored and acknowledged before the failure; free space "
          "(or restore ",
          o.db, ") and run again"));
    }
    const timespec poll = {0, 100 * 1000 * 1000};
    interrupted = sigtimedwait(&stop_signals, nullptr, &poll);
    if (interrupted > 0) break;
    interrupted = 0;
  }
  bar.Finish();
  const double secs = absl::ToDoubleSeconds(absl::Now() - t0);
  if (interrupted > 0) {
    // A second Ctrl-C while the worker finishes its games ends the
    // process at once (nothing acknowledged is lost: it is in the WAL).
    signal(interrupted, SIG_DFL);
    pthread_sigmask(SIG_UNBLOCK, &stop_signals, nullptr);
    std::fprintf(stderr,
                 "qipu local: %s: stopping (the games in progress finish; "
                 "press Ctrl-C again to quit at once)\n",
                 strsignal(interrupted));
  }
  w.Stop(/*graceful=*/true);
  if (absl::Status s = w.Wait(); !s.ok()) {
    spdlog::warn("local: worker: {}", s.ToString());
  }

  // The summary comes from the database, through the query engine.
  qipu::v1::Filter filter;
  filter.set_source(absl::StrCat("job:", job));
  filter.set_width(config.width());
  filter.set_height(config.height());
  coordinator::QueryEngine& q = (*c)->queries();
  qipu::v1::ResultsRequest rr;
  *rr.mutable_filter() = filter;
  qipu::v1::KoRequest kr;
  *kr.mutable_filter() = filter;
  qipu::v1::CyclesRequest cr;
  *cr.mutable_filter() = filter;
  qipu::v1::OpeningsRequest orq;
  *orq.mutable_filter() = filter;
  orq.set_limit(static_cast<uint32_t>(o.top));
  auto results = q.Results(rr);
  auto ko = q.Ko(kr);
  auto cycles = q.Cycles(cr);
  auto openings = q.Openings(orq);
  for (const absl::Status& s :
       {results.status(), ko.status(), cycles.status(), openings.status()}) {
    if (!s.ok()) return Fail(absl::StrCat("summary query: ", s.ToString()));
  }
  const auto& out = results->outcomes();
  // The rate of this run: games an earlier run of the job stored are in
  // the summary, not in the rate.
  const uint64_t played_now =
      out.games() - std::min<uint64_t>(out.games(), started->done_before);
  const double rate = secs > 0 ? played_now / secs : 0.0;
  if (o.json) {
    nlohmann::json cyc = nlohmann::json::array();
    for (const auto& row : cycles->rows()) {
      cyc.push_back(
          {{"class", rules::CycleClassName(
                         static_cast<rules::CycleClass>(row.cls() - 1))},
           {"outcome", rules::CycleOutcomeName(static_cast<rules::CycleOutcome>(
                           row.outcome() - 1))},
           {"cycles", row.cycles()},
           {"games", row.games()}});
    }
    nlohmann::json op = nlohmann::json::array();
    for (const auto& cont : openings->continuations()) {
      op.push_back({{"move", cont.move()},
                    {"games", cont.outcomes().games()},
                    {"black_wins", cont.outcomes().black_wins()}});
    }
    nlohmann::json j = {{"job", job},
                        {"seed", config.seed()},
                        {"games", out.games()},
                        {"seconds", secs},
                        {"games_per_sec", rate},
                        {"black_wins", out.black_wins()},
                        {"white_wins", out.white_wins()},
                        {"draws", out.draws()},
                        {"void", out.void_()},
                        {"ko_captures_mean", ko->all().mean()},
                        {"games_with_ko", ko->all().games_with_ko()},
                        {"cycles", cyc},
                        {"top_openings", op},
                        {"db", o.db}};
    if (interrupted > 0) {
      j["interrupted"] = strsignal(interrupted);
      j["requested"] = requested;
    }
    if (cancelled) {
      j["cancelled"] = true;
      j["requested"] = requested;
    }
    std::printf("%s\n", j.dump().c_str());
  } else {
    if (cancelled) {
      std::printf(
          "\nqipu local: job %llu was cancelled: %llu of its %llu games are "
          "stored\n",
          static_cast<unsigned long long>(job),
          static_cast<unsigned long long>(out.games()),
          static_cast<unsigned long long>(requested));
    }
    if (interrupted > 0) {
      std::printf(
          "\nqipu local: interrupted (%s): %llu of the %llu games of job "
          "%llu are stored; the others stay queued in the job\n",
          strsignal(interrupted), static_cast<unsigned long long>(out.games()),
          static_cast<unsigned long long>(requested),
          static_cast<unsigned long long>(job));
    }
    std::printf(
        "\nqipu local: job %llu, %llu games of %ux%u %s (seed %llu) in "
        "%.1f s (%.0f games/s), database %s\n",
        static_cast<unsigned long long>(job),
        static_cast<unsigned long long>(out.games()), config.width(),
        config.height(), config.rules().preset().c_str(),
        static_cast<unsigned long long>(config.seed()), secs, rate,
        o.db.c_str());
    std::printf(
        "results: Black %llu (%s), White %llu (%s), draws %llu, "
        "void %llu; mean length %.1f moves\n",
        static_cast<unsigned long long>(out.black_wins()),
        Pct(out.black_wins(), out.games()).c_str(),
        static_cast<unsigned long long>(out.white_wins()),
        Pct(out.white_wins(), out.games()).c_str(),
        static_cast<unsigned long long>(out.draws()),
        static_cast<unsigned long long>(out.void_()), results->mean_length());
    std::printf(
        "ko: %.2f ko captures per game (median %.0f, p99 %.0f), %s of "
        "games with at least one\n",
        ko->all().mean(), ko->all().p50(), ko->all().p99(),
        Pct(ko->all().games_with_ko(), ko->all().games()).c_str());
    if (cycles->rows().empty()) {
      std::printf("cycles: none\n");
    } else {
      std::printf("cycles:\n");
      for (const auto& row : cycles->rows()) {
        std::printf("  %-26s %-21s %6llu in %llu games (%.1f per 10,000)\n",
                    rules::CycleClassName(
                        static_cast<rules::CycleClass>(row.cls() - 1)),
                    rules::CycleOutcomeName(
                        static_cast<rules::CycleOutcome>(row.outcome() - 1)),
                    static_cast<unsigned long long>(row.cycles()),
                    static_cast<unsigned long long>(row.games()),
                    row.per_10k());
      }
    }
    std::printf("top openings (first move, all symmetries folded):\n");
    std::vector<std::vector<std::string>> rows;
    for (const auto& cont : openings->continuations()) {
      const auto& oc = cont.outcomes();
      rows.push_back({"  " + cont.move(), std::to_string(oc.games()),
                      Pct(oc.black_wins(), oc.games())});
    }
    PrintTable({"  move", "games", "Black wins"}, rows);
    std::printf(
        "ask more: qipu query openings --db %s --size %u --moves \"%s\"\n",
        o.db.c_str(), config.width(),
        openings->continuations().empty()
            ? ""
            : openings->continuations(0).move().c_str());
  }
  (*c)->Shutdown();
  if (interrupted > 0) return 128 + interrupted;
  return cancelled ? 1 : 0;
}

}  // namespace

void AddLocalCommand(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<LocalOptions>();
  o->spec.games = 5000;
  CLI::App* cmd = app.add_subcommand("local",
                                     "Self-play on this machine: embedded "
                                     "coordinator + worker, then a summary");
  o->spec.Add(cmd);
  cmd->add_option("--threads", o->threads, "Worker playing threads")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--db", o->db, "Database directory")->capture_default_str();
  cmd->add_option("--top", o->top, "Openings in the summary")
      ->check(CLI::Range(0, 400))
      ->capture_default_str();
  cmd->add_flag("--json", o->json, "Print the summary as JSON");
  cmd->add_option("--transport", o->transport,
                  "Worker to coordinator: inproc (in-process gRPC channel) "
                  "or tcp (127.0.0.1, as a remote worker)")
      ->check(CLI::IsMember({"inproc", "tcp"}))
      ->capture_default_str();
  cmd->add_option("--job", o->resume_job,
                  "Continue this job of the database (one an interrupted "
                  "run left) instead of submitting a new one; the job "
                  "flags are then ignored");
  cmd->callback([o, exit_code] { *exit_code = RunLocal(*o); });
}

}  // namespace qipu::ops
