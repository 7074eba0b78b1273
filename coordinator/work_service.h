// gRPC edge of job management and the worker protocol: JobService and
// WorkService of qipu/v1/work.proto. Validates requests, converts them to
// domain calls on JobManager and Ingestor, maps absl::Status to gRPC codes.
#ifndef QIPU_COORDINATOR_WORK_SERVICE_H_
#define QIPU_COORDINATOR_WORK_SERVICE_H_

#include <atomic>

#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "base/work_pool.h"
#include "coordinator/limits.h"
#include "coordinator/metrics.h"
#include "engine/ingest.h"
#include "engine/jobs.h"
#include "grpcpp/support/byte_buffer.h"
#include "qipu/v1/work.grpc.pb.h"

namespace qipu::coordinator {

class UploadStream;

// JobService. Thread-safe; does not own its collaborators.
class JobServiceImpl final : public qipu::v1::JobService::Service {
 public:
  explicit JobServiceImpl(engine::JobManager* jobs) : jobs_(jobs) {}

  grpc::Status SubmitJob(grpc::ServerContext* ctx,
                         const qipu::v1::SubmitJobRequest* req,
                         qipu::v1::SubmitJobResponse* resp) override;
  grpc::Status GetJobStatus(grpc::ServerContext* ctx,
                            const qipu::v1::GetJobStatusRequest* req,
                            qipu::v1::GetJobStatusResponse* resp) override;
  grpc::Status CancelJob(grpc::ServerContext* ctx,
                         const qipu::v1::CancelJobRequest* req,
                         qipu::v1::CancelJobResponse* resp) override;

 private:
  engine::JobManager* jobs_;
};

struct WorkServiceOptions {
  // Unacknowledged games per upload stream before the service stops
  // reading (flow control on top of HTTP/2's).
  // Matches the worker's (worker::UploaderOptions::window).
  int upload_window = 2048;
  // Suggested retry delay when there is no work.
  int retry_after_ms = 500;
  // Threads that help upload streams validate (replay) their games, on
  // top of each stream's own; -1: one fewer than the machine's cores.
  int validate_threads = -1;
  // Caps each client's concurrent streams (an upload stream counts one);
  // null: no cap. Not owned; must outlive the service.
  StreamLimiter* streams = nullptr;
};

// WorkService. Thread-safe; does not own its collaborators.
class WorkServiceImpl final : public qipu::v1::WorkService::Service {
 public:
  // Installs UploadGames() as the handler of the UploadGames method.
  WorkServiceImpl(engine::JobManager* jobs, engine::Ingestor* ingest,
                  Metrics* metrics, const WorkServiceOptions& options);

  grpc::Status LeaseWork(grpc::ServerContext* ctx,
                         const qipu::v1::LeaseWorkRequest* req,
                         qipu::v1::LeaseWorkResponse* resp) override;
  grpc::Status RenewLease(grpc::ServerContext* ctx,
                          const qipu::v1::RenewLeaseRequest* req,
                          qipu::v1::RenewLeaseResponse* resp) override;
  grpc::Status ReturnLease(grpc::ServerContext* ctx,
                           const qipu::v1::ReturnLeaseRequest* req,
                           qipu::v1::ReturnLeaseResponse* resp) override;
  // The UploadGames RPC: an UploadStream (coordinator/upload_stream.h)
  // run on the handler thread. Reads uploads (validating each), hands
  // valid games to the ingestor, and writes acks in order from a second
  // thread as each game becomes durable. A storage failure ends the
  // stream after a NOT_STORED ack naming the cause: the client resends
  // unacknowledged games later. A frame that does not parse ends the
  // stream with INVALID_ARGUMENT (after the acks of the games before it),
  // naming the frame.
  grpc::Status UploadGames(
      grpc::ServerContext* ctx,
      grpc::ServerReaderWriter<grpc::ByteBuffer, grpc::ByteBuffer>* stream);

  // For a graceful stop, before the server's Shutdown(): upload streams
  // stop reading, wait (until `deadline`) for the acks of the games they
  // took to be sent, and end (cancelled), instead of holding the server's
  // shutdown for its whole grace period while their clients keep them
  // open. Streams opened afterwards end at once. Idempotent.
  void Drain(absl::Time deadline);

 private:
  engine::JobManager* jobs_;
  engine::Ingestor* ingest_;
  Metrics* metrics_;
  const WorkServiceOptions options_;
  // Validates the games of upload messages in parallel.
  base::WorkPool pool_;

  absl::Mutex streams_mu_;
  bool draining_ ABSL_GUARDED_BY(streams_mu_) = false;
  // draining_, readable without the lock (by the upload streams).
  std::atomic<bool> draining_flag_{false};
  // The open upload streams, each registered by its handler while it
  // runs (the handler unregisters under streams_mu_ before returning).
  absl::flat_hash_map<grpc::ServerContext*, UploadStream*> streams_
      ABSL_GUARDED_BY(streams_mu_);
};

}  // namespace qipu::coordinator

#endif  // QIPU_COORDINATOR_WORK_SERVICE_H_
