#include "store/restore.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <system_error>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "base/status_macros.h"
#include "qipu/v1/game.pb.h"
#include "rocksdb/env.h"
#include "spdlog/spdlog.h"
#include "store/keys.h"
#include "store/store.h"

namespace qipu::store {
namespace {

namespace fs = std::filesystem;

constexpr char kRestoring[] = ".restoring-";
constexpr char kBeforeRestore[] = ".before-restore-";
constexpr char kDeleting[] = ".deleting-";

// The target and the names beside it.
struct Paths {
  // The target database directory: absolute, normal, symbolic links
  // resolved (a link to a database restores into the linked directory).
  fs::path db;
  fs::path parent;
  std::string name;

  fs::path Beside(absl::string_view kind, absl::string_view stamp) const {
    return parent / absl::StrCat(name, kind, stamp);
  }
};

absl::StatusOr<Paths> PathsOf(const std::string& db_dir) {
  if (db_dir.empty()) {
    return absl::InvalidArgumentError("restore: the database directory is ''");
  }
  std::error_code ec;
  fs::path db = fs::weakly_canonical(fs::absolute(db_dir, ec), ec);
  if (ec) {
    return absl::InvalidArgumentError(absl::StrCat(
        "restore: database directory ", db_dir, ": ", ec.message()));
  }
  if (!db.has_filename()) db = db.parent_path();
  Paths p;
  p.db = db;
  p.parent = db.parent_path();
  p.name = db.filename().string();
  if (p.name.empty() || p.name == "." || p.name == ".." || p.parent == db) {
    return absl::InvalidArgumentError(absl::StrCat(
        "restore: ", db_dir, " cannot be a database directory (no name)"));
  }
  return p;
}

std::string ErrnoText() { return std::strerror(errno); }

// fsync of a directory: makes the renames and creations in it durable.
absl::Status SyncDir(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot open ", dir.string(), ": ", ErrnoText()));
  }
  const int rc = ::fsync(fd);
  const std::string err = rc != 0 ? ErrnoText() : "";
  ::close(fd);
  if (rc != 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot sync ", dir.string(), ": ", err));
  }
  return absl::OkStatus();
}

absl::Status Rename(const fs::path& from, const fs::path& to,
                    unsigned int flags) {
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), flags) != 0) {
    const int e = errno;
    if (flags == RENAME_EXCHANGE && (e == EINVAL || e == ENOSYS)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "the file system of ", to.parent_path().string(),
          " cannot exchange two directories atomically (renameat2 "
          "RENAME_EXCHANGE): restore into a new directory instead and "
          "swap it in while the coordinator is stopped"));
    }
    return absl::UnavailableError(absl::StrCat("cannot rename ", from.string(),
                                               " to ", to.string(), ": ",
                                               std::strerror(e)));
  }
  return SyncDir(to.parent_path());
}

// One restore at a time beside a target: an exclusive flock on the parent
// directory, released when destroyed.
class ParentLock {
 public:
  static absl::StatusOr<ParentLock> Take(const fs::path& parent) {
    const int fd = ::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
      return absl::FailedPreconditionError(absl::StrCat(
          "restore: cannot open ", parent.string(), ": ", ErrnoText()));
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd);
      return absl::UnavailableError(absl::StrCat(
          "restore: another restore is running in ", parent.string()));
    }
    return ParentLock(fd);
  }
  ParentLock(ParentLock&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  ParentLock& operator=(ParentLock&&) = delete;
  ~ParentLock() {
    if (fd_ >= 0) ::close(fd_);  // releases the flock
  }

 private:
  explicit ParentLock(int fd) : fd_(fd) {}
  int fd_;
};

// RocksDB's LOCK of a database directory, held until destroyed (or
// Release()): no process can open that database meanwhile.
class DatabaseLock {
 public:
  // Unavailable when a process (this one included) has it open.
  static absl::StatusOr<std::unique_ptr<DatabaseLock>> Take(
      const fs::path& db) {
    rocksdb::Env* env = rocksdb::Env::Default();
    rocksdb::FileLock* lock = nullptr;
    const rocksdb::Status s = env->LockFile((db / "LOCK").string(), &lock);
    if (!s.ok()) {
      return absl::UnavailableError(absl::StrCat(
          "database ", db.string(),
          " is in use (stop the coordinator first): ", s.ToString()));
    }
    return std::unique_ptr<DatabaseLock>(new DatabaseLock(env, lock));
  }
  ~DatabaseLock() { Release(); }
  void Release() {
    if (lock_ != nullptr) env_->UnlockFile(lock_).PermitUncheckedError();
    lock_ = nullptr;
  }

