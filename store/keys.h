// Every RocksDB key layout of qipu, with the column-family names and the
// format version. Fields are fixed-width big-endian so that byte order is
// logical order (a job's games are contiguous and in index order; a
// position's buckets are contiguous). Each key has an Encode/Decode pair,
// round-trip tested in tests/store/keys_test.cc. What the fast paths (the
// indexer, the position index) need per entry is inline here: they write
// into buffers of their own instead of building strings.
//
// Column families and what they hold:
//   default     'V' -> format version; 'N'+name -> counters; 'C'+config id
//               -> ConfigRecord; 'c'+ConfigTuple -> config id; 'X'+batch
//               -> games not yet in the position index's files
//   games       GameKey -> qipu.v1.Game (point lookups: bloom filter)
//   positions   PositionKey -> PositionValue (merge: store/position_value.h);
//               IndexWatermarkKey() -> last batch in the index's files
//   aggregates  AggregateKey -> AggregateStats (merge: store/aggregate.h)
//   patterns    PatternKey (= GameKey) -> the game's pattern-index entry
//               (store/pattern_index.h)
//   players     PlayerPostingKey / EventPostingKey / DatePostingKey ->
//               qipu.v1.GameEntry; PlayerCountKey, PlayerNameKey,
//               EventCountKey -> uint64 (merge: add); AliasesKey() ->
//               the alias groups (store/player_index.h)
//   jobs        JobKey -> JobRecord; JobCounterKey -> uint64 (merge: add);
//               LeaseKey -> LeaseRecord; AbandonedKey -> reason;
//               TournamentKey -> qipu.v1.Tournament (the whole state of
//               one tournament); TokenKey -> qipu.v1.TokenRecord (an
//               access token's role and SHA-256, never the token)
#ifndef QIPU_STORE_KEYS_H_
#define QIPU_STORE_KEYS_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
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
//   3  the patterns column family (store/pattern_index.h). A version-2
//      database is upgraded when opened: every game's entry is written,
//      then the version.
inline constexpr uint32_t kFormatVersion = 3;
// The older version Store::Open upgrades in place.
inline constexpr uint32_t kUpgradableFormatVersion = 2;

// Column-family names.
inline constexpr char kGamesCf[] = "games";
inline constexpr char kPositionsCf[] = "positions";
inline constexpr char kAggregatesCf[] = "aggregates";
inline constexpr char kJobsCf[] = "jobs";
inline constexpr char kPatternsCf[] = "patterns";
inline constexpr char kPlayersCf[] = "players";

// --- fixed-width big-endian fields ---------------------------------------
// The fields of every key (and of a few values). Encode*() write at a
// caller's buffer and return the end; Put*() append; Get*() read from p.
// Preconditions: room for (or p points at) the field's bytes.

namespace keys_internal {
// v with its bytes in big-endian order (its own inverse).
template <typename T>
inline T ToBigEndian(T v) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8);
  if constexpr (std::endian::native == std::endian::big) {
    return v;
  } else if constexpr (sizeof(T) == 2) {
    return __builtin_bswap16(v);
  } else if constexpr (sizeof(T) == 4) {
    return __builtin_bswap32(v);
  } else {
    return __builtin_bswap64(v);
  }
}
template <typename T>
inline char* EncodeBE(char* out, T v) {
  v = ToBigEndian(v);
  std::memcpy(out, &v, sizeof(T));
  return out + sizeof(T);
}
template <typename T>
inline T GetBE(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return ToBigEndian(v);
}
}  // namespace keys_internal

inline char* EncodeFixed16BE(char* out, uint16_t v) {
  return keys_internal::EncodeBE(out, v);
}
inline char* EncodeFixed32BE(char* out, uint32_t v) {
  return keys_internal::EncodeBE(out, v);
}
inline char* EncodeFixed64BE(char* out, uint64_t v) {
  return keys_internal::EncodeBE(out, v);
}
inline void PutFixed32BE(std::string* out, uint32_t v) {
  char b[4];
  EncodeFixed32BE(b, v);
  out->append(b, 4);
}
inline void PutFixed64BE(std::string* out, uint64_t v) {
  char b[8];
  EncodeFixed64BE(b, v);
  out->append(b, 8);
}
inline uint16_t GetFixed16BE(const char* p) {
  return keys_internal::GetBE<uint16_t>(p);
}
inline uint32_t GetFixed32BE(const char* p) {
  return keys_internal::GetBE<uint32_t>(p);
}
inline uint64_t GetFixed64BE(const char* p) {
  return keys_internal::GetBE<uint64_t>(p);
}

