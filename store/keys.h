// Every RocksDB key layout of qipu, with the column-family names and the
// format version. Fields are fixed-width big-endian so that byte order is
// logical order (a job's games are contiguous and in index order; a
// position's buckets are contiguous). Each key has an Encode/Decode pair,
// round-trip tested in tests/store/keys_test.cc.
//
// Column families and what they hold:
//   default     'V' -> format version; 'N'+name -> counters; 'C'+config id
//               -> ConfigRecord; 'c'+ConfigTuple -> config id; 'X'+batch
//               -> games not yet in the position index's files
//   positions   (also IndexWatermarkKey() -> last batch in the files)
//   games       GameKey -> qipu.v1.Game (point lookups: bloom filter)
//               PositionKey -> PositionValue (merge: store/position_value.h)
//   aggregates  AggregateKey -> AggregateStats (merge: store/aggregate.h)
//   jobs        JobKey -> JobRecord; JobCounterKey -> uint64 (merge: add);
//               LeaseKey -> LeaseRecord; AbandonedKey -> reason
#ifndef QIPU_STORE_KEYS_H_
#define QIPU_STORE_KEYS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "rules/zobrist.h"
#include "store/game_id.h"

namespace qipu::store {

// Version of everything in this file, of the stored value formats and of
// the Zobrist keys (rules/zobrist.h). Checked at open; a database with
// another version is refused.
//   1  first release.
//   2  position values without child keys, compact example ids
//      (store/position_value.h).
inline constexpr uint32_t kFormatVersion = 2;

// Column-family names.
inline constexpr char kGamesCf[] = "games";
inline constexpr char kPositionsCf[] = "positions";
inline constexpr char kAggregatesCf[] = "aggregates";
inline constexpr char kJobsCf[] = "jobs";

// --- default CF ---------------------------------------------------------

// The key of the format-version record; its value is the decimal version.
std::string FormatVersionKey();
// A named 64-bit counter (e.g. "next_job", "next_config").
std::string CounterKey(absl::string_view name);
// ConfigRecord by id.
std::string ConfigKey(uint32_t config_id);
std::optional<uint32_t> DecodeConfigKey(absl::string_view key);
// Config id by its canonical tuple text (store/configs.h).
std::string ConfigTupleKey(absl::string_view tuple);
// Prefix of all ConfigKey()s.
std::string ConfigKeyPrefix();

// --- games CF -----------------------------------------------------------

// 17 bytes: kind, hi, lo. Self-play games of one job are contiguous.
std::string GameKey(const GameId& id);
std::optional<GameId> DecodeGameKey(absl::string_view key);
// Prefix of every self-play game of `job` (9 bytes).
std::string JobGamesPrefix(uint64_t job);

// --- positions CF -------------------------------------------------------

// A position-index key: board size, canonical position key (side to move
// folded in), configuration bucket and day.
struct PositionKeyParts {
  uint8_t width = 0;
  uint8_t height = 0;
  rules::Hash128 position;
  uint32_t config_id = 0;
  // YYYYMMDD, 0 when unknown.
  uint32_t day = 0;
  friend bool operator==(const PositionKeyParts&,
                         const PositionKeyParts&) = default;
};
// 26 bytes: width, height, position (16), config (4), day (4).
std::string PositionKey(const PositionKeyParts& parts);
inline constexpr size_t kPositionKeyLength = 26;
std::optional<PositionKeyParts> DecodePositionKey(absl::string_view key);
// The first kPositionPrefixLength bytes: all buckets of one position.
inline constexpr size_t kPositionPrefixLength = 18;
std::string PositionPrefix(uint8_t width, uint8_t height,
                           const rules::Hash128& position);

// The position index's watermark (store/position_index.h): 26 zero bytes
// (width 0, so never a PositionKey; DecodePositionKey() refuses it) ->
// fixed64 big-endian batch number: every committed batch up to it has its
// entries in the index's SST files. Written into each of those files.
std::string IndexWatermarkKey();

// --- default CF: batches not yet in the position index ---------------

// 9 bytes: 'X', batch number. Value: the games of a committed batch whose
// index entries were still only in memory (store/position_index.h).
std::string UnindexedKey(uint64_t batch);
std::optional<uint64_t> DecodeUnindexedKey(absl::string_view key);
inline constexpr char kUnindexedTag = 'X';

// --- aggregates CF ------------------------------------------------------

// 8 bytes: config, day.
std::string AggregateKey(uint32_t config_id, uint32_t day);
// Decodes into *config_id, *day; false when malformed.
bool DecodeAggregateKey(absl::string_view key, uint32_t* config_id,
                        uint32_t* day);

// --- jobs CF ------------------------------------------------------------

// 9 bytes: 'J', job.
std::string JobKey(uint64_t job);
std::optional<uint64_t> DecodeJobKey(absl::string_view key);
// Counters of a job, merged with the uint64 add operator.
enum class JobCounter : uint8_t { kDone = 'd', kRejected = 'r' };
// 10 bytes: 'K', job, counter.
std::string JobCounterKey(uint64_t job, JobCounter counter);
// 'L', job, lease id.
std::string LeaseKey(uint64_t job, absl::string_view lease_id);
// 'R', job, index -> reason: a game index given up after repeated
// rejections (never handed out again).
std::string AbandonedKey(uint64_t job, uint64_t index);
// Decodes an AbandonedKey; false when malformed.
bool DecodeAbandonedKey(absl::string_view key, uint64_t* job, uint64_t* index);
// Prefixes for scans.
inline constexpr char kJobTag = 'J';
inline constexpr char kJobCounterTag = 'K';
inline constexpr char kLeaseTag = 'L';
inline constexpr char kAbandonedTag = 'R';

// Fixed-width big-endian helpers (exposed for value codecs and tests).
void PutFixed32BE(std::string* out, uint32_t v);
void PutFixed64BE(std::string* out, uint64_t v);
uint32_t GetFixed32BE(const char* p);
uint64_t GetFixed64BE(const char* p);
// Little-endian uint64 values of the add merge operator.
std::string EncodeUint64Value(uint64_t v);
std::optional<uint64_t> DecodeUint64Value(absl::string_view v);

}  // namespace qipu::store

#endif  // QIPU_STORE_KEYS_H_
