// What the files of `qipu tournament` share (ops/tournament_*_command.cc):
// the flags of every subcommand, opening the target (--db or --server),
// running a subcommand's body with its exit status, and printing a
// tournament after a change. tournament_command.cc registers the
// subcommands of each file under `qipu tournament`.
//
// Exit status of every subcommand: 0 done, 1 the call failed (the
// tournament's state does not allow it, storage), 2 bad flags or input.
#ifndef QIPU_OPS_TOURNAMENT_COMMAND_H_
#define QIPU_OPS_TOURNAMENT_COMMAND_H_

#include <cstdint>
#include <memory>
#include <string>

#include "CLI/CLI.hpp"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "backend/tournament_client.h"
#include "nlohmann/json.hpp"
#include "ops/flags.h"

namespace qipu::ops {

// Flags of every tournament subcommand; each uses the ones it registers.
// One instance is shared by all (CLI11 parses one subcommand a run).
struct TournamentFlags {
  TargetFlags target;
  bool json = false;
  std::string tournament;
  // new
  std::string name;
  std::string system;
  uint32_t rounds = 0;
  uint32_t best_of = 0;
  uint32_t losses = 0;
  bool teams = false;
  uint32_t boards = 0;
  uint32_t knockout_size = 0;
  uint64_t lots = 0;
  uint32_t eliminate_after = 0;
  uint32_t late_entry_points = 0;
  uint32_t sit_out_points = 0;
  uint32_t accelerate = 0;
  // player add / edit
  int32_t rating = 0;
  std::string rank;
  std::string club;
  std::string team;
  uint32_t board = 0;
  std::string alt_name;
  uint32_t seed = 0;
  // The options of `player edit`, to tell a flag given from its default.
  CLI::Option* edit_rating = nullptr;
  CLI::Option* edit_rank = nullptr;
  CLI::Option* edit_club = nullptr;
  CLI::Option* edit_alt_name = nullptr;
  CLI::Option* edit_seed = nullptr;
  // warn
  uint32_t count = 1;
  // pair; pairing edits
  bool allow_repeats = false;
  std::string first;
  std::string second;
  bool cancel = false;
  // result
  uint32_t round = 0;
  uint32_t table = 0;
  std::string result;
  std::string board_results;  // --boards of result: board 1 first
  std::string game_id;
  bool force = false;
  // show
  bool history = false;
  // export, sheet, standings
  std::string format = "csv";
  bool html = false;
};

// Prints `s` for subcommand `cmd` and returns its exit status (2 for
// InvalidArgument, else 1).
int TournamentFail(const std::string& cmd, const absl::Status& s);

// Prints `j` on one line.
void PrintJson(const nlohmann::json& j);

// Opens --db (created when missing and `create`) or dials --server.
absl::StatusOr<std::unique_ptr<backend::TournamentClient>> OpenTournaments(
    const TournamentFlags& f, bool create = false);

// Runs `body` with a client; maps its status to the exit status.
template <typename Body>
int WithClient(const std::string& cmd, const TournamentFlags& f, Body body,
               bool create = false) {
  auto c = OpenTournaments(f, create);
  if (!c.ok()) return TournamentFail(cmd, c.status());
  absl::Status s = body(**c);
  return s.ok() ? 0 : TournamentFail(cmd, s);
}

// Prints a tournament after a change (--json: the summary object with
// "notes"; text: the summary, then the notes as "note: ..." lines).
absl::Status ShowChange(const TournamentFlags& f,
                        absl::StatusOr<qipu::v1::TournamentResponse> r);

// The stored tournament `id`, for the read-only reports.
absl::StatusOr<qipu::v1::Tournament> FetchTournament(
    backend::TournamentClient& c, const std::string& id);

// Registers --db/--server and --json (described by `json_help`) on `cmd`.
void AddTargetAndJson(CLI::App* cmd, TournamentFlags* f,
                      const std::string& json_help);
// --tournament ID, required.
void AddTournamentId(CLI::App* cmd, TournamentFlags* f);

// The subcommands of each file, registered under `qipu tournament` (`t`).
// new, list, show (tournament_event_command.cc):
void AddTournamentEventCommands(CLI::App* t,
                                const std::shared_ptr<TournamentFlags>& f,
                                int* exit_code);
// player add|edit|withdraw|sit-out, team withdraw, warn
// (tournament_player_command.cc):
void AddTournamentPlayerCommands(CLI::App* t,
                                 const std::shared_ptr<TournamentFlags>& f,
                                 int* exit_code);
// pair, pairing swap|unpair|add|bye|colours|undo
// (tournament_round_command.cc):
void AddTournamentRoundCommands(CLI::App* t,
                                const std::shared_ptr<TournamentFlags>& f,
                                int* exit_code);
// result (tournament_result_command.cc):
void AddTournamentResultCommands(CLI::App* t,
                                 const std::shared_ptr<TournamentFlags>& f,
                                 int* exit_code);
// standings, crosstable, ratings, export, sheet
// (tournament_report_command.cc):
void AddTournamentReportCommands(CLI::App* t,
                                 const std::shared_ptr<TournamentFlags>& f,
                                 int* exit_code);

}  // namespace qipu::ops

#endif  // QIPU_OPS_TOURNAMENT_COMMAND_H_
