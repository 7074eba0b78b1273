// gRPC edge of training batches: TrainingService of qipu/v1/train.proto.
// Each Batches call plans its request (engine/training.h) and runs a
// train::RowStream on the handler thread, writing one TrainingBatch per
// batch; the stream, its chunk and its reader are freed when the call
// ends, cancelled or not.
//
// Memory: a stream holds its mixing chunk (shuffle_window rows of ~5.6 KB
// at pos_len 19). Streams reserve their chunk's bytes from a budget shared
// by all calls; a call that does not fit gets RESOURCE_EXHAUSTED (retry
// later, or ask for a smaller window).
#ifndef QIPU_COORDINATOR_TRAINING_SERVICE_H_
#define QIPU_COORDINATOR_TRAINING_SERVICE_H_

#include <cstdint>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "base/work_pool.h"
#include "coordinator/limits.h"
#include "grpcpp/grpcpp.h"
#include "qipu/v1/train.grpc.pb.h"
#include "store/store.h"

namespace qipu::coordinator {

struct TrainingServiceOptions {
  // Bytes of mixing chunks all streams may hold at once.
  int64_t memory_budget_bytes = int64_t{2} << 30;
  // Threads that help the streams' handler threads replay games (shared
  // by all streams); -1: cores - 1.
  int threads = -1;
  // Caps each client's concurrent streams; null: no cap. Not owned; must
  // outlive the service.
  StreamLimiter* streams = nullptr;
};

// TrainingService. Thread-safe; does not own the store, which must outlive
// it.
class TrainingServiceImpl final : public qipu::v1::TrainingService::Service {
 public:
  TrainingServiceImpl(const store::Store* store,
                      const TrainingServiceOptions& options);

  // Streams the batches of *req. INVALID_ARGUMENT for a bad request (the
  // reason named), RESOURCE_EXHAUSTED when the memory budget is taken,
  // CANCELLED when the client goes away, UNAVAILABLE / DATA_LOSS when the
  // store fails part-way (the batches sent stay valid; resume from the
  // last cursor).
  grpc::Status Batches(
      grpc::ServerContext* ctx, const qipu::v1::TrainingRequest* req,
      grpc::ServerWriter<qipu::v1::TrainingBatch>* writer) override;

  // Streams running now (tests, metrics).
  int active_streams() const;

 private:
  // Reserves / returns `bytes` of the budget; false when it does not fit.
  bool Reserve(int64_t bytes);
  void Release(int64_t bytes);

  const store::Store* store_;
  const TrainingServiceOptions options_;
  base::WorkPool pool_;
  mutable absl::Mutex mu_;
  int64_t reserved_ ABSL_GUARDED_BY(mu_) = 0;
  int streams_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace qipu::coordinator

#endif  // QIPU_COORDINATOR_TRAINING_SERVICE_H_
