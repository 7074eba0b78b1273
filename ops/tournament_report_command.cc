// `qipu tournament standings|crosstable|ratings|export|sheet`: the
// read-only reports, computed here from the stored tournament
// (tournament/tournament.h) so that --db and --server answer alike. The
// standings and a round's sheet print as text (names as registered in both
// scripts, aligned in terminal columns) or as a printable HTML page
// (--html); the export writes CSV or OpenGotha-style XML.
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ops/tournament_command.h"
#include "report/tournament_print.h"
#include "report/tournament_report.h"
#include "tournament/ratings.h"
#include "tournament/tournament.h"

namespace qipu::ops {
namespace {

using namespace report;  // NOLINT: the renderings below

int RunStandings(const TournamentFlags& f) {
  return WithClient("standings", f, [&](backend::TournamentClient& c) {
    auto t = FetchTournament(c, f.tournament);
    if (!t.ok()) return t.status();
    auto s = tournament::GetStandings(*t);
    if (!s.ok()) return s.status();
    if (f.json && f.html) {
      return absl::InvalidArgumentError("--json or --html, not both");
    }
    if (f.json) {
      PrintJson(StandingsJson(*t, *s));
    } else if (f.html) {
      std::fputs(StandingsHtml(*t, *s).c_str(), stdout);
    } else {
      std::fputs(StandingsText(*t, *s).c_str(), stdout);
    }
    return absl::OkStatus();
  });
}

int RunSheet(const TournamentFlags& f) {
  return WithClient("sheet", f, [&](backend::TournamentClient& c) {
    auto t = FetchTournament(c, f.tournament);
    if (!t.ok()) return t.status();
    const int round =
        f.round == 0 ? t->round_size() : static_cast<int>(f.round);
    auto sheet = f.html ? RoundSheetHtml(*t, round) : RoundSheetText(*t, round);
    if (!sheet.ok()) return sheet.status();
    std::fputs(sheet->c_str(), stdout);
    return absl::OkStatus();
  });
}

int RunCrosstable(const TournamentFlags& f) {
  return WithClient("crosstable", f, [&](backend::TournamentClient& c) {
    auto t = FetchTournament(c, f.tournament);
    if (!t.ok()) return t.status();
    auto x = tournament::GetCrosstable(*t);
    if (!x.ok()) return x.status();
    if (f.json) {
      PrintJson(CrosstableJson(*x));
    } else {
      std::fputs(CrosstableText(*x).c_str(), stdout);
    }
    return absl::OkStatus();
  });
}

int RunRatings(const TournamentFlags& f) {
  return WithClient("ratings", f, [&](backend::TournamentClient& c) {
    auto t = FetchTournament(c, f.tournament);
    if (!t.ok()) return t.status();
    const std::vector<tournament::RatedGame> games = RatedGames(*t);
    const std::vector<std::string> names = PlayerNames(*t);
    if (names.empty()) {
      return absl::FailedPreconditionError("the tournament has no players");
    }
    auto r = tournament::ComputeRatings(games, static_cast<int>(names.size()),
                                        {}, names);
    if (!r.ok()) return r.status();
    if (f.json) {
      PrintJson(RatingsJson(*r));
    } else {
      std::fputs(RatingsText(*r).c_str(), stdout);
    }
    return absl::OkStatus();
  });
}

int RunExport(const TournamentFlags& f) {
  return WithClient("export", f, [&](backend::TournamentClient& c) {
    auto t = FetchTournament(c, f.tournament);
    if (!t.ok()) return t.status();
    auto s = tournament::GetStandings(*t);
    if (!s.ok()) return s.status();
    if (f.format == "csv") {
      std::fputs(StandingsCsv(*t, *s).c_str(), stdout);
    } else if (f.format == "opengotha") {
      std::fputs(OpenGothaXml(*t).c_str(), stdout);
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("--format ", f.format, " is not csv or opengotha"));
    }
    return absl::OkStatus();
  });
}

}  // namespace

void AddTournamentReportCommands(CLI::App* t,
                                 const std::shared_ptr<TournamentFlags>& f,
                                 int* exit_code) {
  CLI::App* standings =
      t->add_subcommand("standings", "Ranks with their tie-breaks");
  AddTargetAndJson(standings, f.get(), "Print {\"order\", \"rows\": [...]}");
  AddTournamentId(standings, f.get());
  standings->add_flag("--html", f->html, "A printable HTML page");
  standings->callback([f, exit_code] { *exit_code = RunStandings(*f); });

  CLI::App* sheet = t->add_subcommand(
      "sheet", "A round's pairing sheet to print (text, or --html)");
  f->target.Add(sheet);
  AddTournamentId(sheet, f.get());
  sheet->add_option("--round", f->round, "Round (default: the last paired)");
  sheet->add_flag("--html", f->html, "A printable HTML page");
  sheet->callback([f, exit_code] { *exit_code = RunSheet(*f); });

  CLI::App* cross = t->add_subcommand("crosstable", "Every round of everyone");
  AddTargetAndJson(cross, f.get(), "Print JSON");
  AddTournamentId(cross, f.get());
  cross->callback([f, exit_code] { *exit_code = RunCrosstable(*f); });

  CLI::App* ratings = t->add_subcommand(
      "ratings",
      "Bradley-Terry (BayesElo) ratings from the games played, with 95% "
      "intervals and Black's advantage");
  AddTargetAndJson(ratings, f.get(),
                   "Print {\"advantage\", \"players\": [...]}");
  AddTournamentId(ratings, f.get());
  ratings->callback([f, exit_code] { *exit_code = RunRatings(*f); });

  CLI::App* exp = t->add_subcommand(
      "export", "Standings as CSV, or the event as OpenGotha-style XML");
  AddTargetAndJson(exp, f.get(), "(unused)");
  AddTournamentId(exp, f.get());
  exp->add_option("--format", f->format, "csv or opengotha")
      ->capture_default_str();
  exp->callback([f, exit_code] { *exit_code = RunExport(*f); });
}

}  // namespace qipu::ops
