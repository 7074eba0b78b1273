// Match: ONE game between two players under one rule set, one clock and
// one adjudication, with one result -- the referee every caller shares:
// self-play with policies in the worker, the arena's referee, `qipu bench
// strength`, and `qipu play`. The match is driven turn by turn: the
// driver (match/play_match.h, or play/'s board) asks the player to move
// for its move with Request() and hands the answer and the time it took
// to Apply(); at two passes, when dead stones are settled, it asks both
// players which stones are dead and hands that to Settle().
//
// Apply() -- the competition rules (spec section 6; arts. 12, 18-22, 24 of
// the Chinese rules in ../shared/seeds/):
//   1. the time is charged to the mover's clock (gtp/clock.h) first: a
//      player that runs out loses on time whatever it answered (art.
//      22.5), or under the art. 22.5 pass its move is a pass (void, with a
//      comment) and play goes on;
//   2. an error (an engine that crashed, hung, answered garbage) is the
//      player's failure: it loses (FailureRule::kLoses, "W+F"), or the
//      game has no result (kNoResult: self-play and benchmarks);
//   3. a resignation ends the game;
//   4. an illegal move is ruled on by the illegal-move policy
//      (match/adjudication.h): forfeit, or void as a pass with a warning
//      for a ko retake, a second warning losing;
//   5. a legal move is played (rules::Game).
// The rules end a game by two passes, a balanced cycle or the move cap.
//
// Two passes (art. 21): under DeadStoneRule::kAsPlayed the board is
// counted as it stands (games between qipu's own policies: their searches
// capture dead stones before they pass). Under kSettle the match waits in
// Phase::kSettling for the dead stones each side calls (Settle()): a side
// without a view takes the other's (neither: qipu's judgement,
// policy/stone_judge.h); when both name the same chains they come off and
// the board is counted (Counting::kAgreed); when they differ, art. 21.4:
// "如有爭議，重新開始對局，由認為是死的一方先下，以實戰解決" -- play resumes
// with the side that calls the disputed stones dead moving first
// (rules::Game::Resume()), and at the next two passes the players are
// asked again; after `max_playouts` such play-outs the stones both still
// call dead come off and the disputed ones stay: actual play settled them
// (Counting::kPlayedOut). Warnings cost a stone each at the count (art.
// 24.1). The result says how it was counted (GameResult::counting); the
// outcome keeps the stones taken off and every dispute.
//
// Not thread-safe; copyable (a plain value with the game inside).
#ifndef QIPU_MATCH_MATCH_H_
#define QIPU_MATCH_MATCH_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "gtp/clock.h"
#include "match/adjudication.h"
#include "match/player.h"
#include "policy/policy.h"
#include "rules/game.h"
#include "rules/result.h"
#include "rules/rules.h"

