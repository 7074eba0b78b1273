#include "store/position_index.h"

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/varint.h"
#include "proto/convert.h"
#include "qipu/v1/game.pb.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/write_batch.h"
#include "spdlog/spdlog.h"
#include "store/keys.h"
#include "store/position_value.h"
#include "store/status.h"

namespace qipu::store {

// A sorted run of entries with distinct keys. A 26-byte position key is
// held as three big-endian words and a 16-bit tail, so that comparing keys
// is comparing integers. Immutable once published in runs_.
struct PositionIndex::Run {
  struct Slot {
    uint64_t a = 0;  // key bytes 0..7 (width, height, hash)
    uint64_t b = 0;  // key bytes 8..15 (hash)
    uint64_t c = 0;  // key bytes 16..23 (hash, config)
    uint16_t d = 0;  // key bytes 24..25 (day)
    uint32_t off = 0;
    uint32_t len = 0;
  };
  std::vector<Slot> slots;
  // The values, concatenated.
  std::string values;
  // The last batch whose entries are in the run.
  uint64_t last_batch = 0;

  size_t bytes() const { return slots.size() * sizeof(Slot) + values.size(); }
  absl::string_view value(const Slot& s) const {
    return absl::string_view(values.data() + s.off, s.len);
  }
};

namespace {

using Slot = PositionIndex::Run::Slot;  // NOLINT: private alias for helpers

void SetKey(absl::string_view key, Slot* s) {
  s->a = GetFixed64BE(key.data());
  s->b = GetFixed64BE(key.data() + 8);
  s->c = GetFixed64BE(key.data() + 16);
  s->d = GetFixed16BE(key.data() + 24);
}

void KeyBytes(const Slot& s, char out[kPositionKeyLength]) {
  out = EncodeFixed64BE(out, s.a);
  out = EncodeFixed64BE(out, s.b);
  out = EncodeFixed64BE(out, s.c);
  EncodeFixed16BE(out, s.d);
}

bool KeyLess(const Slot& x, const Slot& y) {
  if (x.a != y.a) return x.a < y.a;
  if (x.b != y.b) return x.b < y.b;
  if (x.c != y.c) return x.c < y.c;
  return x.d < y.d;
}

bool KeyEqual(const Slot& x, const Slot& y) {
  return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d;
}

// The merge of several operands of one key, as the merge operator would
// (an undecodable operand is skipped and logged).
std::string MergeOperands(const std::vector<absl::string_view>& operands) {
  PositionValue acc;
  for (absl::string_view op : operands) {
    auto v = DecodePositionValue(op);
    if (!v.ok()) {
      spdlog::error("position index: skipped an undecodable entry: {}",
                    v.status().ToString());
      continue;
    }
    MergePositionValues(&acc, *v);
  }
  return EncodePositionValue(acc);
}

// Calls emit(slot_of_key, value) once per distinct key of `runs`, in key
// order, folding the values of a key held by several runs. The runs are
// merged through a tournament (loser) tree: one comparison per level for
// each entry, where a binary heap's pop and push take about two -- this
// merge of up to 48 runs is most of a flush's own work.
template <typename Emit>
void MergeRuns(const std::vector<const PositionIndex::Run*>& runs, Emit emit) {
  const size_t k = runs.size();
  if (k == 0) return;
  std::vector<size_t> pos(k, 0);
  auto done = [&](size_t r) { return pos[r] >= runs[r]->slots.size(); };
  auto slot = [&](size_t r) -> const Slot& { return runs[r]->slots[pos[r]]; };
  // Whether run a's next entry comes before run b's (a finished run comes
  // after everything).
  auto before = [&](size_t a, size_t b) {
    if (done(a)) return false;
    if (done(b)) return true;
    return KeyLess(slot(a), slot(b));
  };
  // Leaves k..2k-1 are the runs; internal node n (1..k-1) holds the loser
  // of the match between its children 2n and 2n+1.
  std::vector<size_t> loser(k);
  size_t winner = 0;
  if (k > 1) {
    std::vector<size_t> won(2 * k);
    for (size_t r = 0; r < k; ++r) won[k + r] = r;
    for (size_t n = k - 1; n >= 1; --n) {
      const size_t a = won[2 * n];
      const size_t b = won[2 * n + 1];
      const bool b_first = before(b, a);
      won[n] = b_first ? b : a;
      loser[n] = b_first ? a : b;
    }
    winner = won[1];
  }
  // After the winner's run advanced: its new entry plays the losers on its
  // way up.
  auto replay = [&]() {
    size_t cur = winner;
    for (size_t n = (k + winner) / 2; n >= 1; n /= 2) {
      if (before(loser[n], cur)) std::swap(loser[n], cur);
    }
    winner = cur;
  };
  std::vector<absl::string_view> operands;
  while (!done(winner)) {
    const Slot key = slot(winner);
    operands.clear();
    do {
      operands.push_back(runs[winner]->value(slot(winner)));
      ++pos[winner];
      replay();
    } while (!done(winner) && KeyEqual(slot(winner), key));
    if (operands.size() == 1) {
      emit(key, operands[0]);
    } else {
      const std::string merged = MergeOperands(operands);
      emit(key, absl::string_view(merged));
    }
  }
}

// A run of `ops` (sorted, equal keys folded).
std::shared_ptr<PositionIndex::Run> BuildRun(const PositionOps& ops,
                                             uint64_t batch) {
  auto run = std::make_shared<PositionIndex::Run>();
  run->last_batch = batch;
  run->slots.reserve(ops.size());
  run->values.reserve(ops.bytes());
  ops.ForEach([&](absl::string_view key, absl::string_view value) {
    Slot s;
    SetKey(key, &s);
    s.off = static_cast<uint32_t>(run->values.size());
    s.len = static_cast<uint32_t>(value.size());
    run->values.append(value.data(), value.size());
    run->slots.push_back(s);
  });
  std::sort(run->slots.begin(), run->slots.end(), KeyLess);
  // Fold equal keys (shallow positions several games of the batch reach).
  std::vector<Slot>& slots = run->slots;
  size_t out = 0;
  std::vector<absl::string_view> operands;
  for (size_t i = 0; i < slots.size();) {
    size_t j = i + 1;
    while (j < slots.size() && KeyEqual(slots[i], slots[j])) ++j;
    Slot s = slots[i];
    if (j - i > 1) {
      operands.clear();
      for (size_t k = i; k < j; ++k) operands.push_back(run->value(slots[k]));
      const std::string merged = MergeOperands(operands);
      s.off = static_cast<uint32_t>(run->values.size());
      s.len = static_cast<uint32_t>(merged.size());
      run->values += merged;
    }
    slots[out++] = s;
    i = j;
  }
  slots.resize(out);
  // The values in key order, so that a flush or a merge of runs reads each
  // run front to back. In arrival order every value read was a cache miss
  // in tens of MB of buffered runs: the flush's copies of values took 7%
  // of qipu local's CPU on 9x9. Reordered here, within one batch's bytes.
  std::string sorted;
  sorted.reserve(run->values.size());
  for (Slot& s : slots) {
    const uint32_t off = static_cast<uint32_t>(sorted.size());
    sorted.append(run->values, s.off, s.len);
    s.off = off;
  }
  run->values = std::move(sorted);
  return run;
}

// `runs` merged into one run.
std::shared_ptr<PositionIndex::Run> MergeIntoRun(
    const std::vector<const PositionIndex::Run*>& runs) {
  auto run = std::make_shared<PositionIndex::Run>();
  size_t n = 0;
  size_t bytes = 0;
  for (const auto* r : runs) {
    n += r->slots.size();
    bytes += r->values.size();
    run->last_batch = std::max(run->last_batch, r->last_batch);
  }
  run->slots.reserve(n);
  run->values.reserve(bytes);
  MergeRuns(runs, [&](const Slot& key, absl::string_view value) {
    Slot s = key;
    s.off = static_cast<uint32_t>(run->values.size());
    s.len = static_cast<uint32_t>(value.size());
    run->values.append(value.data(), value.size());
    run->slots.push_back(s);
  });
  return run;
}

// Most buffered runs (besides those being flushed) a reader searches;
// beyond it Add() merges runs.
constexpr size_t kMaxRuns = 48;

// Feeds the entries of `runs`, merged and in key order, to `merge(key,
// value)` until it fails; *entries = entries fed.
template <typename MergeFn>
rocksdb::Status MergeEntries(
    const std::vector<std::shared_ptr<const PositionIndex::Run>>& runs,
    uint64_t* entries, MergeFn merge) {
  std::vector<const PositionIndex::Run*> raw;
  raw.reserve(runs.size());
  for (const auto& r : runs) raw.push_back(r.get());
  rocksdb::Status st;
  uint64_t n = 0;
  char key[kPositionKeyLength];
  MergeRuns(raw, [&](const Slot& s, absl::string_view value) {
    if (!st.ok()) return;
    KeyBytes(s, key);
    st = merge(rocksdb::Slice(key, kPositionKeyLength),
               rocksdb::Slice(value.data(), value.size()));
    ++n;
  });
  *entries = n;
  return st;
}

}  // namespace

void AppendUnindexedGame(const UnindexedGame& g, std::string* value) {
  value->push_back(static_cast<char>(g.id.kind));
  base::PutVarint64(value, g.id.hi);
  base::PutVarint64(value, g.id.lo);
  base::PutVarint64(value, g.plies);
  base::PutVarint64(value, g.config_id);
  base::PutVarint64(value, g.day);
}

absl::StatusOr<std::vector<UnindexedGame>> DecodeUnindexedGames(
    absl::string_view value) {
  std::vector<UnindexedGame> out;
  while (!value.empty()) {
    UnindexedGame g;
    const uint8_t kind = static_cast<uint8_t>(value[0]);
    value.remove_prefix(1);
    uint64_t plies = 0, config = 0, day = 0;
    if ((kind != static_cast<uint8_t>(GameId::Kind::kSelfPlay) &&
         kind != static_cast<uint8_t>(GameId::Kind::kImported)) ||
        !base::GetVarint64(&value, &g.id.hi) ||
        !base::GetVarint64(&value, &g.id.lo) ||
        !base::GetVarint64(&value, &plies) ||
        !base::GetVarint64(&value, &config) ||
        !base::GetVarint64(&value, &day) || plies > 0xFFFFFFFFu ||
        config > 0xFFFFFFFFu || day > 0xFFFFFFFFu) {
      return absl::DataLossError("unindexed batch record: malformed");
    }
    g.id.kind = static_cast<GameId::Kind>(kind);
    g.plies = static_cast<uint32_t>(plies);
    g.config_id = static_cast<uint32_t>(config);
    g.day = static_cast<uint32_t>(day);
    out.push_back(g);
  }
  return out;
}

PositionIndex::PositionIndex(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* meta,
                             rocksdb::ColumnFamilyHandle* games,
                             rocksdb::ColumnFamilyHandle* positions,
                             const PositionIndexOptions& options)
    : db_(db),
      meta_(meta),
      games_(games),
      positions_(positions),
      options_(options) {
  std::error_code ec;
  std::filesystem::remove_all(options_.build_dir, ec);
  std::filesystem::create_directories(options_.build_dir, ec);
  if (ec) {
    spdlog::error("position index: cannot create {}: {}", options_.build_dir,
                  ec.message());
  }
  flusher_ = std::thread([this] {
    // Named for top -H and profilers (at most 15 characters).
    pthread_setname_np(pthread_self(), "qipu-index");
    FlushLoop();
  });
}

PositionIndex::~PositionIndex() { Close().IgnoreError(); }

uint64_t PositionIndex::NextBatch() {
  absl::MutexLock lock(&mu_);
  return next_batch_++;
}

void PositionIndex::Add(uint64_t batch, PositionOps* ops) {
  if (ops->empty()) return;
  std::shared_ptr<Run> run = BuildRun(*ops, batch);
  ops->Clear();
  absl::MutexLock lock(&mu_);
  if (closed_) {
    spdlog::error("position index: batch {} added after close; dropped", batch);
    return;
  }
  buffered_bytes_ += run->bytes();
  buffered_entries_ += run->slots.size();
  last_added_ = std::max(last_added_, batch);
  runs_.push_back(std::move(run));
  // Too many runs make readers search too many: merge the adjacent pair
  // (of those not being flushed) that is smallest together.
  while (runs_.size() - flushing_ > kMaxRuns) {
    size_t best = flushing_;
    size_t best_size = ~size_t{0};
    for (size_t i = flushing_; i + 1 < runs_.size(); ++i) {
      const size_t size = runs_[i]->slots.size() + runs_[i + 1]->slots.size();
      if (size < best_size) {
        best = i;
        best_size = size;
      }
    }
    const Run& first = *runs_[best];
    const Run& second = *runs_[best + 1];
    std::shared_ptr<Run> merged = MergeIntoRun({&first, &second});
    buffered_bytes_ += merged->bytes();
    buffered_bytes_ -= first.bytes() + second.bytes();
    buffered_entries_ += merged->slots.size();
    buffered_entries_ -= first.slots.size() + second.slots.size();
    runs_[best] = std::move(merged);
    runs_.erase(runs_.begin() + best + 1);
  }
}

absl::Status PositionIndex::WaitForRoom(absl::Duration wait) {
  absl::MutexLock lock(&mu_);
  auto room = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return closing_ || buffered_bytes_ < options_.max_bytes;
  };
  if (mu_.AwaitWithTimeout(absl::Condition(&room), wait) && !closing_) {
    return absl::OkStatus();
  }
  if (closing_) return absl::UnavailableError("the position index is closing");
  return absl::UnavailableError(
      absl::StrCat("the position index's buffer is full (", buffered_bytes_,
                   " bytes) and cannot be written: ",
                   flush_error_.ok() ? std::string("a flush is under way")
                                     : flush_error_.ToString()));
}

