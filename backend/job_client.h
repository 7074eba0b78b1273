// JobClient: self-play jobs on a Target -- JobService on a coordinator, or
// the JobManager of a database opened here (status and cancel only make
// sense there while no coordinator holds the database; submitting needs a
// coordinator to hand the games out, so it takes a server).
#ifndef QIPU_BACKEND_JOB_CLIENT_H_
#define QIPU_BACKEND_JOB_CLIENT_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "backend/target.h"
#include "engine/engine.h"
#include "qipu/v1/work.grpc.pb.h"

namespace qipu::backend {

// Thread-safe.
class JobClient {
 public:
  // Dials the server, or opens the database (it must exist) and loads its
  // jobs. InvalidArgument for a bad target.
  static absl::StatusOr<std::unique_ptr<JobClient>> Open(const Target& t);

  // Creates a job; its id. FailedPrecondition on a database target.
  absl::StatusOr<uint64_t> Submit(const qipu::v1::SubmitJobRequest& req);
  // Status of job `job`, or of every job when 0.
  absl::StatusOr<std::vector<qipu::v1::JobStatus>> Status(uint64_t job);
  // Cancels `job`; its status afterwards.
  absl::StatusOr<qipu::v1::JobStatus> Cancel(uint64_t job);

 private:
  JobClient() = default;

  Target target_;
  std::unique_ptr<qipu::v1::JobService::Stub> stub_;
  std::unique_ptr<engine::Engine> db_;
  engine::JobManager* jobs_ = nullptr;  // db_'s, when local
};

}  // namespace qipu::backend

#endif  // QIPU_BACKEND_JOB_CLIENT_H_
