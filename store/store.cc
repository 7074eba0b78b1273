#include "store/store.h"

#include <algorithm>
#include <cassert>
#include <filesystem>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "rocksdb/cache.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/table.h"
#include "rocksdb/write_buffer_manager.h"
#include "spdlog/spdlog.h"
#include "store/keys.h"
#include "store/merge_operators.h"
#include "store/pattern_index.h"
#include "store/status.h"

namespace qipu::store {
namespace {

rocksdb::ColumnFamilyOptions CfOptions(
    const StoreOptions& o, const std::shared_ptr<rocksdb::Cache>& cache,
    bool whole_key_bloom) {
  rocksdb::ColumnFamilyOptions cf;
  cf.write_buffer_size = o.write_buffer_bytes;
  cf.max_write_buffer_number = 3;
  cf.compression = rocksdb::kLZ4Compression;
  cf.bottommost_compression = rocksdb::kZSTD;
  cf.level_compaction_dynamic_level_bytes = true;
  rocksdb::BlockBasedTableOptions t;
  t.block_cache = cache;
  t.cache_index_and_filter_blocks = true;
  t.pin_l0_filter_and_index_blocks_in_cache = true;
  t.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  t.whole_key_filtering = whole_key_bloom;
  t.format_version = 5;
  // Partitioned index and filters (4 KB partitions, top level pinned): a
  // lookup loads a few small blocks instead of a whole file's filter and
  // index (megabytes for a 64 MB file), which thrash the cache's shards.
  t.index_type = rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
  t.partition_filters = true;
  t.metadata_block_size = 4096;
  t.pin_top_level_index_and_filter = true;
  t.cache_index_and_filter_blocks_with_high_priority = true;
  cf.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  return cf;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Store>> Store::Open(const std::string& dir,
                                                   const StoreOptions& o) {
  if (o.create_if_missing) {
    // RocksDB makes the database's own directory but not its parents
    // ("While mkdir if missing"): a new database at a/b/db gets a and b
    // made here, as `qipu local` always did.
    const std::filesystem::path parent =
        std::filesystem::path(dir).parent_path();
    std::error_code ec;
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    if (ec) {
      return absl::FailedPreconditionError(
          absl::StrCat("database ", dir, ": cannot make its parent folder ",
                       parent.string(), ": ", ec.message()));
    }
  }
  std::unique_ptr<Store> s(new Store());
  s->dir_ = dir;
  s->options_ = o;
  s->cache_ = rocksdb::NewLRUCache(o.block_cache_bytes);

  rocksdb::DBOptions db_options;
  db_options.create_if_missing = o.create_if_missing;
  db_options.create_missing_column_families = true;
  db_options.max_background_jobs = o.max_background_jobs;
  db_options.write_buffer_manager =
      std::make_shared<rocksdb::WriteBufferManager>(o.total_write_buffer_bytes,
                                                    s->cache_);
  // RocksDB's info log goes to spdlog, not to a LOG file in `dir` (see
  // rocks_events.h); its background errors to health_.
  db_options.info_log = NewSpdlogRocksLogger(dir);
  db_options.listeners.push_back(NewHealthListener(&s->health_, dir));
  if (o.env != nullptr) db_options.env = o.env;
  db_options.enable_pipelined_write = true;
  // A write group's leader alone inserts its writes into the memtables
  // (RocksDB's default is in parallel): nearly every write comes from one
  // thread, the ingest committer, so there is nothing to share out.
  db_options.allow_concurrent_memtable_write = false;

  rocksdb::ColumnFamilyOptions meta = CfOptions(o, s->cache_, true);
  rocksdb::ColumnFamilyOptions games = CfOptions(o, s->cache_, true);
  games.optimize_filters_for_hits = false;
  rocksdb::ColumnFamilyOptions positions = CfOptions(o, s->cache_, false);
  positions.prefix_extractor.reset(
      rocksdb::NewFixedPrefixTransform(kPositionPrefixLength));
  positions.merge_operator = NewPositionMergeOperator();
  // The default (skiplist) memtable: the position index writes this family
  // by ingesting SST files (store/position_index.h), so only the tools'
  // and tests' WriteBatch merges ever land in its memtable.
  rocksdb::ColumnFamilyOptions aggregates = CfOptions(o, s->cache_, true);
  aggregates.merge_operator = NewAggregateMergeOperator();
  aggregates.write_buffer_size =
      std::min<size_t>(o.write_buffer_bytes, 8u << 20);
  rocksdb::ColumnFamilyOptions jobs = CfOptions(o, s->cache_, true);
  jobs.merge_operator = NewUint64AddOperator();
  jobs.write_buffer_size = std::min<size_t>(o.write_buffer_bytes, 8u << 20);

  // Scanned whole by pattern queries, never looked up by key: no filter.
  // Not compressed: bitmaps gain little (1290 -> 987 bytes a game on
  // 100,000 19x19 games with LZ4 and ZSTD) and every query would
  // decompress all of them.
  rocksdb::ColumnFamilyOptions patterns = CfOptions(o, s->cache_, false);
  patterns.compression = rocksdb::kNoCompression;
  patterns.bottommost_compression = rocksdb::kNoCompression;

  // The player index: postings read by prefix (a player's, an event's,
  // all games by date) and add-merged counters.
  rocksdb::ColumnFamilyOptions players = CfOptions(o, s->cache_, true);
  players.merge_operator = NewUint64AddOperator();

  std::vector<rocksdb::ColumnFamilyDescriptor> cfs = {
      {rocksdb::kDefaultColumnFamilyName, meta},
      {kGamesCf, games},
      {kPositionsCf, positions},
      {kAggregatesCf, aggregates},
      {kJobsCf, jobs},
      {kPatternsCf, patterns},
      {kPlayersCf, players},
  };
  rocksdb::DB* raw = nullptr;
  rocksdb::Status st =
      rocksdb::DB::Open(db_options, dir, cfs, &s->handles_, &raw);
  if (!st.ok()) {
    if (st.IsIOError() && st.ToString().find("lock") != std::string::npos) {
      return absl::UnavailableError(absl::StrCat(
          "database ", dir, " is in use by another process: ", st.ToString()));
    }
    return FromRocks(st, absl::StrCat("opening database ", dir));
  }
  s->db_.reset(raw);

  // Format version: written on creation, checked on every open; an
  // upgradable one is upgraded below, once the position index recovered.
  bool upgrade = false;
  QIPU_ASSIGN_OR_RETURN(const std::optional<std::string> version,
                        s->Get(s->meta(), FormatVersionKey()));
  if (!version.has_value()) {
    QIPU_RETURN_IF_ERROR(s->Put(s->meta(), FormatVersionKey(),
                                absl::StrCat(kFormatVersion),
                                Durability::kSync));
  } else {
    uint32_t v = 0;
    const bool parsed = absl::SimpleAtoi(*version, &v);
    if (parsed && v == kUpgradableFormatVersion) {
      upgrade = true;
    } else if (!parsed || v != kFormatVersion) {
      return absl::FailedPreconditionError(
          absl::StrCat("database ", dir, " has format version '", *version,
                       "'; this qipu reads version ", kFormatVersion,
                       " (and upgrades ", kUpgradableFormatVersion, ")"));
    }
  }
  PositionIndexOptions io = o.index;
  if (io.build_dir.empty()) io.build_dir = dir + "/index-build";
  io.health = &s->health_;
  s->index_ = std::make_unique<PositionIndex>(s->db_.get(), s->meta(),
                                              s->games(), s->positions(), io);
  if (absl::Status st = s->index_->Recover(); !st.ok()) {
    return absl::Status(
        st.code(),
        absl::StrCat("database ", dir,
                     ": recovering the position index: ", st.message()));
  }
  if (upgrade) {
    // Crash-safe: the version changes only once every entry is on disk; an
    // upgrade cut short is done again from the start.
    spdlog::info("database {}: upgrading format {} -> {}: pattern index", dir,
                 kUpgradableFormatVersion, kFormatVersion);
    absl::StatusOr<uint64_t> n = BackfillPatternIndex(s.get());
    if (!n.ok()) {
      return absl::Status(
          n.status().code(),
          absl::StrCat("database ", dir,
                       ": writing the pattern index: ", n.status().message()));
    }
    QIPU_RETURN_IF_ERROR(s->Flush());
    QIPU_RETURN_IF_ERROR(s->Put(s->meta(), FormatVersionKey(),
                                absl::StrCat(kFormatVersion),
                                Durability::kSync));
    spdlog::info("database {}: pattern index written for {} games", dir, *n);
  }
  return s;
}

Store::~Store() {
  if (db_ == nullptr) return;
  if (index_ != nullptr) {
    if (absl::Status st = index_->Close(); !st.ok()) {
      spdlog::warn("database {}: position index: {}", dir_, st.ToString());
    }
    index_.reset();
  }
  for (auto* h : handles_) db_->DestroyColumnFamilyHandle(h);
  handles_.clear();
  db_->Close();
}

void Store::MaybeResume() {
  if (!health_.ShouldTryResume(options_.resume_every)) return;
  const rocksdb::Status st = db_->Resume();
  if (st.ok()) {
    spdlog::info("database {}: writes resumed", dir_);
    health_.RecordSuccess();
  } else if (st.severity() >= rocksdb::Status::Severity::kFatalError) {
    health_.RecordError(
        FromRocks(st, absl::StrCat("database ", dir_, ": resuming writes")),
        /*fatal=*/true);
  } else {
    spdlog::debug("database {}: resume failed: {}", dir_, st.ToString());
  }
}

absl::Status Store::Write(rocksdb::WriteBatch* batch, Durability durability,
                          absl::string_view context) {
  if (health_.failing()) MaybeResume();
  rocksdb::WriteOptions w;
  w.sync = durability == Durability::kSync ||
           (durability == Durability::kDefault && options_.sync);
  absl::Status s = FromRocks(db_->Write(w, batch), context);
  RecordWrite(s);
  return s;
}

absl::Status Store::Commit(rocksdb::WriteBatch* batch, Durability durability) {
  return Write(batch, durability, "committing batch");
}

// --- records ----------------------------------------------------------------

namespace {

// The key tag every key of `kind` starts with (keys.h); 0 for kinds whose
// family holds nothing else.
char TagOf(Records kind) {
  switch (kind) {
    case Records::kJobs:
      return kJobTag;
    case Records::kJobCounters:
      return kJobCounterTag;
    case Records::kLeases:
      return kLeaseTag;
    case Records::kAbandoned:
      return kAbandonedTag;
    case Records::kTokens:
      return kTokenTag;
    case Records::kTournaments:
      return kTournamentTag;
    default:
      return 0;
  }
}

// Whether `key` may be a key of `kind` (debug checks of the callers' keys).
bool KeyOfKind(Records kind, absl::string_view key) {
  const char tag = TagOf(kind);
  return tag == 0 || (!key.empty() && key[0] == tag);
}

rocksdb::Slice SliceOf(absl::string_view s) {
  return rocksdb::Slice(s.data(), s.size());
}

}  // namespace

rocksdb::ColumnFamilyHandle* Store::FamilyOf(Records kind) const {
  switch (kind) {
    case Records::kGames:
      return games();
    case Records::kPatternEntries:
      return patterns();
    case Records::kPlayers:
      return players();
    case Records::kAggregates:
      return aggregates();
    case Records::kPositions:
      return positions();
    case Records::kJobs:
    case Records::kJobCounters:
    case Records::kLeases:
    case Records::kAbandoned:
    case Records::kTokens:
    case Records::kTournaments:
      return jobs();
  }
  return meta();
}

void WriteSet::Put(Records kind, absl::string_view key,
                   absl::string_view value) {
  assert(KeyOfKind(kind, key));
  batch_.Put(store_->FamilyOf(kind), SliceOf(key), SliceOf(value))
      .PermitUncheckedError();
}

void WriteSet::Merge(Records kind, absl::string_view key,
                     absl::string_view operand) {
  assert(KeyOfKind(kind, key));
  batch_.Merge(store_->FamilyOf(kind), SliceOf(key), SliceOf(operand))
      .PermitUncheckedError();
}

void WriteSet::Delete(Records kind, absl::string_view key) {
  assert(KeyOfKind(kind, key));
  batch_.Delete(store_->FamilyOf(kind), SliceOf(key)).PermitUncheckedError();
}

absl::Status Store::Commit(WriteSet* writes, Durability durability) {
  assert(writes->store_ == this);
  return Write(&writes->batch_, durability, "committing batch");
}

absl::Status Store::Put(Records kind, absl::string_view key,
                        absl::string_view value, Durability durability) {
  assert(KeyOfKind(kind, key));
  return Put(FamilyOf(kind), key, value, durability);
}

absl::Status Store::Delete(Records kind, absl::string_view key,
                           Durability durability) {
  assert(KeyOfKind(kind, key));
  return Delete(FamilyOf(kind), key, durability);
}

absl::StatusOr<std::optional<std::string>> Store::Get(
    Records kind, absl::string_view key) const {
  return Get(FamilyOf(kind), key);
}

absl::StatusOr<std::vector<bool>> Store::Contains(
    Records kind, const std::vector<absl::string_view>& keys) const {
  return Contains(FamilyOf(kind), keys);
}

Cursor Store::Scan(Records kind, const ScanOptions& options) const {
  ScanOptions o = options;
  const char tag = TagOf(kind);
  if (o.prefix.empty() && tag != 0) o.prefix = std::string(1, tag);
  assert(KeyOfKind(kind, o.prefix) || o.prefix.empty());
  return NewCursor(FamilyOf(kind), o);
}

absl::Status Store::Put(rocksdb::ColumnFamilyHandle* cf, absl::string_view key,
                        absl::string_view value, Durability durability) {
  rocksdb::WriteBatch batch;
  QIPU_RETURN_IF_ERROR(
      FromRocks(batch.Put(cf, rocksdb::Slice(key.data(), key.size()),
                          rocksdb::Slice(value.data(), value.size())),
                "writing a key"));
  return Write(&batch, durability, absl::StrCat("writing to ", cf->GetName()));
}

absl::Status Store::Delete(rocksdb::ColumnFamilyHandle* cf,
                           absl::string_view key, Durability durability) {
  rocksdb::WriteBatch batch;
  QIPU_RETURN_IF_ERROR(
      FromRocks(batch.Delete(cf, rocksdb::Slice(key.data(), key.size())),
                "deleting a key"));
  return Write(&batch, durability,
               absl::StrCat("deleting from ", cf->GetName()));
}

void Store::RecordWrite(const absl::Status& s) {
  if (s.ok()) {
    // A write through the WAL says nothing of the index's files.
    if (index_ != nullptr && index_->failing()) return;
    health_.RecordSuccess();
  } else {
    health_.RecordError(absl::Status(
        s.code(), absl::StrCat("database ", dir_, ": ", s.message())));
  }
}

absl::StatusOr<std::optional<std::string>> Store::Get(
    rocksdb::ColumnFamilyHandle* cf, absl::string_view key) const {
  std::string value;
  rocksdb::Status st = db_->Get(rocksdb::ReadOptions(), cf,
                                rocksdb::Slice(key.data(), key.size()), &value);
  if (st.IsNotFound()) return std::optional<std::string>();
  if (!st.ok()) return FromRocks(st, "reading");
  return std::optional<std::string>(std::move(value));
}

absl::StatusOr<std::vector<bool>> Store::Contains(
    rocksdb::ColumnFamilyHandle* cf,
    const std::vector<absl::string_view>& keys) const {
  const size_t n = keys.size();
  std::vector<rocksdb::Slice> slices;
  slices.reserve(n);
  for (absl::string_view k : keys) slices.emplace_back(k.data(), k.size());
  std::vector<rocksdb::PinnableSlice> values(n);
  std::vector<rocksdb::Status> statuses(n);
  db_->MultiGet(rocksdb::ReadOptions(), cf, n, slices.data(), values.data(),
                statuses.data());
  std::vector<bool> found(n, false);
  for (size_t i = 0; i < n; ++i) {
    if (statuses[i].ok()) {
      found[i] = true;
    } else if (!statuses[i].IsNotFound()) {
      return FromRocks(statuses[i],
                       absl::StrCat("looking up keys in ", cf->GetName()));
    }
  }
  return found;
}

// --- Cursor -----------------------------------------------------------------

struct Cursor::State {
  std::string prefix;
  // PrefixUpperBound(prefix), the iterator's upper bound when not empty.
  std::string upper;
  rocksdb::Slice upper_slice;
  // The column family's name, for errors.
  std::string cf_name;
  // Last: destroyed before the bound it points at.
  std::unique_ptr<rocksdb::Iterator> it;
};

Cursor::Cursor(std::unique_ptr<State> state) : state_(std::move(state)) {}
Cursor::Cursor(Cursor&&) = default;
Cursor& Cursor::operator=(Cursor&&) = default;
Cursor::~Cursor() = default;

void Cursor::SeekToFirst() { state_->it->Seek(rocksdb::Slice(state_->prefix)); }

void Cursor::Seek(absl::string_view target) {
  const absl::string_view prefix = state_->prefix;
  if (target < prefix) target = prefix;
  state_->it->Seek(rocksdb::Slice(target.data(), target.size()));
}

bool Cursor::Valid() const {
  return state_->it->Valid() && absl::StartsWith(key(), state_->prefix);
}

void Cursor::SeekToLast() {
  // The upper bound (set for a prefix) makes SeekToLast stop below it.
  state_->it->SeekToLast();
}

void Cursor::Next() { state_->it->Next(); }

void Cursor::Prev() { state_->it->Prev(); }

absl::string_view Cursor::key() const {
  const rocksdb::Slice k = state_->it->key();
  return absl::string_view(k.data(), k.size());
}

absl::string_view Cursor::value() const {
  const rocksdb::Slice v = state_->it->value();
  return absl::string_view(v.data(), v.size());
}

absl::Status Cursor::status() const {
  return FromRocks(
      state_->it->status(),
      absl::StrCat("reading the ", state_->cf_name, " column family"));
}

Cursor Store::NewCursor(rocksdb::ColumnFamilyHandle* cf,
                        const ScanOptions& options) const {
  auto state = std::make_unique<Cursor::State>();
  state->prefix = options.prefix;
  state->upper = PrefixUpperBound(options.prefix);
  state->cf_name = cf->GetName();
  rocksdb::ReadOptions ro;
  ro.fill_cache = options.fill_cache;
  ro.readahead_size = options.readahead_bytes;
  // Key order across prefixes (the positions family has a prefix
  // extractor; a cursor reads it as any other family).
  ro.total_order_seek = true;
  if (!state->upper.empty()) {
    state->upper_slice = rocksdb::Slice(state->upper);
    ro.iterate_upper_bound = &state->upper_slice;
  }
  state->it.reset(db_->NewIterator(ro, cf));
  return Cursor(std::move(state));
}

absl::StatusOr<uint64_t> Store::NextCounter(absl::string_view name) {
  absl::MutexLock lock(&counter_mu_);
  const std::string key = CounterKey(name);
  QIPU_ASSIGN_OR_RETURN(const std::optional<std::string> current,
                        Get(meta(), key));
  uint64_t v = 0;
  if (current.has_value()) {
    auto decoded = DecodeUint64Value(*current);
    if (!decoded) {
      return absl::DataLossError(absl::StrCat("counter ", name, " is damaged"));
    }
    v = *decoded;
  }
  ++v;
  QIPU_RETURN_IF_ERROR(
      Put(meta(), key, EncodeUint64Value(v), Durability::kSync));
  return v;
}

absl::Status Store::Flush() {
  QIPU_RETURN_IF_ERROR(index_->Flush());
  rocksdb::FlushOptions f;
  f.wait = true;
  return FromRocks(db_->Flush(f, handles_), "flushing");
}

absl::Status Store::Compact(rocksdb::ColumnFamilyHandle* cf) {
  rocksdb::CompactRangeOptions options;
  options.bottommost_level_compaction =
      rocksdb::BottommostLevelCompaction::kForce;
  return FromRocks(db_->CompactRange(options, cf, nullptr, nullptr),
                   absl::StrCat("compacting ", cf->GetName()));
}

absl::Status Store::CompactPositions() { return Compact(positions()); }

StoreSizes Store::Sizes() const {
  StoreSizes out;
  for (auto* h : handles_) {
    StoreSizes::Cf cf;
    cf.name = h->GetName();
    db_->GetIntProperty(h, "rocksdb.total-sst-files-size", &cf.sst_bytes);
    db_->GetIntProperty(h, "rocksdb.cur-size-all-mem-tables",
                        &cf.memtable_bytes);
    db_->GetIntProperty(h, "rocksdb.estimate-num-keys", &cf.estimated_keys);
    out.column_families.push_back(cf);
  }
  out.block_cache_usage = cache_->GetUsage();
  out.index = index_->stats();
  return out;
}

}  // namespace qipu::store
