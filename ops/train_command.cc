// `qipu train export (--db DIR | --server ADDR) [filters] [row options]
// --out DIR --rows-per-file N [--compress deflate|fast|none] [--json]`:
// training rows (train/README.md) written as .npz files of N rows each
// (rows-000000.npz, rows-000001.npz, ...; the last may be shorter), each
// written to a temporary name and renamed. The rows are the stream a
// trainer pulls from TrainingService for the same request and seed, in the
// same order; deterministic for a fixed seed. Each file holds exactly
// KataGo's members (train/npz_writer.h KataGoArrays()); qipu's own (row ids,
// extra inputs) go to a sidecar rows-NNNNNN.qipu.zip beside it, or into the
// .npz with --extras. The games come in their own order (--order date, the
// default: when they were played, then id) and file k's modification time
// is the export's start + k seconds, so KataGo's shuffle.py (which orders
// files by time and keeps the newest) sees the games' order.
//
// Exit status: 0 when every row was written, 1 when the export could not
// run or stopped part-way (the files written stay valid), 2 for bad
// flags or a bad request.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "backend/training_client.h"
#include "base/console.h"
#include "engine/training.h"
#include "nlohmann/json.hpp"
#include "ops/commands.h"
#include "ops/flags.h"
#include "train/npz_writer.h"
#include "train/row_batch.h"

namespace qipu::ops {
namespace {

struct TrainExportOptions {
  TargetFlags target;
  TrainingFlags rows;
  std::string out;
  int rows_per_file = 25000;
  std::string compress = "deflate";
  // qipu's members inside each .npz instead of a sidecar.
  bool extras = false;
  bool json = false;
};

// Collects rows into files of rows_per_file rows.
class FileCutter {
 public:
  // Files are timed from `start` on, one second apart.
  FileCutter(const TrainExportOptions& o, int pos_len,
             std::filesystem::file_time_type start)
      : o_(o), file_(pos_len), start_(start) {
    file_.Reserve(o.rows_per_file);
  }

  absl::Status Add(const train::RowBatch& rows) {
    for (int r = 0; r < rows.rows(); ++r) {
      file_.AppendRowFrom(rows, r);
      if (file_.rows() == o_.rows_per_file) {
        if (absl::Status s = Flush(); !s.ok()) return s;
      }
    }
    return absl::OkStatus();
  }

  // Writes the rows held, if any.
  absl::Status Flush() {
    if (file_.rows() == 0) return absl::OkStatus();
    const std::string path = (std::filesystem::path(o_.out) /
                              absl::StrFormat("rows-%06d.npz", files_))
                                 .string();
    const absl::Status s = train::WriteBatchNpz(
        file_, path,
        o_.compress == "none"   ? train::NpzCompression::kStored
        : o_.compress == "fast" ? train::NpzCompression::kDeflateFast
                                : train::NpzCompression::kDeflate,
        o_.extras ? train::NpzMembers::kAll
                  : train::NpzMembers::kKataGoAndSidecar);
    if (!s.ok()) return s;
    std::error_code ec;
    // The games' order as file times: shuffle.py sorts by them.
    const auto when = start_ + std::chrono::seconds(files_);
    std::filesystem::last_write_time(path, when, ec);
    if (ec) {
      return absl::UnavailableError(absl::StrCat(
          path, ": cannot set the modification time: ", ec.message()));
    }
    if (!o_.extras) {
      std::filesystem::last_write_time(train::SidecarPath(path), when, ec);
    }
    bytes_ += std::filesystem::file_size(path, ec);
    rows_ += static_cast<uint64_t>(file_.rows());
    ++files_;
    file_.Clear();
    return absl::OkStatus();
  }

  int files() const { return files_; }
  uint64_t rows() const { return rows_; }
  uint64_t bytes() const { return bytes_; }

