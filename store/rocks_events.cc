#include "store/rocks_events.h"

#include <cstdarg>
#include <cstdio>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "spdlog/spdlog.h"
#include "store/status.h"

namespace qipu::store {
namespace {

spdlog::level::level_enum SpdlogLevel(rocksdb::InfoLogLevel level) {
  switch (level) {
    case rocksdb::InfoLogLevel::DEBUG_LEVEL:
      return spdlog::level::trace;
    case rocksdb::InfoLogLevel::INFO_LEVEL:
    case rocksdb::InfoLogLevel::HEADER_LEVEL:
      return spdlog::level::debug;
    case rocksdb::InfoLogLevel::WARN_LEVEL:
      return spdlog::level::info;
    case rocksdb::InfoLogLevel::ERROR_LEVEL:
      return spdlog::level::err;
    case rocksdb::InfoLogLevel::FATAL_LEVEL:
    default:
      return spdlog::level::critical;
  }
}

class SpdlogRocksLogger final : public rocksdb::Logger {
 public:
  explicit SpdlogRocksLogger(std::string dir)
      : rocksdb::Logger(rocksdb::InfoLogLevel::DEBUG_LEVEL),
        dir_(std::move(dir)) {}

  void Logv(const char* format, va_list ap) override {
    Logv(rocksdb::InfoLogLevel::INFO_LEVEL, format, ap);
  }

  void Logv(const rocksdb::InfoLogLevel level, const char* format,
            va_list ap) override {
    const spdlog::level::level_enum to = SpdlogLevel(level);
    if (!spdlog::should_log(to)) return;  // Nothing formatted.
    char buf[1024];
    va_list copy;
    va_copy(copy, ap);
    const int n = std::vsnprintf(buf, sizeof(buf), format, copy);
    va_end(copy);
    if (n < 0) return;
    std::string line;
    if (static_cast<size_t>(n) < sizeof(buf)) {
      line.assign(buf, static_cast<size_t>(n));
    } else {
      line.resize(static_cast<size_t>(n) + 1);
      std::vsnprintf(line.data(), line.size(), format, ap);
      line.resize(static_cast<size_t>(n));
    }
    while (!line.empty() && line.back() == '\n') line.pop_back();
    // Creating a database, RocksDB reports at ERROR level that the
    // directory it is about to create does not exist yet.
    if (to == spdlog::level::err &&
        line.find("Error when reading") != std::string::npos &&
        line.find("dir NotFound") != std::string::npos) {
      spdlog::debug("rocksdb {}: {}", dir_, line);
      return;
    }
    spdlog::log(to, "rocksdb {}: {}", dir_, line);
  }

 private:
  const std::string dir_;
};

const char* ReasonName(rocksdb::BackgroundErrorReason r) {
  switch (r) {
    case rocksdb::BackgroundErrorReason::kFlush:
    case rocksdb::BackgroundErrorReason::kFlushNoWAL:
      return "flush";
    case rocksdb::BackgroundErrorReason::kCompaction:
      return "compaction";
    case rocksdb::BackgroundErrorReason::kWriteCallback:
      return "write";
    case rocksdb::BackgroundErrorReason::kMemTable:
      return "memtable";
    case rocksdb::BackgroundErrorReason::kManifestWrite:
    case rocksdb::BackgroundErrorReason::kManifestWriteNoWAL:
      return "manifest write";
  }
  return "background work";
}

class HealthListener final : public rocksdb::EventListener {
 public:
  HealthListener(StorageHealth* health, std::string dir)
      : health_(health), dir_(std::move(dir)) {}

  const char* Name() const override { return "QipuHealthListener"; }

  void OnBackgroundError(rocksdb::BackgroundErrorReason reason,
                         rocksdb::Status* bg_error) override {
    if (bg_error == nullptr || bg_error->ok()) return;
    // Any background error: 7.8 stops writes at severity hard and above,
    // and which severity an error gets is RocksDB's to decide.
    health_->RecordStopped();
    health_->RecordError(
        FromRocks(*bg_error,
                  absl::StrCat("database ", dir_, ": ", ReasonName(reason),
                               " failed; writes are stopped")),
        bg_error->severity() >= rocksdb::Status::Severity::kFatalError);
  }

  void OnErrorRecoveryEnd(
      const rocksdb::BackgroundErrorRecoveryInfo& info) override {
    if (info.new_bg_error.ok()) {
      spdlog::info("rocksdb {}: recovered from {}", dir_,
                   info.old_bg_error.ToString());
      health_->RecordSuccess();
    }
  }

 private:
  StorageHealth* const health_;
  const std::string dir_;
};

}  // namespace

std::shared_ptr<rocksdb::Logger> NewSpdlogRocksLogger(std::string dir) {
  return std::make_shared<SpdlogRocksLogger>(std::move(dir));
}

std::shared_ptr<rocksdb::EventListener> NewHealthListener(StorageHealth* health,
                                                          std::string dir) {
  return std::make_shared<HealthListener>(health, std::move(dir));
}

absl::Status StorageHealth::Get() const {
  if (!failing()) return absl::OkStatus();
  absl::MutexLock lock(&mu_);
  return error_;
}

absl::Time StorageHealth::Since() const {
  absl::MutexLock lock(&mu_);
  return since_;
}

void StorageHealth::RecordError(const absl::Status& error, bool fatal) {
  if (error.ok()) return;
  absl::MutexLock lock(&mu_);
  if (fatal && !fatal_.load(std::memory_order_relaxed)) {
    fatal_.store(true, std::memory_order_release);
    spdlog::error("storage: RocksDB will not resume writes after: {}",
                  error.ToString());
  }
  if (!error_.ok()) return;
  error_ = error;
  since_ = absl::Now();
  failing_.store(true, std::memory_order_release);
  spdlog::error("storage: {}", error.ToString());
}

void StorageHealth::RecordSuccess() {
  if (!failing()) return;
  absl::MutexLock lock(&mu_);
  if (error_.ok()) return;
  spdlog::info("storage: writes succeed again after: {}", error_.ToString());
  error_ = absl::OkStatus();
  since_ = absl::InfinitePast();
  fatal_.store(false, std::memory_order_release);
  failing_.store(false, std::memory_order_release);
}

bool StorageHealth::ShouldTryResume(absl::Duration every) {
  if (!failing()) return false;
  absl::MutexLock lock(&mu_);
  const absl::Time now = absl::Now();
  if (now - last_resume_ < every) return false;
  last_resume_ = now;
  return true;
}

}  // namespace qipu::store
