// Game: a board plus its history under a full rule set: superko, the
// Chinese art. 20 cycle rule, cycle classification, ko-capture counting,
// passes, resignation, the move cap and the result.
//
// History holds one entry per position (ply 0 = after setup). Repetition
// lookups are cheap: a position can only repeat one with the same number of
// stones and only across a capture, and a 16384-bit filter of board hashes
// screens out almost every candidate before the history is scanned.
//
// Game owns its history buffers, reserved at construction for the move
// cap: Reset(), Check() and Play() never allocate (records of prevented
// cycles may, at most once per distinct cycle; completed ones fit in the
// reserved room). Not thread-safe; copyable.
#ifndef QIPU_RULES_GAME_H_
#define QIPU_RULES_GAME_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "rules/board.h"
#include "rules/result.h"
#include "rules/rules.h"
#include "rules/scoring.h"

namespace qipu::rules {

class Rng;  // rules/playout.h

// Classes of whole-board cycles (spec section 3).
enum class CycleClass : uint8_t {
  kTripleKo = 0,
  kQuadrupleKo,
  kEternalLife,
  kSendingTwoReturningOne,
  kOther,
};
// "triple_ko", "quadruple_ko", "eternal_life", "sending_two_returning_one",
// "other".
const char* CycleClassName(CycleClass c);

// What became of a cycle.
enum class CycleOutcome : uint8_t {
  kNoResult = 0,
  kDraw,
  kReplay,
  // The completing move was illegal under positional/situational superko.
  kPreventedSuperko,
  // The completing move was illegal under the art. 20 unbalanced-cycle rule.
  kPreventedCycleRule,
  // Completed under pure simple ko (KoRule::kSimple, CycleRule::kNone): the
  // repetition is legal and the game went on.
  kContinued,
  // A historical record went on through a cycle its rules forbid (the
  // completing move broke superko or the cycle rule) or that would have
  // ended the game (a balanced cycle under the cycle rule): the game was
  // replayed as recorded (Game::PlayRecorded()).
  kContinuedInRecord,
};
// "no-result", "draw", "replay", "prevented-superko", "prevented-cycle-rule",
// "continued", "continued-in-record".
const char* CycleOutcomeName(CycleOutcome o);

// Most kContinued cycles one game records (later ones are played but not
// recorded), so that a game's storage stays bounded. A repetition that
// goes on (every move recreating an earlier position, as when a loop is
// played round and round up to the move cap) is one cycle, recorded at
// its first completing move; see Game::cycles().
inline constexpr int kMaxContinuedCycles = 8;

// One completed or prevented cycle.
struct CycleRecord {
  CycleClass cls = CycleClass::kOther;
  CycleOutcome outcome = CycleOutcome::kNoResult;
  // 1-based number of the first move inside the cycle.
  int first_move = 0;
  // Moves in the cycle, the completing (or rejected) move included.
  int period = 0;
  // Stones captured inside the cycle by each side.
  int black_captures = 0;
  int white_captures = 0;
  // The completing (or rejected) move.
  Point point = kNoPoint;

  friend bool operator==(const CycleRecord&, const CycleRecord&) = default;
};

// Why a move is illegal.
enum class IllegalReason : uint8_t {
  kNone = 0,
  kOccupied,
  kSuicide,
  kKo,
  kSuperko,
  kCycle,
  // The point is not on the board.
  kOffBoard,
  // The game is already over.
  kGameOver,
};
// "none", "occupied", "suicide", "ko", "superko", "cycle", "off-board",
// "game-over".
const char* IllegalReasonName(IllegalReason r);

// The verdict on a candidate move.
struct MoveVerdict {
  IllegalReason reason = IllegalReason::kNone;
  // A legal move that recreates an earlier position: through a balanced
  // cycle under the cycle rule, playing it ends the game with the rule's
  // outcome; under pure simple ko (cycle.outcome kContinued) the game goes
  // on, and Play() records the cycle unless it carries on a repetition
  // already recorded.
  bool completes_cycle = false;
  // The cycle, when completes_cycle or reason is kSuperko or kCycle.
  CycleRecord cycle;