 private:
  DatabaseLock(rocksdb::Env* env, rocksdb::FileLock* lock)
      : env_(env), lock_(lock) {}
  rocksdb::Env* env_;
  rocksdb::FileLock* lock_;
};

// Whether `name` is a file RocksDB (or qipu's index build, or a restore's
// marker) keeps in a database directory.
bool IsDatabaseFileName(const std::string& name) {
  auto numbered = [&](absl::string_view suffix) {
    if (!absl::EndsWith(name, suffix)) return false;
    const absl::string_view digits =
        absl::string_view(name).substr(0, name.size() - suffix.size());
    uint64_t n;
    return !digits.empty() && absl::SimpleAtoi(digits, &n);
  };
  return name == "CURRENT" || name == "IDENTITY" || name == "LOCK" ||
         name == "LOG" || name == kStagingMarker || name == "index-build" ||
         absl::StartsWith(name, "LOG.old.") ||
         absl::StartsWith(name, "MANIFEST-") ||
         absl::StartsWith(name, "OPTIONS-") || numbered(".sst") ||
         numbered(".log") || numbered(".blob") || numbered(".dbtmp") ||
         absl::EndsWith(name, ".tmp");
}

// What the target holds.
enum class Target { kMissing, kEmpty, kDatabase, kLeftovers };

absl::StatusOr<Target> CheckTarget(const Paths& p, bool force) {
  std::error_code ec;
  const fs::file_status st = fs::status(p.db, ec);
  if (!fs::exists(st)) return Target::kMissing;
  if (!fs::is_directory(st)) {
    return absl::FailedPreconditionError(
        absl::StrCat(p.db.string(), " exists and is not a directory"));
  }
  if (fs::is_empty(p.db, ec)) return Target::kEmpty;
  if (fs::exists(p.db / "CURRENT", ec)) {
    if (!force) {
      return absl::FailedPreconditionError(absl::StrCat(
          p.db.string(),
          " holds a database; restore into a new directory, or pass --force "
          "to replace it (it is kept until the restored one reads back)"));
    }
    return Target::kDatabase;
  }
  bool leftovers = true;
  for (const fs::directory_entry& e : fs::directory_iterator(p.db, ec)) {
    if (!IsDatabaseFileName(e.path().filename().string())) leftovers = false;
  }
  if (ec) {
    return absl::UnavailableError(
        absl::StrCat("cannot list ", p.db.string(), ": ", ec.message()));
  }
  if (!leftovers) {
    return absl::FailedPreconditionError(absl::StrCat(
        p.db.string(),
        " is not empty and holds no database (no CURRENT file, and files "
        "RocksDB does not write); refusing to replace it even with --force"));
  }
  if (!force) {
    return absl::FailedPreconditionError(absl::StrCat(
        p.db.string(),
        " holds the leftovers of a failed restore (database files but no "
        "CURRENT); pass --force to replace them"));
  }
  return Target::kLeftovers;
}

// Deals with what interrupted restores of this target left beside it (the
// file comment of restore.h), one line per thing done.
absl::Status Recover(const Paths& p, std::vector<std::string>* notes) {
  std::error_code ec;
  std::vector<fs::path> beside;
  for (const fs::directory_entry& e : fs::directory_iterator(p.parent, ec)) {
    if (absl::StartsWith(e.path().filename().string(), p.name + ".")) {
      beside.push_back(e.path());
    }
  }
  if (ec) {
    return absl::UnavailableError(
        absl::StrCat("cannot list ", p.parent.string(), ": ", ec.message()));
  }
  for (const fs::path& path : beside) {
    const std::string rest = path.filename().string().substr(p.name.size());
    const bool marked = fs::exists(path / kStagingMarker, ec);
    std::optional<std::string> done;
    if (absl::StartsWith(rest, kRestoring) ||
        absl::StartsWith(rest, kDeleting) ||
        (absl::StartsWith(rest, kBeforeRestore) && marked)) {
      // New data that never went in place, or an old database being
      // deleted after the new one read back.
      fs::remove_all(path, ec);
      done = absl::StrCat("removed ", path.string(), " (",
                          absl::StartsWith(rest, kDeleting)
                              ? "a replaced database being deleted"
                              : "an interrupted restore's unused copy",
                          ")");
    } else if (absl::StartsWith(rest, kBeforeRestore)) {
      done = absl::StrCat(
          "kept ", path.string(),
          ": the database an interrupted restore replaced; delete it when "
          "the restored one is good");
    }
    if (ec) {
      return absl::UnavailableError(
          absl::StrCat("cannot remove ", path.string(), ": ", ec.message()));
    }
    if (done) notes->push_back(*done);
  }
  if (fs::exists(p.db / kStagingMarker, ec)) {
    // The exchange happened: the database in place was read back before.
    fs::remove(p.db / kStagingMarker, ec);
    if (ec) {
      return absl::UnavailableError(
          absl::StrCat("cannot remove ", (p.db / kStagingMarker).string(), ": ",
                       ec.message()));
    }
    QIPU_RETURN_IF_ERROR(SyncDir(p.db));
    notes->push_back(absl::StrCat("finished an interrupted restore into ",
                                  p.db.string(),
                                  " (the restored database was in place)"));
  }
  for (const std::string& n : *notes) spdlog::warn("restore: {}", n);
  return absl::OkStatus();
}

