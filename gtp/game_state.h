// GameState: the game a GTP engine holds -- board size, rules and komi,
// and what happened since clear_board as a list of events (handicap,
// setup from an SGF file, moves, resignations) replayed into a
// rules::Game. Replaying the events is how undo and komi changes work:
// the game is rebuilt from them, so every rule of rules::Game (superko,
// the cycle rule, captures) holds after an undo exactly as before.
//
// GTP lets a controller go on after the rules ended the game (two passes,
// a resignation, a balanced cycle, the move cap): a move then resumes the
// game from the position on the board, as a setup with the move's colour
// to play (the repetition history starts again there; handicap stones
// still count for compensation).
//
// Not thread-safe.
#ifndef QIPU_GTP_GAME_STATE_H_
#define QIPU_GTP_GAME_STATE_H_

#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "rules/game.h"
#include "rules/record.h"
#include "rules/rules.h"

namespace qipu::gtp {

class GameState {
 public:
  // An empty size x size board under `rules`. Preconditions: valid size
  // and komi.
  GameState(int size, const rules::Rules& rules);

  int size() const { return size_; }
  const rules::Rules& rules() const { return rules_; }
  // The game as the events leave it.
  const rules::Game& game() const { return *game_; }
  // True before anything was placed or played since the last clear.
  bool empty() const { return events_.empty(); }
  // Moves played since the last clear (passes included).
  int moves_played() const;

  // A new size x size board (cleared). InvalidArgument("unacceptable
  // size") outside 2..25.
  absl::Status SetBoardSize(int size);
  // Empties the board and the history; keeps size, rules and komi.
  void Clear();
  // Changes komi, keeping the game. InvalidArgument (with why) when komi
  // is not a multiple of 0.5 within +-1000.
  absl::Status SetKomi(double komi);
  // Changes the rules (komi included), keeping the game when it replays
  // under them; otherwise the rules stay and the error says which event
  // failed.
  absl::Status SetRules(const rules::Rules& rules);

  // c plays p (a board point or kPass), resuming an ended game.
  // InvalidArgument("illegal move") when the rules forbid it (the message
  // goes on with the reason: "illegal move: occupied").
  absl::Status Play(rules::Color c, rules::Point p);
  // c resigns (genmove's "resign"): the game ends; undo takes it back
  // together with the move before it.
  void Resign(rules::Color c);
  // Takes back the last move. InvalidArgument("cannot undo") when there is
  // none.
  absl::Status Undo();
  // Handicap stones at `points` (Black's), White to play.
  // InvalidArgument("board not empty") after anything else was placed or
  // played; InvalidArgument("bad vertex list") for fewer than two points,
  // repeated points or passes.
  absl::Status PlaceHandicap(absl::Span<const rules::Point> points);
  // The handicap stones placed (empty for none).
  const std::vector<rules::Point>& handicap_points() const {
    return handicap_points_;
  }

  // Loads `record` (loadsgf): its size (square boards only), its komi when
  // it has one, its setup and its first `max_moves` moves (all of them
  // when negative). On error (a non-square board, an illegal move or
  // setup: the message says which) nothing changes.
  absl::Status Load(const rules::GameRecord& record, int max_moves);

  // The game as a record (printsgf): size, komi, rules (RU: the preset
  // name), handicap as root AB with HA, setup, moves, and RE when the game
  // is over.
  rules::GameRecord ToRecord() const;

  // The position with c to move in a game that is not over: game() itself
  // when that holds, else *scratch set to the position (see the file
  // comment on resuming; a side to move other than game().to_play() keeps
  // the move history and restarts the repetition history). The result
  // refers to game() or *scratch.
  const rules::Game& PositionFor(rules::Color c,
                                 std::unique_ptr<rules::Game>* scratch) const;

 private:
  enum class EventKind { kMove, kHandicap, kSetup, kResign };
  struct Event {
    EventKind kind = EventKind::kMove;
    // kMove: colour and point; kResign: the colour.
    rules::Move move;
    // kHandicap: the stones; kSetup: stones added and removed.
    std::vector<rules::Point> black;
    std::vector<rules::Point> white;
    std::vector<rules::Point> empty;
    // kSetup: the side to move afterwards (kEmpty: unchanged).
    rules::Color to_play = rules::Color::kEmpty;
  };

  // Applies one event to *game (resuming it first for a move when it is
  // over). Errors as Play() / the setup's.
  absl::Status Apply(const Event& e, std::unique_ptr<rules::Game>* game) const;
  // A fresh game replaying `events` under `rules`, or the first error.
  absl::StatusOr<std::unique_ptr<rules::Game>> Replay(
      const rules::Rules& rules, const std::vector<Event>& events) const;
  // A game that is not over with the position of `g` and c to move.
  std::unique_ptr<rules::Game> Resumed(const rules::Game& g,
                                       rules::Color c) const;

  int size_;
  rules::Rules rules_;
  std::vector<Event> events_;
  // The handicap stones (kept for resumed games).
  std::vector<rules::Point> handicap_points_;
  // The game the events give; never null.
  std::unique_ptr<rules::Game> game_;
};

}  // namespace qipu::gtp

#endif  // QIPU_GTP_GAME_STATE_H_
