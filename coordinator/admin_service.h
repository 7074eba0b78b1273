// gRPC edge of database administration: AdminService of
// qipu/v1/admin.proto (the `operator` role's calls). Backup hands the
// request to store::Store::Backup() (store/backup.h) after checking the
// path, and maps the absl::Status to the gRPC code.
#ifndef QIPU_COORDINATOR_ADMIN_SERVICE_H_
#define QIPU_COORDINATOR_ADMIN_SERVICE_H_

#include "qipu/v1/admin.grpc.pb.h"
#include "store/store.h"

namespace qipu::coordinator {

// AdminService on the sync API (a backup copies the database: seconds to
// hours on a handler thread). Thread-safe; does not own the store, which
// must outlive the service.
class AdminServiceImpl final : public qipu::v1::AdminService::Service {
 public:
  // `local_only` (the coordinator runs with --auth off): every RPC
  // answers only callers on this host, PERMISSION_DENIED otherwise
  // (CheckLocalCaller, access.h).
  AdminServiceImpl(store::Store* store, bool local_only)
      : store_(store), local_only_(local_only) {}

  // A consistent online backup into req->to() (an absolute directory on
  // this host, outside the database directory). INVALID_ARGUMENT for a bad
  // path; PERMISSION_DENIED for a remote caller when local_only; the
  // store's errors otherwise.
  grpc::Status Backup(grpc::ServerContext* ctx,
                      const qipu::v1::BackupRequest* req,
                      qipu::v1::BackupResponse* resp) override;

 private:
  store::Store* store_;
  const bool local_only_;
};

// The proto form of a backup entry.
void BackupEntryToProto(const store::BackupEntry& e, qipu::v1::BackupInfo* out);

}  // namespace qipu::coordinator

#endif  // QIPU_COORDINATOR_ADMIN_SERVICE_H_
