// RunArena: plays a tournament between engines (`qipu arena run`) -- the
// tournament engine (tournament/) pairs each round, the referee
// (referee.h) plays its games, `concurrency` at a time, and every game goes
// into the games column family of the target (a database opened here, or
// a coordinator) with source "tournament:<id>", so every query can filter
// by tournament. The tournament's whole state -- entrants, rounds,
// pairings, results, warnings, the arena's settings -- is the
// qipu.v1.Tournament message the target stores durably after each step.
//
// Each game is stored in three durable steps: its SGF and result are
// written into the tournament as the slot's pending game; the SGF is
// imported (a game's id is the hash of its moves, so importing it again
// finds it); then the result, the game id and the warnings are entered
// and the pending game cleared, in one write. A run killed anywhere
// (SIGKILL) and started again continues the round it was in: a pending
// game is stored rather than played again, a game without one is played
// (it was never stored), and no game is counted twice.
//
// Engines: each game-playing thread makes its own player per entrant
// (match::MakePlayer) and keeps it for the run, so a GTP engine process
// serves many games; an engine that crashes loses that game and is
// restarted by its policy at the next.
#ifndef QIPU_ARENA_ARENA_RUNNER_H_
#define QIPU_ARENA_ARENA_RUNNER_H_

#include <functional>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "arena/arena_file.h"
#include "backend/target.h"
#include "qipu/v1/tournament.pb.h"

namespace qipu::arena {

// One game finished (played, or a pending one stored on resume).
struct ArenaGameEvent {
  int round = 0;
  int table = 0;
  int board = 0;
  std::string black;
  std::string white;
  // SGF RE ("B+R", "W+3.5", "B+T").
  std::string result;
  // How it ended, in words (ArenaGame::detail); empty when recovered.
  std::string detail;
  int moves = 0;
  std::string game_id;
  // Stored from a pending game of an earlier run, not played now.
  bool recovered = false;
  absl::Duration wall = absl::ZeroDuration();
};

// What to run. Plain value.
struct ArenaRunOptions {
  backend::Target target;
  // Start the file's tournament, or continue the unfinished arena
  // tournament of the same name in the target (its settings must equal
  // the file's; concurrency may differ).
  std::optional<ArenaFile> file;
  // Or continue tournament `tournament_id` (when `file` is empty).
  std::string tournament_id;
  // Games at once; 0 = the tournament's setting.
  int concurrency = 0;
  // When not empty: every game's SGF is also written here, as
  // "<id>-r<round>-t<table>[-b<board>].sgf".
  std::string sgf_dir;
  // GTP engines' stderr (appended); "" = /dev/null.
  std::string engine_log;
  // Called after each game, never concurrently. May be empty.
  std::function<void(const ArenaGameEvent&)> on_game;
  // Called when a round is paired (its number), never concurrently.
  std::function<void(const qipu::v1::Tournament&, int)> on_round;
};

// What a run did.
struct ArenaRunSummary {
  qipu::v1::Tournament tournament;
  // The run continued a tournament started before.
  bool resumed = false;
  int games_played = 0;
  int games_recovered = 0;
  absl::Duration wall = absl::ZeroDuration();
};

// Runs the tournament to its end (see the file comment). Errors:
// InvalidArgument for bad options or a tournament that is not an arena's,
// FailedPrecondition for a file whose tournament exists with other
// settings, the target's errors (unreachable server, storage); engine
// failures are game outcomes, not errors. Not thread-safe per target
// tournament: one run per tournament at a time.
absl::StatusOr<ArenaRunSummary> RunArena(const ArenaRunOptions& options);

}  // namespace qipu::arena

#endif  // QIPU_ARENA_ARENA_RUNNER_H_
