// PowerLossSpoolFs: an in-memory SpoolFs (worker/spool_fs.h) that keeps
// what has been made durable apart from what has merely been written, and
// can lose power.
//
// The model is the one POSIX promises, and no more:
//   - a file's bytes are durable up to its last SpoolFile::Sync();
//   - a name (a file created, renamed or removed; a directory created) is
//     durable once its directory has been synced (SyncDir) since;
//   - PowerLoss() reverts every file to its durable bytes (or keeps a
//     random prefix of the bytes appended since, as a disk that wrote
//     some pages back before the power went may) and every directory to
//     its durable names; names under a directory that is itself lost are
//     lost too. Every file, lock and write made before it is dead: its
//     calls fail with Unavailable, as a process that died with the power
//     would never make them.
// Two switches give a test teeth: with DropFileSyncs(true) SpoolFile::Sync()
// and with DropDirSyncs(true) SyncDir() succeed without making anything
// durable, as a broken sync would; a durability test must then see losses.
//
// Paths are plain strings under `root` (given to the constructor; it
// exists and is durable); nothing touches the real disk. Thread-safe (one
// mutex).
#ifndef QIPU_TESTS_WORKER_POWER_LOSS_SPOOL_FS_H_
#define QIPU_TESTS_WORKER_POWER_LOSS_SPOOL_FS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "worker/spool_fs.h"

namespace qipu::worker::testing {

class PowerLossSpoolFs final : public SpoolFs {
 public:
  // `root`: the one directory that exists from the start (e.g. "/mem").
  explicit PowerLossSpoolFs(std::string root);
  ~PowerLossSpoolFs() override;

  // The switches (see the file comment). Off by default.
  void DropFileSyncs(bool drop);
  void DropDirSyncs(bool drop);

  // Loses power (see the file comment). With `torn` null every file keeps
  // exactly its durable bytes; with an engine, each file also keeps a
  // random prefix (possibly empty, possibly all) of the bytes appended
  // since its last sync. Returns the number of unsynced bytes dropped.
  int64_t PowerLoss(std::mt19937_64* torn = nullptr);

  // The bytes of file `path` as a reader sees them now; nullopt when
  // there is no such file.
  std::optional<std::string> Contents(const std::string& path) const;
  // Successful file syncs and directory syncs so far (dropped ones
  // included).
  uint64_t file_syncs() const;
  uint64_t dir_syncs() const;

  // SpoolFs.
  absl::Status CreateDir(const std::string& dir) override;
  absl::StatusOr<std::unique_ptr<SpoolLock>> Lock(
      const std::string& path) override;
  absl::StatusOr<std::string> ReadFile(const std::string& path) override;
  absl::StatusOr<std::unique_ptr<SpoolFile>> NewFile(
      const std::string& path) override;
  absl::Status Rename(const std::string& from, const std::string& to) override;
  absl::Status Remove(const std::string& path) override;
  absl::Status SyncDir(const std::string& dir) override;

 private:
  class File;
  class HeldLock;

  // A file's contents (shared by the names that refer to it and by its
  // open handles), or a directory when `dir`.
  struct Node {
    bool dir = false;
    // What a reader sees, and the prefix of it last made durable. Files
    // only grow between syncs (the spool truncates only new files), so
    // `durable` is a prefix of `data` except right after a truncation.
    std::string data;
    std::string durable;
  };

  // The directory of `path` ("" for a path without '/').
  static std::string Parent(const std::string& path);
  // OK when the call may go on: the power has not been lost since
  // `epoch` and the parent of `path` (when given) is a directory.
  absl::Status CheckLocked(uint64_t epoch, const std::string& path,
                           const char* what) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable absl::Mutex mu_;
  const std::string root_;
  // Incremented by PowerLoss(); handles and locks of an older epoch are
  // dead.
  uint64_t epoch_ ABSL_GUARDED_BY(mu_) = 0;
  bool drop_file_syncs_ ABSL_GUARDED_BY(mu_) = false;
  bool drop_dir_syncs_ ABSL_GUARDED_BY(mu_) = false;
  // The names a reader sees now, and the names as of the last sync of
  // each one's directory (root_ is in both from the start).
  std::map<std::string, std::shared_ptr<Node>> names_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, std::shared_ptr<Node>> durable_names_
      ABSL_GUARDED_BY(mu_);
  // Paths locked now.
  std::set<std::string> locked_ ABSL_GUARDED_BY(mu_);
  uint64_t file_syncs_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t dir_syncs_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace qipu::worker::testing

#endif  // QIPU_TESTS_WORKER_POWER_LOSS_SPOOL_FS_H_