// A name stamp for the directories beside the target: the time, unique
// beside it.
std::string StampFor(const Paths& p) {
  const std::string base =
      absl::FormatTime("%Y%m%dT%H%M%SZ", absl::Now(), absl::UTCTimeZone());
  std::error_code ec;
  for (int i = 1;; ++i) {
    const std::string stamp = i == 1 ? base : absl::StrCat(base, "-", i);
    if (!fs::exists(p.Beside(kRestoring, stamp), ec) &&
        !fs::exists(p.Beside(kBeforeRestore, stamp), ec) &&
        !fs::exists(p.Beside(kDeleting, stamp), ec)) {
      return stamp;
    }
  }
}

StoreOptions ReadBackOptions() {
  StoreOptions o;
  o.create_if_missing = false;
  o.block_cache_bytes = 16u << 20;
  return o;
}

// Opens the database in `dir` (recovering its position index) and reads
// every game, each one decoded.
absl::Status ReadBack(const fs::path& dir, RestoreResult* result) {
  QIPU_ASSIGN_OR_RETURN(std::unique_ptr<Store> store,
                        Store::Open(dir.string(), ReadBackOptions()));
  result->reindexed_games = store->position_index().stats().recovered_games;
  ScanOptions scan;
  scan.fill_cache = false;
  scan.readahead_bytes = 2u << 20;
  Cursor it = store->Scan(store::Records::kGames, scan);
  qipu::v1::Game game;
  result->games = 0;
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    const absl::string_view v = it.value();
    if (!DecodeGameKey(it.key()).has_value() ||
        !game.ParseFromArray(v.data(), static_cast<int>(v.size()))) {
      return absl::DataLossError(
          absl::StrCat("restored database ", dir.string(), ": game ",
                       result->games + 1, " in key order does not decode"));
    }
    ++result->games;
  }
  QIPU_RETURN_IF_ERROR(it.status());
  return store->Flush();
}

// Opens the database in `dir` again and counts its games.
absl::StatusOr<uint64_t> CountGames(const fs::path& dir) {
  QIPU_ASSIGN_OR_RETURN(std::unique_ptr<Store> store,
                        Store::Open(dir.string(), ReadBackOptions()));
  ScanOptions scan;
  scan.fill_cache = false;
  Cursor it = store->Scan(store::Records::kGames, scan);
  uint64_t n = 0;
  for (it.SeekToFirst(); it.Valid(); it.Next()) ++n;
  QIPU_RETURN_IF_ERROR(it.status());
  return n;
}

// Removes a directory this restore made; the error (if any) is logged and
// added to `why`, which is returned.
absl::Status Discard(const fs::path& dir, absl::Status why) {
  std::error_code ec;
  fs::remove_all(dir, ec);
  if (ec) {
    spdlog::error("restore: cannot remove {}: {}", dir.string(), ec.message());
    return absl::Status(why.code(),
                        absl::StrCat(why.message(), " (and ", dir.string(),
                                     " could not be removed: ", ec.message(),
                                     "; the next restore removes it)"));
  }
  return why;
}

absl::Status Step(const RestoreOptions& o, RestoreStep step) {
  spdlog::debug("restore: {}", RestoreStepName(step));
  return o.after_step ? o.after_step(step) : absl::OkStatus();
}

