// `qipu job submit --server ADDR --games N --size S [--rules R] [--ko K]
// [--cycle C] [--suicide] [--komi K] [--handicap H] [--policy random]
// [--index-depth D] [--seed X] [--json]` creates a self-play job and prints
// {"job": ID}; `qipu job status --server ADDR [--job ID] [--json]` prints
// requested, done (games stored), rejected and state per job.
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "absl/random/random.h"
#include "nlohmann/json.hpp"
#include "ops/cli_util.h"
#include "ops/commands.h"
#include "ops/job_spec.h"
#include "proto/convert.h"
#include "qipu/v1/work.grpc.pb.h"

namespace qipu::ops {
namespace {

struct SubmitOptions {
  std::string server;
  JobSpecFlags spec;
  bool json = false;
};

struct StatusOptions {
  std::string server;
  uint64_t job = 0;
  bool json = false;
};

int Fail(const char* what, const grpc::Status& s) {
  std::fprintf(stderr, "qipu job %s: %s (%s)\n", what,
               s.error_message().c_str(),
               s.error_code() == grpc::StatusCode::UNAVAILABLE
                   ? "is the coordinator running at that address?"
                   : "request refused");
  return 1;
}

int RunSubmit(const SubmitOptions& o) {
  auto req = o.spec.Request();
  if (!req.ok()) {
    std::fprintf(stderr, "qipu job submit: %s\n",
                 std::string(req.status().message()).c_str());
    return 2;
  }
  auto stub = qipu::v1::JobService::NewStub(Dial(o.server));
  grpc::ClientContext ctx;
  SetDeadline(&ctx, 30);
  qipu::v1::SubmitJobResponse resp;
  grpc::Status s = stub->SubmitJob(&ctx, *req, &resp);
  if (!s.ok()) return Fail("submit", s);
  if (o.json) {
    std::printf("%s\n", nlohmann::json{{"job", resp.job()},
                                       {"seed", req->config().seed()}}
                            .dump()
                            .c_str());
  } else {
    std::printf("job %llu submitted (seed %llu)\n",
                static_cast<unsigned long long>(resp.job()),
                static_cast<unsigned long long>(req->config().seed()));
  }
  return 0;
}

const char* StateName(qipu::v1::JobState s) {
  return s == qipu::v1::JOB_STATE_DONE ? "done" : "running";
}

nlohmann::json StatusJson(const qipu::v1::JobStatus& s) {
  return {{"job", s.job()},
          {"requested", s.requested()},
          {"done", s.done()},
          {"rejected", s.rejected()},
          {"state", StateName(s.state())},
          {"open_leases", s.open_leases()},
          {"size", s.config().width()},
          {"rules", s.config().rules().preset()},
          {"seed", s.config().seed()}};
}

int RunStatus(const StatusOptions& o) {
  auto stub = qipu::v1::JobService::NewStub(Dial(o.server));
  grpc::ClientContext ctx;
  SetDeadline(&ctx, 30);
  qipu::v1::GetJobStatusRequest req;
  req.set_job(o.job);
  qipu::v1::GetJobStatusResponse resp;
  grpc::Status s = stub->GetJobStatus(&ctx, req, &resp);
  if (!s.ok()) return Fail("status", s);
  if (o.json) {
    if (o.job != 0 && resp.jobs_size() == 1) {
      std::printf("%s\n", StatusJson(resp.jobs(0)).dump().c_str());
    } else {
      nlohmann::json all = nlohmann::json::array();
      for (const auto& j : resp.jobs()) all.push_back(StatusJson(j));
      std::printf("%s\n", nlohmann::json{{"jobs", all}}.dump().c_str());
    }
    return 0;
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& j : resp.jobs()) {
    rows.push_back(
        {std::to_string(j.job()), StateName(j.state()),
         std::to_string(j.done()) + "/" + std::to_string(j.requested()),
         std::to_string(j.rejected()), std::to_string(j.open_leases()),
         std::to_string(j.config().width()) + "x" +
             std::to_string(j.config().height()),
         j.config().rules().preset()});
  }
  PrintTable({"job", "state", "stored", "rejected", "leases", "size", "rules"},
             rows);
  return 0;
}

}  // namespace

void AddJobCommand(CLI::App& app, int* exit_code) {
  CLI::App* job =
      app.add_subcommand("job", "Submit self-play jobs and follow them");
  job->require_subcommand(1);

  auto so = std::make_shared<SubmitOptions>();
  CLI::App* submit = job->add_subcommand("submit", "Create a self-play job");
  submit->add_option("--server", so->server, "Coordinator HOST:PORT")
      ->required();
  so->spec.Add(submit);
  submit->add_flag("--json", so->json, "Print {\"job\": ID}");
  submit->callback([so, exit_code] { *exit_code = RunSubmit(*so); });

  auto st = std::make_shared<StatusOptions>();
  CLI::App* status = job->add_subcommand("status", "Progress of jobs");
  status->add_option("--server", st->server, "Coordinator HOST:PORT")
      ->required();
  status->add_option("--job", st->job, "Job id (default: all jobs)");
  status->add_flag("--json", st->json, "Print JSON");
  status->callback([st, exit_code] { *exit_code = RunStatus(*st); });
}

}  // namespace qipu::ops
