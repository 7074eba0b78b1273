#include "tests/worker/power_loss_spool_fs.h"

#include <iterator>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace qipu::worker::testing {

// An open file: its node, and the epoch it was opened in.
class PowerLossSpoolFs::File final : public SpoolFile {
 public:
  File(PowerLossSpoolFs* fs, std::shared_ptr<Node> node, std::string path,
       uint64_t epoch)
      : fs_(fs),
        node_(std::move(node)),
        path_(std::move(path)),
        epoch_(epoch) {}

  absl::Status Append(absl::string_view data) override {
    absl::MutexLock lock(&fs_->mu_);
    if (absl::Status s = fs_->CheckLocked(epoch_, "", "append"); !s.ok()) {
      return s;
    }
    node_->data.append(data.data(), data.size());
    return absl::OkStatus();
  }

  absl::Status Sync() override {
    absl::MutexLock lock(&fs_->mu_);
    if (absl::Status s = fs_->CheckLocked(epoch_, "", "sync"); !s.ok()) {
      return s;
    }
    ++fs_->file_syncs_;
    if (!fs_->drop_file_syncs_) node_->durable = node_->data;
    return absl::OkStatus();
  }

 private:
  PowerLossSpoolFs* const fs_;
  const std::shared_ptr<Node> node_;
  const std::string path_;
  const uint64_t epoch_;
};

class PowerLossSpoolFs::HeldLock final : public SpoolLock {
 public:
  HeldLock(PowerLossSpoolFs* fs, std::string path, uint64_t epoch)
      : fs_(fs), path_(std::move(path)), epoch_(epoch) {}
  ~HeldLock() override {
    absl::MutexLock lock(&fs_->mu_);
    // A power loss released every lock.
    if (fs_->epoch_ == epoch_) fs_->locked_.erase(path_);
  }

 private:
  PowerLossSpoolFs* const fs_;
  const std::string path_;
  const uint64_t epoch_;
};

PowerLossSpoolFs::PowerLossSpoolFs(std::string root) : root_(std::move(root)) {
  auto node = std::make_shared<Node>();
  node->dir = true;
  names_[root_] = node;
  durable_names_[root_] = node;
}

PowerLossSpoolFs::~PowerLossSpoolFs() = default;

void PowerLossSpoolFs::DropFileSyncs(bool drop) {
  absl::MutexLock lock(&mu_);
  drop_file_syncs_ = drop;
}

void PowerLossSpoolFs::DropDirSyncs(bool drop) {
  absl::MutexLock lock(&mu_);
  drop_dir_syncs_ = drop;
}

