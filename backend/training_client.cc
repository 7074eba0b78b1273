#include "backend/training_client.h"

#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/channel.h"
#include "base/grpc_status.h"
#include "base/work_pool.h"
#include "engine/engine.h"
#include "engine/training.h"
#include "grpcpp/grpcpp.h"
#include "qipu/v1/train.grpc.pb.h"
#include "train/batch_message.h"
#include "train/row_stream.h"

namespace qipu::backend {
namespace {

absl::StatusOr<TrainingPullStats> PullLocal(
    const std::string& dir, const qipu::v1::TrainingRequest& req,
    const TrainingSink& sink) {
  absl::StatusOr<std::unique_ptr<engine::Engine>> db =
      engine::Engine::Open(dir);
  if (!db.ok()) return db.status();
  const store::Store& store = (*db)->store();
  absl::StatusOr<engine::TrainingPlan> plan = engine::PlanTraining(store, req);
  if (!plan.ok()) return plan.status();
  base::WorkPool pool(static_cast<int>(std::thread::hardware_concurrency()) - 1,
                      "qipu-train");
  train::RowStream stream(store, std::move(plan->filter), plan->options,
                          plan->stream_key, plan->start, &pool);
  train::RowBatch rows(plan->options.rows.pos_len);
  TrainingPullStats stats;
  stats.games_oversize = plan->games_oversize;
  while (true) {
    absl::StatusOr<bool> more = stream.Next(&rows);
    if (!more.ok()) return more.status();
    if (!*more) break;
    stats.cursor = stream.cursor();
    stats.games_done = stream.stats().games_done;
    ++stats.batches;
    stats.rows += static_cast<uint64_t>(rows.rows());
    if (absl::Status s = sink(rows, stats.cursor, stats.games_done); !s.ok()) {
      return s;
    }
  }
  return stats;
}

absl::StatusOr<TrainingPullStats> PullRemote(
    const Target& target, const qipu::v1::TrainingRequest& req,
    const TrainingSink& sink, absl::Duration timeout) {
  const std::string& server = target.server;
  auto stub = qipu::v1::TrainingService::NewStub(
      base::Dial(server, ChannelOptionsOf(target)));
  grpc::ClientContext ctx;
  base::SetDeadline(&ctx, timeout);
  std::unique_ptr<grpc::ClientReader<qipu::v1::TrainingBatch>> reader =
      stub->Batches(&ctx, req);
  qipu::v1::TrainingBatch batch;
  train::RowBatch rows;
  TrainingPullStats stats;
  absl::Status sink_status;
  while (reader->Read(&batch)) {
    sink_status = train::BatchFromMessage(batch, &rows);
    if (sink_status.ok()) {
      stats.cursor = batch.cursor();
      stats.games_done = batch.games_done();
      stats.games_oversize = batch.games_oversize();
      ++stats.batches;
      stats.rows += batch.rows();
      sink_status = sink(rows, stats.cursor, stats.games_done);
    }
    if (!sink_status.ok()) {
      ctx.TryCancel();
      break;
    }
  }
  const grpc::Status gs = reader->Finish();
  if (!sink_status.ok()) return sink_status;
  if (!gs.ok()) return WithServerHint(base::FromGrpc(gs), server);
  return stats;
}

}  // namespace

absl::StatusOr<TrainingPullStats> PullTrainingBatches(
    const Target& target, const qipu::v1::TrainingRequest& req,
    const TrainingSink& sink, absl::Duration timeout) {
  if (absl::Status s = ValidateTarget(target); !s.ok()) return s;
  if (!target.db.empty()) return PullLocal(target.db, req, sink);
  return PullRemote(target, req, sink, timeout);
}

}  // namespace qipu::backend