bool PositionIndex::failing() const {
  absl::MutexLock lock(&mu_);
  return !flush_error_.ok();
}

absl::Status PositionIndex::Flush() {
  absl::MutexLock lock(&mu_);
  if (closed_) return absl::FailedPreconditionError("position index closed");
  if (runs_.empty()) {
    // Everything added is in the files (batches without entries too).
    flushed_through_ = std::max(flushed_through_, last_added_);
    return absl::OkStatus();
  }
  const uint64_t wanted = last_added_;
  if (flushed_through_ >= wanted) return absl::OkStatus();
  flush_wanted_ = std::max(flush_wanted_, wanted);
  const uint64_t attempts = attempts_;
  auto done = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return flushed_through_ >= wanted || closed_ ||
           (attempts_ > attempts && !flush_error_.ok());
  };
  mu_.Await(absl::Condition(&done));
  if (flushed_through_ >= wanted) return absl::OkStatus();
  if (!flush_error_.ok()) return flush_error_;
  return absl::FailedPreconditionError("position index closed");
}

absl::Status PositionIndex::Close() {
  {
    absl::MutexLock lock(&mu_);
    if (closed_ && !flusher_.joinable()) return flush_error_;
    closing_ = true;
  }
  if (flusher_.joinable()) flusher_.join();
  absl::MutexLock lock(&mu_);
  closed_ = true;
  if (!runs_.empty()) {
    spdlog::warn(
        "position index: closed with {} entries unwritten ({}); they are "
        "rebuilt from the stored games at the next open",
        buffered_entries_, flush_error_.ToString());
  }
  return flush_error_;
}

