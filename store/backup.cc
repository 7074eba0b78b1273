#include "store/backup.h"

#include <filesystem>
#include <memory>
#include <system_error>

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

// Backup `id` (0: the latest) of `engine`.
absl::StatusOr<rocksdb::BackupInfo> InfoOf(
    const rocksdb::BackupEngineReadOnly& engine, const std::string& dir,
    uint32_t id) {
  rocksdb::BackupInfo info;
  rocksdb::Status st = id == 0 ? engine.GetLatestBackupInfo(&info)
                               : engine.GetBackupInfo(id, &info);
  if (st.IsNotFound()) {
    return absl::NotFoundError(
        id == 0
            ? absl::StrCat("backup directory ", dir, " holds no backup")
            : absl::StrCat("backup directory ", dir, " has no backup ", id));
  }
  QIPU_RETURN_IF_ERROR(FromRocks(st, absl::StrCat("backup ", id, " in ", dir)));
  return info;
}

// OK when `db_dir` may receive a restored database: missing or empty, or
// with `force` a qipu database nobody has open (then emptied).
absl::Status PrepareTarget(const std::string& db_dir, bool force) {
  std::error_code ec;
  if (!fs::exists(db_dir, ec)) return absl::OkStatus();
  if (!fs::is_directory(db_dir, ec)) {
    return absl::FailedPreconditionError(
        absl::StrCat(db_dir, " exists and is not a directory"));
  }
  if (fs::is_empty(db_dir, ec)) return absl::OkStatus();
  if (!force) {
    return absl::FailedPreconditionError(
        absl::StrCat(db_dir,
                     " is not empty; restore into a new directory, or pass "
                     "--force to replace the database in it"));
  }
  if (!fs::exists(fs::path(db_dir) / "CURRENT", ec)) {
    return absl::FailedPreconditionError(
        absl::StrCat(db_dir,
                     " is not empty and holds no database (no CURRENT file); "
                     "refusing to delete it even with --force"));
  }
  // RocksDB's own lock: held by any process (or Store in this one) that
  // has the database open.
  rocksdb::Env* env = rocksdb::Env::Default();
  rocksdb::FileLock* lock = nullptr;
  const rocksdb::Status locked = env->LockFile(db_dir + "/LOCK", &lock);
  if (!locked.ok()) {
    return absl::UnavailableError(absl::StrCat(
        "database ", db_dir,
        " is in use (stop the coordinator first): ", locked.ToString()));
  }
  env->UnlockFile(lock).PermitUncheckedError();
  for (const fs::directory_entry& e : fs::directory_iterator(db_dir, ec)) {
    fs::remove_all(e.path(), ec);
    if (ec) {
      return absl::UnavailableError(absl::StrCat(
          "cannot remove ", e.path().string(), ": ", ec.message()));
    }
  }
  if (ec) {
    return absl::UnavailableError(
        absl::StrCat("cannot list ", db_dir, ": ", ec.message()));
  }
  return absl::OkStatus();
}

}  // namespace

std::string BackupMetadata() {
  return absl::StrCat("qipu format ", kFormatVersion);
}

absl::StatusOr<BackupEntry> Store::Backup(const std::string& backup_dir) {
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

absl::StatusOr<RestoreResult> RestoreBackup(const std::string& backup_dir,
                                            uint32_t id,
                                            const std::string& db_dir,
                                            bool force) {
  QIPU_ASSIGN_OR_RETURN(std::unique_ptr<rocksdb::BackupEngineReadOnly> engine,
                        OpenReadOnly(backup_dir));
  QIPU_ASSIGN_OR_RETURN(const rocksdb::BackupInfo info,
                        InfoOf(*engine, backup_dir, id));
  if (info.app_metadata != BackupMetadata()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "backup ", info.backup_id, " in ", backup_dir, " says '",
        info.app_metadata, "'; this qipu restores '", BackupMetadata(), "'"));
  }
  QIPU_RETURN_IF_ERROR(PrepareTarget(db_dir, force));
  QIPU_RETURN_IF_ERROR(
      FromRocks(engine->RestoreDBFromBackup(rocksdb::RestoreOptions(),
                                            info.backup_id, db_dir, db_dir),
                absl::StrCat("restoring backup ", info.backup_id, " of ",
                             backup_dir, " into ", db_dir)));
  RestoreResult result;
  result.backup = EntryOf(info);
  // Opening recovers the position index (re-indexes the batches the
  // backup's index files do not hold); reading every game back checks
  // that each one decodes.
  StoreOptions o;
  o.create_if_missing = false;
  o.block_cache_bytes = 16u << 20;
  QIPU_ASSIGN_OR_RETURN(std::unique_ptr<Store> store, Store::Open(db_dir, o));
  result.reindexed_games = store->position_index().stats().recovered_games;
  ScanOptions scan;
  scan.fill_cache = false;
  scan.readahead_bytes = 2u << 20;
  Cursor it = store->NewCursor(store->games(), scan);
  qipu::v1::Game game;
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    const absl::string_view v = it.value();
    if (!DecodeGameKey(it.key()).has_value() ||
        !game.ParseFromArray(v.data(), static_cast<int>(v.size()))) {
      return absl::DataLossError(absl::StrCat("restored database ", db_dir,
                                              ": game ", result.games + 1,
                                              " in key order does not decode"));
    }
    ++result.games;
  }
  QIPU_RETURN_IF_ERROR(it.status());
  QIPU_RETURN_IF_ERROR(store->Flush());
  return result;
}

}  // namespace qipu::store
