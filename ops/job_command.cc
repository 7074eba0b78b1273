// `qipu job submit --server ADDR --games N --size S [--rules R] [--ko K]
// [--cycle C] [--suicide] [--komi K] [--handicap H] [--policy P]
// [--black-policy P] [--white-policy P] [--index-depth D] [--seed X]
// [--json]` creates a self-play job (policy specs: policy/spec.h, or
// gtp:<command line>; canonicalised, a bad one refused naming the flag) and
// prints
// {"job": ID}; `qipu job status (--server ADDR | --db DIR) [--job ID]
// [--json]` prints requested, done (games stored), rejected and state per
// job; `qipu job cancel (--server ADDR | --db DIR) --job ID [--json]` stops
// a job's games from being handed out (JobService.CancelJob) and prints
// its status. With --db the database is opened here (no coordinator may
// have it open).
//
// Exit status: 0 done, 1 the call failed, 2 bad flags.
#include <cstdio>
#include <memory>
#include <string>

#include "backend/job_client.h"
#include "base/console.h"
#include "nlohmann/json.hpp"
#include "ops/commands.h"
#include "ops/flags.h"
#include "report/job_report.h"

namespace qipu::ops {
namespace {

struct SubmitOptions {
  TargetFlags target;
  JobSpecFlags spec;
  bool json = false;
};

// status and cancel: a coordinator (--server) or a database (--db).
struct StatusOptions {
  TargetFlags target;
  uint64_t job = 0;
  bool json = false;
};

int Fail(const std::string& cmd, const absl::Status& s) {
  return base::Fail("job " + cmd, s.message(),
                    absl::IsInvalidArgument(s) ? 2 : 1);
}

// The client of the flags' target.
absl::StatusOr<std::unique_ptr<backend::JobClient>> Open(const TargetFlags& f) {
  auto target = f.ToTarget();
  if (!target.ok()) return target.status();
  return backend::JobClient::Open(*target);
}

int RunSubmit(const SubmitOptions& o) {
  auto req = o.spec.Request();
  if (!req.ok()) return Fail("submit", req.status());
  auto jobs = Open(o.target);
  if (!jobs.ok()) return Fail("submit", jobs.status());
  auto job = (*jobs)->Submit(*req);
  if (!job.ok()) return Fail("submit", job.status());
  if (o.json) {
    std::printf("%s\n",
                nlohmann::json{{"job", *job}, {"seed", req->config().seed()}}
                    .dump()
                    .c_str());
  } else {
    std::printf("job %llu submitted (seed %llu)\n",
                static_cast<unsigned long long>(*job),
                static_cast<unsigned long long>(req->config().seed()));
  }
  return 0;
}

int RunStatus(const StatusOptions& o) {
  auto jobs = Open(o.target);
  if (!jobs.ok()) return Fail("status", jobs.status());
  auto st = (*jobs)->Status(o.job);
  if (!st.ok()) return Fail("status", st.status());
  if (!o.json) {
    std::fputs(report::JobsText(*st).c_str(), stdout);
  } else if (o.job != 0 && st->size() == 1) {
    std::printf("%s\n", report::JobJson((*st)[0]).dump().c_str());
  } else {
    nlohmann::json all = nlohmann::json::array();
    for (const auto& j : *st) all.push_back(report::JobJson(j));
    std::printf("%s\n", nlohmann::json{{"jobs", all}}.dump().c_str());
  }
  return 0;
}

int RunCancel(const StatusOptions& o) {
  auto jobs = Open(o.target);
  if (!jobs.ok()) return Fail("cancel", jobs.status());
  auto st = (*jobs)->Cancel(o.job);
  if (!st.ok()) return Fail("cancel", st.status());
  if (o.json) {
    std::printf("%s\n", report::JobJson(*st).dump().c_str());
  } else {
    std::printf("job %llu cancelled: %llu of %llu games stored\n",
                static_cast<unsigned long long>(st->job()),
                static_cast<unsigned long long>(st->done()),
                static_cast<unsigned long long>(st->requested()));
  }
  return 0;
}

}  // namespace

void AddJobCommand(CLI::App& app, int* exit_code) {
  CLI::App* job =
      app.add_subcommand("job", "Submit self-play jobs and follow them");
  job->require_subcommand(1);

  auto so = std::make_shared<SubmitOptions>();
  CLI::App* submit = job->add_subcommand("submit", "Create a self-play job");
  submit->add_option("--server", so->target.server, "Coordinator HOST:PORT")
      ->required();
  submit
      ->add_option("--timeout", so->target.timeout_s,
                   "Deadline of the call, seconds")
      ->check(CLI::Range(0.01, 3600.0))
      ->capture_default_str();
  so->target.security.Add(submit);
  so->spec.Add(submit);
  submit->add_flag("--json", so->json, "Print {\"job\": ID}");
  submit->callback([so, exit_code] { *exit_code = RunSubmit(*so); });

  auto st = std::make_shared<StatusOptions>();
  CLI::App* status = job->add_subcommand("status", "Progress of jobs");
  st->target.Add(status);
  status->add_option("--job", st->job, "Job id (default: all jobs)");
  status->add_flag("--json", st->json, "Print JSON");
  status->callback([st, exit_code] { *exit_code = RunStatus(*st); });

  auto co = std::make_shared<StatusOptions>();
  CLI::App* cancel = job->add_subcommand(
      "cancel",
      "Cancel a job: no more of its games are handed out, its leases end "
      "(games already uploaded are still stored)");
  co->target.Add(cancel);
  cancel->add_option("--job", co->job, "Job id")
      ->required()
      ->check(CLI::Range(uint64_t{1}, ~uint64_t{0}));
  cancel->add_flag("--json", co->json, "Print the job's status as JSON");
  cancel->callback([co, exit_code] { *exit_code = RunCancel(*co); });
}

}  // namespace qipu::ops
