// SpoolFs: the few file-system calls the Spool makes, behind an interface
// so that tests can put the spool on a file layer of their own (one that
// forgets every write not yet synced, to simulate a power loss:
// tests/worker/power_loss_spool_fs.h). SpoolFs::Default() is the real
// thing, plain POSIX calls; the spool uses it unless told otherwise.
//
// The calls are coarse on purpose (a whole-file read, an append of a
// whole buffer): one virtual call per spool operation, never per byte or
// per game.
#ifndef QIPU_WORKER_SPOOL_FS_H_
#define QIPU_WORKER_SPOOL_FS_H_

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace qipu::worker {

// A file open for appending. Thread-safe: Sync() may run on one thread
// while Append() runs on another (the spool syncs outside its lock).
// Closed when the object goes away (without a sync).
class SpoolFile {
 public:
  virtual ~SpoolFile() = default;
  // Writes all of `data` at the end of the file (not yet durable).
  // Errno-mapped errors; a failed append may have written part of `data`.
  virtual absl::Status Append(absl::string_view data) = 0;
  // Makes every append so far durable (fdatasync); the file's name is
  // durable only after SpoolFs::SyncDir() of its directory.
  virtual absl::Status Sync() = 0;
};

// A held lock on a file; released when the object goes away.
class SpoolLock {
 public:
  virtual ~SpoolLock() = default;
};

// The file-system calls of the spool. Implementations are thread-safe.
class SpoolFs {
 public:
  virtual ~SpoolFs() = default;

  // The real file system (POSIX calls). Never null; lives forever.
  static SpoolFs* Default();

  // Creates directory `dir` (one level); OK when it exists.
  virtual absl::Status CreateDir(const std::string& dir) = 0;
  // Takes an exclusive lock on `path` (created when missing), held until
  // the returned object goes away. FailedPrecondition when another holder
  // (another process, for the real file system) has it.
  virtual absl::StatusOr<std::unique_ptr<SpoolLock>> Lock(
      const std::string& path) = 0;
  // The whole content of `path`, or "" when it does not exist.
  virtual absl::StatusOr<std::string> ReadFile(const std::string& path) = 0;
  // Creates `path` empty (truncating an existing file) and opens it for
  // appending.
  virtual absl::StatusOr<std::unique_ptr<SpoolFile>> NewFile(
      const std::string& path) = 0;
  // Renames `from` to `to`, replacing `to` (atomically, as rename(2)).
  virtual absl::Status Rename(const std::string& from,
                              const std::string& to) = 0;
  // Removes `path`; OK when it does not exist.
  virtual absl::Status Remove(const std::string& path) = 0;
  // Makes the names in `dir` (created, renamed, removed files) durable
  // (fsync of the directory).
  virtual absl::Status SyncDir(const std::string& dir) = 0;
};

}  // namespace qipu::worker

#endif  // QIPU_WORKER_SPOOL_FS_H_
