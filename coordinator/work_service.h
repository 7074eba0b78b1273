// gRPC edge of job management and the worker protocol: JobService and
// WorkService of qipu/v1/work.proto. Validates requests, converts them to
// domain calls on JobManager and Ingestor, maps absl::Status to gRPC codes.
#ifndef QIPU_COORDINATOR_WORK_SERVICE_H_
#define QIPU_COORDINATOR_WORK_SERVICE_H_

#include "coordinator/ingest.h"
#include "coordinator/jobs.h"
#include "coordinator/metrics.h"
#include "grpcpp/support/byte_buffer.h"
#include "qipu/v1/work.grpc.pb.h"

namespace qipu::coordinator {

// JobService. Thread-safe; does not own its collaborators.
class JobServiceImpl final : public qipu::v1::JobService::Service {
 public:
  explicit JobServiceImpl(JobManager* jobs) : jobs_(jobs) {}

  grpc::Status SubmitJob(grpc::ServerContext* ctx,
                         const qipu::v1::SubmitJobRequest* req,
                         qipu::v1::SubmitJobResponse* resp) override;
  grpc::Status GetJobStatus(grpc::ServerContext* ctx,
                            const qipu::v1::GetJobStatusRequest* req,
                            qipu::v1::GetJobStatusResponse* resp) override;

 private:
  JobManager* jobs_;
};

struct WorkServiceOptions {
  // Unacknowledged games per upload stream before the service stops
  // reading (flow control on top of HTTP/2's).
  int upload_window = 1024;
  // Suggested retry delay when there is no work.
  int retry_after_ms = 500;
};

// WorkService. Thread-safe; does not own its collaborators.
class WorkServiceImpl final : public qipu::v1::WorkService::Service {
 public:
  // Installs UploadGames() as the handler of the UploadGames method.
  WorkServiceImpl(JobManager* jobs, Ingestor* ingest, Metrics* metrics,
                  const WorkServiceOptions& options);

  grpc::Status LeaseWork(grpc::ServerContext* ctx,
                         const qipu::v1::LeaseWorkRequest* req,
                         qipu::v1::LeaseWorkResponse* resp) override;
  grpc::Status RenewLease(grpc::ServerContext* ctx,
                          const qipu::v1::RenewLeaseRequest* req,
                          qipu::v1::RenewLeaseResponse* resp) override;
  grpc::Status ReturnLease(grpc::ServerContext* ctx,
                           const qipu::v1::ReturnLeaseRequest* req,
                           qipu::v1::ReturnLeaseResponse* resp) override;
  // The UploadGames RPC. Reads uploads on the handler thread (validating
  // each), hands valid games to the ingestor, and writes acks in order
  // from a second thread as each game becomes durable. A storage failure
  // ends the stream with UNAVAILABLE: unacknowledged games must be resent.
  // Frames arrive as raw bytes and are parsed here, because the typed
  // streaming API reports a frame that does not parse exactly like the
  // end of the stream: such a frame ends the stream with INVALID_ARGUMENT
  // (after the acks of the games before it), naming the frame.
  grpc::Status UploadGames(
      grpc::ServerContext* ctx,
      grpc::ServerReaderWriter<grpc::ByteBuffer, grpc::ByteBuffer>* stream);

 private:
  JobManager* jobs_;
  Ingestor* ingest_;
  Metrics* metrics_;
  const WorkServiceOptions options_;
};

}  // namespace qipu::coordinator

#endif  // QIPU_COORDINATOR_WORK_SERVICE_H_
