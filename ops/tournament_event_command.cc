// `qipu tournament new|list|show`: creating an event (its system and the
// rules the director sets for the day: rounds, elimination after losses,
// points for missed rounds, accelerated pairing), the events stored, and
// one event with its players and rounds -- and with --history every change
// of a result or a pairing, who made it and when.
#include <cstdio>
#include <string>

#include "ops/tournament_command.h"
#include "report/tournament_print.h"
#include "report/tournament_report.h"
#include "tournament/tournament.h"

namespace qipu::ops {
namespace {

using Json = nlohmann::json;

int RunNew(const TournamentFlags& f) {
  return WithClient(
      "new", f,
      [&](backend::TournamentClient& c) -> absl::Status {
        auto system = tournament::ParseSystem(f.system);
        if (!system.ok()) return system.status();
        qipu::v1::CreateTournamentRequest req;
        req.set_name(f.name);
        req.set_system(*system);
        req.set_rounds(f.rounds);
        req.set_best_of(f.best_of);
        req.set_losses(f.losses);
        req.set_teams(f.teams);
        req.set_boards(f.boards);
        req.set_knockout_size(f.knockout_size);
        req.set_drawing_lots(f.lots);
        req.set_eliminate_after(f.eliminate_after);
        req.set_late_entry_points(f.late_entry_points);
        req.set_sit_out_points(f.sit_out_points);
        req.set_accelerated_rounds(f.accelerate);
        auto r = c.Create(req);
        if (!r.ok()) return r.status();
        if (f.json) {
          PrintJson({{"tournament", r->tournament().id()}});
        } else {
          std::printf("tournament %s: %s (%s)\n", r->tournament().id().c_str(),
                      r->tournament().name().c_str(),
                      tournament::SystemName(r->tournament().system()).c_str());
        }
        return absl::OkStatus();
      },
      /*create=*/true);
}

int RunList(const TournamentFlags& f) {
  return WithClient("list", f, [&](backend::TournamentClient& c) {
    auto r = c.List({});
    if (!r.ok()) return r.status();
    Json all = Json::array();
    for (const qipu::v1::Tournament& t : r->tournaments()) {
      if (f.json) {
        all.push_back(report::TournamentSummaryJson(t));
      } else {
        std::printf("%-6s %-30s %-20s %zu players, %d rounds paired\n",
                    t.id().c_str(), t.name().c_str(),
                    tournament::SystemName(t.system()).c_str(),
                    static_cast<size_t>(t.players_size()), t.round_size());
      }
    }
    if (f.json) PrintJson(all);
    return absl::OkStatus();
  });
}

int RunShow(const TournamentFlags& f) {
  return WithClient("show", f, [&](backend::TournamentClient& c) {
    auto t = FetchTournament(c, f.tournament);
    if (!t.ok()) return t.status();
    if (f.json) {
      Json j = report::TournamentSummaryJson(*t);
      if (f.history) j["history"] = report::HistoryJson(*t);
      PrintJson(j);
    } else {
      std::fputs(report::TournamentSummaryText(*t).c_str(), stdout);
      if (f.history) {
        std::printf("history (%d changes):\n", t->history_size());
        std::fputs(report::HistoryText(*t).c_str(), stdout);
      }
    }
    return absl::OkStatus();
  });
}

}  // namespace

void AddTournamentEventCommands(CLI::App* t,
                                const std::shared_ptr<TournamentFlags>& f,
                                int* exit_code) {
  CLI::App* create = t->add_subcommand("new", "Create a tournament");
  AddTargetAndJson(create, f.get(), "Print {\"tournament\": ID}");
  create->add_option("--name", f->name, "Name of the event")->required();
  create
      ->add_option("--system", f->system,
                   "round-robin, double-round-robin, knockout, "
                   "double-knockout, swiss, swiss-knockout, best-of, "
                   "team-challenge, swiss-elimination")
      ->required();
  create->add_option("--rounds", f->rounds,
                     "Swiss rounds (default: the recommended number, the "
                     "smallest odd number not below knockout rounds x 1.5)");
  create->add_option("--best-of", f->best_of, "best-of: 3, 5 or 7 games");
  create->add_option("--losses", f->losses,
                     "knockout: losses that eliminate (default 1)");
  create->add_flag("--teams", f->teams, "A team event");
  create->add_option("--boards", f->boards, "Team events: boards per match");
  create->add_option("--knockout-size", f->knockout_size,
                     "swiss-knockout: players going on to the knockout");
  create->add_option("--lots", f->lots,
                     "Seed of the drawing of lots (default: from the name)");
  create->add_option("--eliminate-after", f->eliminate_after,
                     "swiss-elimination (積分編排加淘汰, art. 26.4): losses "
                     "that put a player out, 1..8");
  create->add_option("--late-entry-points", f->late_entry_points,
                     "Swiss: game points for each round a late entry "
                     "missed, 0 or 1 (default 0)");
  create->add_option("--sit-out-points", f->sit_out_points,
                     "Swiss: game points for a round sat out on request, 0 "
                     "or 1 (default 0)");
  create->add_option("--accelerate", f->accelerate,
                     "Swiss: rounds paired with virtual points (the top "
                     "half one win up); default 0 = off");
  create->callback([f, exit_code] { *exit_code = RunNew(*f); });

  CLI::App* list = t->add_subcommand("list", "The tournaments stored");
  AddTargetAndJson(list, f.get(), "Print a JSON array");
  list->callback([f, exit_code] { *exit_code = RunList(*f); });

  CLI::App* show =
      t->add_subcommand("show", "A tournament's players and rounds");
  AddTargetAndJson(show, f.get(), "Print JSON");
  AddTournamentId(show, f.get());
  show->add_flag("--history", f->history,
                 "Also every change of a result or pairing: when, who, old, "
                 "new (JSON: \"history\")");
  show->callback([f, exit_code] { *exit_code = RunShow(*f); });
}

}  // namespace qipu::ops