void PositionIndex::FlushLoop() {
  for (;;) {
    Runs take;
    uint64_t watermark = 0;
    uint64_t file = 0;
    {
      absl::MutexLock lock(&mu_);
      auto work = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return closing_ ||
               (!runs_.empty() && (buffered_bytes_ >= options_.flush_bytes ||
                                   flush_wanted_ > flushed_through_));
      };
      mu_.Await(absl::Condition(&work));
      if (runs_.empty()) return;  // closing, nothing left
      take.assign(runs_.begin(), runs_.end());
      flushing_ = take.size();
      for (const auto& r : take) watermark = std::max(watermark, r->last_batch);
      file = ++file_number_;
    }
    // After RocksDB has reported a background error, librocksdb 7.8 must
    // not ingest (see StorageHealth::stopped_once()): the entries go
    // through a write batch instead, slower but as atomic.
    const bool batch =
        options_.health != nullptr && options_.health->stopped_once();
    std::string path = absl::StrCat(options_.build_dir, "/index-", getpid(),
                                    "-", file, ".sst");
    uint64_t entries = 0;
    rocksdb::WriteBatch wb;
    absl::Status s = batch ? BatchEntries(take, watermark, &wb, &entries)
                           : WriteFile(take, watermark, &path, &entries);
    bool closing = false;
    {
      absl::MutexLock lock(&mu_);
      if (s.ok() && batch) {
        // Written and the runs dropped under the readers' lock, as below.
        rocksdb::WriteOptions wo;
        wo.sync = true;
        s = FromRocks(db_->Write(wo, &wb), "writing position index entries");
      } else if (s.ok()) {
        // Ingest and drop the runs under the readers' lock: a reader sees
        // the entries either in its runs or in its iterator, never both.
        rocksdb::IngestExternalFileOptions io;
        io.move_files = true;
        s = FromRocks(db_->IngestExternalFile(positions_, {path}, io),
                      "ingesting a position index file");
      }
      ++attempts_;
      if (s.ok()) {
        // The records of the file's batches are obsolete (a crash before
        // this delete is harmless: the watermark says so).
        DeleteRecords(watermark);
        for (const auto& r : take) {
          buffered_bytes_ -= r->bytes();
          buffered_entries_ -= r->slots.size();
        }
        runs_.erase(runs_.begin(), runs_.begin() + take.size());
        flushed_through_ = std::max(flushed_through_, watermark);
        flush_error_ = absl::OkStatus();
        ++stats_.flushes;
        stats_.flushed_entries += entries;
      } else {
        flush_error_ = s;
        ++stats_.failed_flushes;
      }
      flushing_ = 0;
      closing = closing_;
      // Reported before Flush() waiters can look.
      if (options_.health != nullptr) {
        if (s.ok()) {
          options_.health->RecordSuccess();
        } else {
          options_.health->RecordError(s);
        }
      }
    }
    std::error_code ec;
    std::filesystem::remove(path, ec);
    if (s.ok()) continue;
    spdlog::error("position index: flush failed (will retry): {}",
                  s.ToString());
    if (closing) return;  // Recover() rebuilds the entries at next open.
    absl::MutexLock lock(&mu_);
    mu_.AwaitWithTimeout(absl::Condition(&closing_), options_.retry_after);
  }
}

