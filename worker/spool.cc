#include "worker/spool.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "spdlog/spdlog.h"
#include "worker/crc32c.h"

namespace qipu::worker {
namespace {

constexpr absl::string_view kHeaderMagic("QIPUSPL\0", 8);
constexpr size_t kHeaderBytes = 16;
constexpr absl::string_view kRecordMagic = "QPSR";
// magic, length, checksum.
constexpr size_t kFrameBytes = 12;
constexpr uint8_t kTypeGame = 1;
constexpr uint8_t kTypeAck = 2;
// type, job, index.
constexpr size_t kAckBodyBytes = 17;
// type, job, index, lease id length.
constexpr size_t kGameFixedBytes = 21;

void PutFixed32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}
void StoreFixed32(char* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<char>(v >> (8 * i));
}
void StoreFixed64(char* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<char>(v >> (8 * i));
}
uint32_t GetFixed32(const char* p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}
uint64_t GetFixed64(const char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

absl::Status ErrnoError(int err, absl::string_view what,
                        const std::string& path) {
  return absl::ErrnoToStatus(err, absl::StrCat(what, " ", path));
}

absl::Status WriteAll(int fd, absl::string_view data, const std::string& path) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoError(errno, "write", path);
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return absl::OkStatus();
}

// The whole file, or "" when it does not exist.
absl::StatusOr<std::string> ReadFile(const std::string& path) {
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

absl::Status SyncDir(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return ErrnoError(errno, "open", dir);
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) return ErrnoError(err, "fsync", dir);
  return absl::OkStatus();
}

// Appends to *out (OUT) the frame of a record whose `n`-byte body
// follows; returns the offset of the body in *out. FinishFrame() fills in
// the checksum once the body is written.
size_t StartFrame(std::string* out, uint32_t n) {
  const size_t at = out->size();
  out->resize(at + kFrameBytes + n);
  char* p = out->data() + at;
  std::memcpy(p, kRecordMagic.data(), kRecordMagic.size());
  StoreFixed32(p + 4, n);
  return at + kFrameBytes;
}

void FinishFrame(std::string* out, size_t body_at) {
  const char* body = out->data() + body_at;
  const uint32_t n = GetFixed32(body - kFrameBytes + 4);
  StoreFixed32(out->data() + body_at - kFrameBytes + 8,
               MaskCrc(Crc32c(absl::string_view(body, n))));
}

// Appends the framed GAME record of g to *out (OUT).
void AppendGameRecord(const FinishedGame& g, std::string* out) {
  const uint32_t n = static_cast<uint32_t>(kGameFixedBytes + g.lease_id.size() +
                                           g.game.size());
  const size_t at = StartFrame(out, n);
  char* p = out->data() + at;
  p[0] = static_cast<char>(kTypeGame);
  StoreFixed64(p + 1, g.key.job);
  StoreFixed64(p + 9, g.key.index);
  StoreFixed32(p + 17, static_cast<uint32_t>(g.lease_id.size()));
  p += kGameFixedBytes;
  if (!g.lease_id.empty()) std::memcpy(p, g.lease_id.data(), g.lease_id.size());
  p += g.lease_id.size();
  if (!g.game.empty()) std::memcpy(p, g.game.data(), g.game.size());
  FinishFrame(out, at);
}

// Appends the framed ACK record of k to *out (OUT).
void AppendAckRecord(const GameKey& k, std::string* out) {
  const size_t at = StartFrame(out, kAckBodyBytes);
  char* p = out->data() + at;
  p[0] = static_cast<char>(kTypeAck);
  StoreFixed64(p + 1, k.job);
  StoreFixed64(p + 9, k.index);
  FinishFrame(out, at);
}

// Bytes of the framed GAME record of g.
int64_t GameRecordBytes(const FinishedGame& g) {
  return static_cast<int64_t>(kFrameBytes + kGameFixedBytes +
                              g.lease_id.size() + g.game.size());
}

// True when a well-framed record with a matching checksum starts at `pos`;
// then *body and *n describe its body.
bool RecordAt(const std::string& data, size_t pos, const char** body,
              uint32_t* n) {
  if (pos + kFrameBytes > data.size()) return false;
  const char* p = data.data() + pos;
  if (absl::string_view(p, 4) != kRecordMagic) return false;
  const uint32_t len = GetFixed32(p + 4);
  if (len == 0 || len > Spool::kMaxRecordBytes ||
      len > data.size() - pos - kFrameBytes) {
    return false;
  }
  if (MaskCrc(Crc32c(absl::string_view(p + kFrameBytes, len))) !=
      GetFixed32(p + 8)) {
    return false;
  }
  *body = p + kFrameBytes;
  *n = len;
  return true;
}

}  // namespace

