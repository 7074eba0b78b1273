// PositionValue: what the opening index stores for one (position,
// configuration, day) bucket -- the games that reached the position and,
// per continuation (one per distinct move in the position's canonical
// frame), its outcome counts and the first few example games. Values
// combine associatively (MergePositionValues) so that ingest writes blind
// merge operands.
//
// A continuation is identified by its move alone: the move is named in the
// canonical frame with the position's own symmetries folded
// (rules::SymmetricHasher::CanonicalMove), so two moves share a name
// exactly when they lead to the same position.
//
// Encoding, format version 2 (a data format, see keys.h kFormatVersion):
//   outcome(reached) | varint n | n x continuation, in increasing move order
//   continuation = varint move (y * width + x + 1, 0 = pass) | outcome |
//                  varint e (<= kMaxExamples) | e x game id
//   outcome      = varint games | varint black | varint white |
//                  varint draws   (void = games - black - white - draws)
//   game id      = byte kind (1 self-play, 2 imported) | varint hi |
//                  varint lo
// A position reached by one game, the common case deep in the index,
// takes about 17 bytes.
//
// EncodePositionValue() writes a whole value; the indexer's fast path
// writes the value of one game straight into its buffer with
// OneGameValueEncoder. Both are built from the inline field encoders below,
// and tests/store/position_value_test.cc checks they agree byte for byte.
#ifndef QIPU_STORE_POSITION_VALUE_H_
#define QIPU_STORE_POSITION_VALUE_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "base/varint.h"
#include "rules/result.h"
#include "rules/zobrist.h"
#include "store/game_id.h"

namespace qipu::store {

// Most example games kept per continuation.
inline constexpr int kMaxExamples = 3;

// Outcome counts of a set of games.
struct Outcome {
  uint64_t games = 0;
  uint64_t black = 0;
  uint64_t white = 0;
  uint64_t draws = 0;
  uint64_t voids = 0;

  // Counts one game won by `w` (kNone counts as void).
  void Add(rules::Winner w);
  void Add(const Outcome& o);
  friend bool operator==(const Outcome&, const Outcome&) = default;
};

struct Continuation {
  // The move in the parent's canonical frame (dense index + 1, 0 = pass);
  // identifies the continuation.
  uint16_t move = 0;
  Outcome outcome;
  // Oldest first, at most kMaxExamples.
  std::vector<GameId> examples;
  friend bool operator==(const Continuation&, const Continuation&) = default;
};

struct PositionValue {
  Outcome reached;
  // Sorted by move, no duplicates.
  std::vector<Continuation> continuations;
  friend bool operator==(const PositionValue&, const PositionValue&) = default;
};

// --- field encoders (the format's one writer) -----------------------------
// Emit*() pass a field's bytes to put(char) (EncodePositionValue() appends
// them to a string); Encode*() write them at out and return the end
// (precondition: room for the field's most bytes).

// Most bytes of an encoded Outcome and of an encoded GameId.
inline constexpr size_t kMaxOutcomeBytes = 4 * base::kMaxVarint64Bytes;
inline constexpr size_t kMaxGameIdBytes = 1 + 2 * base::kMaxVarint64Bytes;

// outcome = varint games | varint black | varint white | varint draws.
template <typename PutByte>
inline void EmitOutcome(const Outcome& o, PutByte put) {
  base::EmitVarint64(o.games, put);
  base::EmitVarint64(o.black, put);
  base::EmitVarint64(o.white, put);
  base::EmitVarint64(o.draws, put);
}
inline char* EncodeOutcome(char* out, const Outcome& o) {
  EmitOutcome(o, [&out](char c) { *out++ = c; });
  return out;
}

// game id = byte kind | varint hi | varint lo.
template <typename PutByte>
inline void EmitGameId(const GameId& id, PutByte put) {
  put(static_cast<char>(id.kind));
  base::EmitVarint64(id.hi, put);
  base::EmitVarint64(id.lo, put);
}
inline char* EncodeGameId(char* out, const GameId& id) {
  EmitGameId(id, [&out](char c) { *out++ = c; });
  return out;
}

// The encoded value one game adds to one position -- IndexGame()'s delta
// (store/indexer.h): reached once with the game's outcome and, unless the
// game ended there, one continuation with that outcome and the game as its
// example -- written into a caller's buffer without building a
// PositionValue. Byte for byte EncodePositionValue() of that delta. Built
// once per game; value type, thread-compatible.
class OneGameValueEncoder {
 public:
  // Most bytes EncodeTo() writes: outcome, count, move (< 2^16: at most 3
  // bytes), outcome, example count, example.
  static constexpr size_t kMaxBytes = 4 + 1 + 3 + 4 + 1 + kMaxGameIdBytes;

  OneGameValueEncoder(rules::Winner winner, const GameId& id) {
    Outcome o;
    o.Add(winner);
    // One game's counts are 0 or 1: one byte each.
    EncodeOutcome(outcome_, o);
    example_size_ = static_cast<size_t>(EncodeGameId(example_, id) - example_);
  }

  // Writes the value of a position the game left by `move` (as
  // Continuation::move) when `has_next`, else of the game's last position;
  // returns the end. Precondition: kMaxBytes of room at out.
  char* EncodeTo(char* out, bool has_next, uint16_t move) const {
    std::memcpy(out, outcome_, kOutcomeBytes);
    out += kOutcomeBytes;
    if (!has_next) {
      *out++ = 0;  // no continuation
      return out;
    }
    *out++ = 1;  // one continuation
    out = base::EncodeVarint64(out, move);
    std::memcpy(out, outcome_, kOutcomeBytes);
    out += kOutcomeBytes;
    *out++ = 1;  // one example
    std::memcpy(out, example_, example_size_);
    return out + example_size_;
  }

 private:
  static constexpr size_t kOutcomeBytes = 4;
  // EncodeOutcome() of the game's outcome.
  char outcome_[kMaxOutcomeBytes];
  // EncodeGameId() of the game, example_size_ bytes.
  char example_[kMaxGameIdBytes];
  size_t example_size_ = 0;
};

// Serialises `v` (continuations must be sorted by move).
std::string EncodePositionValue(const PositionValue& v);
// Parses; DataLoss naming the problem on malformed input.
absl::StatusOr<PositionValue> DecodePositionValue(absl::string_view data);

// Adds `b` into `a`: reached counts add, continuations merge by move
// (counts add; examples of `a` first, then `b`'s, up to kMaxExamples).
// Associative; commutative except for example order.
void MergePositionValues(PositionValue* a, const PositionValue& b);

}  // namespace qipu::store

#endif  // QIPU_STORE_POSITION_VALUE_H_
