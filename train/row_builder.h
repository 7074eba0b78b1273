// RowBuilder: training rows from one stored game. The game is replayed
// under its own rules with the rules core (rules/replay.h); a row is made
// for each sampled position, from the point of view of the side to move
// there (the colour of the move the record plays next, as the position
// index files it), with the input planes, global inputs and targets that
// train/row_layout.h numbers and train/README.md describes channel by
// channel. A random one of the board's 8 symmetries (with
// `symmetries == 8`) is applied to every plane and target of a row.
//
// Deterministic: which positions a game gives and each row's symmetry
// depend only on the options' seed, the game's id and the position's turn
// -- not on the order games come in -- so the export and a gRPC stream
// make byte-identical rows for the same seed.
//
// Not thread-safe (it reuses one rules::Game); use one builder per thread.
#ifndef QIPU_TRAIN_ROW_BUILDER_H_
#define QIPU_TRAIN_ROW_BUILDER_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "proto/search_visits.h"
#include "rules/game.h"
#include "rules/record.h"
#include "rules/result.h"
#include "rules/rules.h"
#include "store/game_id.h"
#include "train/area_map.h"
#include "train/ladder.h"
#include "train/row_batch.h"

namespace qipu::train {

// How rows are made.
struct RowOptions {
  // Side of the square rows are padded to; each game's board must fit.
  int pos_len = kDefaultPosLen;
  // 1: rows as the board stands; 8: a random symmetry per row (4 of the 8
  // keep a rectangular board's orientation, the other 4 transpose it).
  int symmetries = 1;
  // Seed of the position sampling and the symmetries.
  uint64_t seed = 0;
  // Positions sampled per game (distinct turns, in turn order); 0 for all.
  int positions_per_game = 0;
  // Turns before this one (moves played before the position) are skipped.
  int min_move = 0;
  // Each row's weight (KataGo's globalTargetsNC 25): `row_weight`, or with
  // weight_by_length row_weight * 100 / the number of rows of its game, so
  // that every game weighs alike whatever its length; or with
  // weight_by_recency row_weight * RecencyWeight(rank, size) of the game's
  // place in the selection's own order (TrainingGame::order_rank; 1 for a
  // game handed out without one). At most one of the two.
  bool weight_by_length = false;
  bool weight_by_recency = false;
  float row_weight = 1.0f;
  // Fill KataGo's ladder planes 14-17 (train/ladder.h); they stay 0
  // otherwise. Reading ladders makes rows several times slower.
  bool ladder_planes = false;
};

// OK, or InvalidArgument naming the option and the accepted range.
absl::Status ValidateRowOptions(const RowOptions& options);

// One game to make rows from.
struct TrainingGame {
  // The record: size, setup, handicap and main-line moves.
  rules::GameRecord record;
  // The rules it was played (or replayed) under.
  rules::Rules rules;
  // The stored result: self-play's counted result, an import's RE.
  rules::GameResult result;
  store::GameId id;
  // Root visit counts of the searches that chose moves (policies that
  // search, e.g. mcts), by increasing move index; empty for other games.
  // A searched move's policy target is its visits instead of one-hot.
  std::vector<wire::MoveSearch> searches;
  // The game's place in the selection's GameOrder (0 = oldest) and the
  // order's size, when GameSource hands games out in one; 0, 0 otherwise.
  uint64_t order_rank = 0;
  uint64_t order_size = 0;
};

// What one game gave.
struct GameRowsInfo {
  // Rows appended.
  int rows = 0;
  // Moves the replay played (positions with a move target).
  int positions = 0;
  // True when the final ownership and score targets are filled: the game
  // ended by counting and the final position's count gives the stored
  // result (always for self-play; for imports only when the record was
  // played out until the dead stones were captured).
  bool ownership = false;
  // True when the rows are void (no result: winner none).
  bool void_result = false;
};

class RowBuilder {
 public:
  // Precondition: ValidateRowOptions(options).ok().
  explicit RowBuilder(const RowOptions& options);

  const RowOptions& options() const { return options_; }

  // Replays `game` and appends its sampled rows to *batch. InvalidArgument
  // when the board does not fit in pos_len or the record cannot be set up
  // under its rules; nothing is appended then. A record with an illegal
  // move gives the rows of the positions before it.
  // Precondition: batch->pos_len() == options().pos_len.
  absl::StatusOr<GameRowsInfo> AddGame(const TrainingGame& game,
                                       RowBatch* batch);

