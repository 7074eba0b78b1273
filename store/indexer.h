// The opening indexer: turns a validated game into position-index deltas
// for its first `depth` plies -- per position reached (canonical key with
// all symmetries folded and the side to move), one game reached with its
// outcome and, unless the game ended there, one continuation (the move in
// the canonical frame) with that outcome and the game as example. A position is counted once
// per game, at its first occurrence.
#ifndef QIPU_STORE_INDEXER_H_
#define QIPU_STORE_INDEXER_H_

#include <cstdint>
#include <vector>

#include "rules/record.h"
#include "rules/result.h"
#include "store/game_id.h"
#include "store/position_value.h"

namespace qipu::store {

struct IndexedPosition {
  uint8_t width = 0;
  uint8_t height = 0;
  // Canonical position key (rules::CanonicalKey::key).
  rules::Hash128 position;
  PositionValue delta;
};

// Index deltas of `record`'s first min(depth, plies) plies, where `plies`
// is the number of main-line moves the rules accepted (the caller has
// replayed the game; moves past `plies` are ignored). Precondition: the
// record's setup and first `plies` moves are legal (as Replay() checked).
std::vector<IndexedPosition> IndexGame(const rules::GameRecord& record,
                                       int plies, int depth,
                                       rules::Winner winner, const GameId& id);

}  // namespace qipu::store

#endif  // QIPU_STORE_INDEXER_H_