  bool legal() const { return reason == IllegalReason::kNone; }
};

class Game {
 public:
  // A new game on an empty width x height board. Preconditions: valid size
  // (ValidateSize) and komi (ValidateKomi).
  Game(int width, int height, const Rules& rules);

  // Back to the empty board, Black to play; keeps rules and buffers.
  void Reset();
  // Reset() under new rules, keeping the board size and reusing the
  // buffers (they grow if the new move cap needs more). Precondition: valid
  // komi (ValidateKomi).
  void Reset(const Rules& rules);

  // Places GTP fixed handicap stones; White then moves first. Only before
  // the first move. InvalidArgument when the board cannot take them.
  absl::Status PlaceHandicap(int stones);
  // Free placement of handicap stones (SGF AB with HA): like ApplySetup but
  // also records the handicap count and gives White the move.
  absl::Status PlaceFreeHandicap(absl::Span<const Point> points);

  // Setup (SGF AB/AW/AE): adds and removes stones, then sets the side to
  // move (kEmpty keeps it). Repetition history restarts here. Fails with
  // InvalidArgument, changing nothing, when a point is off the board or a
  // chain would be left without liberties.
  absl::Status ApplySetup(absl::Span<const Point> black,
                          absl::Span<const Point> white,
                          absl::Span<const Point> empty, Color to_play);

  const Rules& rules() const { return rules_; }
  const Board& board() const { return board_; }
  int width() const { return board_.width(); }
  int height() const { return board_.height(); }
  Color to_play() const { return to_play_; }
  // Handicap stones placed (0 for none).
  int handicap() const { return handicap_; }
  // Moves played since the start (passes included, setup excluded).
  int num_moves() const { return num_moves_; }
  // The moves played, in order.
  const std::vector<Move>& moves() const { return moves_; }
  // The move cap in effect.
  int move_cap() const { return move_cap_; }

  bool over() const { return result_.reason != EndReason::kNotOver; }
  // The result; reason kNotOver while the game goes on.
  const GameResult& result() const { return result_; }
  // The 1-based move at which the rules ended the game, or 0.
  int ended_at() const { return ended_at_; }

  // Cycles completed or prevented so far (prevented ones as reported by
  // Check() callers through RecordPrevented(), and by TryPlay()). Under
  // pure simple ko a repetition is recorded once, at the move that first
  // recreates an earlier position (outcome kContinued); the moves right
  // after it that recreate earlier positions too -- the loop played again,
  // or any other return while no move makes a new position; a pass carries
  // the repetition on -- belong to the same cycle. The first move that
  // makes a new position ends it; a later return is a new cycle. At most
  // kMaxContinuedCycles of them are recorded.
  const std::vector<CycleRecord>& cycles() const { return cycles_; }
  // Basic-ko captures so far.
  int ko_captures() const { return ko_captures_; }
  // Stones captured so far by colour c.
  int captures(Color c) const { return captures_[PlayerIndex(c)]; }

  // Verdict on colour c playing p (a board point or kPass). Never changes
  // the game. Passes are always legal while the game goes on.
  MoveVerdict Check(Color c, Point p) const;
  MoveVerdict Check(Point p) const { return Check(to_play_, p); }
  // Check() of a move the board already allows, without repeating the
  // board's test (the playout policy has just made it): the repetition
  // rules only. Preconditions: !over(); p is a board point where
  // board().Check(p, c, rules().multi_stone_suicide) is kLegal, or is kKo
  // with c not to play.
  MoveVerdict CheckBoardLegal(Color c, Point p) const;

  // Plays a move whose verdict is legal (from Check() with the same c, p,
  // and no change in between). Ends the game on two passes (then counts),
  // on a completed cycle under the cycle rule, or at the move cap; records
  // a completed cycle (see cycles()).
  void Play(Color c, Point p, const MoveVerdict& verdict);