Spool::Spool(const SpoolOptions& options, int lock_fd)
    : options_(options), lock_fd_(lock_fd) {}

Spool::~Spool() {
  absl::MutexLock lock(&mu_);
  if (fd_ >= 0) {
    if (dirty_ && ::fdatasync(fd_) != 0) {
      spdlog::warn("spool {}: fdatasync at close: {}", options_.dir,
                   std::strerror(errno));
    }
    ::close(fd_);
  }
  ::close(lock_fd_);
}

absl::StatusOr<std::unique_ptr<Spool>> Spool::Open(
    const SpoolOptions& options) {
  if (options.dir.empty()) {
    return absl::InvalidArgumentError("spool directory not set");
  }
  if (::mkdir(options.dir.c_str(), 0755) != 0 && errno != EEXIST) {
    return ErrnoError(errno, "mkdir", options.dir);
  }
  const std::string lock_path = options.dir + "/LOCK";
  const int lock_fd =
      ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_fd < 0) return ErrnoError(errno, "open", lock_path);
  if (::flock(lock_fd, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    ::close(lock_fd);
    if (err == EWOULDBLOCK) {
      return absl::FailedPreconditionError(
          absl::StrCat("spool ", options.dir, " is in use by another process (",
                       lock_path, ")"));
    }
    return ErrnoError(err, "flock", lock_path);
  }
  // From here the Spool owns lock_fd (its destructor closes it).
  std::unique_ptr<Spool> spool(new Spool(options, lock_fd));
  const std::string log_path = options.dir + "/spool.log";
  ::unlink((log_path + ".tmp").c_str());
  absl::StatusOr<std::string> data = ReadFile(log_path);
  if (!data.ok()) return data.status();

  absl::MutexLock lock(&spool->mu_);
  if (spool->LoadLocked(*data)) {
    // Keep the damaged log for inspection before it is rewritten.
    const std::string copy = log_path + ".damaged";
    const int fd =
        ::open(copy.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    absl::Status s =
        fd < 0 ? ErrnoError(errno, "open", copy) : WriteAll(fd, *data, copy);
    if (fd >= 0) ::close(fd);
    if (!s.ok()) {
      spdlog::warn("spool {}: could not keep the damaged log: {}", options.dir,
                   s.ToString());
    }
  }
  if (absl::Status s = spool->CompactLocked(); !s.ok()) return s;
  spool->stats_.recovered = spool->entries_.size();
  if (!spool->entries_.empty()) {
    spdlog::info("spool {}: {} unacknowledged game(s) to resend", options.dir,
                 spool->entries_.size());
  }
  return spool;
}

bool Spool::LoadLocked(const std::string& data) {
  if (data.empty()) return false;
  bool damaged = false;
  size_t pos = 0;
  if (data.size() >= kHeaderBytes &&
      absl::string_view(data.data(), kHeaderMagic.size()) == kHeaderMagic) {
    const uint32_t version = GetFixed32(data.data() + 8);
    if (version != kFormatVersion) {
      spdlog::warn(
          "spool {}: format version {} is not {}; starting empty (the log "
          "is kept as spool.log.damaged)",
          options_.dir, version, kFormatVersion);
      return true;
    }
    pos = kHeaderBytes;
  } else {
    spdlog::warn("spool {}: bad header; scanning for records", options_.dir);
    damaged = true;
  }
  while (pos < data.size()) {
    const char* body = nullptr;
    uint32_t n = 0;
    if (RecordAt(data, pos, &body, &n) && ApplyLocked(body, n)) {
      pos += kFrameBytes + n;
      continue;
    }
    // A bad record: resynchronise on the next magic that starts a good one.
    const size_t bad = pos;
    size_t next = data.find(kRecordMagic.data(), bad + 1, kRecordMagic.size());
    while (next != std::string::npos && !RecordAt(data, next, &body, &n)) {
      next = data.find(kRecordMagic.data(), next + 1, kRecordMagic.size());
    }
    if (next == std::string::npos) {
      stats_.torn_bytes = static_cast<int64_t>(data.size() - bad);
      spdlog::warn("spool {}: dropped a torn tail of {} byte(s) at offset {}",
                   options_.dir, stats_.torn_bytes, bad);
      break;
    }
    ++stats_.skipped_records;
    damaged = true;
    spdlog::warn("spool {}: skipped {} damaged byte(s) at offset {}",
                 options_.dir, next - bad, bad);
    pos = next;
  }
  return damaged;
}

bool Spool::ApplyLocked(const char* body, uint32_t n) {
  const uint8_t type = static_cast<uint8_t>(body[0]);
  if (type == kTypeAck) {
    if (n != kAckBodyBytes) return false;
    const GameKey key{GetFixed64(body + 1), GetFixed64(body + 9)};
    if (auto it = by_key_.find(key); it != by_key_.end()) ForgetLocked(it);
    return true;
  }
  if (type != kTypeGame || n < kGameFixedBytes) return false;
  const uint32_t lease_len = GetFixed32(body + 17);
  if (lease_len > n - kGameFixedBytes) return false;
  const GameKey key{GetFixed64(body + 1), GetFixed64(body + 9)};
  if (by_key_.contains(key)) return true;
  auto g = std::make_shared<FinishedGame>();
  g->key = key;
  g->lease_id.assign(body + kGameFixedBytes, lease_len);
  g->game.assign(body + kGameFixedBytes + lease_len,
                 n - kGameFixedBytes - lease_len);
  live_bytes_ += GameRecordBytes(*g);
  by_key_[key] = next_number_;
  entries_.emplace_hint(entries_.end(), next_number_++, std::move(g));
  return true;
}

void Spool::ForgetLocked(absl::flat_hash_map<GameKey, uint64_t>::iterator it) {
  auto e = entries_.find(it->second);
  live_bytes_ -= GameRecordBytes(*e->second);
  entries_.erase(e);
  by_key_.erase(it);
}

absl::Status Spool::CompactLocked() {
  const std::string log_path = options_.dir + "/spool.log";
  const std::string tmp = log_path + ".tmp";
  const int fd = ::open(
      tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError(errno, "open", tmp);
  std::string buf(kHeaderMagic.data(), kHeaderMagic.size());
  auto fail = [&](absl::Status s) {
    ::close(fd);
    ::unlink(tmp.c_str());
    return s;
  };
  PutFixed32(&buf, kFormatVersion);
  PutFixed32(&buf, 0);
  int64_t written = 0;
  for (const auto& [number, g] : entries_) {
    AppendGameRecord(*g, &buf);
    if (buf.size() >= (1u << 20)) {
      if (absl::Status s = WriteAll(fd, buf, tmp); !s.ok()) return fail(s);
      written += static_cast<int64_t>(buf.size());
      buf.clear();
    }
  }
  if (absl::Status s = WriteAll(fd, buf, tmp); !s.ok()) return fail(s);
  written += static_cast<int64_t>(buf.size());
  if (::fsync(fd) != 0) return fail(ErrnoError(errno, "fsync", tmp));
  if (::rename(tmp.c_str(), log_path.c_str()) != 0) {
    return fail(ErrnoError(errno, "rename", tmp));
  }
  // The old log holds a superset of the new one, so a rename that is lost
  // in a crash loses nothing: only warn.
  if (absl::Status s = SyncDir(options_.dir); !s.ok()) {
    spdlog::warn("spool {}: {}", options_.dir, s.ToString());
  }
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
  file_bytes_ = written;
  live_bytes_ = written - static_cast<int64_t>(kHeaderBytes);
  dirty_ = false;
  ++stats_.compactions;
  return absl::OkStatus();
}

absl::Status Spool::WriteOutLocked() {
  absl::Status s = WriteAll(fd_, out_, options_.dir + "/spool.log");
  if (s.ok()) file_bytes_ += static_cast<int64_t>(out_.size());
  out_.clear();
  // A burst of large games must not pin its buffer for the spool's life.
  if (out_.capacity() > (size_t{4} << 20)) std::string().swap(out_);
  return s;
}

absl::StatusOr<size_t> Spool::AppendBatch(std::vector<FinishedGame>* games,
                                          std::vector<SpooledGame>* added) {
  absl::MutexLock lock(&mu_);
  if (fd_ < 0) return absl::FailedPreconditionError("spool is not open");
  // Claim the keys first (this also catches a key twice in *games), and
  // give them back if the write fails.
  std::vector<size_t> fresh;
  fresh.reserve(games->size());
  out_.clear();
  for (size_t i = 0; i < games->size(); ++i) {
    const FinishedGame& g = (*games)[i];
    if (!by_key_.try_emplace(g.key, next_number_ + fresh.size()).second) {
      continue;
    }
    fresh.push_back(i);
    AppendGameRecord(g, &out_);
  }
  if (fresh.empty()) {
    games->clear();
    return 0;
  }
  if (absl::Status s = WriteOutLocked(); !s.ok()) {
    for (size_t i : fresh) by_key_.erase((*games)[i].key);
    return s;
  }
  dirty_ = true;
  for (size_t i : fresh) {
    auto g = std::make_shared<const FinishedGame>(std::move((*games)[i]));
    live_bytes_ += GameRecordBytes(*g);
    if (added != nullptr) added->push_back(g);
    entries_.emplace_hint(entries_.end(), next_number_++, std::move(g));
  }
  games->clear();
  return fresh.size();
}

absl::StatusOr<bool> Spool::Append(FinishedGame game) {
  std::vector<FinishedGame> one;
  one.push_back(std::move(game));
  absl::StatusOr<size_t> n = AppendBatch(&one, nullptr);
  if (!n.ok()) return n.status();
  return *n == 1;
}

absl::Status Spool::Sync() {
  int fd = -1;
  {
    absl::MutexLock lock(&mu_);
    if (!dirty_ || fd_ < 0) return absl::OkStatus();
    // Sync a duplicate descriptor outside the lock so that acks are not
    // held up by the disk. A compaction meanwhile is harmless: it writes
    // and syncs every pending game into the new log itself.
    fd = ::dup(fd_);
    if (fd < 0) return ErrnoError(errno, "dup", options_.dir + "/spool.log");
    dirty_ = false;
  }
  const int rc = ::fdatasync(fd);
  const int err = errno;
  ::close(fd);
  absl::MutexLock lock(&mu_);
  ++stats_.syncs;
  if (rc != 0) {
    dirty_ = true;
    return ErrnoError(err, "fdatasync", options_.dir + "/spool.log");
  }
  return absl::OkStatus();
}

absl::Status Spool::AckBatch(absl::Span<const GameKey> keys) {
  absl::MutexLock lock(&mu_);
  out_.clear();
  for (const GameKey& key : keys) {
    auto it = by_key_.find(key);
    if (it == by_key_.end()) continue;
    AppendAckRecord(key, &out_);
    ForgetLocked(it);
  }
  if (out_.empty()) return absl::OkStatus();
  // The games are forgotten even if the ACK records cannot be written:
  // the worst case is a resend after a restart, answered as a duplicate.
  absl::Status s = fd_ < 0 ? absl::FailedPreconditionError("spool is not open")
                           : WriteOutLocked();
  const int64_t dead =
      file_bytes_ - static_cast<int64_t>(kHeaderBytes) - live_bytes_;
  if (s.ok() && dead > std::max(options_.compact_min_bytes, live_bytes_)) {
    s = CompactLocked();
  }
  return s;
}

absl::StatusOr<SpooledGame> Spool::Get(const GameKey& key) const {
  absl::MutexLock lock(&mu_);
  auto it = by_key_.find(key);
  if (it == by_key_.end()) {
    return absl::NotFoundError(
        absl::StrCat("game ", key.ToString(), " is not pending"));
  }
  return entries_.at(it->second);
}

std::vector<SpooledGame> Spool::Pending() const {
  absl::MutexLock lock(&mu_);
  std::vector<SpooledGame> games;
  games.reserve(entries_.size());
  for (const auto& [number, g] : entries_) games.push_back(g);
  return games;
}

std::vector<GameKey> Spool::PendingKeys() const {
  absl::MutexLock lock(&mu_);
  std::vector<GameKey> keys;
  keys.reserve(entries_.size());
  for (const auto& [number, g] : entries_) keys.push_back(g->key);
  return keys;
}

size_t Spool::pending() const {
  absl::MutexLock lock(&mu_);
  return entries_.size();
}

SpoolStats Spool::stats() const {
  absl::MutexLock lock(&mu_);
  SpoolStats s = stats_;
  s.pending = entries_.size();
  s.file_bytes = file_bytes_;
  return s;
}

}  // namespace qipu::worker
