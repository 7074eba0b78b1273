// The opening indexer: turns a validated game into position-index deltas
// for its first `depth` plies -- per position reached (canonical key with
// all symmetries folded and the side to move), one game reached with its
// outcome and, unless the game ended there, one continuation (the move in
// the canonical frame) with that outcome and the game as example. A
// position is counted once per game, at its first occurrence.
//
// The side to move at a position is the colour of the move the record
// plays next there, as recorded: records may move one colour twice in a
// row (a free-placement handicap given as moves), and each continuation is
// filed under the side that really played it. After the record's last
// move it is the natural side (the opponent of that move, or a later
// setup's PL; before any move the setup's PL, or White after a root
// handicap setup, or Black). Records that alternate colours index exactly
// as before this rule (issue 16).
//
// Two outputs: IndexGame() gives decoded deltas (tests, tools), and
// IndexGameOps() the same entries already encoded for the position index
// (store/position_index.h) in one flat buffer, without a heap allocation
// per entry -- the ingest path.
#ifndef QIPU_STORE_INDEXER_H_
#define QIPU_STORE_INDEXER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "base/varint.h"
#include "rules/record.h"
#include "rules/result.h"
#include "store/game_id.h"
#include "store/keys.h"
#include "store/position_value.h"

namespace qipu::store {

struct IndexedPosition {
  uint8_t width = 0;
  uint8_t height = 0;
  // Canonical position key (rules::CanonicalKey::key).
  rules::Hash128 position;
  PositionValue delta;
};

// Index deltas of `record`'s first n = min(depth, plies) plies, where
// `plies` is the number of main-line moves the rules accepted (the caller
// has replayed the game; moves past `plies` are not played -- the first of
// them only names the side to move at ply n). The result depends on
// `plies` and `depth` only through n. Precondition: the record's setup and
// first `plies` moves are legal (as Replay() checked).
std::vector<IndexedPosition> IndexGame(const rules::GameRecord& record,
                                       int plies, int depth,
                                       rules::Winner winner, const GameId& id);

// Whether the walk IndexGame() makes of `record`'s first min(depth, plies)
// plies reaches the canonical position `target` (side to move folded in),
// and if so the continuation it would file there: has_next false when
// the walk ends at it, else `move` (canonical dense index + 1, 0 = pass).
// Only the position's first occurrence counts, as in the index. The
// player-filtered openings query (engine/player_queries.cc) sums these
// over a player's games.
struct OpeningHit {
  bool reached = false;
  bool has_next = false;
  uint16_t move = 0;
};
OpeningHit FindInOpening(const rules::GameRecord& record, int plies, int depth,
                         const rules::Hash128& target);

// Position-index entries in one flat buffer: each entry is a 26-byte
// store::PositionKey followed by a varint length and the encoded
// PositionValue (a merge operand). Movable value type; not thread-safe.
class PositionOps {
 public:
  // Appends an entry. Precondition: key.size() == kPositionKeyLength.
  void Add(absl::string_view key, absl::string_view value);
  // Appends every entry of `other`.
  void Append(const PositionOps& other) {
    bytes_ += other.bytes_;
    count_ += other.count_;
  }
  // Calls fn(key, value) for each entry, in the order added.
  template <typename Fn>
  void ForEach(Fn fn) const;

  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  // Bytes of the buffer.
  size_t bytes() const { return bytes_.size(); }
  void Clear() {
    bytes_.clear();
    count_ = 0;
  }
  // The buffer itself (for appending more entries by hand).
  std::string* mutable_bytes() { return &bytes_; }
  void AddCount(size_t n) { count_ += n; }

 private:
  std::string bytes_;
  size_t count_ = 0;
};

// IndexGame() for bucket (config_id, day), encoded: appends one entry per
// indexed position to *out. The values are exactly EncodePositionValue()
// of IndexGame()'s deltas.
void IndexGameOps(const rules::GameRecord& record, int plies, int depth,
                  rules::Winner winner, const GameId& id, uint32_t config_id,
                  uint32_t day, PositionOps* out);

// --- implementation --------------------------------------------------------

template <typename Fn>
void PositionOps::ForEach(Fn fn) const {
  absl::string_view in = bytes_;
  while (in.size() > kPositionKeyLength) {
    const absl::string_view key = in.substr(0, kPositionKeyLength);
    in.remove_prefix(kPositionKeyLength);
    uint64_t n = 0;
    if (!base::GetVarint64(&in, &n)) return;  // never: Add() wrote it
    const absl::string_view value = in.substr(0, n);
    in.remove_prefix(value.size());
    fn(key, value);
  }
}

}  // namespace qipu::store

#endif  // QIPU_STORE_INDEXER_H_