 private:
  const TrainExportOptions& o_;
  train::RowBatch file_;
  std::filesystem::file_time_type start_;
  int files_ = 0;
  uint64_t rows_ = 0;
  uint64_t bytes_ = 0;
};

int RunTrainExport(const TrainExportOptions& o) {
  absl::StatusOr<backend::Target> target = o.target.ToTarget();
  if (!target.ok()) {
    return base::Fail("train export", "flags", target.status().message(), 2);
  }
  absl::StatusOr<qipu::v1::TrainingRequest> req = o.rows.Request();
  if (!req.ok()) {
    return base::Fail("train export", "flags", req.status().message(), 2);
  }
  // Batches only carry the rows over; the files are cut from the stream.
  const int pos_len = static_cast<int>(o.rows.pos_len);
  const int64_t row_bytes = train::RowShape{std::max(pos_len, 2)}.row_bytes();
  req->set_batch_size(static_cast<uint32_t>(std::clamp<int64_t>(
      engine::kMaxBatchBytes / 2 / row_bytes, 1, o.rows_per_file)));
  std::error_code ec;
  std::filesystem::create_directories(o.out, ec);
  if (ec) {
    return base::Fail("train export", o.out,
                      absl::StrCat("cannot create the folder: ", ec.message()));
  }
  // Whole seconds: file times compare alike on every file system.
  const auto start = std::chrono::floor<std::chrono::seconds>(
      std::filesystem::file_time_type::clock::now());
  FileCutter files(o, pos_len, start);
  const absl::Time t0 = absl::Now();
  absl::StatusOr<backend::TrainingPullStats> pulled =
      backend::PullTrainingBatches(
          *target, *req,
          [&](const train::RowBatch& rows, const std::string&, uint64_t) {
            return files.Add(rows);
          },
          target->timeout);
  absl::Status status = pulled.status();
  if (status.ok()) status = files.Flush();
  const double secs = absl::ToDoubleSeconds(absl::Now() - t0);
  if (!status.ok()) {
    base::PrintError("train export",
                     absl::StrCat("stopped after ", files.files(), " files, ",
                                  files.rows(), " rows"),
                     status.message());
    return absl::IsInvalidArgument(status) ? 2 : 1;
  }
  const double rate = secs > 0 ? static_cast<double>(files.rows()) / secs : 0;
  if (o.json) {
    nlohmann::ordered_json j = {
        {"files", files.files()},
        {"rows", files.rows()},
        {"games", pulled->games_done},
        {"games_oversize", pulled->games_oversize},
        {"rows_per_sec", rate},
        {"bytes", files.bytes()},
        {"bytes_per_row",
         files.rows() ? static_cast<double>(files.bytes()) / files.rows() : 0},
        {"seconds", secs},
        {"out", o.out}};
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::fprintf(stderr,
                 "wrote %d files, %llu rows of %llu games to %s (%.2f s, "
                 "%.0f rows/s; %llu games larger than pos_len left out)\n",
                 files.files(), static_cast<unsigned long long>(files.rows()),
                 static_cast<unsigned long long>(pulled->games_done),
                 o.out.c_str(), secs, rate,
                 static_cast<unsigned long long>(pulled->games_oversize));
  }
  return 0;
}

}  // namespace

void AddTrainCommand(CLI::App& app, int* exit_code) {
  CLI::App* train =
      app.add_subcommand("train", "Training rows for engine authors");
  train->require_subcommand(1);
  auto o = std::make_shared<TrainExportOptions>();
  CLI::App* c = train->add_subcommand(
      "export", "Write training rows as .npz files (KataGo's layout)");
  o->target.Add(c, 86400, "Deadline of the whole export with --server, s");
  o->rows.Add(c);
  c->add_option("--out", o->out, "Output folder (created when missing)")
      ->required();
  c->add_option("--rows-per-file", o->rows_per_file, "Rows per .npz file")
      ->check(CLI::Range(1, 1 << 22))
      ->capture_default_str();
  c->add_option("--compress", o->compress,
                "deflate (as numpy.savez_compressed), fast (deflate level 1) "
                "or none (as numpy.savez)")
      ->check(CLI::IsMember({"deflate", "fast", "none"}))
      ->capture_default_str();
  c->add_flag("--extras", o->extras,
              "Put qipu's members (qipuGlobalInputNC, qipuRowIdNC) in each "
              ".npz instead of a .qipu.zip sidecar (KataGo's shuffle.py then "
              "refuses the files)");
  c->add_flag("--json", o->json, "Print a JSON summary on stdout");
  c->callback([o, exit_code] { *exit_code = RunTrainExport(*o); });
}

}  // namespace qipu::ops