  // Check() then, when legal, Play(). When the move is illegal through a
  // cycle, records the prevented cycle. Returns the verdict.
  MoveVerdict TryPlay(Color c, Point p);
  MoveVerdict TryPlay(Point p) { return TryPlay(to_play_, p); }

  // What PlayRecorded() did with a recorded move.
  struct RecordedMove {
    // The rules' verdict on the move, taken before it was played (after
    // reopening an ended game): legal, or why the rules forbid it.
    MoveVerdict verdict;
    // False only for a move the board cannot take (kOccupied, kOffBoard).
    bool played = false;
    // When the rules had ended the game before this move: how (kScore for
    // two passes, kCycle, kMoveLimit) and at which 1-based move; else
    // kNotOver and 0.
    EndReason ended_by = EndReason::kNotOver;
    int ended_at = 0;
  };

  // Plays c at p as a historical record played it, whatever the rules
  // forbid of it. A move the rules allow is played as by TryPlay(). A
  // basic-ko retake, a suicide (of one stone or of several: the own chain
  // is removed), or a move repeating a position that superko or the cycle
  // rule forbids is played on the board anyway; a cycle it completes is
  // recorded with outcome kContinuedInRecord (bounded as kContinued cycles
  // are), and the game goes on. A move after the rules ended the game (two
  // passes, a cycle, the move cap) first reopens it: the result is
  // cleared, a cycle that ended it becomes kContinuedInRecord, and the
  // move cap no longer applies. Only a move the board cannot take -- an
  // occupied point, a point off the board -- is not played (nothing
  // changes but the reopening). Any colour, any point.
  RecordedMove PlayRecorded(Color c, Point p);

  // TryPlay() of each of `moves` in order (colours as given), stopping at
  // the first illegal one or when the game is over. Returns the number of
  // moves played; *rejected is the illegal move's verdict (its prevented
  // cycle recorded, as TryPlay() does), or a legal verdict when every move
  // was played or the game ended first. The same game as calling TryPlay()
  // in a loop, faster: a board move of the side to move that the board
  // allows and that cannot repeat a position (the common case) is checked
  // and played in one step; anything else takes TryPlay().
  int TryPlayMoves(absl::Span<const Move> moves, MoveVerdict* rejected);

  // The light policy's move under the game's rules, played: FullMove()
  // then Play() (rules/playout.h), the candidates scanned from index
  // `start` of the board's empty points (0 <= start < num_empty(), or 0 on
  // a full board). A candidate that captures nothing and cannot repeat a
  // position is found and played in one pass by the board. Returns the
  // point played or kPass. Precondition: !over().
  Point PlayLightFrom(int start);

  // FullPlayout() (rules/playout.h): PlayLightFrom() with start indices
  // drawn from `rng` until the game is over; returns the moves played.
  // Here so that a whole playout runs in one function of this file.
  // Precondition: !over() or nothing to play.
  int PlayLightGame(Rng& rng);

  // Records a cycle whose completing move a policy tried and Check()
  // rejected (reason kSuperko or kCycle).
  void RecordPrevented(const CycleRecord& cycle) { cycles_.push_back(cycle); }

  // Ends the game: c resigns (or loses on time / by forfeit).
  void Resign(Color c, EndReason reason = EndReason::kResign);

  // Resumes a game two passes ended (art. 21.1 and 21.4: play goes on when
  // the players do not agree on the end or on dead stones), with c to
  // move -- the side that just passed may move again. The moves, history
  // and repetition rules go on as before; the result is cleared. No-op
  // unless result().reason is kScore. Never allocates.
  void Resume(Color c);

  // Area count of the current position under the game's dame rule.
  AreaCount Area() const { return CountArea(board_, rules_.dame); }
  // The counted result of the current position (what two passes give).
  GameResult ScoreNow() const { return ScoreResult(Area(), rules_, handicap_); }

