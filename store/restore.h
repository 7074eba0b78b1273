// Restoring a backup (store/backup.h) without ever making things worse.
//
// A restore never writes into the target directory DB before the new
// database is known to be good. Its steps (RestoreStep):
//
//   1. Lock the target's parent directory (one restore at a time there)
//      and finish what an interrupted restore left behind (Recover below).
//   2. Check the target: missing, empty, or -- with `force` -- a qipu
//      database that no process has open, or the leftovers of a failed
//      restore (RocksDB's files without CURRENT, nothing else).
//   3. Verify the backup completely: its metadata, every file's size and
//      checksum. A damaged backup stops here.
//   4. Restore into DB.restoring-<id> beside the target, then mark it with
//      a file (kStagingMarker) that says "new data, not yet in place".
//   5. Open it (re-indexing what the backup's index files lack) and read
//      every game back, each one decoded.
//   6. Put it in place: rename it to DB.before-restore-<id> and exchange
//      that with DB in one atomic rename (Linux renameat2 RENAME_EXCHANGE),
//      so DB holds the new database and DB.before-restore-<id> the old one;
//      a missing or empty DB is simply replaced.
//   7. Open DB again and count its games against step 5; on a mismatch
//      exchange back. Then the old database is deleted (renamed to
//      DB.deleting-<id> first) and the marker removed.
//
// A failure at any step undoes what came before it, leaving DB exactly as
// it was. A process killed at any step leaves DB holding either the old
// or the new database, never neither; the next restore of that target
// finishes the job (Recover): DB.restoring-* and marked
// DB.before-restore-* directories hold only new data and are deleted; an
// unmarked DB.before-restore-* is the old database an exchange displaced
// and is kept (reported); DB.deleting-* is deleted; a marker left in DB
// is removed.
//
// Thread-safety: free functions; concurrent restores into one parent
// directory exclude each other (the second fails with Unavailable).
#ifndef QIPU_STORE_RESTORE_H_
#define QIPU_STORE_RESTORE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "store/backup.h"

namespace qipu::store {

// The file in a staging directory that marks its contents as a restore's
// new data (safe to delete while it is not yet in place).
inline constexpr char kStagingMarker[] = "QIPU-RESTORE-STAGING";

// The steps of a restore, in order; RestoreOptions::after_step is called
// after each one.
enum class RestoreStep {
  // Earlier restores' leftovers dealt with, the target checked.
  kTargetChecked,
  // Every file of the backup checked against its checksum.
  kBackupVerified,
  // The backup's files copied into the staging directory (and marked).
  kStaged,
  // The staging database opened and every game read back.
  kStagingReadBack,
  // Staging renamed to DB.before-restore-<id>, not yet exchanged.
  kStagingRenamed,
  // The new database in DB (the old one at DB.before-restore-<id>).
  kSwapped,
  // The new database opened in place and its games counted.
  kReadBackInPlace,
  // The old database deleted, the marker removed: done (the hook's
  // status is ignored here).
  kFinished,
};

// "target checked", "backup verified", ... (logs and test names).
const char* RestoreStepName(RestoreStep step);

// How to restore.
struct RestoreOptions {
  // Backup id in the backup directory; 0: the latest.
  uint32_t id = 0;
  // Replace a database (or a failed restore's leftovers) in the target.
  bool force = false;
  // Fault injection for tests: called after each step; a non-OK status
  // makes the restore fail there, as a failure of that step would. Null
  // in production.
  std::function<absl::Status(RestoreStep)> after_step;
};

// What RestoreBackup() did.
struct RestoreResult {
  BackupEntry backup;
  // Games in the restored database (read back, each one decoded).
  uint64_t games = 0;
  // Games re-indexed when the restored database was first opened (those
  // committed after the backup's index flush).
  uint64_t reindexed_games = 0;
  // Whether a database (or a failed restore's leftovers) in the target
  // was replaced.
  bool replaced = false;
  // What was found of earlier interrupted restores and done about it, one
  // line each (Recover()).
  std::vector<std::string> recovered;
};

// Restores a backup of `backup_dir` into `db_dir` as the file comment
// says. Errors, with `db_dir` as it was: FailedPrecondition for a target
// that may not be replaced (not empty without `force`, not a database, a
// file), a backup of another format version, or a file system without
// atomic exchange; Unavailable when the target database is open or
// another restore runs beside it; NotFound for an unknown backup;
// DataLoss for a damaged backup (named) or a restored database that does
// not read back.
absl::StatusOr<RestoreResult> RestoreBackup(const std::string& backup_dir,
                                            const std::string& db_dir,
                                            const RestoreOptions& options);

// The same with default options but for `id` and `force`.
absl::StatusOr<RestoreResult> RestoreBackup(const std::string& backup_dir,
                                            uint32_t id,
                                            const std::string& db_dir,
                                            bool force);

}  // namespace qipu::store

#endif  // QIPU_STORE_RESTORE_H_
