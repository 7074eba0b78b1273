// BoardSession: one game at the terminal board, everything but the
// terminal -- the game under its rules, the players (people, qipu
// policies, GTP engines), the clocks, the cursor, what each key does,
// takebacks, and after two passes the marking of dead stones and the
// count under the Chinese rules. The view (play/tui.h) draws it and feeds
// it keys; tests drive it directly.
//
// The game is a match (match/match.h): the referee every caller shares,
// with its one clock (gtp/clock.h: byo-yomi periods used when a move
// reaches them, Canadian time carried over, art. 22.5's loss or pass),
// the computers' failures and illegal moves (forfeit), and the count.
// A person's illegal move is refused with the reason instead (the person
// tries again).
//
// Phases: kPlaying until two passes (then kCounting) or any other end
// (resignation, time, an illegal move or failure of a computer player, a
// balanced cycle, the move cap: then kOver). In kCounting the stones qipu
// judges dead (policy/stone_judge.h) are marked already; the cursor marks
// chains dead or alive and [done] (below the board) or `d` counts with
// the marked stones off (the people agreed on them: Counting::kAgreed):
// area scoring, stones plus territory, dame shared half and half, komi and
// handicap compensation (rules/scoring.h), the result in points and in
// stones (rules/result.h); then kOver. Between two computers the match
// settles the dead stones with the players (match::Player::DeadStones(),
// art. 21.4 when they disagree). A takeback in kCounting takes the last
// pass back and resumes the game.
//
// Computer players: ComputerToMove() says when one is to move;
// PrepareThink() hands out what its move needs so that the caller can
// think on a thread of its own while the display goes on, FinishThink()
// plays the answer (ThinkAndPlay() does both at once). An illegal move,
// an error or a time-out of a computer player loses it the game.
//
// Time comes in as arguments (`now`), never from a clock of its own.
// Not thread-safe: one thread calls everything; between PrepareThink()
// and FinishThink() only that job's thread uses the job's policy.
#ifndef QIPU_PLAY_BOARD_SESSION_H_
#define QIPU_PLAY_BOARD_SESSION_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "gtp/clock.h"
#include "gtp/time_settings.h"
#include "match/match.h"
#include "match/player.h"
#include "play/keymap.h"
#include "policy/policy.h"
#include "rules/game.h"
#include "rules/record.h"
#include "rules/result.h"
#include "rules/rules.h"
#include "rules/scoring.h"

namespace qipu::play {

// The player spec of a person at the keyboard.
inline constexpr char kHuman[] = "human";

// What a session plays.
struct SessionOptions {
  // Board side (square boards; rules::ValidateSize).
  int size = 19;
  // The rule set (default: the `chinese` preset, komi 7.5).
  rules::Rules rules;
  // Fixed handicap stones (0, or 2..9 as GTP fixed_handicap allows).
  int handicap = 0;
  // The time control (gtp/time_settings.h), art. 22.5's pass included.
  gtp::TimeSettings time;
  // Each colour's player: kHuman, or a policy spec gtp::MakeAnyPolicy()
  // knows ("random", "mcts:playouts=2000", "gtp:gnugo --mode gtp").
  std::string black = kHuman;
  std::string white = kHuman;
  // Seed of the computer players (White's is seed + 1).
  uint64_t seed = 0;
  // File for the stderr of gtp: engines ("" = /dev/null).
  std::string engine_log;
  // Where `s` saves the game.
  std::string sgf_path = "qipu-play.sgf";
};

enum class Phase {
  kPlaying = 0,
  // Both passed: dead stones are marked, then the board is counted.
  kCounting,
  kOver,
};

class BoardSession {
 public:
  // A new game: checks the options (size, komi, handicap, time control,
  // player specs: InvalidArgument naming the bad one), makes the computer
  // players (match::MakePlayer()) and starts them (NewGame(); an engine
  // that cannot start gives its error), starts the clock of the side to
  // move at `now`. The cursor starts at the centre.
  static absl::StatusOr<std::unique_ptr<BoardSession>> Create(
      const SessionOptions& options, absl::Time now);

  BoardSession(const BoardSession&) = delete;
  BoardSession& operator=(const BoardSession&) = delete;

  // ---- Input.

  // The key's action (keymap.h), see Apply().
  void HandleKey(int key, absl::Time now) { Apply(ActionForKey(key), now); }
  // Does what `a` asks in the current phase; refusals and news go to
  // message(). Resign and quit while the game goes on ask for the same
  // key again (any other key cancels and is otherwise ignored).
  void Apply(Action a, absl::Time now);
  // Checks the clock of the side to move: out of time loses the game (or,
  // under art. 22.5's pass, the move is a pass). Call it often while
  // waiting for keys.
  void Tick(absl::Time now);

  // ---- The moves behind the keys (also for tests).

  // The side to move plays p (a board point or rules::kPass), when that
  // side is a person. Returns false, with the reason in message(), when
  // the move is refused: not a person's turn, or illegal (occupied, ko,
  // superko, suicide, cycle: rules::IllegalReasonName()).
  bool PlayHuman(rules::Point p, absl::Time now);
  // Takes back the last move (the last pass while counting, which
  // resumes the game). Only between two people. False, with the reason in
  // message(), when refused.
  bool TakeBack(absl::Time now);
  // The person to move (or the only person) resigns. False when there is
  // no person to resign or the game is over.
  bool Resign(absl::Time now);
  // While counting: marks the chain through stone p dead, or alive again
  // when it is marked dead. False when p holds no stone.
  bool ToggleDead(rules::Point p);
  // While counting: every stone alive again (qipu's marks, and the
  // people's, undone).
  void ClearDeadMarks();
  // While counting: counts with the marked stones removed and ends the
  // game with that result.
  void FinishCounting(absl::Time now);
  // Writes the game so far to sgf_path (FF[4]; RE when it is over). Also
  // says so (or why not) in message().
  absl::Status SaveSgf();

