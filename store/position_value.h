// PositionValue: what the opening index stores for one (position,
// configuration, day) bucket -- the games that reached the position and,
// per continuation (one per distinct resulting position), its outcome
// counts and the first few example games. Values combine associatively
// (MergePositionValues) so that ingest writes blind merge operands.
//
// Encoding (a data format, see keys.h kFormatVersion): varint outcome
// counts of `reached` (games, black, white, draws, void), varint number of
// continuations, then per continuation in increasing child-key order: the
// 16-byte child key (big-endian hi, lo), varint move (canonical frame:
// y * width + x + 1, 0 = pass), five varint counts, a byte with the number
// of examples, and 17 bytes per example (store/keys.h GameKey).
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
  // Canonical key of the resulting position.
  rules::Hash128 child;
  // The move in the parent's canonical frame (dense index + 1, 0 = pass).
  uint16_t move = 0;
  Outcome outcome;
  // Oldest first, at most kMaxExamples.
  std::vector<GameId> examples;
  friend bool operator==(const Continuation&, const Continuation&) = default;
};

struct PositionValue {
  Outcome reached;
  // Sorted by child, no duplicates.
  std::vector<Continuation> continuations;
  friend bool operator==(const PositionValue&, const PositionValue&) = default;
};

// Serialises `v` (continuations must be sorted by child).
std::string EncodePositionValue(const PositionValue& v);
// Parses; InvalidArgument (DataLoss for truncation) on malformed input.
absl::StatusOr<PositionValue> DecodePositionValue(absl::string_view data);

// Adds `b` into `a`: reached counts add, continuations merge by child key
// (counts add; examples of `a` first, then `b`'s, up to kMaxExamples).
// Associative; commutative except for example order.
void MergePositionValues(PositionValue* a, const PositionValue& b);

}  // namespace qipu::store

#endif  // QIPU_STORE_POSITION_VALUE_H_
