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

// A recorded move its rules forbid, played as recorded (ReplayRecord()).
struct RuleBreach {
  // 1-based move number, and the move.
  int move = 0;
  Move played;
  // The rule it breaks: kKo (an immediate basic-ko retake), kSuperko,
  // kCycle (the art. 20 cycle rule), kSuicide, or kGameOver (the rules had
  // ended the game: how and where in ended_by, ended_at).
  IllegalReason rule = IllegalReason::kNone;
  EndReason ended_by = EndReason::kNotOver;
  int ended_at = 0;
  // kSuperko, kCycle: the cycle the move completed (outcome
  // kContinuedInRecord). kGameOver after a cycle: that cycle.
  CycleRecord cycle;

  friend bool operator==(const RuleBreach&, const RuleBreach&) = default;
};

// Where a record stops being playable (ReplayRecord()).
struct RecordCut {
  // 1-based number of the first move not played; 0 when none was left out.
  int move = 0;
  // The move (point kNoPoint when the reader could not read it).
  Move played;
  // kOccupied, or kOffBoard (also for a value that is no point at all).
  IllegalReason reason = IllegalReason::kNone;
  // The SGF value as written when the reader could not read it
  // (GameRecord::unread), else empty.
  std::string value;

  friend bool operator==(const RecordCut&, const RecordCut&) = default;
};

// "move 57 (B D4) retakes a ko at once, which the ko rule of chinese rules
// forbids", "move 12 (W A1) is a suicide, which ... forbids", "move 250
// (B D4) is played after the rules ended the game at move 249 (two
// passes)": the note a stored record keeps for a breach (names the move,
// number and vertex, and the rule). `rules` are the record's, named by
// their preset whatever their komi (or "custom").
std::string RuleBreachText(const RuleBreach& b, const Rules& rules, int height);
// "cut at move 242 (B Q16): the point is occupied" / "...: B[zz] at line 3,
// column 7: SGF point 'zz' is off the 19x19 board".
std::string RecordCutText(const RecordCut& c, int height,
                          const std::string& reader_reason = "");

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
  // ReplayRecord() only: the moves played although the rules forbid them,
  // in move order (`legal` is false when there is one, and illegal_move
  // is the first of them or the cut), and where the record was cut.
  std::vector<RuleBreach> breaches;
  RecordCut cut;
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

// Replays a historical record as it was played: what a game of record
// keeps although its rules forbid it. Each move goes through
// Game::PlayRecorded(): a move that breaks only the repetition rules (a ko
// retake, superko, the cycle rule) or the suicide rule, or one played
// after the rules ended the game, is played and listed in
// report.breaches; a cycle it completes is recorded as
// kContinuedInRecord. The replay stops at the first move the board cannot
// take (an occupied point) or the reader could not read
// (record.unread: off the board, not a point): report.cut, and `played`
// counts the moves before it. `moves`, cycles, ko captures, area and the
// rules' end are those of the moves played. InvalidArgument as Replay()
// for a record that cannot be set up. *game as for ReplayInto().
absl::StatusOr<ReplayReport> ReplayRecordInto(const GameRecord& record,
                                              const Rules& rules, Game* game);
// ReplayRecordInto() in a Game of its own.
absl::StatusOr<ReplayReport> ReplayRecord(const GameRecord& record,
                                          const Rules& rules);

}  // namespace qipu::rules

#endif  // QIPU_RULES_REPLAY_H_
