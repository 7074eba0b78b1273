#include "worker/spool.h"

#include <algorithm>
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

// The directory that holds directory `dir` ("." for a relative name of
// one level).
std::string ParentDir(std::string dir) {
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  const size_t slash = dir.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return dir.substr(0, slash);
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

Spool::Spool(const SpoolOptions& options, SpoolFs* fs,
             std::unique_ptr<SpoolLock> lock)
    : options_(options), fs_(fs), lock_(std::move(lock)) {}

Spool::~Spool() {
  absl::MutexLock lock(&mu_);
  if (file_ != nullptr && dirty_) {
    if (absl::Status s = file_->Sync(); !s.ok()) {
      spdlog::warn("spool {}: sync at close: {}", options_.dir, s.ToString());
    }
  }
  file_.reset();
}

absl::StatusOr<std::unique_ptr<Spool>> Spool::Open(
    const SpoolOptions& options) {
  if (options.dir.empty()) {
    return absl::InvalidArgumentError("spool directory not set");
  }
  SpoolFs* const fs = options.fs != nullptr ? options.fs : SpoolFs::Default();
  if (absl::Status s = fs->CreateDir(options.dir); !s.ok()) return s;
  // The directory's own name must be durable too, or a power loss soon
  // after the first run could take the whole spool with it.
  if (absl::Status s = fs->SyncDir(ParentDir(options.dir)); !s.ok()) {
    spdlog::warn("spool {}: {}", options.dir, s.ToString());
  }
  const std::string lock_path = options.dir + "/LOCK";
  absl::StatusOr<std::unique_ptr<SpoolLock>> held = fs->Lock(lock_path);
  if (!held.ok()) {
    if (absl::IsFailedPrecondition(held.status())) {
      return absl::FailedPreconditionError(
          absl::StrCat("spool ", options.dir, " is in use by another process (",
                       lock_path, ")"));
    }
    return held.status();
  }
  // From here the Spool holds the lock (until it goes away).
  std::unique_ptr<Spool> spool(new Spool(options, fs, *std::move(held)));
  const std::string log_path = options.dir + "/spool.log";
  if (absl::Status s = fs->Remove(log_path + ".tmp"); !s.ok()) {
    spdlog::warn("spool {}: {}", options.dir, s.ToString());
  }
  absl::StatusOr<std::string> data = fs->ReadFile(log_path);
  if (!data.ok()) return data.status();

  absl::MutexLock lock(&spool->mu_);
  if (spool->LoadLocked(*data)) {
    // Keep the damaged log for inspection before it is rewritten.
    const std::string copy = log_path + ".damaged";
    absl::StatusOr<std::unique_ptr<SpoolFile>> f = fs->NewFile(copy);
    const absl::Status s = f.ok() ? (*f)->Append(*data) : f.status();
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
  absl::StatusOr<std::unique_ptr<SpoolFile>> opened = fs_->NewFile(tmp);
  if (!opened.ok()) return opened.status();
  std::shared_ptr<SpoolFile> file = *std::move(opened);
  std::string buf(kHeaderMagic.data(), kHeaderMagic.size());
  auto fail = [&](absl::Status s) {
    file.reset();
    fs_->Remove(tmp).IgnoreError();
    return s;
  };
  PutFixed32(&buf, kFormatVersion);
  PutFixed32(&buf, 0);
  int64_t written = 0;
  for (const auto& [number, g] : entries_) {
    AppendGameRecord(*g, &buf);
    if (buf.size() >= (1u << 20)) {
      if (absl::Status s = file->Append(buf); !s.ok()) return fail(s);
      written += static_cast<int64_t>(buf.size());
      buf.clear();
    }
  }
  if (absl::Status s = file->Append(buf); !s.ok()) return fail(s);
  written += static_cast<int64_t>(buf.size());
  if (absl::Status s = file->Sync(); !s.ok()) return fail(s);
  if (absl::Status s = fs_->Rename(tmp, log_path); !s.ok()) return fail(s);
  // The old log holds a superset of the new one, so a rename that is lost
  // in a crash loses nothing: only warn.
  if (absl::Status s = fs_->SyncDir(options_.dir); !s.ok()) {
    spdlog::warn("spool {}: {}", options_.dir, s.ToString());
  }
  file_ = std::move(file);
  file_bytes_ = written;
  live_bytes_ = written - static_cast<int64_t>(kHeaderBytes);
  dirty_ = false;
  ++stats_.compactions;
  return absl::OkStatus();
}

absl::Status Spool::WriteOutLocked() {
  absl::Status s = file_->Append(out_);
  if (s.ok()) file_bytes_ += static_cast<int64_t>(out_.size());
  out_.clear();
  // A burst of large games must not pin its buffer for the spool's life.
  if (out_.capacity() > (size_t{4} << 20)) std::string().swap(out_);
  return s;
}

absl::StatusOr<size_t> Spool::AppendBatch(std::vector<FinishedGame>* games,
                                          std::vector<SpooledGame>* added) {
  absl::MutexLock lock(&mu_);
  if (file_ == nullptr) {
    return absl::FailedPreconditionError("spool is not open");
  }
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
  std::shared_ptr<SpoolFile> file;
  {
    absl::MutexLock lock(&mu_);
    if (!dirty_ || file_ == nullptr) return absl::OkStatus();
    // Sync outside the lock so that acks are not held up by the disk (the
    // file stays open while this holds it). A compaction meanwhile is
    // harmless: it writes and syncs every pending game into the new log
    // itself.
    file = file_;
    dirty_ = false;
  }
  const absl::Status s = file->Sync();
  absl::MutexLock lock(&mu_);
  ++stats_.syncs;
  if (!s.ok()) {
    dirty_ = true;
    return s;
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
  absl::Status s = file_ == nullptr
                       ? absl::FailedPreconditionError("spool is not open")
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