 private:
  // One position of the history.
  struct Position {
    Hash128 hash;
    // Player to move in this position.
    Color to_play = Color::kBlack;
    int16_t stones = 0;
    // Captures by Black / White from the start up to this position.
    int32_t black_caps = 0;
    int32_t white_caps = 0;
    // True when the move that led here captured stones (and how many).
    int16_t captured = 0;
    // True when that move was a single-stone (basic-ko shape) capture.
    bool ko_capture = false;
  };

  void PushPosition(int captured, bool ko_capture);
  // The most recent history index (>= base_) whose board equals `hash`
  // with `stones` stones (and, if situational, `to_play` to move) among
  // positions before `before`, or -1.
  int FindRepeat(const Hash128& hash, int stones, Color to_play,
                 bool situational, int before) const;
  // Classifies the cycle from history index i to the candidate move.
  CycleRecord Classify(int i, Color c, Point p, int captured,
                       bool ko_capture) const;
  void FilterInsert(const Hash128& h) {
    filter_[(h.lo >> 6) & (kFilterWords - 1)] |= uint64_t{1} << (h.lo & 63);
  }
  bool FilterMayContain(const Hash128& h) const {
    return (filter_[(h.lo >> 6) & (kFilterWords - 1)] >> (h.lo & 63)) & 1;
  }
  // Play() for a board move once board_ has played it, up to the end of
  // game tests: the move, history, captures and the repetition state.
  void RecordBoardMove(Color c, Point p);
  // PlayLightFrom() once the board's scan, from index `start`, has found
  // the candidate at index `found` (or -1) without playing it: the checks
  // of FullMove() and Play(), the scan resumed after a rejected candidate.
  Point PlayLightChecked(int start, int found);
  // PlayLightFrom(), for inlining into PlayLightGame().
  Point PlayLightMove(int start);
  void End(Winner w, EndReason reason, double margin);
  // PlayRecorded() of a board point the rules forbid but the board can
  // take: plays it, records `cycle` when its outcome is set (not
  // kNoResult), applies the move cap.
  void PlayOverRules(Color c, Point p, const CycleRecord* cycle);

  Rules rules_;
  Board board_;
  Color to_play_ = Color::kBlack;
  int handicap_ = 0;
  int num_moves_ = 0;
  int move_cap_ = 0;
  // Consecutive passes just played.
  int passes_ = 0;
  int ended_at_ = 0;
  GameResult result_;
  std::array<int, 2> captures_{};
  int ko_captures_ = 0;
  // History index where the repetition history starts (after a setup).
  int base_ = 0;
  // History index of the last position reached by a capture (a repeat
  // needs a capture in between), or -1.
  int last_capture_ = -1;
  // Most stones in any position before last_capture_: a move that captures
  // nothing and exceeds it cannot repeat anything.
  int max_stones_before_capture_ = -1;
  // Most stones in any position since base_.
  int max_stones_ = 0;
  // Under pure simple ko: the 1-based number of the last move that
  // recreated an earlier position (or of a pass right after one: a pass
  // carries a repetition on), or -1. A kContinued cycle is recorded only
  // when the previous move is not this one.
  int last_repeat_ = -1;
  // The empty board of this size, for a fast Reset().
  Board empty_board_;
  std::vector<Position> history_;
  std::vector<Move> moves_;
  std::vector<CycleRecord> cycles_;
  // Words of filter_: with 16384 bits a false positive (each costs a scan
  // of the history) stays near 3% through a typical 19x19 game and under
  // 7% at its move cap; clearing it costs 2 KB of stores per Reset().
  static constexpr int kFilterWords = 256;
  // Bloom-style filter of board hashes in history_[base_..].
  std::array<uint64_t, kFilterWords> filter_{};
};

}  // namespace qipu::rules

#endif  // QIPU_RULES_GAME_H_
