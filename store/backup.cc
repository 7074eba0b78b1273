#include "store/backup.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <system_error>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "qipu/v1/game.pb.h"
#include "rocksdb/env.h"
#include "rocksdb/utilities/backup_engine.h"
#include "spdlog/spdlog.h"
#include "store/keys.h"
#include "store/status.h"
#include "store/store.h"

namespace qipu::store {
namespace {

namespace fs = std::filesystem;

// The same options for every engine on a directory (BackupEngine requires
// it): shared table files named by checksum -- incremental backups that
// detect a damaged or substituted file.
rocksdb::BackupEngineOptions EngineOptions(const std::string& dir) {
  rocksdb::BackupEngineOptions o(dir);
  o.share_table_files = true;
  o.share_files_with_checksum = true;
  o.sync = true;
  o.max_background_operations = 2;
  return o;
}

BackupEntry EntryOf(const rocksdb::BackupInfo& info) {
  BackupEntry e;
  e.id = info.backup_id;
  e.time = absl::FromUnixSeconds(info.timestamp);
  e.bytes = info.size;
  e.files = info.number_files;
  e.metadata = info.app_metadata;
  return e;
}

absl::StatusOr<std::unique_ptr<rocksdb::BackupEngineReadOnly>> OpenReadOnly(
    const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return absl::NotFoundError(
        absl::StrCat("backup directory ", dir, " does not exist"));
  }
  rocksdb::BackupEngineReadOnly* raw = nullptr;
  QIPU_RETURN_IF_ERROR(
      FromRocks(rocksdb::BackupEngineReadOnly::Open(
                    EngineOptions(dir), rocksdb::Env::Default(), &raw),
                absl::StrCat("opening backup directory ", dir)));
  return std::unique_ptr<rocksdb::BackupEngineReadOnly>(raw);
}

// Backup `id` (0: the latest) of `engine`. A backup whose metadata file
// does not parse is not listed by RocksDB but reported as corrupt: asked
// for by id, or newer than the latest good one when asked for the latest,
// it is DataLoss, never silently replaced by an older backup.
absl::StatusOr<rocksdb::BackupInfo> InfoOf(
    const rocksdb::BackupEngineReadOnly& engine, const std::string& dir,
    uint32_t id) {
  std::vector<rocksdb::BackupID> corrupt;
  engine.GetCorruptedBackups(&corrupt);
  rocksdb::BackupInfo info;
  rocksdb::Status st = id == 0 ? engine.GetLatestBackupInfo(&info)
                               : engine.GetBackupInfo(id, &info);
  rocksdb::BackupID damaged = 0;
  for (rocksdb::BackupID c : corrupt) {
    if (id != 0 ? c == id : (!st.ok() || c > info.backup_id)) {
      damaged = std::max(damaged, c);
    }
  }
  if (damaged != 0) {
    return absl::DataLossError(absl::StrCat(
        "backup ", damaged, " in ", dir,
        " is damaged: its metadata file (meta/", damaged, ") does not parse",
        id == 0 && st.ok()
            ? absl::StrCat("; the latest good backup is ", info.backup_id,
                           " (--id ", info.backup_id, ")")
            : ""));
  }
  if (st.IsNotFound()) {
    return absl::NotFoundError(
        id == 0
            ? absl::StrCat("backup directory ", dir, " holds no backup")
            : absl::StrCat("backup directory ", dir, " has no backup ", id));
  }
  QIPU_RETURN_IF_ERROR(FromRocks(st, absl::StrCat("backup ", id, " in ", dir)));
  return info;
}

// Whether `inner` is `outer` or below it, both real paths (symbolic links
// resolved as far as the paths exist).
bool IsWithin(const fs::path& inner, const fs::path& outer) {
  auto ai = inner.begin();
  for (auto bi = outer.begin(); bi != outer.end(); ++bi, ++ai) {
    if (bi->empty()) continue;  // a trailing separator
    if (ai == inner.end() || *ai != *bi) return false;
  }
  return true;
}

// InvalidArgument when `backup_dir` and the database directory `db_dir`
// overlap (one inside the other), compared as real paths: a backup written
// into the database (or the database into a backup directory) would be
// copied into itself, or deleted with it.
absl::Status CheckOutsideDatabase(const std::string& backup_dir,
                                  const std::string& db_dir) {
  std::error_code ec;
  const fs::path to = fs::weakly_canonical(fs::absolute(backup_dir, ec), ec);
  if (ec) {
    return absl::InvalidArgumentError(
        absl::StrCat("backup directory ", backup_dir, ": ", ec.message()));
  }
  const fs::path db = fs::canonical(db_dir, ec);
  if (ec) {
    return absl::UnavailableError(
        absl::StrCat("database directory ", db_dir, ": ", ec.message()));
  }
  if (IsWithin(to, db) || IsWithin(db, to)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "backup directory ", backup_dir,
        to.string() == backup_dir ? "" : absl::StrCat(" (", to.string(), ")"),
        " overlaps the database directory ", db.string()));
  }
  return absl::OkStatus();
}

}  // namespace