absl::Status PositionIndex::WriteFile(const Runs& runs, uint64_t watermark,
                                      std::string* path,
                                      uint64_t* entries) const {
  // Uncompressed: the file lands in L0 (its keys are hashes spread over
  // the whole key space, and compress little), and the compaction that
  // moves it down reads it anyway and compresses it for its level (LZ4,
  // ZSTD at the bottom). The measurement is in store/README.md.
  rocksdb::Options options = db_->GetOptions(positions_);
  options.compression = rocksdb::kNoCompression;
  options.bottommost_compression = rocksdb::kNoCompression;
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options, positions_);
  rocksdb::Status st = writer.Open(*path);
  if (!st.ok()) return FromRocks(st, absl::StrCat("creating ", *path));
  st = writer.Put(IndexWatermarkKey(), IndexWatermarkValue(watermark));
  if (st.ok()) {
    st = MergeEntries(runs, entries, [&](rocksdb::Slice k, rocksdb::Slice v) {
      return writer.Merge(k, v);
    });
  }
  if (st.ok()) st = writer.Finish();
  if (!st.ok()) return FromRocks(st, absl::StrCat("writing ", *path));
  return absl::OkStatus();
}

absl::Status PositionIndex::BatchEntries(const Runs& runs, uint64_t watermark,
                                         rocksdb::WriteBatch* batch,
                                         uint64_t* entries) const {
  rocksdb::Status st =
      MergeEntries(runs, entries, [&](rocksdb::Slice k, rocksdb::Slice v) {
        return batch->Merge(positions_, k, v);
      });
  // The watermark last, in the same batch: the entries and the watermark
  // that says they are written land together or not at all.
  if (st.ok()) {
    st = batch->Put(positions_, IndexWatermarkKey(),
                    IndexWatermarkValue(watermark));
  }
  return FromRocks(st, "batching position index entries");
}

