#include "tests/common/power_loss_fs.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <utility>

#include "absl/strings/str_cat.h"

namespace qipu::testing {
namespace {

// The whole file at `path`, or nullopt when there is none.
std::optional<std::string> ReadWhole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>());
}

bool WriteWhole(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << data;
  out.close();
  return static_cast<bool>(out);
}

}  // namespace

// A writable file reporting its size and syncs to the file system.
class PowerLossFileSystem::File final
    : public rocksdb::FSWritableFileOwnerWrapper {
 public:
  File(std::unique_ptr<rocksdb::FSWritableFile> f, PowerLossFileSystem* fs,
       std::string path, uint64_t size)
      : rocksdb::FSWritableFileOwnerWrapper(std::move(f)),
        fs_(fs),
        path_(std::move(path)),
        size_(size) {}

  rocksdb::IOStatus Append(const rocksdb::Slice& d, const rocksdb::IOOptions& o,
                           rocksdb::IODebugContext* dbg) override {
    rocksdb::IOStatus s = target()->Append(d, o, dbg);
    if (s.ok()) Grew(size_ + d.size());
    return s;
  }
  rocksdb::IOStatus Append(const rocksdb::Slice& d, const rocksdb::IOOptions& o,
                           const rocksdb::DataVerificationInfo& v,
                           rocksdb::IODebugContext* dbg) override {
    rocksdb::IOStatus s = target()->Append(d, o, v, dbg);
    if (s.ok()) Grew(size_ + d.size());
    return s;
  }
  rocksdb::IOStatus PositionedAppend(const rocksdb::Slice& d, uint64_t off,
                                     const rocksdb::IOOptions& o,
                                     rocksdb::IODebugContext* dbg) override {
    rocksdb::IOStatus s = target()->PositionedAppend(d, off, o, dbg);
    if (s.ok()) Grew(std::max(size_, off + d.size()));
    return s;
  }
  rocksdb::IOStatus PositionedAppend(const rocksdb::Slice& d, uint64_t off,
                                     const rocksdb::IOOptions& o,
                                     const rocksdb::DataVerificationInfo& v,
                                     rocksdb::IODebugContext* dbg) override {
    rocksdb::IOStatus s = target()->PositionedAppend(d, off, o, v, dbg);
    if (s.ok()) Grew(std::max(size_, off + d.size()));
    return s;
  }
  rocksdb::IOStatus Truncate(uint64_t size, const rocksdb::IOOptions& o,
                             rocksdb::IODebugContext* dbg) override {
    rocksdb::IOStatus s = target()->Truncate(size, o, dbg);
    if (s.ok()) Grew(size);
    return s;
  }
  rocksdb::IOStatus Sync(const rocksdb::IOOptions& o,
                         rocksdb::IODebugContext* dbg) override {
    fs_->WaitForSyncs();
    rocksdb::IOStatus s = target()->Sync(o, dbg);
    if (s.ok()) fs_->Synced(path_, size_);
    return s;
  }
  rocksdb::IOStatus Fsync(const rocksdb::IOOptions& o,
                          rocksdb::IODebugContext* dbg) override {
    fs_->WaitForSyncs();
    rocksdb::IOStatus s = target()->Fsync(o, dbg);
    if (s.ok()) fs_->Synced(path_, size_);
    return s;
  }

 private:
  void Grew(uint64_t size) {
    size_ = size;
    fs_->Written(path_, size);
  }

  PowerLossFileSystem* const fs_;
  const std::string path_;
  // Bytes written (the writer's view of the file's size).
  uint64_t size_;
};

// A directory whose fsync makes the names in it durable.
class PowerLossFileSystem::Directory final
    : public rocksdb::FSDirectoryWrapper {
 public:
  Directory(std::unique_ptr<rocksdb::FSDirectory> d, PowerLossFileSystem* fs,
            std::string path)
      : rocksdb::FSDirectoryWrapper(std::move(d)),
        fs_(fs),
        path_(std::move(path)) {}

  rocksdb::IOStatus Fsync(const rocksdb::IOOptions& o,
                          rocksdb::IODebugContext* dbg) override {
    rocksdb::IOStatus s = FSDirectoryWrapper::Fsync(o, dbg);
    if (s.ok()) fs_->DirSynced(path_);
    return s;
  }
  rocksdb::IOStatus FsyncWithDirOptions(
      const rocksdb::IOOptions& o, rocksdb::IODebugContext* dbg,
      const rocksdb::DirFsyncOptions& d) override {
    rocksdb::IOStatus s = FSDirectoryWrapper::FsyncWithDirOptions(o, dbg, d);
    if (s.ok()) fs_->DirSynced(path_);
    return s;
  }

 private:
  PowerLossFileSystem* const fs_;
  const std::string path_;
};

PowerLossFileSystem::PowerLossFileSystem()
    : rocksdb::FileSystemWrapper(rocksdb::FileSystem::Default()) {}

PowerLossFileSystem::~PowerLossFileSystem() = default;

