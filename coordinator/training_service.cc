#include "coordinator/training_service.h"

#include <algorithm>
#include <thread>

#include "absl/strings/str_cat.h"
#include "base/grpc_status.h"
#include "engine/training.h"
#include "spdlog/spdlog.h"
#include "train/batch_message.h"
#include "train/row_batch.h"
#include "train/row_stream.h"

namespace qipu::coordinator {
namespace {

// Bytes a stream's chunk may hold: the window (or one batch) plus a
// game's rows of slack, at the request's row size.
int64_t ChunkBytes(const train::StreamOptions& o) {
  const train::RowShape shape{o.rows.pos_len};
  const int64_t rows =
      std::max(o.shuffle_window, 1) + 512 + 2 * int64_t{o.batch_size};
  return rows * shape.row_bytes();
}

}  // namespace

TrainingServiceImpl::TrainingServiceImpl(const store::Store* store,
                                         const TrainingServiceOptions& options)
    : store_(store),
      options_(options),
      pool_(options.threads >= 0
                ? options.threads
                : static_cast<int>(std::thread::hardware_concurrency()) - 1,
            "qipu-train") {}

int TrainingServiceImpl::active_streams() const {
  absl::MutexLock lock(&mu_);
  return streams_;
}

bool TrainingServiceImpl::Reserve(int64_t bytes) {
  absl::MutexLock lock(&mu_);
  if (reserved_ + bytes > options_.memory_budget_bytes) return false;
  reserved_ += bytes;
  ++streams_;
  return true;
}

void TrainingServiceImpl::Release(int64_t bytes) {
  absl::MutexLock lock(&mu_);
  reserved_ -= bytes;
  --streams_;
}

grpc::Status TrainingServiceImpl::Batches(
    grpc::ServerContext* ctx, const qipu::v1::TrainingRequest* req,
    grpc::ServerWriter<qipu::v1::TrainingBatch>* writer) {
  auto slot = AcquireStream(options_.streams, ctx->peer(), "training");
  if (!slot.ok()) return base::ToGrpc(slot.status());
  absl::StatusOr<engine::TrainingPlan> plan =
      engine::PlanTraining(*store_, *req);
  if (!plan.ok()) return base::ToGrpc(plan.status());
  const int64_t bytes = ChunkBytes(plan->options);
  if (!Reserve(bytes)) {
    return grpc::Status(
        grpc::StatusCode::RESOURCE_EXHAUSTED,
        absl::StrCat("training streams hold their memory budget (",
                     options_.memory_budget_bytes >> 20,
                     " MiB); this one needs ", bytes >> 20,
                     " MiB: retry later or use a smaller shuffle_window"));
  }
  train::RowStream stream(*store_, std::move(plan->filter), plan->options,
                          plan->stream_key, plan->start, &pool_);
  train::RowBatch rows(plan->options.rows.pos_len);
  qipu::v1::TrainingBatch message;
  grpc::Status status = grpc::Status::OK;
  while (true) {
    if (ctx->IsCancelled()) {
      status =
          grpc::Status(grpc::StatusCode::CANCELLED, "the client went away");
      break;
    }
    absl::StatusOr<bool> more = stream.Next(&rows);
    if (!more.ok()) {
      status = base::ToGrpc(more.status());
      break;
    }
    if (!*more) break;
    train::BatchToMessage(rows, stream.cursor(), stream.stats().games_done,
                          &message);
    message.set_games_oversize(plan->games_oversize);
    if (!writer->Write(message)) {
      status =
          grpc::Status(grpc::StatusCode::CANCELLED, "the client went away");
      break;
    }
  }
  const train::StreamStats s = stream.stats();
  spdlog::info(
      "training stream: {} rows, {} games done, {} read, {} filtered out, {} "
      "unusable, {} damaged ({})",
      s.rows, s.games_done, s.games_read, s.games_dropped, s.games_unusable,
      s.games_damaged, status.ok() ? "ended" : status.error_message());
  Release(bytes);
  return status;
}

}  // namespace qipu::coordinator
