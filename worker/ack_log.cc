#include "worker/ack_log.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace qipu::worker {

absl::StatusOr<std::unique_ptr<AckLog>> AckLog::Open(
    const std::string& path, const std::string& worker) {
  if (path.empty()) return absl::InvalidArgumentError("--ack-log: no path");
  if (worker.find_first_of("\r\n") != std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--ack-log ", path, ": the worker name holds a line break"));
  }
  const int fd =
      ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int err = errno;
    return absl::InvalidArgumentError(absl::StrCat(
        "--ack-log ", path, ": cannot open for appending: ", strerror(err)));
  }
  return std::unique_ptr<AckLog>(new AckLog(path, worker, fd));
}

AckLog::~AckLog() { ::close(fd_); }

absl::Status AckLog::Write(absl::Span<const Entry> entries, absl::Time now) {
  if (entries.empty()) return absl::OkStatus();
  const int64_t micros = absl::ToUnixMicros(now);
  absl::MutexLock lock(&mu_);
  out_.clear();
  for (const Entry& e : entries) {
    absl::StrAppendFormat(&out_, "%s %s %d %s\n", e.key.ToString(),
                          e.duplicate ? "duplicate" : "stored", micros,
                          worker_);
  }
  size_t done = 0;
  while (done < out_.size()) {
    const ssize_t n = ::write(fd_, out_.data() + done, out_.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : EIO;
      return absl::InternalError(absl::StrCat("ack log ", path_, ": writing ",
                                              entries.size(),
                                              " line(s): ", strerror(err)));
    }
    done += static_cast<size_t>(n);
  }
  lines_ += entries.size();
  return absl::OkStatus();
}

uint64_t AckLog::lines() const {
  absl::MutexLock lock(&mu_);
  return lines_;
}

}  // namespace qipu::worker