// --- default CF ---------------------------------------------------------

// The key of the format-version record; its value is the decimal version.
std::string FormatVersionKey();
// A named 64-bit counter (e.g. "next_job", "next_config").
std::string CounterKey(absl::string_view name);
// ConfigRecord by id.
std::string ConfigKey(uint32_t config_id);
std::optional<uint32_t> DecodeConfigKey(absl::string_view key);
// Config id by its canonical tuple text (store/configs.h); the value is
// the id, 4 bytes big-endian.
std::string ConfigTupleKey(absl::string_view tuple);
// Prefix of all ConfigKey()s.
std::string ConfigKeyPrefix();

// --- games CF -----------------------------------------------------------

// 17 bytes: kind, hi, lo. Self-play games of one job are contiguous.
std::string GameKey(const GameId& id);
std::optional<GameId> DecodeGameKey(absl::string_view key);
// Prefix of every self-play game of `job` (9 bytes).
std::string JobGamesPrefix(uint64_t job);

// --- patterns CF --------------------------------------------------------

// A game's pattern-index entry is keyed like the game (17 bytes), so a scan
// of the family reads games in the games family's order.
inline std::string PatternKey(const GameId& id) { return GameKey(id); }
inline std::optional<GameId> DecodePatternKey(absl::string_view key) {
  return DecodeGameKey(key);
}

// --- players CF ---------------------------------------------------------
// The player index (store/player_index.h). Names and events are folded
// (rules/player_name.h: no byte below 0x20 in them), so a 0 byte ends
// them and a name's records are contiguous and before any longer name's.
// Day and game key follow, so a name's postings are in date order.

inline constexpr char kPlayerPostingTag = 'p';
inline constexpr char kEventPostingTag = 'e';
inline constexpr char kDatePostingTag = 'd';
inline constexpr char kPlayerCountTag = 'c';
inline constexpr char kPlayerNameTag = 'n';
inline constexpr char kEventCountTag = 'v';

// 'p' + name + 0 (every posting of one player).
std::string PlayerPostingPrefix(absl::string_view name);
// 'p' + name + 0 + day (4) + GameKey (17) -> GameEntry (with the opening).
std::string PlayerPostingKey(absl::string_view name, uint32_t day,
                             const GameId& id);
// 'e' + event + 0 (every game of one event).
std::string EventPostingPrefix(absl::string_view event);
// 'e' + event + 0 + day (4) + GameKey (17) -> GameEntry (no opening).
std::string EventPostingKey(absl::string_view event, uint32_t day,
                            const GameId& id);
// 'd' + day (4) + GameKey (17) -> GameEntry (no opening): every game by
// date.
std::string DatePostingKey(uint32_t day, const GameId& id);

// A posting key's parts (name is empty for a DatePostingKey).
struct PostingKeyParts {
  char tag = 0;
  std::string name;
  uint32_t day = 0;
  GameId id;
};
// Decodes any of the three posting keys; nullopt when malformed.
std::optional<PostingKeyParts> DecodePostingKey(absl::string_view key);

// 'c' + name + 0 + year (2) + colour (1: 'B', 'W', or 'S' for a game the
// player played on both sides) + winner (1: rules::Winner) -> uint64
// games. Year 0: undated.
std::string PlayerCountKey(absl::string_view name, uint16_t year, char colour,
                           uint8_t winner);
// 'c' + name + 0.
std::string PlayerCountPrefix(absl::string_view name);
struct PlayerCountParts {
  std::string name;
  uint16_t year = 0;
  char colour = 0;
  uint8_t winner = 0;
};
std::optional<PlayerCountParts> DecodePlayerCountKey(absl::string_view key);
// 'n' + name + 0 + written form -> uint64: how often records wrote the
// player so (forms equal to the name itself are not counted).
std::string PlayerNameKey(absl::string_view name, absl::string_view written);
// 'v' + event + 0 -> uint64 games of the event.
std::string EventCountKey(absl::string_view event);
// The name (or event) of a 'c', 'n' or 'v' key, and for 'n' the written
// form in *rest; nullopt when malformed.
std::optional<std::string> DecodeNamedKey(absl::string_view key,
                                          std::string* rest);
