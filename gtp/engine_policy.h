// EnginePolicy: the `gtp:<command line>` policy -- an external engine that
// speaks GTP v2 (GNU Go, Pachi, KataGo, Leela Zero ...) run as a child
// process (gtp/engine_process.h), one per policy instance, i.e. per game
// thread.
//
// The engine is kept in step lazily: before each genmove the policy
// compares the game it is asked about with what it has sent (board size,
// komi, the position at the start, the moves since) and sends only what is
// missing: `play` for new moves; after anything else (a new game, a
// setup, a takeback too long for undo) `boardsize`, `clear_board`, `komi`
// and the position --
// `set_free_handicap` for a handicap before the first move, else one
// `play` per stone on the board (a legal position can be built stone by
// stone without captures). When the game has left the moves sent -- a
// takeback, or a move the controller voided and counted as a pass (the
// arena's `chinese` illegal-move policy) -- the engine gets `undo` back to
// where they agree (at most kMaxUndo; a refused undo means the full setup
// instead), so that it keeps the game's history and its ko state. Rules
// beyond komi cannot be told over GTP: give the engine's own flag (gnugo
// --chinese-rules).
//
// Time, two ways:
//   - by default a finite SearchLimits::time becomes `time_settings 0
//     <seconds> 1` (one move per byo-yomi period; engines that refuse
//     time_settings play on without it);
//   - with a game clock (SetGameClock(): the controller keeps the clock,
//     as the arena does), the engine is told the clock's settings once per
//     engine process -- time_settings for none (`0 1 0`), absolute (`M 0
//     0`) and Canadian (`M T S`); Japanese byo-yomi as `kgs-time_settings
//     byoyomi M T P` when the engine's list_commands has it, else
//     `time_settings M T 1` (each period one move: the Canadian
//     approximation) -- and `time_left` before each genmove
//     (SetTimeLeft()). SearchLimits::time then only sets genmove's
//     deadline: pass the time until the player's flag falls.
//
// Searches: when the engine's list_commands names kata-genmove_analyze
// (KataGo) or lz-genmove_analyze (Leela Zero), genmove is asked as that
// command and the analysis it posts when its search ends
// (gtp/analyze_info.h) becomes the move's search: MoveChoice::visits (the
// root moves with visits, most visited first), playouts (their sum) and
// winrate (the played move's). The worker stores them as it stores a
// search of qipu's own (Game.search_visits).
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
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "gtp/analyze_info.h"
#include "gtp/clock.h"
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
  // Most `undo` commands one resynchronisation sends; a game further from
  // the moves sent is set up again.
  static constexpr int kMaxUndo = 16;

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

  // Game clock mode (see the file comment): the engine is told `settings`
  // before its next genmove (again after a restart or a change), and
  // SearchLimits::time no longer becomes time_settings.
  void SetGameClock(const TimeSettings& settings);
  // Game clock mode: the time `c` has left, sent as `time_left` once, before
  // c's next genmove. In gtp::Clock::SetTimeLeft()'s form: `seconds` of main
  // time (stones 0) or of the current byo-yomi period, `stones` the moves
  // left in a Canadian period or the Japanese periods left; GTP gets whole
  // seconds, rounded down (and `1` for the stones of Japanese byo-yomi told
  // as time_settings). Ignored without a game clock, or under kNone.
  void SetTimeLeft(rules::Color c, double seconds, int stones);

  // The engine's `final_status_list <status>` ("dead", "alive" or "seki")
  // of `game`, the engine brought up to date with it first (the final
  // passes included): the stones it names, in board order, without
  // repeats. Errors: no engine runs (Unavailable; as Choose()), it refuses
  // the command (FailedPrecondition), or answers something other than
  // vertices of the board (DataLoss; the engine is killed).
  absl::StatusOr<std::vector<rules::Point>> FinalStatusList(
      const rules::Game& game, absl::string_view status);

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
  // The time settings for `limits`, when they changed; with a game clock,
  // the clock and c's time_left instead.
  void SendTime(const policy::SearchLimits& limits, rules::Color c);
  // The game clock's settings as one command (see the file comment).
  std::string GameClockCommand();
  // True when the engine's list_commands names `command` (asked once per
  // engine process).
  bool EngineLists(absl::string_view command);
  // The root moves of `report` with visits as choice->visits (most visited
  // first) and their playouts; their win rates into winrates_.
  void SearchOf(const AnalyzeReport& report, policy::MoveChoice* choice);
  // The reported win rate of `point` (-1 when it was not reported).
  double WinrateOf(rules::Point point) const;

  // The analyze commands' interval (centiseconds): longer than any
  // search, so that the engine posts once, when its search ends.
  static constexpr int kAnalyzeIntervalCentis = 1000000;

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
  // The controller's clock (SetGameClock()); unset: time from the limits.
  std::optional<TimeSettings> game_clock_;
  // True once the running engine has been told game_clock_.
  bool clock_told_ = false;
  // The running engine's list_commands (asked when first needed).
  std::optional<std::vector<std::string>> commands_;
  // The time_left to send before the next genmove of its colour
  // (SetTimeLeft()).
  struct PendingTimeLeft {
    rules::Color color = rules::Color::kEmpty;
    double seconds = 0;
    int stones = 0;
  };
  std::optional<PendingTimeLeft> time_left_;
  // The last analysis's win rates by root move (scratch of Choose()).
  std::vector<std::pair<rules::Point, double>> winrates_;
};

}  // namespace qipu::gtp

#endif  // QIPU_GTP_ENGINE_POLICY_H_