  // The symmetry of the row at `turn` of game `id` (0 with symmetries 1).
  int SymmetryOf(const store::GameId& id, int turn) const;

 private:
  // What every row of one game shares.
  struct GameFacts;

  // The turns sampled among [min_move, positions), ascending, into turns_.
  void SampleTurns(const store::GameId& id, int positions);
  // Resets game_ for `record` under `rules`.
  void ResetGame(const rules::GameRecord& record, const rules::Rules& rules);
  // Where one row goes, its symmetry and point of view (row_builder.cc;
  // the steps that loop over the board take it by value, it says why).
  struct RowContext;

  // Appends the row of the position game_ holds, whose next move is
  // moves[turn], in the steps below (each writes its own arrays or
  // entries of the row; train/README.md says what each channel holds).
  void AddRow(const GameFacts& facts, int turn, int history_start,
              RowBatch* batch);
  // Input planes of the position: on-board, stones, liberties (exactly 1, 2,
  // 3), ko bans of the side to move, and each side's area (uses area_).
  void AddBoardPlanes(RowContext row);
  // The last five moves since history_start, as long as they alternate
  // back from the opponent's: planes, or pass flags in the global inputs.
  // Returns how many it shows (0..5).
  int AddLastMoves(RowContext row, int history_start);
  // KataGo's ladder planes 14-17 of the position, of the one before the
  // last move (history_shown >= 1, else the position's again) and of the
  // one before the last two (history_shown >= 2, else as plane 15).
  void AddLadderPlanes(RowContext row, int history_shown);
  // Global inputs (komi, ko and suicide rules, a pass would end the game)
  // and qipu's own (handicap, moves played, cycle and dame rules).
  void AddGlobalInputs(const RowContext& row, int history_start) const;
  // Policy targets: the move played (or its search's root visits), and
  // the next move (uniform when there is none). True when there is one.
  bool AddPolicyTargets(const RowContext& row) const;
  // Global targets: value (win, loss, draw or no result), `score` (the
  // margin from the side to move), TD targets (the outcome, weight 0),
  // weights, history masks (1 for the `history_shown` moves shown), game
  // hash, metadata.
  void AddGlobalTargets(const RowContext& row, bool has_next, int history_shown,
                        double score) const;
  // With facts.ownership: final ownership and area scoring from
  // final_area_, and the score distribution around `score`; otherwise
  // KataGo's placeholder distribution.
  void AddFinalTargets(RowContext row, double score) const;
  // The row's id: game id, turn and symmetry.
  static void AddRowIds(const RowContext& row);

  RowOptions options_;
  rules::Game game_;
  // Final ownership of the game being built.
  AreaMap final_area_{};
  // Scratch: the current position's area and liberties.
  AreaMap area_{};
  // The positions before the last move and before the last two (pass 2
  // of AddGame() keeps them), and the current one (scratch).
  Cells before1_{};
  Cells before2_{};
  Cells now_{};
  LadderReader ladders_;
  Ladders found_;
  std::vector<int> turns_;
};

// SplitMix64's finaliser: a well-mixed 64-bit value of x. Part of the
// row format: the sampling, symmetries and mixing derive from it.
uint64_t Mix(uint64_t x);

// The seed of everything random about game `id` under `seed`; `salt`
// separates the uses (sampling, symmetries, a chunk's order).
uint64_t GameSeed(uint64_t seed, const store::GameId& id, uint64_t salt);

// KataGo's komi parity wave (global input 18 under area scoring) for the
// komi from the side to move's view on a board of `board_area` points: a
// triangle wave in [-0.5, 0.5] of period 2 (on 19x19 komi 7.5 gives
// +0.5 to White, -0.5 to Black).
float KomiParityWave(float self_komi, int board_area);

// Liberties of the chain of every stone of `board` (0 elsewhere), capped
// at 4 (the planes tell 1, 2, exactly 3 and more). (OUT) *libs.
void ComputeLibertiesCapped(const rules::Board& board,
                            std::array<uint8_t, rules::kNumCells>* libs);

}  // namespace qipu::train

#endif  // QIPU_TRAIN_ROW_BUILDER_H_
