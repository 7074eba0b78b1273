#include "coordinator/corpus_service.h"

#include <deque>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "base/grpc_status.h"
#include "base/parsed_stream.h"
#include "spdlog/spdlog.h"
#include "store/game_id.h"
#include "store/keys.h"
#include "store/player_index.h"

namespace qipu::coordinator {

using base::ToGrpc;
namespace {

// The responses of one Import stream, in request order: a slot is
// reserved per request as it arrives and filled when its file is done;
// the writer sends filled slots from the front.
class ResponseQueue {
 public:
  explicit ResponseQueue(int window) : window_(std::max(1, window)) {}

  // Blocks while `window` slots are open; the slot's number, or -1 once
  // the stream has failed.
  int64_t Reserve() {
    absl::MutexLock lock(&mu_);
    auto room = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return failed_ || static_cast<int>(slots_.size()) < window_;
    };
    mu_.Await(absl::Condition(&room));
    if (failed_) return -1;
    slots_.emplace_back();
    return next_++;
  }

  void Fill(int64_t n, qipu::v1::ImportResponse r) {
    absl::MutexLock lock(&mu_);
    slots_[static_cast<size_t>(n - first_)] = std::move(r);
  }

  // Waits for the front slot; false once closed and drained, or failed.
  bool Pop(qipu::v1::ImportResponse* out) {
    absl::MutexLock lock(&mu_);
    auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return failed_ || (!slots_.empty() && slots_.front().has_value()) ||
             (closed_ && slots_.empty());
    };
    mu_.Await(absl::Condition(&ready));
    if (failed_ || slots_.empty()) return false;
    *out = std::move(*slots_.front());
    slots_.pop_front();
    ++first_;
    return true;
  }

  void Close() {
    absl::MutexLock lock(&mu_);
    closed_ = true;
  }
  void Fail() {
    absl::MutexLock lock(&mu_);
    failed_ = true;
  }
  bool failed() const {
    absl::MutexLock lock(&mu_);
    return failed_;
  }
  // Waits until every reserved slot is filled: the importer's callbacks
  // point at this queue.
  void WaitFilled() {
    absl::MutexLock lock(&mu_);
    auto filled = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      for (const auto& s : slots_) {
        if (!s.has_value()) return false;
      }
      return true;
    };
    mu_.Await(absl::Condition(&filled));
  }

 private:
  const int window_;
  mutable absl::Mutex mu_;
  std::deque<std::optional<qipu::v1::ImportResponse>> slots_
      ABSL_GUARDED_BY(mu_);
  int64_t first_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t next_ ABSL_GUARDED_BY(mu_) = 0;
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  bool failed_ ABSL_GUARDED_BY(mu_) = false;
};

qipu::v1::ImportResponse Refused(const std::string& file,
                                 absl::string_view why) {
  qipu::v1::ImportResponse r;
  r.set_file(file);
  qipu::v1::ImportError* e = r.add_errors();
  e->set_file(file);
  e->set_reason(std::string(why));
  return r;
}

}  // namespace

// CorpusService's methods in proto order: Import is the first.
constexpr int kImportMethod = 0;

CorpusServiceImpl::CorpusServiceImpl(engine::Importer* importer,
                                     store::Store* store,
                                     const CorpusServiceOptions& options)
    : importer_(importer), store_(store), exporter_(store), options_(options) {
  MarkMethodStreamed(
      kImportMethod,
      base::NewParsedBidiHandler<qipu::v1::ImportResponse,
                                 qipu::v1::ImportRequest>(
          [this](grpc::ServerContext* ctx,
                 grpc::ServerReaderWriterInterface<qipu::v1::ImportResponse,
                                                   qipu::v1::ImportRequest>*
                     stream) { return Import(ctx, stream); },
          "import message"));
}

grpc::Status CorpusServiceImpl::Import(
    grpc::ServerContext* ctx,
    grpc::ServerReaderWriter<qipu::v1::ImportResponse, qipu::v1::ImportRequest>*
        stream) {
  return Import(
      ctx, static_cast<grpc::ServerReaderWriterInterface<
               qipu::v1::ImportResponse, qipu::v1::ImportRequest>*>(stream));
}

