#include "worker/spool_fs.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "absl/strings/str_cat.h"

namespace qipu::worker {
namespace {

absl::Status ErrnoError(int err, absl::string_view what,
                        const std::string& path) {
  return absl::ErrnoToStatus(err, absl::StrCat(what, " ", path));
}

class PosixFile final : public SpoolFile {
 public:
  PosixFile(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  ~PosixFile() override { ::close(fd_); }

  absl::Status Append(absl::string_view data) override {
    while (!data.empty()) {
      const ssize_t n = ::write(fd_, data.data(), data.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        return ErrnoError(errno, "write", path_);
      }
      data.remove_prefix(static_cast<size_t>(n));
    }
    return absl::OkStatus();
  }

  absl::Status Sync() override {
    if (::fdatasync(fd_) != 0) return ErrnoError(errno, "fdatasync", path_);
    return absl::OkStatus();
  }

 private:
  const int fd_;
  const std::string path_;
};

class PosixLock final : public SpoolLock {
 public:
  explicit PosixLock(int fd) : fd_(fd) {}
  // Closing the descriptor releases the flock.
  ~PosixLock() override { ::close(fd_); }

 private:
  const int fd_;
};

class PosixFs final : public SpoolFs {
 public:
  absl::Status CreateDir(const std::string& dir) override {
    if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
      return ErrnoError(errno, "mkdir", dir);
    }
    return absl::OkStatus();
  }

  absl::StatusOr<std::unique_ptr<SpoolLock>> Lock(
      const std::string& path) override {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return ErrnoError(errno, "open", path);
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      ::close(fd);
      if (err == EWOULDBLOCK) {
        return absl::FailedPreconditionError(
            absl::StrCat(path, " is locked by another process"));
      }
      return ErrnoError(err, "flock", path);
    }
    return std::make_unique<PosixLock>(fd);
  }

  absl::StatusOr<std::string> ReadFile(const std::string& path) override {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      if (errno == ENOENT) return std::string();
      return ErrnoError(errno, "open", path);
    }
    std::string data;
    char buf[1 << 16];
    for (;;) {
      const ssize_t n = ::read(fd, buf, sizeof(buf));
      if (n < 0) {
        if (errno == EINTR) continue;
        const int err = errno;
        ::close(fd);
        return ErrnoError(err, "read", path);
      }
      if (n == 0) break;
      data.append(buf, static_cast<size_t>(n));
    }
    ::close(fd);
    return data;
  }

  absl::StatusOr<std::unique_ptr<SpoolFile>> NewFile(
      const std::string& path) override {
    const int fd =
        ::open(path.c_str(),
               O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return ErrnoError(errno, "open", path);
    return std::make_unique<PosixFile>(fd, path);
  }

  absl::Status Rename(const std::string& from, const std::string& to) override {
    if (::rename(from.c_str(), to.c_str()) != 0) {
      return ErrnoError(errno, "rename", from);
    }
    return absl::OkStatus();
  }

  absl::Status Remove(const std::string& path) override {
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
      return ErrnoError(errno, "unlink", path);
    }
    return absl::OkStatus();
  }

  absl::Status SyncDir(const std::string& dir) override {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return ErrnoError(errno, "open", dir);
    const int rc = ::fsync(fd);
    const int err = errno;
    ::close(fd);
    if (rc != 0) return ErrnoError(err, "fsync", dir);
    return absl::OkStatus();
  }
};

}  // namespace

SpoolFs* SpoolFs::Default() {
  static SpoolFs* const fs = new PosixFs();
  return fs;
}

}  // namespace qipu::worker
