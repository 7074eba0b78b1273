#include "bench/train_bench.h"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "backend/training_client.h"
#include "base/files.h"
#include "base/status_macros.h"
#include "base/work_pool.h"
#include "coordinator/coordinator.h"
#include "engine/training.h"
#include "local/local_run.h"
#include "proto/convert.h"
#include "rules/rules.h"
#include "store/store.h"
#include "train/batch_message.h"
#include "train/npz_writer.h"
#include "train/row_stream.h"

namespace qipu::bench {
namespace {

// Plays o.games games of o.size into o.db with a local self-play run.
absl::Status Build(const TrainBenchOptions& o, const std::string& db) {
  local::LocalOptions lo;
  lo.db = db;
  lo.job.set_games(o.games);
  qipu::v1::JobConfig& c = *lo.job.mutable_config();
  c.set_width(static_cast<uint32_t>(o.size));
  c.set_height(static_cast<uint32_t>(o.size));
  *c.mutable_rules() = wire::RulesToProto(rules::Rules{});  // Chinese
  c.set_policy("random");
  c.set_index_depth(0);
  c.set_seed(1);
  QIPU_ASSIGN_OR_RETURN(std::unique_ptr<local::LocalRun> run,
                        local::LocalRun::Start(lo));
  for (;;) {
    QIPU_ASSIGN_OR_RETURN(const local::LocalProgress p, run->Poll());
    if (p.finished || p.cancelled) break;
    absl::SleepFor(absl::Milliseconds(50));
  }
  return run->Finish().status();
}

// Rows of `req` from the store for `seconds`, the selection started over
// (seed + 1) whenever it ends; with `encode`, each batch also becomes a
// TrainingBatch message. Also the deflated .npz size of the first
// `export_rows` rows into *npz_bytes_per_row.
absl::StatusOr<RowRate> StreamLocally(const store::Store& store,
                                      qipu::v1::TrainingRequest req,
                                      double seconds, bool encode,
                                      base::WorkPool* pool) {
  RowRate rate;
  qipu::v1::TrainingBatch message;
  const absl::Time t0 = absl::Now();
  const absl::Time end = t0 + absl::Seconds(seconds);
  while (absl::Now() < end) {
    QIPU_ASSIGN_OR_RETURN(engine::TrainingPlan plan,
                          engine::PlanTraining(store, req));
    train::RowStream stream(store, std::move(plan.filter), plan.options,
                            plan.stream_key, plan.start, pool);
    train::RowBatch rows(plan.options.rows.pos_len);
    uint64_t pass_rows = 0;
    bool ended = false;
    while (absl::Now() < end) {
      QIPU_ASSIGN_OR_RETURN(const bool more, stream.Next(&rows));
      if (!more) {
        ended = true;
        break;
      }
      if (encode) {
        train::BatchToMessage(rows, stream.cursor(), stream.stats().games_done,
                              &message);
      }
      pass_rows += static_cast<uint64_t>(rows.rows());
    }
    // Only a selection that ended without a row is empty: time may also
    // run out between planning a pass and its first batch.
    if (ended && pass_rows == 0) {
      return absl::FailedPreconditionError(
          "the selection has no rows: build games first (--games N)");
    }
    rate.rows += pass_rows;
    req.set_seed(req.seed() + 1);
  }
  rate.seconds = absl::ToDoubleSeconds(absl::Now() - t0);
  return rate;
}

// Deflated .npz bytes per row of the first `rows` rows of `req`.
absl::StatusOr<double> NpzBytesPerRow(const store::Store& store,
                                      qipu::v1::TrainingRequest req,
                                      uint64_t rows) {
  req.set_max_rows(rows);
  QIPU_ASSIGN_OR_RETURN(engine::TrainingPlan plan,
                        engine::PlanTraining(store, req));
  train::RowStream stream(store, std::move(plan.filter), plan.options,
                          plan.stream_key, plan.start);
  train::RowBatch batch(plan.options.rows.pos_len);
  train::RowBatch all(plan.options.rows.pos_len);
  while (true) {
    QIPU_ASSIGN_OR_RETURN(const bool more, stream.Next(&batch));
    if (!more) break;
    for (int r = 0; r < batch.rows(); ++r) all.AppendRowFrom(batch, r);
  }
  if (all.rows() == 0) return 0.0;
  QIPU_ASSIGN_OR_RETURN(base::TempDir dir,
                        base::TempDir::Create("qipu-bench-train"));
  const std::string path = dir.path() + "/rows.npz";
  QIPU_RETURN_IF_ERROR(
      train::WriteBatchNpz(all, path, train::NpzCompression::kDeflate));
  return static_cast<double>(std::filesystem::file_size(path)) / all.rows();
}

// Rows pulled over loopback gRPC by the C++ client for `seconds`.
absl::StatusOr<RowRate> PullCpp(const std::string& server,
                                qipu::v1::TrainingRequest req, double seconds) {
  RowRate rate;
  const absl::Time t0 = absl::Now();
  const absl::Time end = t0 + absl::Seconds(seconds);
  backend::Target target;
  target.server = server;
  while (absl::Now() < end) {
    uint64_t pass_rows = 0;
    absl::StatusOr<backend::TrainingPullStats> s = backend::PullTrainingBatches(
        target, req,
        [&](const train::RowBatch& rows, const std::string&, uint64_t) {
          pass_rows += static_cast<uint64_t>(rows.rows());
          return absl::Now() < end ? absl::OkStatus()
                                   : absl::CancelledError("time is up");
        },
        absl::Seconds(seconds + 60));
    if (!s.ok() && !absl::IsCancelled(s.status())) return s.status();
    rate.rows += pass_rows;
    req.set_seed(req.seed() + 1);
  }
  rate.seconds = absl::ToDoubleSeconds(absl::Now() - t0);
  return rate;
}

// The Python client's pull, run as a child process; parses its JSON line.
absl::StatusOr<RowRate> PullPython(const TrainBenchOptions& o,
                                   const std::string& server) {
  const qipu::v1::TrainingRequest& r = o.request;
  const std::string cmd = absl::StrFormat(
      "PYTHONPATH='%s' '%s' '%s' --server %s --seconds %g --batch-size %d "
      "--pos-len %d --symmetries %d --shuffle-window %d --tune-malloc",
      o.python_path, o.python, o.python_script, server, o.seconds,
      r.batch_size(), r.pos_len() == 0 ? 19 : r.pos_len(),
      r.symmetries() == 0 ? 1 : r.symmetries(), r.shuffle_window());
  std::FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return absl::InternalError("cannot run " + cmd);
  std::string out;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof(buf), p)) > 0;) {
    out.append(buf, n);
  }
  const int status = ::pclose(p);
  if (status != 0) {
    return absl::InternalError(
        absl::StrCat("the Python client failed (", cmd, "): ", out));
  }
  const nlohmann::json j =
      nlohmann::json::parse(out.substr(out.rfind('{')), nullptr, false);
  if (j.is_discarded() || !j.contains("rows") || !j.contains("seconds")) {
    return absl::InternalError("the Python client printed no JSON: " + out);
  }
  RowRate rate;
  rate.rows = j["rows"].get<uint64_t>();
  rate.seconds = j["seconds"].get<double>();
  return rate;
}

}  // namespace