void PositionIndex::DeleteRecords(uint64_t batch) const {
  const rocksdb::Status st = db_->DeleteRange(
      rocksdb::WriteOptions(), meta_, UnindexedKey(0), UnindexedKey(batch + 1));
  if (!st.ok()) {
    // Harmless: Recover() deletes records at or below the watermark.
    spdlog::warn("position index: deleting records up to batch {}: {}", batch,
                 st.ToString());
  }
}

absl::Status PositionIndex::ForEachUnderPrefix(absl::string_view prefix,
                                               const EntryFn& fn) const {
  if (prefix.size() != kPositionPrefixLength) {
    return absl::InvalidArgumentError("position prefix of the wrong length");
  }
  rocksdb::ReadOptions ro;
  ro.prefix_same_as_start = true;
  // The prefix's successor as an upper bound, so that the scan stops at the
  // end of the prefix without loading the following data block.
  const std::string upper = PrefixUpperBound(prefix);
  rocksdb::Slice upper_slice;
  if (!upper.empty()) {
    upper_slice = rocksdb::Slice(upper);
    ro.iterate_upper_bound = &upper_slice;
  }
  std::unique_ptr<rocksdb::Iterator> it;
  Runs runs;
  {
    absl::MutexLock lock(&mu_);
    it.reset(db_->NewIterator(ro, positions_));
    runs = runs_;
  }
  const rocksdb::Slice p(prefix.data(), prefix.size());
  for (it->Seek(p); it->Valid() && it->key().starts_with(p); it->Next()) {
    if (!fn(absl::string_view(it->key().data(), it->key().size()),
            absl::string_view(it->value().data(), it->value().size()))) {
      return absl::OkStatus();
    }
  }
  QIPU_RETURN_IF_ERROR(FromRocks(it->status(), "reading the position index"));
  // Buffered entries: the prefix is key words a, b and the top 16 bits of
  // c.
  Slot lo;
  char padded[kPositionKeyLength] = {};
  std::memcpy(padded, prefix.data(), prefix.size());
  SetKey(absl::string_view(padded, kPositionKeyLength), &lo);
  char key[kPositionKeyLength];
  for (const auto& run : runs) {
    auto at =
        std::lower_bound(run->slots.begin(), run->slots.end(), lo, KeyLess);
    for (; at != run->slots.end() && at->a == lo.a && at->b == lo.b &&
           (at->c >> 48) == (lo.c >> 48);
         ++at) {
      KeyBytes(*at, key);
      if (!fn(absl::string_view(key, kPositionKeyLength), run->value(*at))) {
        return absl::OkStatus();
      }
    }
  }
  return absl::OkStatus();
}

