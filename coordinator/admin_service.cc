#include "coordinator/admin_service.h"

#include <filesystem>
#include <string>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "base/grpc_status.h"
#include "coordinator/access.h"
#include "spdlog/spdlog.h"

namespace qipu::coordinator {

using base::ToGrpc;
namespace fs = std::filesystem;

namespace {

// Whether `inner` is `outer` or below it (both made absolute and lexically
// normal; symbolic links are not followed).
bool IsWithin(const fs::path& inner, const fs::path& outer) {
  const fs::path a = inner.lexically_normal();
  const fs::path b = outer.lexically_normal();
  auto ai = a.begin();
  for (auto bi = b.begin(); bi != b.end(); ++bi, ++ai) {
    if (bi->empty()) continue;  // a trailing separator
    if (ai == a.end() || *ai != *bi) return false;
  }
  return true;
}

}  // namespace

void BackupEntryToProto(const store::BackupEntry& e,
                        qipu::v1::BackupInfo* out) {
  out->set_backup_id(e.id);
  out->set_unix_seconds(absl::ToUnixSeconds(e.time));
  out->set_bytes(e.bytes);
  out->set_files(e.files);
  out->set_metadata(e.metadata);
}

grpc::Status AdminServiceImpl::Backup(grpc::ServerContext* ctx,
                                      const qipu::v1::BackupRequest* req,
                                      qipu::v1::BackupResponse* resp) {
  if (local_only_) {
    if (absl::Status s = CheckLocalCaller(ctx->peer(), "AdminService.Backup");
        !s.ok()) {
      spdlog::warn("backup: refused: {}", std::string(s.message()));
      return ToGrpc(s);
    }
  }
  const fs::path to(req->to());
  if (req->to().empty() || !to.is_absolute()) {
    return grpc::Status(
        grpc::StatusCode::INVALID_ARGUMENT,
        absl::StrCat("backup: 'to' must be an absolute directory on the "
                     "coordinator's host (got '",
                     req->to(), "')"));
  }
  std::error_code ec;
  const fs::path db = fs::absolute(store_->dir(), ec);
  if (!ec && (IsWithin(to, db) || IsWithin(db, to))) {
    return grpc::Status(
        grpc::StatusCode::INVALID_ARGUMENT,
        absl::StrCat("backup: ", req->to(), " overlaps the database directory ",
                     db.string()));
  }
  spdlog::info("backup: to {} (asked by {})", req->to(), ctx->peer());
  const absl::Time t0 = absl::Now();
  auto entry = store_->Backup(req->to());
  if (!entry.ok()) {
    spdlog::error("backup: to {}: {}", req->to(), entry.status().ToString());
    return ToGrpc(entry.status());
  }
  BackupEntryToProto(*entry, resp->mutable_backup());
  resp->set_seconds(absl::ToDoubleSeconds(absl::Now() - t0));
  return grpc::Status::OK;
}

}  // namespace qipu::coordinator