absl::StatusOr<TrainBenchResult> RunTrainBench(const TrainBenchOptions& o) {
  if (o.seconds <= 0) return absl::InvalidArgumentError("seconds must be > 0");
  std::optional<base::TempDir> temp;
  std::string db = o.db;
  if (db.empty()) {
    if (o.games == 0) {
      return absl::InvalidArgumentError("give --db DIR, --games N, or both");
    }
    QIPU_ASSIGN_OR_RETURN(base::TempDir t,
                          base::TempDir::Create("qipu-bench-train"));
    temp.emplace(std::move(t));
    db = temp->path() + "/db";
  }
  TrainBenchResult result;
  result.pos_len = o.request.pos_len() == 0 ? 19 : o.request.pos_len();
  result.row_bytes = train::RowShape{result.pos_len}.row_bytes();
  if (o.games > 0) {
    const absl::Time t0 = absl::Now();
    QIPU_RETURN_IF_ERROR(Build(o, db));
    result.build_seconds = absl::ToDoubleSeconds(absl::Now() - t0);
  }
  {
    store::StoreOptions so;
    so.sync = false;
    QIPU_ASSIGN_OR_RETURN(std::unique_ptr<store::Store> store,
                          store::Store::Open(db, so));
    // As the coordinator runs streams: the handler and cores - 1 helpers.
    base::WorkPool pool(
        static_cast<int>(std::thread::hardware_concurrency()) - 1,
        "qipu-train");
    QIPU_ASSIGN_OR_RETURN(
        result.server_rows,
        StreamLocally(*store, o.request, o.seconds, false, &pool));
    QIPU_ASSIGN_OR_RETURN(
        result.server_encoded,
        StreamLocally(*store, o.request, o.seconds, true, &pool));
    if (o.export_rows > 0) {
      QIPU_ASSIGN_OR_RETURN(result.npz_bytes_per_row,
                            NpzBytesPerRow(*store, o.request, o.export_rows));
    }
  }
  coordinator::CoordinatorOptions co;
  co.db_dir = db;
  co.listen = "127.0.0.1:0";
  co.store.sync = false;
  QIPU_ASSIGN_OR_RETURN(std::unique_ptr<coordinator::Coordinator> c,
                        coordinator::Coordinator::Start(co));
  QIPU_ASSIGN_OR_RETURN(result.grpc_cpp,
                        PullCpp(c->address(), o.request, o.seconds));
  if (!o.python.empty()) {
    QIPU_ASSIGN_OR_RETURN(result.grpc_python, PullPython(o, c->address()));
  }
  c->Shutdown();
  return result;
}

