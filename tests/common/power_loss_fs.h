// PowerLossFileSystem: the real (default) RocksDB file system, tracking
// what has been made durable, so that a test can lose the power under a
// running database and see what a real disk would have kept. (RocksDB's
// own FaultInjectionTestFS is not in Debian's package.)
//
// Durable, as POSIX promises and no more: a file's bytes up to its last
// Sync()/Fsync(); a name (a file created, renamed or linked) once its
// directory has been fsynced since. A test:
//   1. opens a database through EnvOver(fs) and writes;
//   2. calls PowerLoss(): what is durable at that moment is all the disk
//      will have. The database may go on (it usually does: the test then
//      shuts down whatever used it); nothing it does afterwards becomes
//      durable, files it deletes are left alone, and renames and new files
//      are undone later;
//   3. closes the database, and calls RestoreDurableState(), which
//      rewrites the directory to what the disk would hold after the power
//      came back: every file written since the file system was created is
//      cut back to its durable size, names that were not durable are
//      removed (a rename that was not durable puts back what the target
//      held before);
//   4. reopens the database (through any Env) and checks what survived.
// Files the file system never wrote (an earlier run's) count as durable.
//
// HoldSyncs(true) makes every file sync wait until HoldSyncs(false): a
// database whose disk stalls, so that it acknowledges nothing meanwhile.
//
// Thread-safety: every method may be called while RocksDB runs;
// RestoreDurableState() only once nothing uses the files.
#ifndef QIPU_TESTS_COMMON_POWER_LOSS_FS_H_
#define QIPU_TESTS_COMMON_POWER_LOSS_FS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "rocksdb/env.h"
#include "rocksdb/file_system.h"

namespace qipu::testing {

class PowerLossFileSystem : public rocksdb::FileSystemWrapper {
 public:
  PowerLossFileSystem();
  ~PowerLossFileSystem() override;

  const char* Name() const override { return "QipuPowerLossFileSystem"; }

  // Step 2 of the file comment. Idempotent.
  void PowerLoss();
  // What RestoreDurableState() undid.
  struct Restored {
    // Bytes cut off files (written but never synced before the loss).
    int64_t bytes_dropped = 0;
    // Files removed (names not durable), and targets of renames put back.
    int files_removed = 0;
    int renames_undone = 0;
  };
  // Step 3 of the file comment; after PowerLoss(). Internal with the
  // failing path when a file cannot be cut, removed or restored.
  absl::StatusOr<Restored> RestoreDurableState();

  // While true, file syncs block (see the file comment). Releasing lets
  // the waiting syncs go on.
  void HoldSyncs(bool hold);
  // File syncs waiting now (while held), and completed so far.
  int syncs_waiting() const;
  uint64_t syncs() const;

  // FileSystem.
  rocksdb::IOStatus NewWritableFile(const std::string& f,
                                    const rocksdb::FileOptions& o,
                                    std::unique_ptr<rocksdb::FSWritableFile>* r,
                                    rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus ReopenWritableFile(
      const std::string& f, const rocksdb::FileOptions& o,
      std::unique_ptr<rocksdb::FSWritableFile>* r,
      rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus ReuseWritableFile(
      const std::string& f, const std::string& old,
      const rocksdb::FileOptions& o,
      std::unique_ptr<rocksdb::FSWritableFile>* r,
      rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus NewDirectory(const std::string& name,
                                 const rocksdb::IOOptions& io,
                                 std::unique_ptr<rocksdb::FSDirectory>* r,
                                 rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus DeleteFile(const std::string& f,
                               const rocksdb::IOOptions& io,
                               rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus RenameFile(const std::string& src,
                               const std::string& target,
                               const rocksdb::IOOptions& io,
                               rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus LinkFile(const std::string& src, const std::string& target,
                             const rocksdb::IOOptions& io,
                             rocksdb::IODebugContext* dbg) override;

 private:
  class File;
  class Directory;

  // One file written through this file system.
  struct FileState {
    // Bytes written (the file's size as the writer sees it) and the
    // prefix of them made durable.
    uint64_t size = 0;
    uint64_t synced = 0;
  };
  // A rename (or link) whose target name is not durable yet: what the
  // target held before (nullopt: it did not exist).
  struct PendingName {
    std::optional<std::string> previous;
  };

  // Wraps a writable file just opened (or reused) as `f`; `fresh` when
  // it starts empty.
  void Track(const std::string& f, bool fresh,
             std::unique_ptr<rocksdb::FSWritableFile>* r);
  // A file's writer reports: `size` bytes now, durable when `synced`.
  void Written(const std::string& f, uint64_t size);
  void Synced(const std::string& f, uint64_t size);
  // Blocks while syncs are held.
  void WaitForSyncs();
  // A directory was fsynced: the names in it are durable.
  void DirSynced(const std::string& dir);
  // Name `name` is about to be created or replaced: before the power
  // loss, records what it held while the new name is not durable; after
  // it, records what it held at the loss (once) so that
  // RestoreDurableState() can put it back.
  void Overwriting(const std::string& name) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  static std::string Parent(const std::string& path);

  mutable absl::Mutex mu_;
  bool lost_ ABSL_GUARDED_BY(mu_) = false;
  bool hold_ ABSL_GUARDED_BY(mu_) = false;
  int waiting_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t syncs_ ABSL_GUARDED_BY(mu_) = 0;
  // Every file written since the file system was created, by path.
  std::map<std::string, FileState> files_ ABSL_GUARDED_BY(mu_);
  // Names created, renamed or linked to since their directory's last
  // fsync, with what each held before (nullopt: nothing).
  std::map<std::string, PendingName> pending_ ABSL_GUARDED_BY(mu_);
  // At PowerLoss(): the durable size of each file written, and the names
  // not durable then (with what they held before).
  std::map<std::string, uint64_t> durable_at_loss_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, PendingName> pending_at_loss_ ABSL_GUARDED_BY(mu_);
  // Names changed after PowerLoss(), with what each held at the loss.
  std::map<std::string, PendingName> changed_after_loss_ ABSL_GUARDED_BY(mu_);
};

// An Env doing its file I/O through `fs` (which it keeps alive).
std::unique_ptr<rocksdb::Env> EnvOver(
    const std::shared_ptr<PowerLossFileSystem>& fs);

}  // namespace qipu::testing

#endif  // QIPU_TESTS_COMMON_POWER_LOSS_FS_H_
