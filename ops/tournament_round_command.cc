// `qipu tournament pair` and `pairing swap|unpair|add|bye|colours|undo`:
// pairing the next round (refused while any earlier round lacks a result
// or has an entrant unpaired), and the director's edits of the last
// round's pairing before it starts, under the pairer's checks (no pair
// twice, one bye each, a round robin's table and an elimination's bracket
// kept): refused with the reason, or made with --force; every edit is kept
// in the history (`show --history`).
#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"
#include "ops/tournament_command.h"
#include "report/tournament_report.h"

namespace qipu::ops {
namespace {

int RunPair(const TournamentFlags& f) {
  return WithClient("pair", f, [&](backend::TournamentClient& c) {
    qipu::v1::PairRequest req;
    req.set_tournament(f.tournament);
    req.set_allow_repeats(f.allow_repeats);
    auto r = c.Pair(req);
    if (!r.ok()) return r.status();
    if (f.json) {
      PrintJson(report::PairingJson(*r));
    } else {
      std::fputs(report::PairingText(*r).c_str(), stdout);
    }
    if (!r->paired()) {
      return absl::FailedPreconditionError(
          absl::StrCat("round ", r->round(), " cannot be paired without ",
                       r->repeats_needed(),
                       " repeated pair(s); --allow-repeats pairs it so"));
    }
    return absl::OkStatus();
  });
}

int RunEdit(const TournamentFlags& f, qipu::v1::PairingEditKind kind,
            const std::string& name) {
  return WithClient("pairing " + name, f, [&](backend::TournamentClient& c) {
    qipu::v1::EditPairingRequest req;
    req.set_tournament(f.tournament);
    req.set_round(f.round);
    req.set_kind(kind);
    req.set_first(f.first);
    req.set_second(f.second);
    req.set_table(f.table);
    req.set_force(f.force);
    if (kind == qipu::v1::PAIRING_EDIT_UNPAIR &&
        (f.table == 0) == f.first.empty()) {
      return absl::InvalidArgumentError(
          "pairing unpair: give --table (a pairing taken apart) or --name (a "
          "bye taken back), not both");
    }
    return ShowChange(f, c.EditPairing(req));
  });
}

// One `pairing` subcommand: its target, id, round and --force, and the
// entrants (`names`: 0, 1 or 2, with their flags) or table it takes.
CLI::App* AddEdit(CLI::App* pairing, const std::shared_ptr<TournamentFlags>& f,
                  int* exit_code, const std::string& name,
                  const std::string& help, qipu::v1::PairingEditKind kind) {
  CLI::App* cmd = pairing->add_subcommand(name, help);
  AddTargetAndJson(cmd, f.get(), "Print the tournament as JSON");
  AddTournamentId(cmd, f.get());
  cmd->add_option("--round", f->round,
                  "The round edited: the last one paired (default)");
  if (kind != qipu::v1::PAIRING_EDIT_UNDO_ROUND &&
      kind != qipu::v1::PAIRING_EDIT_SWAP_COLOURS) {
    cmd->add_flag("--force", f->force,
                  "Make the edit although it repeats a pair, gives a second "
                  "bye or leaves the system's pairing");
  }
  cmd->callback(
      [f, exit_code, kind, name] { *exit_code = RunEdit(*f, kind, name); });
  return cmd;
}

}  // namespace

void AddTournamentRoundCommands(CLI::App* t,
                                const std::shared_ptr<TournamentFlags>& f,
                                int* exit_code) {
  CLI::App* pair = t->add_subcommand(
      "pair",
      "Pair the next round (refused while a result of any round is missing)");
  AddTargetAndJson(
      pair, f.get(),
      "Print {\"round\", \"pairings\": [{table, black, white}], \"bye\"}");
  AddTournamentId(pair, f.get());
  pair->add_flag("--allow-repeats", f->allow_repeats,
                 "Swiss: pair with the fewest repeats when none is free");
  pair->callback([f, exit_code] { *exit_code = RunPair(*f); });

  CLI::App* pairing = t->add_subcommand(
      "pairing", "Edit the last round's pairing before it starts");
  pairing->require_subcommand(1);
  CLI::App* swap =
      AddEdit(pairing, f, exit_code, "swap",
              "Two entrants change places (table and colour, or the bye)",
              qipu::v1::PAIRING_EDIT_SWAP);
  swap->add_option("--first", f->first, "An entrant's name")->required();
  swap->add_option("--second", f->second, "Another entrant's name")->required();
  CLI::App* unpair = AddEdit(
      pairing, f, exit_code, "unpair",
      "Take a table apart (--table) or a bye back (--name): they wait unpaired",
      qipu::v1::PAIRING_EDIT_UNPAIR);
  unpair->add_option("--table", f->table, "The table");
  unpair->add_option("--name", f->first, "The entrant on the bye");
  CLI::App* add = AddEdit(pairing, f, exit_code, "add",
                          "Pair two unpaired entrants (or a late entry) at a "
                          "new table",
                          qipu::v1::PAIRING_EDIT_PAIR);
  add->add_option("--black", f->first, "Black's name")->required();
  add->add_option("--white", f->second, "White's name")->required();
  CLI::App* bye = AddEdit(pairing, f, exit_code, "bye",
                          "Give the bye to an unpaired entrant",
                          qipu::v1::PAIRING_EDIT_BYE);
  bye->add_option("--name", f->first, "The entrant's name")->required();
  CLI::App* colours = AddEdit(pairing, f, exit_code, "colours",
                              "Swap Black and White at a table",
                              qipu::v1::PAIRING_EDIT_SWAP_COLOURS);
  colours->add_option("--table", f->table, "The table")->required();
  AddEdit(pairing, f, exit_code, "undo",
          "Take the round's pairing back (no result in yet); pair makes it "
          "again",
          qipu::v1::PAIRING_EDIT_UNDO_ROUND);
}

}  // namespace qipu::ops