std::string PowerLossFileSystem::Parent(const std::string& path) {
  std::string p = path;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  const size_t slash = p.rfind('/');
  if (slash == std::string::npos) return ".";
  std::string parent = p.substr(0, slash == 0 ? 1 : slash);
  while (parent.size() > 1 && parent.back() == '/') parent.pop_back();
  return parent;
}

void PowerLossFileSystem::PowerLoss() {
  absl::MutexLock lock(&mu_);
  if (lost_) return;
  lost_ = true;
  for (const auto& [path, st] : files_) durable_at_loss_[path] = st.synced;
  pending_at_loss_ = pending_;
  // Syncs waiting now will not make anything durable either.
  hold_ = false;
}

void PowerLossFileSystem::HoldSyncs(bool hold) {
  absl::MutexLock lock(&mu_);
  hold_ = hold;
}

int PowerLossFileSystem::syncs_waiting() const {
  absl::MutexLock lock(&mu_);
  return waiting_;
}

uint64_t PowerLossFileSystem::syncs() const {
  absl::MutexLock lock(&mu_);
  return syncs_;
}

void PowerLossFileSystem::WaitForSyncs() {
  absl::MutexLock lock(&mu_);
  ++waiting_;
  mu_.Await(absl::Condition(
      +[](bool* hold) { return !*hold; }, &hold_));
  --waiting_;
}

void PowerLossFileSystem::Written(const std::string& f, uint64_t size) {
  absl::MutexLock lock(&mu_);
  FileState& st = files_[f];
  st.size = size;
  if (st.synced > size) st.synced = size;
}

void PowerLossFileSystem::Synced(const std::string& f, uint64_t size) {
  absl::MutexLock lock(&mu_);
  ++syncs_;
  if (lost_) return;
  FileState& st = files_[f];
  st.synced = std::max(st.synced, std::min(size, st.size));
}

void PowerLossFileSystem::DirSynced(const std::string& dir) {
  absl::MutexLock lock(&mu_);
  if (lost_) return;
  for (auto it = pending_.begin(); it != pending_.end();) {
    it = Parent(it->first) == dir ? pending_.erase(it) : std::next(it);
  }
}

void PowerLossFileSystem::Overwriting(const std::string& name) {
  if (lost_) {
    if (!changed_after_loss_.contains(name)) {
      changed_after_loss_[name].previous = ReadWhole(name);
    }
    return;
  }
  // The first change since the directory's last sync decides what a lost
  // name falls back to.
  if (!pending_.contains(name)) pending_[name].previous = ReadWhole(name);
}

void PowerLossFileSystem::Track(const std::string& f, bool fresh,
                                std::unique_ptr<rocksdb::FSWritableFile>* r) {
  uint64_t size = 0;
  {
    absl::MutexLock lock(&mu_);
    FileState& st = files_[f];
    if (fresh) {
      st.size = 0;
      st.synced = 0;
    }
    size = st.size;
  }
  *r = std::make_unique<File>(std::move(*r), this, f, size);
}

rocksdb::IOStatus PowerLossFileSystem::NewWritableFile(
    const std::string& f, const rocksdb::FileOptions& o,
    std::unique_ptr<rocksdb::FSWritableFile>* r, rocksdb::IODebugContext* dbg) {
  {
    absl::MutexLock lock(&mu_);
    Overwriting(f);
  }
  rocksdb::IOStatus s = target()->NewWritableFile(f, o, r, dbg);
  if (s.ok()) Track(f, /*fresh=*/true, r);
  return s;
}

rocksdb::IOStatus PowerLossFileSystem::ReopenWritableFile(
    const std::string& f, const rocksdb::FileOptions& o,
    std::unique_ptr<rocksdb::FSWritableFile>* r, rocksdb::IODebugContext* dbg) {
  bool known = false;
  {
    absl::MutexLock lock(&mu_);
    known = files_.contains(f);
    if (!known) Overwriting(f);
  }
  rocksdb::IOStatus s = target()->ReopenWritableFile(f, o, r, dbg);
  if (!s.ok()) return s;
  if (!known) {
    // A file from before: all of it counts as durable.
    uint64_t size = 0;
    rocksdb::IOStatus st =
        target()->GetFileSize(f, rocksdb::IOOptions(), &size, dbg);
    if (!st.ok()) return st;
    absl::MutexLock lock(&mu_);
    files_[f] = FileState{size, size};
  }
  Track(f, /*fresh=*/false, r);
  return s;
}

rocksdb::IOStatus PowerLossFileSystem::ReuseWritableFile(
    const std::string& f, const std::string& old, const rocksdb::FileOptions& o,
    std::unique_ptr<rocksdb::FSWritableFile>* r, rocksdb::IODebugContext* dbg) {
  {
    absl::MutexLock lock(&mu_);
    Overwriting(f);
    Overwriting(old);
  }
  rocksdb::IOStatus s = target()->ReuseWritableFile(f, old, o, r, dbg);
  if (s.ok()) Track(f, /*fresh=*/true, r);
  return s;
}

