// Aggregate statistics per (configuration, day) bucket: results, margins,
// lengths, ko captures (overall and by game length), cycle class x outcome
// counts with examples. AggregateFromGame() turns one game's facts into a
// delta; MergeAggregates() adds deltas (associative: used by the merge
// operator of the aggregates column family).
#ifndef QIPU_STORE_AGGREGATE_H_
#define QIPU_STORE_AGGREGATE_H_

#include <cstdint>
#include <string>
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

// Accumulates the aggregate delta of many games in plain counters (no
// protobuf work per game) and builds it once: Build() equals the
// MergeAggregates() of every added game's AggregateFromGame(), in the
// order added. The ingest committer keeps one per (configuration, day) of
// a batch. Not thread-safe; movable.
class AggregateBuilder {
 public:
  // Counts one game.
  void Add(const GameFacts& facts);
  // The delta of every game added so far.
  qipu::v1::AggregateStats Build() const;
  // Games added.
  uint64_t games() const { return outcomes_[0]; }

 private:
  // A cycle class x outcome cell, in first-seen order.
  struct Cell {
    rules::CycleClass cls;
    rules::CycleOutcome outcome;
    uint64_t cycles = 0;
    uint64_t games = 0;
    // games, black, white, draws, void.
    uint64_t results[5] = {0, 0, 0, 0, 0};
    std::vector<std::string> examples;
  };
  // Per ko-by-length bucket, in first-seen order.
  struct KoBucket {
    uint32_t bucket = 0;
    std::vector<uint64_t> histogram;
  };

  // games, black, white, draws, void.
  uint64_t outcomes_[5] = {0, 0, 0, 0, 0};
  uint64_t with_cycle_[5] = {0, 0, 0, 0, 0};
  std::vector<uint64_t> by_reason_;
  std::vector<uint64_t> black_margin_;
  std::vector<uint64_t> white_margin_;
  std::vector<uint64_t> length_;
  uint64_t total_moves_ = 0;
  std::vector<uint64_t> ko_histogram_;
  uint64_t ko_captures_ = 0;
  uint64_t games_with_ko_ = 0;
  std::vector<KoBucket> ko_by_length_;
  std::vector<Cell> cells_;
};

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
