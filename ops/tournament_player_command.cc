// `qipu tournament player add|edit|withdraw|sit-out`, `team withdraw`,
// `warn`: the entrants of an event. Players are registered with their
// name in either script (--alt-name), rating, rank and the director's
// seed; after round 1 a Swiss takes late entries; `edit` changes what was
// registered (a seed after the start only in a Swiss); `sit-out` records a
// requested bye for a round not yet paired.
#include <string>

#include "ops/tournament_command.h"

namespace qipu::ops {
namespace {

int RunPlayerAdd(const TournamentFlags& f) {
  return WithClient("player add", f, [&](backend::TournamentClient& c) {
    qipu::v1::AddPlayerRequest req;
    req.set_tournament(f.tournament);
    req.set_name(f.name);
    req.set_rating(f.rating);
    req.set_rank(f.rank);
    req.set_club(f.club);
    req.set_team(f.team);
    req.set_board(f.board);
    req.set_alt_name(f.alt_name);
    req.set_seed(f.seed);
    return ShowChange(f, c.AddPlayer(req));
  });
}

int RunPlayerEdit(const TournamentFlags& f) {
  return WithClient("player edit", f, [&](backend::TournamentClient& c) {
    qipu::v1::EditPlayerRequest req;
    req.set_tournament(f.tournament);
    req.set_name(f.name);
    const auto given = [](const CLI::Option* o) {
      return o != nullptr && o->count() > 0;
    };
    if (given(f.edit_rating)) req.set_rating(f.rating);
    if (given(f.edit_rank)) req.set_rank(f.rank);
    if (given(f.edit_club)) req.set_club(f.club);
    if (given(f.edit_alt_name)) req.set_alt_name(f.alt_name);
    if (given(f.edit_seed)) req.set_seed(f.seed);
    if (!req.has_rating() && !req.has_rank() && !req.has_club() &&
        !req.has_alt_name() && !req.has_seed()) {
      return absl::InvalidArgumentError(
          "nothing to change: give --rating, --rank, --club, --alt-name or "
          "--seed");
    }
    return ShowChange(f, c.EditPlayer(req));
  });
}

int RunSitOut(const TournamentFlags& f) {
  return WithClient("player sit-out", f, [&](backend::TournamentClient& c) {
    qipu::v1::SitOutRequest req;
    req.set_tournament(f.tournament);
    req.set_name(f.name);
    req.set_round(f.round);
    req.set_cancel(f.cancel);
    return ShowChange(f, c.SitOut(req));
  });
}

int RunWithdraw(const TournamentFlags& f, bool team) {
  return WithClient(team ? "team withdraw" : "player withdraw", f,
                    [&](backend::TournamentClient& c) {
                      qipu::v1::WithdrawRequest req;
                      req.set_tournament(f.tournament);
                      req.set_name(f.name);
                      req.set_team(team);
                      return ShowChange(f, c.Withdraw(req));
                    });
}

int RunWarn(const TournamentFlags& f) {
  return WithClient("warn", f, [&](backend::TournamentClient& c) {
    qipu::v1::WarningsRequest req;
    req.set_tournament(f.tournament);
    req.set_name(f.name);
    req.set_count(f.count);
    return ShowChange(f, c.AddWarnings(req));
  });
}

// The flags a player is registered with (add) or changed by (edit).
void AddPlayerFields(CLI::App* cmd, TournamentFlags* f, bool edit) {
  CLI::Option* rating =
      cmd->add_option("--rating", f->rating, "Rating (Elo-like), -1000..4000");
  CLI::Option* rank =
      cmd->add_option("--rank", f->rank, "Rank: 40k .. 1k, 1d .. 9d, 1p .. 9p");
  CLI::Option* club = cmd->add_option("--club", f->club, "Club");
  CLI::Option* alt = cmd->add_option(
      "--alt-name", f->alt_name,
      "The name in another script, printed beside --name (李偉)");
  CLI::Option* seed = cmd->add_option(
      "--seed", f->seed,
      edit ? "Seed (1 = top); after round 1 only in a Swiss, swapped with "
             "its holder"
           : "The director's seed (1 = top; default: by rating, rank, "
             "registration)");
  if (edit) {
    f->edit_rating = rating;
    f->edit_rank = rank;
    f->edit_club = club;
    f->edit_alt_name = alt;
    f->edit_seed = seed;
  }
}

}  // namespace

void AddTournamentPlayerCommands(CLI::App* t,
                                 const std::shared_ptr<TournamentFlags>& f,
                                 int* exit_code) {
  CLI::App* player = t->add_subcommand("player", "Register or withdraw");
  player->require_subcommand(1);
  CLI::App* add = player->add_subcommand(
      "add", "Register a player (after round 1: a late entry, Swiss only)");
  AddTargetAndJson(add, f.get(), "Print the tournament as JSON");
  AddTournamentId(add, f.get());
  add->add_option("--name", f->name, "Player's name")->required();
  AddPlayerFields(add, f.get(), /*edit=*/false);
  add->add_option("--team", f->team, "Team (team events, team challenge)");
  add->add_option("--board", f->board, "Board in the team (1 = first)");
  add->callback([f, exit_code] { *exit_code = RunPlayerAdd(*f); });

  CLI::App* edit = player->add_subcommand(
      "edit", "Change a player's rating, rank, club, other name or seed");
  AddTargetAndJson(edit, f.get(), "Print the tournament as JSON");
  AddTournamentId(edit, f.get());
  edit->add_option("--name", f->name, "Player's name")->required();
  AddPlayerFields(edit, f.get(), /*edit=*/true);
  edit->callback([f, exit_code] { *exit_code = RunPlayerEdit(*f); });

  CLI::App* sit = player->add_subcommand(
      "sit-out", "A requested bye: the player sits a later round out");
  AddTargetAndJson(sit, f.get(), "Print the tournament as JSON");
  AddTournamentId(sit, f.get());
  sit->add_option("--name", f->name, "Player's name")->required();
  sit->add_option("--round", f->round, "A round not paired yet")->required();
  sit->add_flag("--cancel", f->cancel, "Take the request back");
  sit->callback([f, exit_code] { *exit_code = RunSitOut(*f); });

  CLI::App* withdraw =
      player->add_subcommand("withdraw", "Withdraw a player (art. 28)");
  AddTargetAndJson(withdraw, f.get(), "Print the tournament as JSON");
  AddTournamentId(withdraw, f.get());
  withdraw->add_option("--name", f->name, "Player's name")->required();
  withdraw->callback(
      [f, exit_code] { *exit_code = RunWithdraw(*f, /*team=*/false); });

  CLI::App* team = t->add_subcommand("team", "Team entrants");
  team->require_subcommand(1);
  CLI::App* team_withdraw =
      team->add_subcommand("withdraw", "Withdraw a team (art. 28)");
  AddTargetAndJson(team_withdraw, f.get(), "Print the tournament as JSON");
  AddTournamentId(team_withdraw, f.get());
  team_withdraw->add_option("--name", f->name, "Team's name")->required();
  team_withdraw->callback(
      [f, exit_code] { *exit_code = RunWithdraw(*f, /*team=*/true); });

  CLI::App* warn = t->add_subcommand("warn", "Give a player warnings");
  AddTargetAndJson(warn, f.get(), "Print the tournament as JSON");
  AddTournamentId(warn, f.get());
  warn->add_option("--name", f->name, "Player's name")->required();
  warn->add_option("--count", f->count, "Warnings (default 1)");
  warn->callback([f, exit_code] { *exit_code = RunWarn(*f); });
}

}  // namespace qipu::ops