  // ---- Computer players.

  // True while the game goes on and a computer is to move.
  bool ComputerToMove() const;
  // What one move of the computer to move needs. `player` stays owned by
  // the session; the caller's thread may call player->Choose(game,
  // request) and must be done with it before FinishThink().
  struct ThinkJob {
    match::Player* player = nullptr;
    // A copy of the game, so that the session can be drawn meanwhile.
    rules::Game game;
    match::MoveRequest request;
  };
  // Precondition: ComputerToMove().
  ThinkJob PrepareThink(absl::Time now);
  // Plays what Choose() answered at `now` (charging the clock): a move,
  // a pass or a resignation. An error, an illegal move or a time-out loses
  // that player the game. Precondition: ComputerToMove().
  void FinishThink(const absl::StatusOr<policy::MoveChoice>& choice,
                   absl::Time now);
  // PrepareThink(), Choose() on this thread, then FinishThink() with the
  // time the choice took added to `now`.
  void ThinkAndPlay(absl::Time now);

  // ---- State, for the view.

  const SessionOptions& options() const { return options_; }
  const rules::Game& game() const { return match_.game(); }
  const match::Match& match() const { return match_; }
  const gtp::Clock& clock() const { return match_.clock(); }
  // c's clock as it reads at `now` (the running move included, not
  // charged).
  gtp::PlayerClock ReadClock(rules::Color c, absl::Time now) const;
  // The clock of c at `now` in words for the status panel: "untimed",
  // "9:58", "9:58 +3x0:30" (byo-yomi to come), "BY 0:25 (3)" (in
  // byo-yomi: the period left and the periods, or the moves left in a
  // Canadian block), "out of time".
  std::string DescribeClock(rules::Color c, absl::Time now) const;
  Phase phase() const { return phase_; }
  // The player spec of colour c (kHuman or a policy spec).
  const std::string& player(rules::Color c) const;
  bool IsHuman(rules::Color c) const;
  // Cursor column (0 = left) and row (0 = top).
  int cursor_x() const { return cursor_x_; }
  int cursor_y() const { return cursor_y_; }
  rules::Point cursor() const { return rules::MakePoint(cursor_x_, cursor_y_); }
  // While counting: true when the cursor is on [done] below the board.
  bool cursor_on_done() const { return on_done_; }
  // Marked dead (counting, and the counted game).
  bool dead(rules::Point p) const { return dead_[p]; }
  // The last move (kNoPoint before the first; kPass for a pass).
  rules::Point last_move() const;
  // The news of the last action: a refusal, what was played, the result.
  const std::string& message() const { return message_; }
  // True once the player asked to quit (confirmed).
  bool quit() const { return quit_; }
  // The stones marked dead (whole chains), in board order.
  std::vector<rules::Point> MarkedDead() const;
  // The area count of the board with the marked stones removed.
  rules::AreaCount Count() const;
  // The result of that count (margin, komi and compensation applied).
  rules::GameResult CountedResult() const;
  // The result (kOver): the count after marking, or how the game ended.
  const rules::GameResult& result() const { return match_.result(); }
  // The result for people: "B+7.5 (Black wins by 3¾ stones)", "W+R
  // (White wins by resignation)".
  std::string ResultText() const;
  // The game as an SGF record (moves, handicap, komi, rules, players, the
  // result when over).
  rules::GameRecord ToRecord() const;

 private:
  BoardSession(const SessionOptions& options, match::Match match);

  void MoveCursor(int dx, int dy);
  void Select(absl::Time now);
  // The side to move answered `choice` at `now`: handed to the match
  // (which charges the clock), then AfterMove() or the end. False when the
  // answer was not played as given.
  bool Answer(const absl::StatusOr<policy::MoveChoice>& choice, absl::Time now);
  // After a move was played: tells the computers, starts the next move's
  // time, enters counting or the end.
  void AfterMove(rules::Move move, absl::Time now);
  // The match is over: kOver, the message says why and the result.
  void EndGame(const std::string& why);
  // Replays the match without its last `n` moves, each with the time it
  // took (the clocks read as they did then).
  void Rewind(int n);
  // "Black (human)", "White (mcts:playouts=2000)".
  std::string Label(rules::Color c) const;

  SessionOptions options_;
  match::Match match_;
  // When the move of the side to move started (its clock runs since).
  absl::Time turn_started_ = absl::UnixEpoch();
  // Per colour (PlayerIndex): the computer, or null for a person.
  std::array<std::unique_ptr<match::Player>, 2> computers_;
  Phase phase_ = Phase::kPlaying;
  // The move number a computer's thinking started at (PrepareThink());
  // its answer is dropped when the game moved on meanwhile. -1: none.
  int thinking_for_ = -1;
  // Cursor point; always on the board.
  int cursor_x_ = 0;
  int cursor_y_ = 0;
  // Counting only: the cursor is on [done] below the board.
  bool on_done_ = false;
  // Chains marked dead, by point (meaningful on stones only).
  std::array<bool, rules::kNumCells> dead_{};
  std::string message_;
  // Resign or quit waiting for the same key again, or kNone.
  Action confirm_ = Action::kNone;
  bool quit_ = false;
  // When the game started (the record's date).
  absl::Time started_ = absl::UnixEpoch();
};

// The words for an illegal move: "occupied (a stone is already there)",
// "ko (the ko may not be retaken at once; play elsewhere first)", ...
// starting with rules::IllegalReasonName(r).
std::string IllegalReasonText(rules::IllegalReason r);

}  // namespace qipu::play

#endif  // QIPU_PLAY_BOARD_SESSION_H_