// "A": the database's alias groups (store/player_index.h).
std::string AliasesKey();

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
inline constexpr size_t kPositionKeyLength = 26;
// The first kPositionPrefixLength bytes: all buckets of one position.
inline constexpr size_t kPositionPrefixLength = 18;

// Writes the kPositionPrefixLength bytes of a position's prefix at out;
// returns the end.
inline char* EncodePositionPrefix(char* out, uint8_t width, uint8_t height,
                                  const rules::Hash128& position) {
  *out++ = static_cast<char>(width);
  *out++ = static_cast<char>(height);
  out = EncodeFixed64BE(out, position.hi);
  return EncodeFixed64BE(out, position.lo);
}
// Writes the kPositionKeyLength bytes of PositionKey(parts) at out;
// returns the end. (The indexer builds its entries on the stack with it.)
inline char* EncodePositionKey(char* out, const PositionKeyParts& parts) {
  out = EncodePositionPrefix(out, parts.width, parts.height, parts.position);
  out = EncodeFixed32BE(out, parts.config_id);
  return EncodeFixed32BE(out, parts.day);
}

// The key of `parts`, and its inverse (nullopt when malformed or the
// watermark).
std::string PositionKey(const PositionKeyParts& parts);
std::optional<PositionKeyParts> DecodePositionKey(absl::string_view key);
// The prefix every bucket of a position shares.
std::string PositionPrefix(uint8_t width, uint8_t height,
                           const rules::Hash128& position);

// The position index's watermark (store/position_index.h): 26 zero bytes
// (width 0, so never a PositionKey; DecodePositionKey() refuses it) ->
// IndexWatermarkValue(): every committed batch up to that one has its
// entries in the index's SST files. Written into each of those files.
std::string IndexWatermarkKey();
// 8 bytes: the batch number, big-endian.
std::string IndexWatermarkValue(uint64_t batch);
std::optional<uint64_t> DecodeIndexWatermarkValue(absl::string_view value);

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
// Decodes a JobCounterKey; false when malformed (or an unknown counter).
bool DecodeJobCounterKey(absl::string_view key, uint64_t* job,
                         JobCounter* counter);
// 'L', job, lease id.
std::string LeaseKey(uint64_t job, absl::string_view lease_id);
// 'R', job, index -> reason: a game index given up after repeated
// rejections (never handed out again).
std::string AbandonedKey(uint64_t job, uint64_t index);
// Decodes an AbandonedKey; false when malformed.
bool DecodeAbandonedKey(absl::string_view key, uint64_t* job, uint64_t* index);
// 9 bytes: 'T', tournament id (ids from the default CF's counter
// "next_tournament", first 1).
std::string TournamentKey(uint64_t id);
std::optional<uint64_t> DecodeTournamentKey(absl::string_view key);
// 9 bytes: 'A', token id (ids from the default CF's counter "next_token",
// first 1). Few keys, all loaded at start (engine/tokens.h).
std::string TokenKey(uint64_t id);
std::optional<uint64_t> DecodeTokenKey(absl::string_view key);
// Prefixes for scans.
inline constexpr char kTournamentTag = 'T';
inline constexpr char kTokenTag = 'A';
inline constexpr char kJobTag = 'J';
inline constexpr char kJobCounterTag = 'K';
inline constexpr char kLeaseTag = 'L';
inline constexpr char kAbandonedTag = 'R';

// The smallest key above every key that starts with `prefix` (a scan's
// upper bound); empty when there is none (a prefix of 0xff bytes only).
std::string PrefixUpperBound(absl::string_view prefix);

// Little-endian uint64 values of the add merge operator.
std::string EncodeUint64Value(uint64_t v);
std::optional<uint64_t> DecodeUint64Value(absl::string_view v);

}  // namespace qipu::store

#endif  // QIPU_STORE_KEYS_H_