// Steps 4-5: the backup copied into a fresh staging directory, marked,
// opened and read back. On error the staging directory is gone.
absl::Status Stage(const std::string& backup_dir, uint32_t id,
                   const fs::path& staging, const RestoreOptions& o,
                   RestoreResult* result) {
  std::error_code ec;
  fs::create_directory(staging, ec);
  if (ec) {
    return absl::UnavailableError(absl::StrCat(
        "restore: cannot create ", staging.string(), ": ", ec.message()));
  }
  absl::Status s = [&]() -> absl::Status {
    QIPU_RETURN_IF_ERROR(
        CopyBackupInto(backup_dir, id, staging.string()).status());
    {
      std::ofstream marker(staging / kStagingMarker);
      marker << "qipu restore: backup " << id << " of " << backup_dir
             << ", not yet in place; safe to delete\n";
      if (!marker.good()) {
        return absl::UnavailableError(absl::StrCat(
            "restore: cannot write ", (staging / kStagingMarker).string()));
      }
    }
    QIPU_RETURN_IF_ERROR(SyncDir(staging));
    QIPU_RETURN_IF_ERROR(Step(o, RestoreStep::kStaged));
    QIPU_RETURN_IF_ERROR(ReadBack(staging, result));
    return Step(o, RestoreStep::kStagingReadBack);
  }();
  return s.ok() ? s : Discard(staging, std::move(s));
}

// Steps 6-7 for a target holding a database or leftovers: exchange, read
// back in place, delete the old one. On error DB holds what it held.
absl::Status SwapIn(const Paths& p, const std::string& stamp, Target target,
                    const fs::path& staging, const RestoreOptions& o,
                    const RestoreResult& result) {
  std::unique_ptr<DatabaseLock> old_lock;
  if (target == Target::kDatabase) {
    // Held across the exchange: no process opens the old database in DB
    // (and writes into what is about to be moved away) meanwhile.
    QIPU_ASSIGN_OR_RETURN(old_lock, DatabaseLock::Take(p.db));
  }
  const fs::path before = p.Beside(kBeforeRestore, stamp);
  absl::Status s = Rename(staging, before, RENAME_NOREPLACE);
  if (s.ok()) s = Step(o, RestoreStep::kStagingRenamed);
  if (!s.ok()) {
    std::error_code ec;
    return Discard(fs::exists(before, ec) ? before : staging, std::move(s));
  }
  s = Rename(before, p.db, RENAME_EXCHANGE);
  if (!s.ok()) return Discard(before, std::move(s));
  // DB: the new database; `before`: the old one (or the leftovers).
  if (old_lock != nullptr) old_lock->Release();
  s = Step(o, RestoreStep::kSwapped);
  if (s.ok()) {
    auto n = CountGames(p.db);
    s = n.ok() ? absl::OkStatus() : n.status();
    if (absl::IsUnavailable(s)) {
      return absl::UnavailableError(absl::StrCat(
          "restore: the restored database is in ", p.db.string(),
          " but another process opened it before it was read back (",
          s.message(), "); the old database is kept in ", before.string()));
    }
    if (s.ok() && *n != result.games) {
      s = absl::DataLossError(absl::StrCat(
          "restore: the restored database in ", p.db.string(), " holds ", *n,
          " games in place but ", result.games, " before it was moved"));
    }
  }
  if (s.ok()) s = Step(o, RestoreStep::kReadBackInPlace);
  if (!s.ok()) {
    // Undo: the old database back into DB, the new one deleted.
    const absl::Status back = Rename(before, p.db, RENAME_EXCHANGE);
    if (!back.ok()) {
      return absl::Status(
          s.code(), absl::StrCat(s.message(),
                                 "; putting the old database back "
                                 "failed too (",
                                 back.message(), "): the old database is in ",
                                 before.string()));
    }
    return Discard(before, std::move(s));
  }
  const fs::path deleting = p.Beside(kDeleting, stamp);
  QIPU_RETURN_IF_ERROR(Rename(before, deleting, RENAME_NOREPLACE));
  std::error_code ec;
  fs::remove_all(deleting, ec);
  if (ec) {
    spdlog::warn("restore: cannot remove the replaced database {}: {}",
                 deleting.string(), ec.message());
  }
  return absl::OkStatus();
}

