// `qipu job submit --server ADDR --games N --size S [--rules R] [--ko K]
// [--cycle C] [--suicide] [--komi K] [--handicap H] [--policy random]
// [--index-depth D] [--seed X] [--json]` creates a self-play job and prints
// {"job": ID}; `qipu job status (--server ADDR | --db DIR) [--job ID]
// [--json]` prints requested, done (games stored), rejected and state per
// job; `qipu job cancel (--server ADDR | --db DIR) --job ID [--json]` stops
// a job's games from being handed out (JobService.CancelJob) and prints
// its status. With --db the database is opened here (no coordinator may
// have it open).
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/random/random.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "coordinator/jobs.h"
#include "nlohmann/json.hpp"
#include "ops/cli_util.h"
#include "ops/commands.h"
#include "ops/job_spec.h"
#include "proto/convert.h"
#include "qipu/v1/work.grpc.pb.h"
#include "store/configs.h"
#include "store/store.h"

namespace qipu::ops {
namespace {

struct SubmitOptions {
  std::string server;
  JobSpecFlags spec;
  bool json = false;
};

// status and cancel: a coordinator (--server) or a database (--db).
struct StatusOptions {
  std::string server;
  std::string db;
  uint64_t job = 0;
  bool json = false;
};

absl::Status FromGrpc(const grpc::Status& s) {
  if (s.ok()) return absl::OkStatus();
  std::string message = s.error_message();
  if (s.error_code() == grpc::StatusCode::UNAVAILABLE) {
    message += " (is the coordinator running at that address?)";
  }
  return absl::Status(static_cast<absl::StatusCode>(s.error_code()), message);
}

// The jobs of a database opened by this process.
class LocalJobs {
 public:
  static absl::StatusOr<std::unique_ptr<LocalJobs>> Open(
      const std::string& db) {
    store::StoreOptions o;
    o.create_if_missing = false;
    auto st = store::Store::Open(db, o);
    if (!st.ok()) {
      if (absl::IsUnavailable(st.status())) {
        return absl::UnavailableError(
            absl::StrCat(st.status().message(),
                         " (is a coordinator running on it? use --server)"));
      }
      return st.status();
    }
    std::unique_ptr<LocalJobs> l(new LocalJobs());
    l->store_ = *std::move(st);
    l->configs_ = std::make_unique<store::ConfigRegistry>(l->store_.get());
    if (absl::Status s = l->configs_->Load(); !s.ok()) return s;
    l->jobs_ = std::make_unique<coordinator::JobManager>(
        l->store_.get(), l->configs_.get(), coordinator::JobManagerOptions{});
    if (absl::Status s = l->jobs_->Load(); !s.ok()) return s;
    return l;
  }
  coordinator::JobManager& jobs() { return *jobs_; }