nlohmann::ordered_json TrainBenchJson(const TrainBenchResult& r) {
  nlohmann::ordered_json j;
  j["pos_len"] = r.pos_len;
  j["row_bytes"] = r.row_bytes;
  if (r.build_seconds > 0) j["build_seconds"] = r.build_seconds;
  j["server_rows_per_sec"] = r.server_rows.rows_per_sec();
  j["server_encoded_rows_per_sec"] = r.server_encoded.rows_per_sec();
  j["grpc_cpp_rows_per_sec"] = r.grpc_cpp.rows_per_sec();
  if (r.grpc_python)
    j["grpc_python_rows_per_sec"] = r.grpc_python->rows_per_sec();
  if (r.npz_bytes_per_row)
    j["npz_deflate_bytes_per_row"] = *r.npz_bytes_per_row;
  return j;
}

std::string TrainBenchText(const TrainBenchResult& r) {
  std::string out = absl::StrFormat(
      "training rows, pos_len %d, %d bytes a row\n"
      "  server alone (RowStream)        %10.0f rows/s\n"
      "  server alone, batches encoded   %10.0f rows/s\n"
      "  C++ client over loopback gRPC   %10.0f rows/s\n",
      r.pos_len, r.row_bytes, r.server_rows.rows_per_sec(),
      r.server_encoded.rows_per_sec(), r.grpc_cpp.rows_per_sec());
  if (r.grpc_python) {
    absl::StrAppendFormat(&out,
                          "  Python client (numpy) over gRPC %10.0f rows/s\n",
                          r.grpc_python->rows_per_sec());
  }
  if (r.npz_bytes_per_row) {
    absl::StrAppendFormat(
        &out, "  .npz, deflated                  %10.1f bytes a row\n",
        *r.npz_bytes_per_row);
  }
  return out;
}

}  // namespace qipu::bench