PositionIndexStats PositionIndex::stats() const {
  absl::MutexLock lock(&mu_);
  PositionIndexStats s = stats_;
  s.buffered_entries = buffered_entries_;
  s.buffered_bytes = buffered_bytes_;
  s.runs = runs_.size();
  return s;
}

absl::Status PositionIndex::Recover() {
  uint64_t watermark = 0;
  {
    std::string v;
    const rocksdb::Status st =
        db_->Get(rocksdb::ReadOptions(), positions_, IndexWatermarkKey(), &v);
    if (st.ok()) {
      watermark = DecodeIndexWatermarkValue(v).value_or(0);
    } else if (!st.ok() && !st.IsNotFound()) {
      return FromRocks(st, "reading the position index watermark");
    }
  }
  std::vector<std::pair<uint64_t, std::string>> pending;
  uint64_t last = watermark;
  {
    std::unique_ptr<rocksdb::Iterator> it(
        db_->NewIterator(rocksdb::ReadOptions(), meta_));
    for (it->Seek(UnindexedKey(0)); it->Valid(); it->Next()) {
      const auto batch = DecodeUnindexedKey(
          absl::string_view(it->key().data(), it->key().size()));
      if (!batch) break;
      last = std::max(last, *batch);
      if (*batch > watermark) {
        pending.emplace_back(*batch, it->value().ToString());
      }
    }
    QIPU_RETURN_IF_ERROR(FromRocks(it->status(), "reading unindexed batches"));
  }
  {
    absl::MutexLock lock(&mu_);
    next_batch_ = last + 1;
    last_added_ = flushed_through_ = watermark;
  }
  uint64_t games = 0;
  for (auto& [batch, value] : pending) {
    auto list = DecodeUnindexedGames(value);
    if (!list.ok()) {
      return absl::DataLossError(
          absl::StrCat("position index: record of batch ", batch, ": ",
                       list.status().message()));
    }
    PositionOps ops;
    for (const UnindexedGame& g : *list) {
      std::string bytes;
      const rocksdb::Status st =
          db_->Get(rocksdb::ReadOptions(), games_, GameKey(g.id), &bytes);
      qipu::v1::Game game;
      absl::StatusOr<rules::GameRecord> record =
          absl::DataLossError("does not parse");
      absl::StatusOr<rules::GameResult> result =
          absl::DataLossError("does not parse");
      if (st.ok() && game.ParseFromString(bytes)) {
        record = wire::GameToRecord(game);
        result = wire::ResultFromProto(game.result());
      }
      if (!st.ok() || !record.ok() || !result.ok()) {
        spdlog::error(
            "position index: game {} of batch {} cannot be re-indexed ({}); "
            "its positions are missing from the index",
            GameIdText(g.id), batch,
            !st.ok() ? st.ToString()
                     : (!record.ok() ? record.status() : result.status())
                           .ToString());
        continue;
      }
      IndexGameOps(*record, static_cast<int>(g.plies),
                   static_cast<int>(g.plies), result->winner, g.id, g.config_id,
                   g.day, &ops);
      ++games;
    }
    Add(batch, &ops);
  }
  if (!pending.empty()) {
    spdlog::info(
        "position index: re-indexed {} game(s) of {} batch(es) left "
        "unwritten by the last run",
        games, pending.size());
    {
      absl::MutexLock lock(&mu_);
      stats_.recovered_games += games;
      // A batch whose games were all unreadable added nothing: still done.
      last_added_ = std::max(last_added_, pending.back().first);
    }
    QIPU_RETURN_IF_ERROR(Flush());
  }
  if (last > 0) DeleteRecords(last);
  return absl::OkStatus();
}

}  // namespace qipu::store
