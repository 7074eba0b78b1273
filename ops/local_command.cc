// `qipu local --games N --size S [job flags] [--threads T] --db DIR`: the
// one-machine mode behind ./ops/run (local/local_run.h): a coordinator and
// a worker in this process play one job, with a progress bar, then a
// summary of what the games hold -- results, ko captures, cycles and the
// top openings -- answered by the query engine from the database, as
// `qipu query --db DIR` would. SIGINT or SIGTERM stops the run cleanly:
// the games in progress finish, the summary covers the games stored, and
// the exit status is 128 + signal (a second signal ends it at once).
//
// Exit status: 0 done, 1 failure (or the job was cancelled), 2 bad flags,
// 128 + signal when interrupted.
#include <cstdio>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/console.h"
#include "base/signals.h"
#include "local/local_report.h"
#include "local/local_run.h"
#include "ops/commands.h"
#include "ops/flags.h"

namespace qipu::ops {
namespace {

constexpr char kLocalCmd[] = "local";

struct LocalCommandOptions {
  JobSpecFlags spec;
  local::LocalOptions run;
  bool json = false;
  // How the embedded worker reaches the coordinator.
  std::string transport = "inproc";
};

int RunLocal(LocalCommandOptions o) {
  auto req = o.spec.Request();
  if (!req.ok()) return base::Fail(kLocalCmd, req.status().message());
  o.run.job = *std::move(req);
  o.run.tcp = o.transport == "tcp";
  // Taken by the loop below, not by a handler: the run stops cleanly and
  // still prints what it stored. Before the coordinator's and worker's
  // threads start, so that they inherit the mask.
  const base::StopSignals signals;
  auto run = local::LocalRun::Start(o.run);
  if (!run.ok()) {
    // A bad --job is the user's: its message alone; a refused submission
    // keeps its status code.
    return base::Fail(kLocalCmd, o.run.resume_job != 0
                                     ? std::string(run.status().message())
                                     : run.status().ToString());
  }
  local::LocalRun& r = **run;
  for (const auto& st : r.OtherUnfinishedJobs()) {
    std::fputs(local::UnfinishedJobNote(st, o.run.db).c_str(), stderr);
  }
  // Without a terminal there is no progress bar: one line says the run
  // started (for logs, and for whoever waits on them).
  if (!base::IsTerminal(2)) {
    std::fputs(
        local::StartLine(r.job(), r.requested(), r.config(), o.run.db).c_str(),
        stderr);
  }
  int interrupted = 0;
  {
    base::ProgressBar bar(absl::StrCat("job ", r.job()), r.requested());
    for (;;) {
      auto p = r.Poll();
      if (!p.ok()) {
        bar.Finish();
        return base::Fail(kLocalCmd, p.status().message());
      }
      bar.Update(p->done, absl::StrCat("rejected ", p->rejected));
      if (p->finished || p->cancelled) break;
      interrupted = signals.Wait(absl::Milliseconds(100));
      if (interrupted > 0) break;
    }
  }
  if (interrupted > 0) {
    // A second Ctrl-C while the worker finishes its games ends the
    // process at once (nothing acknowledged is lost: it is in the WAL).
    signals.LetNextOneKill();
    std::fprintf(stderr,
                 "qipu local: %s: stopping (the games in progress finish; "
                 "press Ctrl-C again to quit at once)\n",
                 base::SignalName(interrupted));
  }
  auto summary = r.Finish(interrupted);
  if (!summary.ok()) {
    return base::Fail(kLocalCmd, absl::StrCat("summary query: ",
                                              summary.status().ToString()));
  }
  if (o.json) {
    std::printf("%s\n", local::SummaryJson(*summary).dump().c_str());
  } else {
    std::fputs(local::SummaryText(*summary).c_str(), stdout);
  }
  if (interrupted > 0) return 128 + interrupted;
  return summary->cancelled ? 1 : 0;
}

}  // namespace

void AddLocalCommand(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<LocalCommandOptions>();
  o->spec.games = 100000;
  CLI::App* cmd = app.add_subcommand("local",
                                     "Self-play on this machine: embedded "
                                     "coordinator + worker, then a summary");
  o->spec.Add(cmd);
  cmd->add_option("--threads", o->run.threads, "Worker playing threads")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--db", o->run.db, "Database directory")
      ->capture_default_str();
  cmd->add_option("--top", o->run.top, "Openings in the summary")
      ->check(CLI::Range(0, 400))
      ->capture_default_str();
  cmd->add_flag("--json", o->json, "Print the summary as JSON");
  cmd->add_option("--transport", o->transport,
                  "Worker to coordinator: inproc (in-process gRPC channel) "
                  "or tcp (127.0.0.1, as a remote worker)")
      ->check(CLI::IsMember({"inproc", "tcp"}))
      ->capture_default_str();
  cmd->add_option("--job", o->run.resume_job,
                  "Continue this job of the database (one an interrupted "
                  "run left) instead of submitting a new one; the job "
                  "flags are then ignored");
  cmd->callback([o, exit_code] { *exit_code = RunLocal(*o); });
}

}  // namespace qipu::ops