// Steps 6-7 for a missing or empty target.
absl::Status MoveIn(const Paths& p, Target target, const fs::path& staging,
                    const RestoreOptions& o, const RestoreResult& result) {
  // Over an empty directory rename() replaces it atomically (and fails if
  // something was written into it meanwhile); a missing one must stay
  // missing until the rename.
  absl::Status s =
      Rename(staging, p.db, target == Target::kEmpty ? 0 : RENAME_NOREPLACE);
  if (!s.ok()) return Discard(staging, std::move(s));
  s = Step(o, RestoreStep::kSwapped);
  if (s.ok()) {
    auto n = CountGames(p.db);
    s = n.ok() ? absl::OkStatus() : n.status();
    if (s.ok() && *n != result.games) {
      s = absl::DataLossError(absl::StrCat(
          "restore: the restored database in ", p.db.string(), " holds ", *n,
          " games in place but ", result.games, " before it was moved"));
    }
  }
  if (s.ok()) s = Step(o, RestoreStep::kReadBackInPlace);
  if (!s.ok()) {
    s = Discard(p.db, std::move(s));
    if (target == Target::kEmpty) {
      std::error_code ec;
      fs::create_directory(p.db, ec);
    }
  }
  return s;
}

}  // namespace

const char* RestoreStepName(RestoreStep step) {
  switch (step) {
    case RestoreStep::kTargetChecked:
      return "target checked";
    case RestoreStep::kBackupVerified:
      return "backup verified";
    case RestoreStep::kStaged:
      return "staged";
    case RestoreStep::kStagingReadBack:
      return "staging read back";
    case RestoreStep::kStagingRenamed:
      return "staging renamed";
    case RestoreStep::kSwapped:
      return "swapped";
    case RestoreStep::kReadBackInPlace:
      return "read back in place";
    case RestoreStep::kFinished:
      return "finished";
  }
  return "?";
}

absl::StatusOr<RestoreResult> RestoreBackup(const std::string& backup_dir,
                                            const std::string& db_dir,
                                            const RestoreOptions& options) {
  QIPU_ASSIGN_OR_RETURN(const Paths p, PathsOf(db_dir));
  std::error_code ec;
  fs::create_directories(p.parent, ec);
  if (ec) {
    return absl::FailedPreconditionError(absl::StrCat(
        "restore: cannot create ", p.parent.string(), ": ", ec.message()));
  }
  QIPU_ASSIGN_OR_RETURN(const ParentLock parent_lock,
                        ParentLock::Take(p.parent));
  RestoreResult result;
  QIPU_RETURN_IF_ERROR(Recover(p, &result.recovered));
  QIPU_ASSIGN_OR_RETURN(const Target target, CheckTarget(p, options.force));
  if (target == Target::kDatabase) {
    // Refused now rather than after the copy; held again for the swap.
    QIPU_RETURN_IF_ERROR(DatabaseLock::Take(p.db).status());
  }
  QIPU_RETURN_IF_ERROR(Step(options, RestoreStep::kTargetChecked));

  QIPU_ASSIGN_OR_RETURN(result.backup, VerifyBackup(backup_dir, options.id));
  if (result.backup.metadata != BackupMetadata()) {
    return absl::FailedPreconditionError(
        absl::StrCat("backup ", result.backup.id, " in ", backup_dir, " says '",
                     result.backup.metadata, "'; this qipu restores '",
                     BackupMetadata(), "'"));
  }
  QIPU_RETURN_IF_ERROR(Step(options, RestoreStep::kBackupVerified));

  const std::string stamp = StampFor(p);
  const fs::path staging = p.Beside(kRestoring, stamp);
  QIPU_RETURN_IF_ERROR(
      Stage(backup_dir, result.backup.id, staging, options, &result));
  if (target == Target::kDatabase || target == Target::kLeftovers) {
    QIPU_RETURN_IF_ERROR(SwapIn(p, stamp, target, staging, options, result));
    result.replaced = true;
  } else {
    QIPU_RETURN_IF_ERROR(MoveIn(p, target, staging, options, result));
  }
  fs::remove(p.db / kStagingMarker, ec);
  QIPU_RETURN_IF_ERROR(SyncDir(p.db));
  // Done: the hook may observe this step (or stop the process) but not
  // fail the restore any more.
  Step(options, RestoreStep::kFinished).IgnoreError();
  spdlog::info("restore: backup {} of {} into {}: {} games{}", result.backup.id,
               backup_dir, p.db.string(), result.games,
               result.replaced ? " (replaced what was there)" : "");
  return result;
}

absl::StatusOr<RestoreResult> RestoreBackup(const std::string& backup_dir,
                                            uint32_t id,
                                            const std::string& db_dir,
                                            bool force) {
  RestoreOptions o;
  o.id = id;
  o.force = force;
  return RestoreBackup(backup_dir, db_dir, o);
}

}  // namespace qipu::store
