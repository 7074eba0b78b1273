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
#ifndef QIPU_STORE_POSITION_VALUE_H_
#define QIPU_STORE_POSITION_VALUE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
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
