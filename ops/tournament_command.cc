// `qipu tournament ...`: tournaments for people (and for the engine
// arena), as the seed's pairing program runs them and a director runs the
// day: the director creates the event, registers players (seeds, names in
// both scripts, late entries), pairs each round (and edits the pairing
// before it starts), enters results (a changed forfeit or an earlier
// round's result only with --force, every change kept in the history),
// and prints round sheets and standings. The state lives in a database
// (--db DIR, created by `new` when missing) or on a running coordinator
// (--server HOST:PORT); standings, crosstables and exports are computed
// here from the stored tournament (tournament/tournament.h), so both answer
// alike.
//
//   qipu tournament new --db D --name Open --system swiss --rounds 5 --json
//   qipu tournament player add --db D --tournament 1 --name "Li Wei"
//       --alt-name 李偉 --rank 3d --seed 1
//   qipu tournament pair --db D --tournament 1 --json
//   qipu tournament sheet --db D --tournament 1 --round 1 --html > r1.html
//   qipu tournament result --db D --tournament 1 --round 1 --table 1
//       --result B+
//   qipu tournament standings --db D --tournament 1 --json
//   qipu tournament show --db D --tournament 1 --history
//
// This file holds what the subcommands share (tournament_command.h) and
// registers them; each group is in its own file: tournament_event_command
// (new, list, show), tournament_player_command (players, teams,
// warnings), tournament_round_command (pair and pairing edits),
// tournament_result_command (results), tournament_report_command
// (standings, crosstable, ratings, export, sheet).
#include "ops/tournament_command.h"

#include <cstdio>

#include "base/console.h"
#include "ops/commands.h"
#include "report/tournament_report.h"

namespace qipu::ops {

int TournamentFail(const std::string& cmd, const absl::Status& s) {
  return base::Fail("tournament " + cmd, s.message(),
                    absl::IsInvalidArgument(s) ? 2 : 1);
}

void PrintJson(const nlohmann::json& j) {
  std::printf("%s\n", j.dump().c_str());
}

absl::StatusOr<std::unique_ptr<backend::TournamentClient>> OpenTournaments(
    const TournamentFlags& f, bool create) {
  auto target = f.target.ToTarget();
  if (!target.ok()) return target.status();
  return backend::TournamentClient::Open(*target, create);
}

absl::Status ShowChange(const TournamentFlags& f,
                        absl::StatusOr<qipu::v1::TournamentResponse> r) {
  if (!r.ok()) return r.status();
  if (f.json) {
    nlohmann::json j = report::TournamentSummaryJson(r->tournament());
    j["notes"] = std::vector<std::string>(r->notes().begin(), r->notes().end());
    PrintJson(j);
  } else {
    std::fputs(report::TournamentSummaryText(r->tournament()).c_str(), stdout);
    for (const std::string& note : r->notes()) {
      std::printf("note: %s\n", note.c_str());
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<qipu::v1::Tournament> FetchTournament(
    backend::TournamentClient& c, const std::string& id) {
  qipu::v1::TournamentRequest req;
  req.set_tournament(id);
  auto r = c.Get(req);
  if (!r.ok()) return r.status();
  return r->tournament();
}

void AddTargetAndJson(CLI::App* cmd, TournamentFlags* f,
                      const std::string& json_help) {
  f->target.Add(cmd);
  cmd->add_flag("--json", f->json, json_help);
}

void AddTournamentId(CLI::App* cmd, TournamentFlags* f) {
  cmd->add_option("--tournament", f->tournament, "Tournament id")->required();
}

void AddTournamentCommand(CLI::App& app, int* exit_code) {
  CLI::App* t = app.add_subcommand(
      "tournament",
      "Tournaments for people: register, pair, enter results, standings");
  t->require_subcommand(1);
  auto f = std::make_shared<TournamentFlags>();
  AddTournamentEventCommands(t, f, exit_code);
  AddTournamentPlayerCommands(t, f, exit_code);
  AddTournamentRoundCommands(t, f, exit_code);
  AddTournamentResultCommands(t, f, exit_code);
  AddTournamentReportCommands(t, f, exit_code);
}

}  // namespace qipu::ops
