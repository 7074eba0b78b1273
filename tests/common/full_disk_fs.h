// FullDiskFileSystem: the real (default) RocksDB file system with a switch
// that makes every write fail as a full disk does (IOStatus::NoSpace):
// creating, appending to, flushing and syncing files. Reads, renames and
// deletions still work, as on a real full disk. Tests open a real RocksDB
// through Env() and flip SetFull() to see how qipu copes and recovers, or
// call RefuseNext(n): the next n writes fail, and the disk has room again
// from then on (a disk freed the moment it filled up -- without a race
// against RocksDB's own recovery, which starts at once).
//
// Thread-safety: SetFull() and RefuseNext() may be called while RocksDB
// runs.
#ifndef QIPU_TESTS_COMMON_FULL_DISK_FS_H_
#define QIPU_TESTS_COMMON_FULL_DISK_FS_H_

#include <atomic>
#include <memory>
#include <string>

#include "rocksdb/env.h"
#include "rocksdb/file_system.h"

namespace qipu::testing {

class FullDiskFileSystem : public rocksdb::FileSystemWrapper {
 public:
  FullDiskFileSystem()
      : rocksdb::FileSystemWrapper(rocksdb::FileSystem::Default()) {}

  const char* Name() const override { return "QipuFullDiskFileSystem"; }

  // From now on, writes fail with NoSpace (full) or work again.
  void SetFull(bool full) { state_->full.store(full); }
  // The next `n` writes fail with NoSpace (on top of SetFull()).
  void RefuseNext(int n) { state_->next.store(n); }
  // Number of writes refused so far.
  int refused() const { return state_->refused.load(); }

  rocksdb::IOStatus NewWritableFile(const std::string& f,
                                    const rocksdb::FileOptions& o,
                                    std::unique_ptr<rocksdb::FSWritableFile>* r,
                                    rocksdb::IODebugContext* dbg) override {
    if (Full()) return NoSpace(f);
    rocksdb::IOStatus s = target()->NewWritableFile(f, o, r, dbg);
    if (s.ok()) *r = std::make_unique<File>(std::move(*r), this);
    return s;
  }
  rocksdb::IOStatus ReopenWritableFile(
      const std::string& f, const rocksdb::FileOptions& o,
      std::unique_ptr<rocksdb::FSWritableFile>* r,
      rocksdb::IODebugContext* dbg) override {
    if (Full()) return NoSpace(f);
    rocksdb::IOStatus s = target()->ReopenWritableFile(f, o, r, dbg);
    if (s.ok()) *r = std::make_unique<File>(std::move(*r), this);
    return s;
  }
  rocksdb::IOStatus ReuseWritableFile(
      const std::string& f, const std::string& old,
      const rocksdb::FileOptions& o,
      std::unique_ptr<rocksdb::FSWritableFile>* r,
      rocksdb::IODebugContext* dbg) override {
    if (Full()) return NoSpace(f);
    rocksdb::IOStatus s = target()->ReuseWritableFile(f, old, o, r, dbg);
    if (s.ok()) *r = std::make_unique<File>(std::move(*r), this);
    return s;
  }

 private:
  // The switches and the count, shared with the open files (which may
  // outlive a call).
  struct State {
    std::atomic<bool> full{false};
    std::atomic<int> next{0};
    std::atomic<int> refused{0};
    // Whether the write being made fails (taking one of `next`).
    bool Refuses() {
      if (full.load()) return true;
      int n = next.load();
      while (n > 0) {
        if (next.compare_exchange_weak(n, n - 1)) return true;
      }
      return false;
    }
  };

  class File : public rocksdb::FSWritableFileOwnerWrapper {
   public:
    File(std::unique_ptr<rocksdb::FSWritableFile> f, FullDiskFileSystem* fs)
        : rocksdb::FSWritableFileOwnerWrapper(std::move(f)),
          state_(fs->state_) {}

    rocksdb::IOStatus Append(const rocksdb::Slice& d,
                             const rocksdb::IOOptions& o,
                             rocksdb::IODebugContext* dbg) override {
      if (Full()) return Refuse();
      return target()->Append(d, o, dbg);
    }
    rocksdb::IOStatus Append(const rocksdb::Slice& d,
                             const rocksdb::IOOptions& o,
                             const rocksdb::DataVerificationInfo& v,
                             rocksdb::IODebugContext* dbg) override {
      if (Full()) return Refuse();
      return target()->Append(d, o, v, dbg);
    }
    rocksdb::IOStatus PositionedAppend(const rocksdb::Slice& d, uint64_t off,
                                       const rocksdb::IOOptions& o,
                                       rocksdb::IODebugContext* dbg) override {
      if (Full()) return Refuse();
      return target()->PositionedAppend(d, off, o, dbg);
    }
    rocksdb::IOStatus PositionedAppend(const rocksdb::Slice& d, uint64_t off,
                                       const rocksdb::IOOptions& o,
                                       const rocksdb::DataVerificationInfo& v,
                                       rocksdb::IODebugContext* dbg) override {
      if (Full()) return Refuse();
      return target()->PositionedAppend(d, off, o, v, dbg);
    }
    rocksdb::IOStatus Flush(const rocksdb::IOOptions& o,
                            rocksdb::IODebugContext* dbg) override {
      if (Full()) return Refuse();
      return target()->Flush(o, dbg);
    }
    rocksdb::IOStatus Sync(const rocksdb::IOOptions& o,
                           rocksdb::IODebugContext* dbg) override {
      if (Full()) return Refuse();
      return target()->Sync(o, dbg);
    }
    rocksdb::IOStatus Fsync(const rocksdb::IOOptions& o,
                            rocksdb::IODebugContext* dbg) override {
      if (Full()) return Refuse();
      return target()->Fsync(o, dbg);
    }

   private:
    bool Full() const { return state_->Refuses(); }
    rocksdb::IOStatus Refuse() {
      state_->refused.fetch_add(1);
      return rocksdb::IOStatus::NoSpace("injected: no space left on device");
    }
    std::shared_ptr<State> state_;
  };

  bool Full() const { return state_->Refuses(); }
  rocksdb::IOStatus NoSpace(const std::string& f) {
    state_->refused.fetch_add(1);
    return rocksdb::IOStatus::NoSpace("injected: no space left on device", f);
  }

  std::shared_ptr<State> state_ = std::make_shared<State>();
};

// An Env doing its file I/O through `fs` (which it keeps alive).
inline std::unique_ptr<rocksdb::Env> EnvOver(
    const std::shared_ptr<FullDiskFileSystem>& fs) {
  return rocksdb::NewCompositeEnv(fs);
}

}  // namespace qipu::testing

#endif  // QIPU_TESTS_COMMON_FULL_DISK_FS_H_