rocksdb::IOStatus PowerLossFileSystem::NewDirectory(
    const std::string& name, const rocksdb::IOOptions& io,
    std::unique_ptr<rocksdb::FSDirectory>* r, rocksdb::IODebugContext* dbg) {
  rocksdb::IOStatus s = target()->NewDirectory(name, io, r, dbg);
  if (s.ok()) {
    std::string dir = name;
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    *r = std::make_unique<Directory>(std::move(*r), this, dir);
  }
  return s;
}

rocksdb::IOStatus PowerLossFileSystem::DeleteFile(
    const std::string& f, const rocksdb::IOOptions& io,
    rocksdb::IODebugContext* dbg) {
  {
    absl::MutexLock lock(&mu_);
    // After the loss, deleting would destroy what the disk still holds.
    if (lost_) return rocksdb::IOStatus::OK();
    files_.erase(f);
    pending_.erase(f);
  }
  return target()->DeleteFile(f, io, dbg);
}

rocksdb::IOStatus PowerLossFileSystem::RenameFile(
    const std::string& src, const std::string& target_name,
    const rocksdb::IOOptions& io, rocksdb::IODebugContext* dbg) {
  {
    absl::MutexLock lock(&mu_);
    Overwriting(target_name);
    if (lost_) Overwriting(src);
  }
  rocksdb::IOStatus s = target()->RenameFile(src, target_name, io, dbg);
  if (!s.ok()) return s;
  absl::MutexLock lock(&mu_);
  if (lost_) return s;
  auto it = files_.find(src);
  if (it != files_.end()) {
    files_[target_name] = it->second;
    files_.erase(src);
  } else {
    files_.erase(target_name);
  }
  // The source's name is gone (a rename that is lost would bring back a
  // durable source: RocksDB renames only files it has just written).
  pending_.erase(src);
  return s;
}

rocksdb::IOStatus PowerLossFileSystem::LinkFile(const std::string& src,
                                                const std::string& target_name,
                                                const rocksdb::IOOptions& io,
                                                rocksdb::IODebugContext* dbg) {
  {
    absl::MutexLock lock(&mu_);
    Overwriting(target_name);
  }
  rocksdb::IOStatus s = target()->LinkFile(src, target_name, io, dbg);
  if (!s.ok()) return s;
  absl::MutexLock lock(&mu_);
  if (lost_) return s;
  auto it = files_.find(src);
  if (it != files_.end()) {
    files_[target_name] = it->second;
  } else {
    files_.erase(target_name);
  }
  return s;
}

absl::StatusOr<PowerLossFileSystem::Restored>
PowerLossFileSystem::RestoreDurableState() {
  absl::MutexLock lock(&mu_);
  if (!lost_) {
    return absl::FailedPreconditionError(
        "RestoreDurableState before PowerLoss");
  }
  Restored r;
  // Put back a name as it was: `previous` content, or nothing.
  auto put_back = [&r](const std::string& name,
                       const std::optional<std::string>& previous,
                       bool count) -> absl::Status {
    std::error_code ec;
    if (previous.has_value()) {
      if (!WriteWhole(name, *previous)) {
        return absl::InternalError(absl::StrCat("cannot restore ", name));
      }
      if (count) ++r.renames_undone;
      return absl::OkStatus();
    }
    if (std::filesystem::remove(name, ec) && count) ++r.files_removed;
    if (ec) {
      return absl::InternalError(
          absl::StrCat("cannot remove ", name, ": ", ec.message()));
    }
    return absl::OkStatus();
  };
  // 1. Back to the files as they were at the loss.
  for (const auto& [name, p] : changed_after_loss_) {
    if (absl::Status s = put_back(name, p.previous, false); !s.ok()) return s;
  }
  // 2. Names that were not durable then.
  for (const auto& [name, p] : pending_at_loss_) {
    if (absl::Status s = put_back(name, p.previous, true); !s.ok()) return s;
  }
  // 3. Bytes that were not durable then.
  for (const auto& [path, durable] : durable_at_loss_) {
    // Removed above, or put back as it was before its new name.
    if (pending_at_loss_.contains(path)) continue;
    std::error_code ec;
    const uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec) continue;  // gone (deleted before the loss)
    if (size > durable) {
      std::filesystem::resize_file(path, durable, ec);
      if (ec) {
        return absl::InternalError(
            absl::StrCat("cannot cut ", path, ": ", ec.message()));
      }
      r.bytes_dropped += static_cast<int64_t>(size - durable);
    }
  }
  changed_after_loss_.clear();
  pending_at_loss_.clear();
  durable_at_loss_.clear();
  files_.clear();
  pending_.clear();
  lost_ = false;
  return r;
}

std::unique_ptr<rocksdb::Env> EnvOver(
    const std::shared_ptr<PowerLossFileSystem>& fs) {
  return rocksdb::NewCompositeEnv(fs);
}

}  // namespace qipu::testing
