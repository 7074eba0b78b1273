// EnginePolicy: the `gtp:<command line>` policy -- an external engine that
// speaks GTP v2 (GNU Go, Pachi, KataGo, Leela Zero ...) run as a child
// process (gtp/engine_process.h), one per policy instance, i.e. per game
// thread.
//
// The engine is kept in step lazily: before each genmove the policy
// compares the game it is asked about with what it has sent (board size,
// komi, the position at the start, the moves since) and sends only what is
// missing: `play` for new moves; after anything else (a new game, an
// undo, a setup) `boardsize`, `clear_board`, `komi` and the position --
// `set_free_handicap` for a handicap before the first move, else one
// `play` per stone on the board (a legal position can be built stone by
// stone without captures). A finite SearchLimits::time becomes
// `time_settings 0 <seconds> 1` (one move per byo-yomi period; engines
// that refuse time_settings play on without it). Rules beyond komi cannot
// be told over GTP: give the engine's own flag (gnugo --chinese-rules).
//
// Failures, as the caller records them:
//   - the engine resigns: MoveChoice::point == kResign;
//   - it plays an illegal move: Choose() returns the move unchecked, as
//     the Policy contract says for external engines; the caller checks it;
//   - it crashes or exits: Unavailable; it hangs past the deadline
//     (limits.time + genmove_margin, or genmove_timeout without a time
//     limit): DeadlineExceeded, the engine killed; it answers garbage (not
//     GTP, or a vertex that does not parse): DataLoss, the engine killed;
//     it refuses a command the game needs (boardsize, play, genmove):
//     FailedPrecondition. The engine is then gone (killed and reaped, never
//     a zombie), Choose() fails with Unavailable until NewGame(), and
//     NewGame() starts a new engine.
//
// Not thread-safe (one game thread), like every Policy.
#ifndef QIPU_GTP_ENGINE_POLICY_H_
#define QIPU_GTP_ENGINE_POLICY_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "gtp/engine_process.h"
#include "policy/policy.h"

namespace qipu::gtp {

struct EnginePolicyOptions {
  // Where the engine's stderr goes (appended); "" for /dev/null.
  std::string stderr_path;
  // Deadline of every command but genmove.
  absl::Duration command_timeout = absl::Seconds(30);
  // Deadline of genmove without a time limit.
  absl::Duration genmove_timeout = absl::Minutes(5);
  // Added to a finite time limit for genmove's deadline.
  absl::Duration genmove_margin = absl::Seconds(10);
  // How long the engine gets to exit after "quit".
  absl::Duration quit_timeout = absl::Seconds(2);
};

class EnginePolicy final : public policy::Policy {
 public:
  // The policy for `command_line` (split as sh(1) would; see
  // gtp/command_line.h). Starts nothing yet. InvalidArgument for a
  // command line that does not split.
  static absl::StatusOr<std::unique_ptr<EnginePolicy>> Create(
      absl::string_view command_line, const EnginePolicyOptions& options);

  // Stops the engine ("quit", then SIGKILL when it lingers).
  ~EnginePolicy() override;

  // "gtp:" and the canonical command line (gtp/command_line.h).
  std::string spec() const override;
  // Starts the engine when none runs (the first game, or after a failure)
  // and sets up `game`. Errors: the engine cannot start or refuses the
  // board (as in the file comment).
  absl::Status NewGame(const rules::Game& game) override;
  // The engine's move for game.to_play() (see the file comment).
  absl::StatusOr<policy::MoveChoice> Choose(
      const rules::Game& game, const policy::SearchLimits& limits) override;

  // Engines started so far (1 after the first game; one more per
  // restart).
  int engines_started() const { return engines_started_; }
  // The running engine's process id, or -1.
  pid_t engine_pid() const { return engine_ ? engine_->pid() : -1; }

 private:
  EnginePolicy(std::vector<std::string> argv, EnginePolicyOptions options)
      : argv_(std::move(argv)), options_(std::move(options)) {}

  // Sends what the engine lacks of `game` (see the file comment).
  absl::Status Sync(const rules::Game& game);
  // boardsize, clear_board, komi and the position of `game`.
  absl::Status FullSync(const rules::Game& game);
  // The time settings for `limits`, when they changed.
  void SendTime(const policy::SearchLimits& limits);

  std::vector<std::string> argv_;
  EnginePolicyOptions options_;
  std::unique_ptr<EngineProcess> engine_;
  int engines_started_ = 0;
  // True once the engine holds a position of the current game.
  bool synced_ = false;
  // The engine's board size and komi.
  int size_ = 0;
  double komi_ = 0;
  // game.num_moves() when the engine's position was set up, and the
  // moves sent (or generated) since.
  int base_moves_ = 0;
  std::vector<rules::Move> sent_;
  // Seconds per move last sent with time_settings (0: none sent, -1: "no
  // limit" sent).
  int time_sent_ = 0;
};

}  // namespace qipu::gtp

#endif  // QIPU_GTP_ENGINE_POLICY_H_
