// The pattern index: one compact entry per game in the `patterns` column
// family (key: the game's GameKey), the prefilter of pattern queries
// (coordinator/query_pattern.cc).
//
// An entry cuts the game's positions (after the setup, then after each
// move) into segments by move number (kPatternSegmentEnds) and records per
// segment three bitmaps of the board: the points where a black stone stood
// at some position of the segment, where a white one stood, and the points
// that were empty at some position of it. A pattern standing at position k
// in segment s needs its black cells within the segment's black bitmap, its
// white cells within the white one and its empty cells within the empty
// one ('x' within black-or-empty, 'o' within white-or-empty), so a game
// whose entry admits no placement in any segment cannot hold the pattern;
// the others are replayed (PositionWalk) to confirm and find the first
// position.
//
// Entry (format kPatternEntryVersion): version (1), width (1), height (1),
// segments n (1), then per segment the black, white and empty bitmaps, each
// ceil(width * height / 8) bytes, bit y * width + x (byte i / 8, bit i % 8).
// A 19x19 game of 250 moves: 7 segments, 970 bytes before compression.
#ifndef QIPU_STORE_PATTERN_INDEX_H_
#define QIPU_STORE_PATTERN_INDEX_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "rules/board.h"
#include "rules/pattern.h"
#include "rules/record.h"

namespace qipu::store {

class Store;

// Version byte of a pattern entry.
inline constexpr uint8_t kPatternEntryVersion = 1;
// Segment s holds the positions k (0 = after the root setup, k = after k
// moves) with kPatternSegmentEnds[s - 1] <= k < kPatternSegmentEnds[s]:
// short early segments (openings and joseki are searched most), longer
// late ones. The last is open-ended.
inline constexpr std::array<int, 10> kPatternSegmentEnds = {
    20, 40, 70, 110, 160, 220, 290, 370, 460, 1 << 30};
inline constexpr int kMaxPatternSegments =
    static_cast<int>(kPatternSegmentEnds.size());

// Walks the positions of a record: after the setups before move 0, then
// after each move (setups before move k applied after move k - 1), keeping
// the board's rows as bitmasks. Stops early at a move onto an occupied
// point (a record the rules stopped reading). Reuse one walk for many
// records: its boards are allocated once. Not thread-safe.
class PositionWalk {
 public:
  PositionWalk();
  ~PositionWalk();
  PositionWalk(const PositionWalk&) = delete;
  PositionWalk& operator=(const PositionWalk&) = delete;

  // To position 0 of `record`. The record must outlive the walk's use.
  void Start(const rules::GameRecord& record);
  // Moves played so far (the position's number).
  int ply() const { return ply_; }
  // True when no move follows the current position.
  bool AtEnd() const;
  // The move played next. Precondition: !AtEnd().
  const rules::Move& next_move() const;
  // Plays the next move (and the setups that follow it). Precondition:
  // !AtEnd().
  void Next();
  const rules::BoardRows& black_rows() const { return black_; }
  const rules::BoardRows& white_rows() const { return white_; }
  // What the last Next() did: the stones it removed (captures, suicide),
  // and whether setup stones changed the board after it.
  const rules::RemovedStones& removed() const;
  bool setup_applied() const { return setup_applied_; }

 private:
  void ApplySetups();

  struct Boards;
  std::unique_ptr<Boards> boards_;
  const rules::GameRecord* record_ = nullptr;
  size_t next_setup_ = 0;
  int ply_ = 0;
  // The number of moves the walk plays (the record's, or fewer when one
  // is onto an occupied point).
  int last_ = 0;
  bool setup_applied_ = false;
  rules::BoardRows black_{};
  rules::BoardRows white_{};
};

// The pattern entry of `record` (see above). `walk` is scratch.
std::string EncodePatternEntry(const rules::GameRecord& record,
                               PositionWalk* walk);

// A decoded entry: per segment the rows of its three bitmaps (rows y >=
// `height` are unspecified). Trivially copyable, decoded in place
// (no allocation).
struct PatternEntry {
  int width = 0;
  int height = 0;
  int segments = 0;
  std::array<rules::BoardRows, kMaxPatternSegments> black;
  std::array<rules::BoardRows, kMaxPatternSegments> white;
  std::array<rules::BoardRows, kMaxPatternSegments> empty;
};

// Decodes `value` into *out; false when it is malformed or of another
// version. Only the rows in `row_mask` (bit y) are read; the others are
// left 0 (PatternRowsNeeded() says which a search reads).
bool DecodePatternEntry(absl::string_view value, PatternEntry* out,
                        uint32_t row_mask = ~uint32_t{0});

// The board rows any placement of `search` covers.
uint32_t PatternRowsNeeded(const rules::PatternSearch& search);

// The segment of position `ply` (moves played).
int PatternSegmentOf(int ply);

// The segments of `entry` (bit s) that admit some placement of `search`;
// 0 when none does. allowed[v] then holds the offsets of variant v
// admitted in some segment (a superset of those where it stands). Only
// positions of admitting segments can hold the pattern. `allowed` must
// have search.variants().size() elements. Never allocates.
uint32_t PatternCandidates(const PatternEntry& entry,
                           const rules::PatternSearch& search,
                           rules::BoardRows* allowed);

// Writes the pattern entry of every stored game (opening a database of
// format version 2, which has none), in batches; idempotent, so a crash
// part way is finished by the next open (Store::Open writes the new format
// version only after it). Returns the games written; unreadable games are
// logged and left out.
absl::StatusOr<uint64_t> BackfillPatternIndex(Store* store);

}  // namespace qipu::store

#endif  // QIPU_STORE_PATTERN_INDEX_H_