std::string BackupMetadata() {
  return absl::StrCat("qipu format ", kFormatVersion);
}

absl::StatusOr<BackupEntry> Store::Backup(const std::string& backup_dir) {
  QIPU_RETURN_IF_ERROR(CheckOutsideDatabase(backup_dir, dir_));
  absl::MutexLock lock(&backup_mu_);
  // The index's buffered entries into its files first, so that the
  // restored database needs to re-index only the batches committed during
  // the copy's set-up. Not needed for consistency: a batch's games and its
  // unindexed-batch record are in the same WriteBatch (position_index.h).
  QIPU_RETURN_IF_ERROR(index_->Flush());
  std::error_code ec;
  fs::create_directories(backup_dir, ec);
  if (ec) {
    return absl::FailedPreconditionError(absl::StrCat(
        "cannot create backup directory ", backup_dir, ": ", ec.message()));
  }
  rocksdb::BackupEngine* raw = nullptr;
  QIPU_RETURN_IF_ERROR(
      FromRocks(rocksdb::BackupEngine::Open(EngineOptions(backup_dir),
                                            db_->GetEnv(), &raw),
                absl::StrCat("opening backup directory ", backup_dir)));
  std::unique_ptr<rocksdb::BackupEngine> engine(raw);
  // Without a flush: the live files and the WAL up to one sequence number
  // (RocksDB's consistent point, taken with file deletions disabled), so
  // the backup does not force memtable flushes under load.
  rocksdb::CreateBackupOptions create;
  create.flush_before_backup = false;
  rocksdb::BackupID id = 0;
  const absl::Time t0 = absl::Now();
  QIPU_RETURN_IF_ERROR(FromRocks(
      engine->CreateNewBackupWithMetadata(create, db_.get(), BackupMetadata(),
                                          &id),
      absl::StrCat("database ", dir_, ": backing up to ", backup_dir)));
  rocksdb::BackupInfo info;
  QIPU_RETURN_IF_ERROR(
      FromRocks(engine->GetBackupInfo(id, &info),
                absl::StrCat("backup ", id, " in ", backup_dir)));
  spdlog::info("database {}: backup {} in {}: {} files, {} bytes, {:.2f} s",
               dir_, id, backup_dir, info.number_files, info.size,
               absl::ToDoubleSeconds(absl::Now() - t0));
  return EntryOf(info);
}

absl::StatusOr<std::vector<BackupEntry>> ListBackups(
    const std::string& backup_dir) {
  QIPU_ASSIGN_OR_RETURN(std::unique_ptr<rocksdb::BackupEngineReadOnly> engine,
                        OpenReadOnly(backup_dir));
  std::vector<rocksdb::BackupInfo> infos;
  engine->GetBackupInfo(&infos);
  std::vector<BackupEntry> out;
  out.reserve(infos.size());
  for (const rocksdb::BackupInfo& info : infos) out.push_back(EntryOf(info));
  return out;
}

absl::StatusOr<BackupEntry> VerifyBackup(const std::string& backup_dir,
                                         uint32_t id) {
  QIPU_ASSIGN_OR_RETURN(std::unique_ptr<rocksdb::BackupEngineReadOnly> engine,
                        OpenReadOnly(backup_dir));
  QIPU_ASSIGN_OR_RETURN(const rocksdb::BackupInfo info,
                        InfoOf(*engine, backup_dir, id));
  const rocksdb::IOStatus st =
      engine->VerifyBackup(info.backup_id, /*verify_with_checksum=*/true);
  if (!st.ok()) {
    return absl::DataLossError(absl::StrCat("backup ", info.backup_id, " in ",
                                            backup_dir,
                                            " is damaged: ", st.ToString()));
  }
  return EntryOf(info);
}

absl::StatusOr<BackupEntry> CopyBackupInto(const std::string& backup_dir,
                                           uint32_t id,
                                           const std::string& dir) {
  QIPU_ASSIGN_OR_RETURN(std::unique_ptr<rocksdb::BackupEngineReadOnly> engine,
                        OpenReadOnly(backup_dir));
  QIPU_ASSIGN_OR_RETURN(const rocksdb::BackupInfo info,
                        InfoOf(*engine, backup_dir, id));
  const rocksdb::IOStatus st = engine->RestoreDBFromBackup(
      rocksdb::RestoreOptions(), info.backup_id, dir, dir);
  if (st.IsCorruption()) {
    return absl::DataLossError(absl::StrCat("backup ", info.backup_id, " in ",
                                            backup_dir,
                                            " is damaged: ", st.ToString()));
  }
  QIPU_RETURN_IF_ERROR(
      FromRocks(st, absl::StrCat("copying backup ", info.backup_id, " of ",
                                 backup_dir, " into ", dir)));
  return EntryOf(info);
}

}  // namespace qipu::store
