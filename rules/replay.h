// Replay: checks a game record move by move under a rule set and reports
// what the rules make of it -- legality, where the rules end the game,
// cycles, ko captures, the area count of the final position and its
// result. The coordinator validates every submitted game with it; `qipu
// replay` prints it.
#ifndef QIPU_RULES_REPLAY_H_
#define QIPU_RULES_REPLAY_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "rules/game.h"
#include "rules/record.h"
#include "rules/rules.h"
#include "rules/scoring.h"

namespace qipu::rules {

// What a replay found.
struct ReplayReport {
  // Number of moves in the record's main line.
  int moves = 0;
  // Moves actually played (replay stops at the first illegal move and at
  // the end the rules impose).
  int played = 0;
  // False when some move is illegal; then illegal_move is its 1-based
  // number and illegal_reason why.
  bool legal = true;
  int illegal_move = 0;
  IllegalReason illegal_reason = IllegalReason::kNone;
  // 1-based move at which the rules ended the game (two passes, a balanced
  // cycle, the move cap), or 0 when the record ends first.
  int ended_at = 0;
  // Completed cycles, verified prevented ones, and the prevented cycle of
  // an illegal move.
  std::vector<CycleRecord> cycles;
  int ko_captures = 0;
  // Handicap stones (from HA with root AB).
  int handicap = 0;
  // Area count and counted result of the final position.
  AreaCount area;
  GameResult area_result;
  // The result the rules gave, when they ended the game (ended_at > 0):
  // a score after two passes, a cycle outcome, a move-limit void.
  GameResult rules_result;
};

// Replays `record` under `rules`. `claimed_prevented` (self-play games
// from workers) lists cycles the policy says it avoided: each must be
// reproduced exactly at its ply (first_move + period - 1) by the point it
// names, or the replay fails with InvalidArgument. Returns InvalidArgument
// for a record that cannot be set up (bad size, setup leaving a chain
// without liberties, points off the board). Illegal moves are not errors:
// they are in the report.
absl::StatusOr<ReplayReport> Replay(
    const GameRecord& record, const Rules& rules,
    absl::Span<const CycleRecord> claimed_prevented = {});

// Like Replay(), leaving the final Game in *game for callers that need the
// position or move list (e.g. the position indexer). *game is reset, or
// replaced when its size or rules differ.
absl::StatusOr<ReplayReport> ReplayInto(
    const GameRecord& record, const Rules& rules,
    absl::Span<const CycleRecord> claimed_prevented, Game* game);

}  // namespace qipu::rules

#endif  // QIPU_RULES_REPLAY_H_
