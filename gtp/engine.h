// Engine: a GTP v2 engine (the Go Text Protocol, version 2 draft) over a
// GameState and a Policy -- what `qipu gtp` runs on stdin/stdout, and what
// Sabaki, GoGui and gogui-twogtp talk to.
//
// Map: protocol.h parses lines and formats responses; the engine holds
// the command table, dispatches and answers the administrative commands
// itself (protocol_version, name, version, known_command, list_commands,
// quit); the other commands live by concern in setup_commands.cc
// (boardsize, clear_board, komi, the three handicap commands, loadsgf,
// printsgf) and play_commands.cc (play, genmove, reg_genmove, undo,
// showboard, final_score, final_status_list, time_settings, time_left,
// kgs-time_settings);
// game_state.h keeps the game, clock.h the time, board_report.h draws the
// board; rules/dead_stones.h judges final status. gtp/README.md has the
// command table.
//
// Not thread-safe: one thread feeds it lines.
#ifndef QIPU_GTP_ENGINE_H_
#define QIPU_GTP_ENGINE_H_

#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "gtp/clock.h"
#include "gtp/game_state.h"
#include "policy/policy.h"
#include "rules/rules.h"

namespace qipu::gtp {

class Engine;

// A command: the arguments after its name; returns the response text, or
// an error whose message is the GTP error text ("illegal move").
using CommandHandler = std::function<absl::StatusOr<std::string>(
    Engine& engine, const std::vector<std::string>& args)>;

struct EngineOptions {
  // The `name` and `version` answers (version gets the policy's spec
  // appended in parentheses).
  std::string name = "qipu";
  std::string version;
  // Rules of every game (komi included; `komi` and loadsgf change komi).
  rules::Rules rules;
  // Board size before the first boardsize.
  int size = 19;
};

class Engine {
 public:
  // An engine playing with `policy` (not null; owned).
  Engine(std::unique_ptr<policy::Policy> policy, EngineOptions options);

  // Handles one input line (without its '\n'): the whole response,
  // ending in an empty line, or "" for a line without a command (blank or
  // comment).
  std::string HandleLine(absl::string_view line);

  // Reads lines from `in` and writes each response to `out` (flushed),
  // until `quit` or the end of the input.
  void Run(std::FILE* in, std::FILE* out);

  // True once `quit` was handled.
  bool quit_requested() const { return quit_; }

  // For the command files.

  // Adds (or replaces) a command.
  void Register(const std::string& name, CommandHandler handler);
  bool Known(const std::string& name) const {
    return commands_.count(name) > 0;
  }
  // Every command name, sorted.
  std::vector<std::string> CommandNames() const;
  void RequestQuit() { quit_ = true; }

  const EngineOptions& options() const { return options_; }
  GameState& state() { return state_; }
  Clock& clock() { return clock_; }
  policy::Policy& policy() { return *policy_; }

  // The position changed other than by a move (clear, size, komi, undo,
  // handicap, load): the policy gets NewGame() before its next move.
  void GameChanged() { policy_fresh_ = false; }
  // c plays p (play or genmove); tells the policy. Errors as
  // GameState::Play().
  absl::Status PlayMove(rules::Color c, rules::Point p);
  // The policy's move for c in the current position (not played); with
  // `timed`, the clock allots the time and is charged with what it took.
  // Errors: the policy's (crashed engine ...; the next call starts the
  // policy over with NewGame()), or a move the rules forbid ("policy chose
  // an illegal move D4: occupied").
  absl::StatusOr<policy::MoveChoice> Generate(rules::Color c, bool timed);

 private:
  EngineOptions options_;
  std::unique_ptr<policy::Policy> policy_;
  GameState state_;
  Clock clock_;
  std::map<std::string, CommandHandler> commands_;
  // True while the policy has seen every change since its last NewGame().
  bool policy_fresh_ = false;
  bool quit_ = false;
};

// Registration of the command groups (engine.cc, setup_commands.cc,
// play_commands.cc).
void RegisterSetupCommands(Engine& engine);
void RegisterPlayCommands(Engine& engine);

}  // namespace qipu::gtp

#endif  // QIPU_GTP_ENGINE_H_