grpc::Status CorpusServiceImpl::Import(
    grpc::ServerContext* ctx,
    grpc::ServerReaderWriterInterface<qipu::v1::ImportResponse,
                                      qipu::v1::ImportRequest>* stream) {
  auto slot = AcquireStream(options_.streams, ctx->peer(), "import");
  if (!slot.ok()) return ToGrpc(slot.status());
  ResponseQueue responses(options_.import_window);
  std::thread writer([&] {
    qipu::v1::ImportResponse r;
    while (responses.Pop(&r)) {
      if (!stream->Write(r)) {
        responses.Fail();
        ctx->TryCancel();
        return;
      }
    }
  });

  qipu::v1::ImportRequest req;
  uint64_t files = 0;
  while (!ctx->IsCancelled() && stream->Read(&req)) {
    const int64_t slot = responses.Reserve();
    if (slot < 0) break;
    ++files;
    std::string file =
        req.file().empty() ? absl::StrCat("<request ", files, ">") : req.file();
    engine::ImportSettings settings;
    if (!req.source().empty()) settings.source = req.source();
    settings.strict = req.strict();
    if (req.index_depth() != 0) {
      settings.index_depth =
          static_cast<int>(std::min<uint32_t>(req.index_depth(), 1u << 30));
    }
    if (absl::Status s = engine::ValidateImportSettings(settings); !s.ok()) {
      responses.Fill(slot, Refused(file, s.message()));
      continue;
    }
    importer_->ImportBytes(std::move(file), std::move(*req.mutable_data()),
                           settings,
                           [&responses, slot](qipu::v1::ImportResponse r) {
                             responses.Fill(slot, std::move(r));
                           });
  }
  responses.Close();
  responses.WaitFilled();
  writer.join();
  if (responses.failed() || ctx->IsCancelled()) {
    spdlog::warn("import: stream ended early after {} files", files);
    return grpc::Status(grpc::StatusCode::CANCELLED,
                        "the stream was cancelled; files without a response "
                        "may or may not be imported (re-importing is safe)");
  }
  spdlog::info("import: {} files", files);
  return grpc::Status::OK;
}

grpc::Status CorpusServiceImpl::Export(
    grpc::ServerContext* ctx, const qipu::v1::ExportRequest* req,
    grpc::ServerWriter<qipu::v1::Game>* writer) {
  auto slot = AcquireStream(options_.streams, ctx->peer(), "export");
  if (!slot.ok()) return ToGrpc(slot.status());
  const uint64_t cap = options_.max_export_games;
  if (cap != 0 && req->limit() > cap) {
    return grpc::Status(
        grpc::StatusCode::RESOURCE_EXHAUSTED,
        absl::StrCat("export: at most ", cap, " games per call (asked ",
                     req->limit(), "); page with ExportRequest.after"));
  }
  // One game past the cap tells whether more remain: it is read, not sent.
  qipu::v1::ExportRequest capped = *req;
  if (cap != 0 && req->limit() == 0) capped.set_limit(cap + 1);
  const absl::Time deadline = absl::Now() + options_.max_export_time;
  bool broken = false;
  bool over_cap = false;
  std::optional<store::GameId> last_sent;
  uint64_t sent = 0;
  auto stats = exporter_.Export(
      capped,
      [&](const store::GameId& id, const qipu::v1::Game& game) {
        if (cap != 0 && sent == cap) {
          over_cap = true;
          return false;
        }
        if (ctx->IsCancelled() || !writer->Write(game)) {
          broken = true;
          return false;
        }
        ++sent;
        last_sent = id;
        return true;
      },
      deadline);
  if (!stats.ok()) return ToGrpc(stats.status());
  if (broken) {
    return grpc::Status(grpc::StatusCode::CANCELLED,
                        "the client went away during the export");
  }
  if (over_cap || stats->timed_out) {
    // Resume after the last game sent (over the cap), or the last game
    // read (out of time: the games read since the last one sent did not
    // match).
    const std::optional<store::GameId> resume =
        over_cap ? last_sent : stats->last_read;
    std::string why =
        over_cap ? absl::StrCat("export: at most ", cap, " games per call")
                 : absl::StrCat("export: at most ",
                                absl::FormatDuration(options_.max_export_time),
                                " per call");
    if (resume.has_value()) {
      const std::string after = store::GameIdText(*resume);
      ctx->AddTrailingMetadata(wire::kExportResumeKey, after);
      absl::StrAppend(&why, "; more games match: resume after ", after,
                      " (ExportRequest.after)");
    }
    spdlog::info("export: {} games, stopped at a limit ({})", sent, why);
    return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED, why);
  }
  spdlog::info("export: {} of {} games", stats->games, stats->scanned);
  return grpc::Status::OK;
}

grpc::Status CorpusServiceImpl::SetAliases(
    grpc::ServerContext*, const qipu::v1::SetAliasesRequest* req,
    qipu::v1::SetAliasesResponse* resp) {
  auto groups = store::AliasGroups::Parse(
      req->text(), req->file().empty() ? "aliases" : req->file());
  if (!groups.ok()) return ToGrpc(groups.status());
  absl::Status s = store_->Put(store::Records::kPlayers, store::AliasesKey(),
                               groups->Serialize(), store::Durability::kSync);
  if (!s.ok()) return ToGrpc(s);
  resp->set_groups(static_cast<uint32_t>(groups->groups().size()));
  uint32_t names = 0;
  for (const auto& g : groups->groups())
    names += static_cast<uint32_t>(g.size());
  resp->set_names(names);
  return grpc::Status::OK;
}

}  // namespace qipu::coordinator
