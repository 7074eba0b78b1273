// Aggregate statistics per (configuration, day) bucket: results, margins,
// lengths, ko captures (overall and by game length), cycle class x outcome
// counts with examples. AggregateFromGame() turns one game's facts into a
// delta; MergeAggregates() adds deltas (associative: used by the merge
// operator of the aggregates column family).
#ifndef QIPU_STORE_AGGREGATE_H_
#define QIPU_STORE_AGGREGATE_H_

#include <vector>

#include "qipu/v1/store.pb.h"
#include "rules/game.h"
#include "rules/result.h"
#include "store/game_id.h"

namespace qipu::store {

// Bucket widths and caps of the histograms (a data format).
inline constexpr int kLengthBucketMoves = 10;
inline constexpr int kMaxLengthBuckets = 400;
inline constexpr int kKoLengthBucketMoves = 50;
inline constexpr int kMaxKoCaptures = 200;
inline constexpr int kMaxMarginPoints = 700;

// The facts of one stored game that aggregates count.
struct GameFacts {
  GameId id;
  rules::GameResult result;
  // Moves in the main line.
  int moves = 0;
  int ko_captures = 0;
  // Completed and prevented cycles, including those of voided attempts.
  std::vector<rules::CycleRecord> cycles;
};

// The aggregate delta of one game.
qipu::v1::AggregateStats AggregateFromGame(const GameFacts& facts);

// Adds b into *a (counters and histograms add; example lists keep a's then
// b's, up to kMaxExamples).
void MergeAggregates(qipu::v1::AggregateStats* a,
                     const qipu::v1::AggregateStats& b);

// Winner -> outcome counter, shared with the query side.
void AddOutcome(rules::Winner w, qipu::v1::OutcomeCounts* o);
void AddOutcomes(const qipu::v1::OutcomeCounts& from,
                 qipu::v1::OutcomeCounts* to);

}  // namespace qipu::store

#endif  // QIPU_STORE_AGGREGATE_H_