namespace qipu::match {

// How a match ended.
enum class End : uint8_t {
  // Two passes, then the count (dead stones settled, warnings deducted).
  kCount = 0,
  kResign,
  // A player ran out of time (art. 22).
  kTime,
  // An illegal move under the forfeit policy.
  kIllegalMove,
  // A second warning under the chinese policy (art. 24.2).
  kSecondWarning,
  // A player failed: could not start, crashed, stopped answering before
  // it ran out of time, answered garbage, refused the game.
  kEngineFailure,
  // The rules ended it otherwise: a balanced cycle (art. 20) or the move
  // cap; the result is the rules'.
  kRules,
};
// "count", "resign", "time", "illegal-move", "second-warning",
// "engine-failure", "rules".
const char* EndName(End e);

// What two passes lead to (see the file comment).
enum class DeadStoneRule : uint8_t { kAsPlayed = 0, kSettle };

// What a player's failure does to the game.
enum class FailureRule : uint8_t {
  // The player loses (EndReason::kForfeit; both failing to start: no
  // result).
  kLoses = 0,
  // No result (winner kNone, EndReason::kOther): the game says what
  // failed and nobody's score changes.
  kNoResult,
};

// "Black" or "White". Precondition: a stone colour.
const char* SideName(rules::Color c);

// A move's GTP vertex ("D4", "pass"); a point that is not on `board` as
// "point N (off the board)".
std::string VertexText(rules::Point p, const rules::Board& board);

// The match to play. Plain value.
struct MatchOptions {
  // Board size, 2..25 (GTP engines play square boards only).
  int width = 19;
  int height = 19;
  // The rule set, komi included.
  rules::Rules rules;
  // Fixed handicap stones (GTP placement): 0, or 2..9 as the board allows.
  int handicap = 0;
  // The time control (kNone: no clock).
  gtp::TimeSettings time;
  IllegalMovePolicy illegal = IllegalMovePolicy::kForfeit;
  DeadStoneRule dead_stones = DeadStoneRule::kAsPlayed;
  FailureRule failure = FailureRule::kLoses;
  // Disputes over dead stones played out (art. 21.4) before the stones
  // still disputed count as alive; >= 0.
  int max_playouts = 1;
};

// An illegal move a player chose.
struct IllegalAttempt {
  // The 1-based number the move would have had.
  int move_number = 0;
  rules::Color color = rules::Color::kEmpty;
  rules::Point point = rules::kNoPoint;
  rules::IllegalReason reason = rules::IllegalReason::kNone;
  // The ruling: a warning earned; the move voided as a pass; the game lost.
  bool warning = false;
  bool voided = false;
  bool lost = false;
  // The article applied (IllegalMoveRuling::article; a static string).
  const char* article = "";
};

// One move's time (one entry per move of the game).
struct MoveTime {
  // Wall time the mover took, as the driver measured it.
  absl::Duration used = absl::ZeroDuration();
  // The mover's time left after the move.
  gtp::TimeLeft left;
};

// A comment on one move of the game (SGF C): a voided move's pass, the
// art. 22.5 pass, the first move of a play-out.
struct MoveComment {
  // Index into game.moves().
  int move = 0;
  std::string text;
};

// A dispute over dead stones at two passes (art. 21.4).
struct Dispute {
  // Moves played when the players disagreed (the passes included).
  int moves = 0;
  // The stones each side called dead (whole chains, board order).
  std::vector<rules::Point> black_dead;
  std::vector<rules::Point> white_dead;
  // The side that moved first when play resumed; kEmpty when the
  // play-outs were used up and the count settled it.
  rules::Color first = rules::Color::kEmpty;
};

// Where a match stands.
enum class Phase : uint8_t {
  kPlaying = 0,
  // Two passes under kSettle: waiting for Settle().
  kSettling,
  kOver,
};

// A match as it stands, and once over its outcome. Plain value type.
struct MatchOutcome {
  explicit MatchOutcome(rules::Game g) : game(std::move(g)) {}

  // The game as played: voided moves and art. 22.5's are passes; a game
  // the referee ended (time, forfeit, failure) is resigned for the loser
  // with the rules' reason; a played-out dispute's moves follow the
  // passes. game.result() is the rules' own verdict (the board as it
  // stands after two passes).
  rules::Game game;
  // The referee's result (dead stones off, warnings deducted).
  rules::GameResult result;
  End end = End::kCount;
  // How it ended, in words ("White's engine crashed: ... killed by signal
  // 11", "Black used 3.2 s with 1 s left", "two passes; dead stones
  // agreed ..., counted B+23.5").
  std::string detail;
  // Warnings per colour (rules::PlayerIndex).
  std::array<int, 2> warnings{};
  // Per colour: the player failed (End::kEngineFailure).
  std::array<bool, 2> failed{};
  // The clocks (used time, time left, a fallen flag).
  std::array<gtp::PlayerClock, 2> clocks{};
  // Per move of `game`.
  std::vector<MoveTime> move_times;
  // Every illegal move chosen, in order.
  std::vector<IllegalAttempt> illegal_moves;
  // The handicap stones (the record's root AB).
  std::vector<rules::Point> handicap_stones;
  // The time control.
  gtp::TimeSettings time;
  // The stones the count took off (board order; empty when counted as
  // played).
  std::vector<rules::Point> dead_stones;
  // Every dispute over dead stones, in order.
  std::vector<Dispute> disputes;
  // Comments on moves, in move order.
  std::vector<MoveComment> comments;

