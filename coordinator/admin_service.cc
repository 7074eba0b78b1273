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
  // Store::Backup() refuses a directory overlapping the database (real
  // paths compared, so a symbolic link does not get past it).
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