 private:
  LocalJobs() = default;
  std::unique_ptr<store::Store> store_;
  std::unique_ptr<store::ConfigRegistry> configs_;
  std::unique_ptr<coordinator::JobManager> jobs_;
};

// Runs a job request on the coordinator (`rpc`) or on the database
// (`local`), as the flags say.
template <typename Rpc, typename Local>
auto OnJobs(const StatusOptions& o, Rpc rpc, Local local)
    -> decltype(local(std::declval<coordinator::JobManager&>())) {
  if (o.server.empty() == o.db.empty()) {
    return absl::InvalidArgumentError(
        "give exactly one of --server HOST:PORT and --db DIR");
  }
  if (!o.server.empty()) {
    auto stub = qipu::v1::JobService::NewStub(Dial(o.server));
    return rpc(*stub);
  }
  auto l = LocalJobs::Open(o.db);
  if (!l.ok()) return l.status();
  return local((*l)->jobs());
}

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
  switch (s) {
    case qipu::v1::JOB_STATE_DONE:
      return "done";
    case qipu::v1::JOB_STATE_CANCELLED:
      return "cancelled";
    default:
      return "running";
  }
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

int FailWith(const char* what, const absl::Status& s) {
  std::fprintf(stderr, "qipu job %s: %s\n", what,
               std::string(s.message()).c_str());
  return absl::IsInvalidArgument(s) ? 2 : 1;
}

int RunStatus(const StatusOptions& o) {
  absl::StatusOr<qipu::v1::GetJobStatusResponse> got = OnJobs(
      o,
      [&](qipu::v1::JobService::Stub& stub)
          -> absl::StatusOr<qipu::v1::GetJobStatusResponse> {
        grpc::ClientContext ctx;
        SetDeadline(&ctx, 30);
        qipu::v1::GetJobStatusRequest req;
        req.set_job(o.job);
        qipu::v1::GetJobStatusResponse resp;
        if (absl::Status s = FromGrpc(stub.GetJobStatus(&ctx, req, &resp));
            !s.ok()) {
          return s;
        }
        return resp;
      },
      [&](coordinator::JobManager& jobs)
          -> absl::StatusOr<qipu::v1::GetJobStatusResponse> {
        auto st = jobs.Status(o.job);
        if (!st.ok()) return st.status();
        qipu::v1::GetJobStatusResponse resp;
        for (auto& j : *st) *resp.add_jobs() = std::move(j);
        return resp;
      });
  if (!got.ok()) return FailWith("status", got.status());
  const qipu::v1::GetJobStatusResponse& resp = *got;
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

int RunCancel(const StatusOptions& o) {
  absl::StatusOr<qipu::v1::JobStatus> got = OnJobs(
      o,
      [&](qipu::v1::JobService::Stub& stub)
          -> absl::StatusOr<qipu::v1::JobStatus> {
        grpc::ClientContext ctx;
        SetDeadline(&ctx, 30);
        qipu::v1::CancelJobRequest req;
        req.set_job(o.job);
        qipu::v1::CancelJobResponse resp;
        if (absl::Status s = FromGrpc(stub.CancelJob(&ctx, req, &resp));
            !s.ok()) {
          return s;
        }
        return resp.job();
      },
      [&](coordinator::JobManager& jobs) { return jobs.Cancel(o.job); });
  if (!got.ok()) return FailWith("cancel", got.status());
  if (o.json) {
    std::printf("%s\n", StatusJson(*got).dump().c_str());
  } else {
    std::printf("job %llu cancelled: %llu of %llu games stored\n",
                static_cast<unsigned long long>(got->job()),
                static_cast<unsigned long long>(got->done()),
                static_cast<unsigned long long>(got->requested()));
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
  submit->add_option("--server", so->server, "Coordinator HOST:PORT")
      ->required();
  so->spec.Add(submit);
  submit->add_flag("--json", so->json, "Print {\"job\": ID}");
  submit->callback([so, exit_code] { *exit_code = RunSubmit(*so); });

  auto st = std::make_shared<StatusOptions>();
  CLI::App* status = job->add_subcommand("status", "Progress of jobs");
  status->add_option("--server", st->server, "Coordinator HOST:PORT");
  status->add_option("--db", st->db,
                     "Database directory (opened here; no coordinator may "
                     "have it open)");
  status->add_option("--job", st->job, "Job id (default: all jobs)");
  status->add_flag("--json", st->json, "Print JSON");
  status->callback([st, exit_code] { *exit_code = RunStatus(*st); });

  auto co = std::make_shared<StatusOptions>();
  CLI::App* cancel = job->add_subcommand(
      "cancel",
      "Cancel a job: no more of its games are handed out, its leases end "
      "(games already uploaded are still stored)");
  cancel->add_option("--server", co->server, "Coordinator HOST:PORT");
  cancel->add_option("--db", co->db,
                     "Database directory (opened here; no coordinator may "
                     "have it open)");
  cancel->add_option("--job", co->job, "Job id")
      ->required()
      ->check(CLI::Range(uint64_t{1}, ~uint64_t{0}));
  cancel->add_flag("--json", co->json, "Print the job's status as JSON");
  cancel->callback([co, exit_code] { *exit_code = RunCancel(*co); });
}

}  // namespace qipu::ops