std::string PowerLossSpoolFs::Parent(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

absl::Status PowerLossSpoolFs::CheckLocked(uint64_t epoch,
                                           const std::string& path,
                                           const char* what) const {
  if (epoch != epoch_) {
    return absl::UnavailableError(
        absl::StrCat(what, ": the power was lost since the file was opened"));
  }
  if (!path.empty()) {
    auto parent = names_.find(Parent(path));
    if (parent == names_.end() || !parent->second->dir) {
      return absl::NotFoundError(
          absl::StrCat(what, " ", path, ": no such directory"));
    }
  }
  return absl::OkStatus();
}

int64_t PowerLossSpoolFs::PowerLoss(std::mt19937_64* torn) {
  absl::MutexLock lock(&mu_);
  ++epoch_;
  locked_.clear();
  // The durable names, minus those whose directory did not survive
  // (parents sort before their children).
  names_.clear();
  for (const auto& [path, node] : durable_names_) {
    if (path == root_ || names_.contains(Parent(path))) names_[path] = node;
  }
  durable_names_ = names_;
  // Every file keeps its durable bytes and maybe some of those written
  // since (the files no name survived for are gone).
  int64_t dropped = 0;
  std::vector<Node*> seen;
  for (const auto& [path, node] : names_) {
    if (node->dir) continue;
    Node& n = *node;
    size_t keep = n.durable.size();
    if (torn != nullptr && absl::StartsWith(n.data, n.durable)) {
      keep += static_cast<size_t>((*torn)() % (n.data.size() - keep + 1));
      n.durable = n.data.substr(0, keep);
    }
    dropped += static_cast<int64_t>(n.data.size()) -
               static_cast<int64_t>(n.durable.size());
    n.data = n.durable;
  }
  return dropped;
}

std::optional<std::string> PowerLossSpoolFs::Contents(
    const std::string& path) const {
  absl::MutexLock lock(&mu_);
  auto it = names_.find(path);
  if (it == names_.end() || it->second->dir) return std::nullopt;
  return it->second->data;
}

uint64_t PowerLossSpoolFs::file_syncs() const {
  absl::MutexLock lock(&mu_);
  return file_syncs_;
}

uint64_t PowerLossSpoolFs::dir_syncs() const {
  absl::MutexLock lock(&mu_);
  return dir_syncs_;
}

absl::Status PowerLossSpoolFs::CreateDir(const std::string& dir) {
  absl::MutexLock lock(&mu_);
  if (absl::Status s = CheckLocked(epoch_, dir, "mkdir"); !s.ok()) return s;
  auto it = names_.find(dir);
  if (it != names_.end()) {
    return it->second->dir ? absl::OkStatus()
                           : absl::AlreadyExistsError(
                                 absl::StrCat("mkdir ", dir, ": a file"));
  }
  auto node = std::make_shared<Node>();
  node->dir = true;
  names_[dir] = node;
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<SpoolLock>> PowerLossSpoolFs::Lock(
    const std::string& path) {
  absl::MutexLock lock(&mu_);
  if (absl::Status s = CheckLocked(epoch_, path, "lock"); !s.ok()) return s;
  if (!names_.contains(path)) names_[path] = std::make_shared<Node>();
  if (!locked_.insert(path).second) {
    return absl::FailedPreconditionError(absl::StrCat(path, " is locked"));
  }
  return std::make_unique<HeldLock>(this, path, epoch_);
}

absl::StatusOr<std::string> PowerLossSpoolFs::ReadFile(
    const std::string& path) {
  absl::MutexLock lock(&mu_);
  if (absl::Status s = CheckLocked(epoch_, path, "read"); !s.ok()) return s;
  auto it = names_.find(path);
  if (it == names_.end()) return std::string();
  if (it->second->dir) {
    return absl::FailedPreconditionError(
        absl::StrCat("read ", path, ": a directory"));
  }
  return it->second->data;
}

absl::StatusOr<std::unique_ptr<SpoolFile>> PowerLossSpoolFs::NewFile(
    const std::string& path) {
  absl::MutexLock lock(&mu_);
  if (absl::Status s = CheckLocked(epoch_, path, "open"); !s.ok()) return s;
  std::shared_ptr<Node>& node = names_[path];
  if (node == nullptr) {
    node = std::make_shared<Node>();
  } else if (node->dir) {
    return absl::FailedPreconditionError(
        absl::StrCat("open ", path, ": a directory"));
  }
  // O_TRUNC: the same file, emptied (durable again only after a sync).
  node->data.clear();
  return std::make_unique<File>(this, node, path, epoch_);
}

absl::Status PowerLossSpoolFs::Rename(const std::string& from,
                                      const std::string& to) {
  absl::MutexLock lock(&mu_);
  if (absl::Status s = CheckLocked(epoch_, to, "rename"); !s.ok()) return s;
  auto it = names_.find(from);
  if (it == names_.end()) {
    return absl::NotFoundError(absl::StrCat("rename ", from, ": no such file"));
  }
  std::shared_ptr<Node> node = it->second;
  names_.erase(it);
  names_[to] = std::move(node);
  return absl::OkStatus();
}

absl::Status PowerLossSpoolFs::Remove(const std::string& path) {
  absl::MutexLock lock(&mu_);
  if (absl::Status s = CheckLocked(epoch_, "", "unlink"); !s.ok()) return s;
  names_.erase(path);
  return absl::OkStatus();
}

absl::Status PowerLossSpoolFs::SyncDir(const std::string& dir) {
  absl::MutexLock lock(&mu_);
  if (absl::Status s = CheckLocked(epoch_, "", "fsync"); !s.ok()) return s;
  auto d = names_.find(dir);
  if (d == names_.end() || !d->second->dir) {
    return absl::NotFoundError(absl::StrCat("fsync ", dir, ": no directory"));
  }
  ++dir_syncs_;
  if (drop_dir_syncs_) return absl::OkStatus();
  // The durable entries of `dir` become its entries now.
  for (auto it = durable_names_.begin(); it != durable_names_.end();) {
    it = Parent(it->first) == dir ? durable_names_.erase(it) : std::next(it);
  }
  for (const auto& [path, node] : names_) {
    if (path != root_ && Parent(path) == dir) durable_names_[path] = node;
  }
  return absl::OkStatus();
}

}  // namespace qipu::worker::testing