  int moves() const { return game.num_moves(); }
  int warnings_of(rules::Color c) const {
    return warnings[rules::PlayerIndex(c)];
  }
  absl::Duration time_used(rules::Color c) const {
    return clocks[rules::PlayerIndex(c)].used;
  }
};

// What Apply() did with an answer.
struct Applied {
  // A move was added to the game: the answer, or a pass for a voided
  // illegal move or art. 22.5's pass.
  bool played = false;
  // The move added (when played).
  rules::Move move;
  // The answer was played as given (a legal move in time).
  bool as_chosen = false;
};

class Match {
 public:
  // A match about to start: the board set up (handicap), both clocks
  // full. InvalidArgument for a bad size, komi, handicap, time control or
  // max_playouts.
  static absl::StatusOr<Match> Create(const MatchOptions& options);

  const MatchOptions& options() const { return options_; }
  Phase phase() const { return phase_; }
  bool over() const { return phase_ == Phase::kOver; }
  const rules::Game& game() const { return out_.game; }
  const gtp::Clock& clock() const { return clock_; }
  // The side to move (kPlaying).
  rules::Color to_play() const { return out_.game.to_play(); }
  // The outcome so far (complete once over()).
  const MatchOutcome& outcome() const { return out_; }
  const rules::GameResult& result() const { return out_.result; }

  // What the side to move gets for its next move (see MoveRequest).
  MoveRequest Request() const;

  // The side to move answered `choice` after `used` (see the file
  // comment). Precondition: phase() == kPlaying.
  Applied Apply(const absl::StatusOr<policy::MoveChoice>& choice,
                absl::Duration used);

  // Players failed before the first move (NewGame()): `why` says how. One
  // failing loses (or no result under kNoResult), both failing: no result.
  // Precondition: no move played yet, not over.
  void FailedToStart(bool black_failed, bool white_failed,
                     const std::string& why);

  // c resigns (a person, at any time before the end).
  void Resign(rules::Color c);

  // Phase kSettling: the dead stones each side calls (any stone of a chain
  // stands for the chain; std::nullopt: no view). See the file comment.
  void Settle(const DeadStoneView& black_dead, const DeadStoneView& white_dead);

  // The result of counting now with `dead` off (warnings deducted): what
  // the counting phase of a board shows while people mark.
  rules::GameResult CountWith(const std::vector<rules::Point>& dead) const;

 private:
  Match(const MatchOptions& options, rules::Game game,
        std::vector<rules::Point> handicap_stones);

  // c loses: the game ends for it with `reason`.
  void Lose(rules::Color c, rules::EndReason reason, End end,
            std::string detail);
  // No result: a failure under kNoResult, or both failing.
  void NoResult(std::string detail);
  // c failed with `s` (see FailureRule).
  void Fail(rules::Color c, const absl::Status& s);
  // An illegal move of c at p: ruled on, voided or lost.
  void RuleOn(rules::Color c, rules::Point p, const rules::MoveVerdict& v);
  // After a move was added to the game: the end of the rules, if any.
  void AfterMove();
  // The count with `dead` off under `counting`; the match is over.
  void Count(const std::vector<rules::Point>& dead, rules::Counting counting,
             const std::string& how);
  void Finish();

  MatchOptions options_;
  gtp::Clock clock_;
  MatchOutcome out_;
  Phase phase_ = Phase::kPlaying;
  // Disputes played out so far.
  int playouts_ = 0;
};

}  // namespace qipu::match

#endif  // QIPU_MATCH_MATCH_H_
