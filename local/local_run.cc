#include "local/local_run.h"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "base/status_macros.h"
#include "spdlog/spdlog.h"

namespace qipu::local {

absl::StatusOr<std::unique_ptr<LocalRun>> LocalRun::Start(
    const LocalOptions& options) {
  std::unique_ptr<LocalRun> run(new LocalRun(options));
  std::error_code ec;
  std::filesystem::create_directories(options.db, ec);
  if (ec) {
    return absl::FailedPreconditionError(
        absl::StrCat("--db ", options.db, ": ", ec.message()));
  }
  coordinator::CoordinatorOptions co;
  co.db_dir = options.db;
  co.listen = "127.0.0.1:0";
  QIPU_ASSIGN_OR_RETURN(run->coordinator_, coordinator::Coordinator::Start(co));
  QIPU_RETURN_IF_ERROR(run->StartJob());

  worker::WorkerOptions wo;
  wo.coordinator = run->coordinator_->address();
  wo.job = run->job_;
  if (!options.tcp) wo.channel = run->coordinator_->InProcessChannel();
  wo.threads = options.threads;
  wo.spool_dir = (std::filesystem::path(options.db) / "worker-spool").string();
  wo.name = "local";
  run->worker_ = std::make_unique<worker::Worker>(wo);
  QIPU_RETURN_IF_ERROR(run->worker_->Start());
  run->started_ = absl::Now();
  return run;
}

absl::Status LocalRun::StartJob() {
  engine::JobManager& jobs = coordinator_->jobs();
  if (options_.resume_job == 0) {
    requested_ = options_.job.games();
    config_ = options_.job.config();
    QIPU_ASSIGN_OR_RETURN(job_, jobs.Submit(requested_, config_));
    return absl::OkStatus();
  }
  const uint64_t id = options_.resume_job;
  auto info = jobs.Find(id);
  if (!info.ok()) {
    return absl::NotFoundError(absl::StrCat(
        "--job ", id, ": ", info.status().message(), " in ", options_.db));
  }
  QIPU_ASSIGN_OR_RETURN(std::vector<qipu::v1::JobStatus> st, jobs.Status(id));
  if (st[0].state() == qipu::v1::JOB_STATE_CANCELLED) {
    return absl::FailedPreconditionError(absl::StrCat(
        "--job ", id, ": the job was cancelled (its ", st[0].done(),
        " stored games stay in ", options_.db, "); it cannot be continued"));
  }
  job_ = id;
  requested_ = info->requested;
  config_ = info->config;
  done_before_ = st[0].done();
  return absl::OkStatus();
}

LocalRun::~LocalRun() {
  if (worker_ != nullptr) StopWorker(/*graceful=*/false);
  if (coordinator_ != nullptr) coordinator_->Shutdown(absl::Seconds(1));
}

std::vector<qipu::v1::JobStatus> LocalRun::OtherUnfinishedJobs() const {
  std::vector<qipu::v1::JobStatus> out;
  auto all = coordinator_->jobs().Status(0);
  if (!all.ok()) return out;
  for (auto& st : *all) {
    if (st.job() != job_ && st.state() == qipu::v1::JOB_STATE_RUNNING) {
      out.push_back(std::move(st));
    }
  }
  return out;
}

absl::StatusOr<LocalProgress> LocalRun::Poll() {
  QIPU_ASSIGN_OR_RETURN(std::vector<qipu::v1::JobStatus> st,
                        coordinator_->jobs().Status(job_));
  LocalProgress p;
  p.done = st[0].done();
  p.rejected = st[0].rejected();
  p.finished = st[0].state() == qipu::v1::JOB_STATE_DONE;
  p.cancelled = st[0].state() == qipu::v1::JOB_STATE_CANCELLED;
  cancelled_ = p.cancelled;
  const store::StorageHealth& health = coordinator_->store().health();
  if (health.failing() &&
      (health.fatal() ||
       absl::Now() - health.Since() > options_.storage_failure_grace)) {
    const absl::Status cause = health.Get();
    StopWorker(/*graceful=*/false);
    coordinator_->Shutdown(absl::Seconds(1));
    return absl::Status(
        cause.code(),
        absl::StrCat("stopped: the database no longer takes writes: ",
                     cause.ToString(), "\n  ", p.done, " games of job ", job_,
                     " were stored and acknowledged before the failure; free "
                     "space (or restore ",
                     options_.db, ") and run again"));
  }
  return p;
}

void LocalRun::StopWorker(bool graceful) {
  if (worker_ == nullptr) return;
  worker_->Stop(graceful);
  if (absl::Status s = worker_->Wait(); !s.ok()) {
    spdlog::warn("local: worker: {}", s.ToString());
  }
  worker_.reset();
}

absl::StatusOr<LocalSummary> LocalRun::Finish(int interrupted_by) {
  const double seconds = absl::ToDoubleSeconds(absl::Now() - started_);
  StopWorker(/*graceful=*/true);
  LocalSummary s;
  s.job = job_;
  s.requested = requested_;
  s.config = config_;
  s.db = options_.db;
  s.seconds = seconds;
  s.interrupted_by = interrupted_by;
  s.cancelled = cancelled_;
  // The summary comes from the database, through the query engine, as
  // `qipu query --db` would answer it.
  qipu::v1::Filter filter;
  filter.set_source(absl::StrCat("job:", job_));
  filter.set_width(config_.width());
  filter.set_height(config_.height());
  engine::QueryEngine& q = coordinator_->queries();
  qipu::v1::ResultsRequest rr;
  *rr.mutable_filter() = filter;
  qipu::v1::KoRequest kr;
  *kr.mutable_filter() = filter;
  qipu::v1::CyclesRequest cr;
  *cr.mutable_filter() = filter;
  qipu::v1::OpeningsRequest orq;
  *orq.mutable_filter() = filter;
  orq.set_limit(static_cast<uint32_t>(options_.top));
  QIPU_ASSIGN_OR_RETURN(s.results, q.Results(rr));
  QIPU_ASSIGN_OR_RETURN(s.ko, q.Ko(kr));
  QIPU_ASSIGN_OR_RETURN(s.cycles, q.Cycles(cr));
  QIPU_ASSIGN_OR_RETURN(s.openings, q.Openings(orq));
  const uint64_t games = s.results.outcomes().games();
  const uint64_t played_now = games - std::min(games, done_before_);
  s.games_per_sec = seconds > 0 ? played_now / seconds : 0.0;
  coordinator_->Shutdown();
  coordinator_.reset();
  return s;
}

}  // namespace qipu::local
