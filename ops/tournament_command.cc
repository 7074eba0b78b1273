// `qipu tournament ...`: tournaments for people (and for the engine
// arena), as the seed's pairing program runs them: the director creates
// the event, registers players, pairs each round, enters results and
// prints standings. The state lives in a database (--db DIR, created by
// `new` when missing) or on a running coordinator (--server HOST:PORT);
// standings, crosstables and exports are computed here from the stored
// tournament (tournament/tournament.h), so both answer alike.
//
//   qipu tournament new --db D --name Open --system swiss --rounds 5 --json
//   qipu tournament player add --db D --tournament 1 --name Li --rank 3d
//   qipu tournament pair --db D --tournament 1 --json
//   qipu tournament result --db D --tournament 1 --round 1 --table 1
//       --result B+
//   qipu tournament result --db D --tournament 2 --round 1 --table 1
//       --boards B+,W+,draw        (a team match, board 1 first)
//   qipu tournament standings --db D --tournament 1 --json
//
// Exit status: 0 done, 1 the call failed (the tournament's state does not
// allow it, storage), 2 bad flags or input.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "base/console.h"
#include "client/tournament_client.h"
#include "nlohmann/json.hpp"
#include "ops/commands.h"
#include "ops/flags.h"
#include "report/tournament_report.h"
#include "tournament/outcome.h"
#include "tournament/ratings.h"
#include "tournament/tournament.h"

namespace qipu::ops {
namespace {

using Json = nlohmann::json;
using namespace report;  // NOLINT: the renderings below

// Flags of every subcommand; each uses the ones it registers.
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
  // player add
  int32_t rating = 0;
  std::string rank;
  std::string club;
  std::string team;
  uint32_t board = 0;
  // warn
  uint32_t count = 1;
  // pair
  bool allow_repeats = false;
  // result
  uint32_t round = 0;
  uint32_t table = 0;
  std::string result;
  std::string board_results;  // --boards of result: board 1 first
  std::string game_id;
  // export
  std::string format = "csv";
};

int TournamentFail(const std::string& cmd, const absl::Status& s) {
  return base::Fail("tournament " + cmd, s.message(),
                    absl::IsInvalidArgument(s) ? 2 : 1);
}

void PrintJson(const Json& j) { std::printf("%s\n", j.dump().c_str()); }

absl::StatusOr<std::unique_ptr<client::TournamentClient>> Open(
    const TournamentFlags& f, bool create = false) {
  auto target = f.target.ToTarget();
  if (!target.ok()) return target.status();
  return client::TournamentClient::Open(*target, create);
}

// Runs `body` with a client; maps its status to the exit code.
template <typename Body>
int WithClient(const std::string& cmd, const TournamentFlags& f, Body body,
               bool create = false) {
  auto c = Open(f, create);
  if (!c.ok()) return TournamentFail(cmd, c.status());
  absl::Status s = body(**c);
  return s.ok() ? 0 : TournamentFail(cmd, s);
}

int RunNew(const TournamentFlags& f) {
  return WithClient(
      "new", f,
      [&](client::TournamentClient& c) -> absl::Status {
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

// Prints a tournament after a change (--json: the summary object).
absl::Status Show(const TournamentFlags& f,
                  absl::StatusOr<qipu::v1::TournamentResponse> r) {
  if (!r.ok()) return r.status();
  if (f.json) {
    PrintJson(TournamentSummaryJson(r->tournament()));
  } else {
    std::fputs(TournamentSummaryText(r->tournament()).c_str(), stdout);
  }
  return absl::OkStatus();
}

int RunList(const TournamentFlags& f) {
  return WithClient("list", f, [&](client::TournamentClient& c) {
    auto r = c.List({});
    if (!r.ok()) return r.status();
    Json all = Json::array();
    for (const qipu::v1::Tournament& t : r->tournaments()) {
      if (f.json) {
        all.push_back(TournamentSummaryJson(t));
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
  return WithClient("show", f, [&](client::TournamentClient& c) {
    qipu::v1::TournamentRequest req;
    req.set_tournament(f.tournament);
    return Show(f, c.Get(req));
  });
}

int RunPlayerAdd(const TournamentFlags& f) {
  return WithClient("player add", f, [&](client::TournamentClient& c) {
    qipu::v1::AddPlayerRequest req;
    req.set_tournament(f.tournament);
    req.set_name(f.name);
    req.set_rating(f.rating);
    req.set_rank(f.rank);
    req.set_club(f.club);
    req.set_team(f.team);
    req.set_board(f.board);
    return Show(f, c.AddPlayer(req));
  });
}

int RunWithdraw(const TournamentFlags& f, bool team) {
  return WithClient(team ? "team withdraw" : "player withdraw", f,
                    [&](client::TournamentClient& c) {
                      qipu::v1::WithdrawRequest req;
                      req.set_tournament(f.tournament);
                      req.set_name(f.name);
                      req.set_team(team);
                      return Show(f, c.Withdraw(req));
                    });
}

int RunWarn(const TournamentFlags& f) {
  return WithClient("warn", f, [&](client::TournamentClient& c) {
    qipu::v1::WarningsRequest req;
    req.set_tournament(f.tournament);
    req.set_name(f.name);
    req.set_count(f.count);
    return Show(f, c.AddWarnings(req));
  });
}

int RunPair(const TournamentFlags& f) {
  return WithClient("pair", f, [&](client::TournamentClient& c) {
    qipu::v1::PairRequest req;
    req.set_tournament(f.tournament);
    req.set_allow_repeats(f.allow_repeats);
    auto r = c.Pair(req);
    if (!r.ok()) return r.status();
    if (f.json) {
      PrintJson(PairingJson(*r));
    } else {
      std::fputs(PairingText(*r).c_str(), stdout);
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

// A result as --result spells it: "none" clears a result; the rest as
// tournament/outcome.h spells them.
absl::StatusOr<qipu::v1::GameResult> ParseResultFlag(const std::string& text) {
  if (absl::AsciiStrToLower(text) == "none") {
    return qipu::v1::GAME_RESULT_UNKNOWN;
  }
  return tournament::ParseGameResult(text);
}

// --boards R1,R2,...: the result of every board of a team match, entered
// board by board once all of them parse and their number is the match's.
// One request a board (the service sets one result a call): should a
// later board fail (storage), the earlier ones stay entered, and running
// the same command again is harmless.
absl::Status SetBoardResults(const TournamentFlags& f,
                             client::TournamentClient& c) {
  std::vector<qipu::v1::GameResult> results;
  for (absl::string_view text : absl::StrSplit(f.board_results, ',')) {
    auto r = ParseResultFlag(std::string(absl::StripAsciiWhitespace(text)));
    if (!r.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--boards: board ", results.size() + 1, ": ", r.status().message()));
    }
    results.push_back(*r);
  }
  qipu::v1::TournamentRequest get;
  get.set_tournament(f.tournament);
  auto t = c.Get(get);
  if (!t.ok()) return t.status();
  const qipu::v1::Tournament& tour = t->tournament();
  const std::string where = absl::StrCat("round ", f.round, " table ", f.table);
  if (!tour.teams_event()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": --boards is for team events; use --result"));
  }
  if (f.round < 1 || static_cast<int>(f.round) > tour.round_size() ||
      f.table < 1 ||
      static_cast<int>(f.table) > tour.round(f.round - 1).pairings_size()) {
    return absl::InvalidArgumentError(absl::StrCat(where, ": no such table"));
  }
  const int boards =
      tour.round(f.round - 1).pairings(f.table - 1).boards_size();
  if (static_cast<int>(results.size()) != boards) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": --boards has ", results.size(),
                     " results for a match of ", boards, " boards"));
  }
  absl::StatusOr<qipu::v1::TournamentResponse> last;
  for (int b = 0; b < boards; ++b) {
    qipu::v1::SetResultRequest req;
    req.set_tournament(f.tournament);
    req.set_round(f.round);
    req.set_table(f.table);
    req.set_board(b + 1);
    req.set_result(results[b]);
    last = c.SetResult(req);
    if (!last.ok()) return last.status();
  }
  return Show(f, std::move(last));
}

int RunResult(const TournamentFlags& f) {
  return WithClient("result", f, [&](client::TournamentClient& c) {
    if (f.result.empty() == f.board_results.empty()) {
      return absl::InvalidArgumentError(
          "give --result (one game or board) or --boards (every board of a "
          "team match), not both");
    }
    if (!f.board_results.empty()) {
      if (f.board != 0 || !f.game_id.empty()) {
        return absl::InvalidArgumentError(
            "--boards enters every board; --board and --game go with "
            "--result");
      }
      return SetBoardResults(f, c);
    }
    absl::StatusOr<qipu::v1::GameResult> result = ParseResultFlag(f.result);
    if (!result.ok()) return result.status();
    qipu::v1::SetResultRequest req;
    req.set_tournament(f.tournament);
    req.set_round(f.round);
    req.set_table(f.table);
    req.set_board(f.board);
    req.set_result(*result);
    req.set_game_id(f.game_id);
    return Show(f, c.SetResult(req));
  });
}

// The stored tournament, for the read-only reports.
absl::StatusOr<qipu::v1::Tournament> Fetch(client::TournamentClient& c,
                                           const std::string& id) {
  qipu::v1::TournamentRequest req;
  req.set_tournament(id);
  auto r = c.Get(req);
  if (!r.ok()) return r.status();
  return r->tournament();
}

int RunStandings(const TournamentFlags& f) {
  return WithClient("standings", f, [&](client::TournamentClient& c) {
    auto t = Fetch(c, f.tournament);
    if (!t.ok()) return t.status();
    auto s = tournament::GetStandings(*t);
    if (!s.ok()) return s.status();
    if (f.json) {
      PrintJson(StandingsJson(*t, *s));
    } else {
      std::fputs(StandingsText(*t, *s).c_str(), stdout);
    }
    return absl::OkStatus();
  });
}

int RunCrosstable(const TournamentFlags& f) {
  return WithClient("crosstable", f, [&](client::TournamentClient& c) {
    auto t = Fetch(c, f.tournament);
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
  return WithClient("ratings", f, [&](client::TournamentClient& c) {
    auto t = Fetch(c, f.tournament);
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
  return WithClient("export", f, [&](client::TournamentClient& c) {
    auto t = Fetch(c, f.tournament);
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

// --tournament ID, required.
void AddId(CLI::App* cmd, TournamentFlags* f) {
  cmd->add_option("--tournament", f->tournament, "Tournament id")->required();
}

}  // namespace

void AddTournamentCommand(CLI::App& app, int* exit_code) {
  CLI::App* t = app.add_subcommand(
      "tournament",
      "Tournaments for people: register, pair, enter results, standings");
  t->require_subcommand(1);
  auto f = std::make_shared<TournamentFlags>();
  // Every subcommand takes --db/--server and --json.
  auto common = [&](CLI::App* cmd, const std::string& json_help) {
    f->target.Add(cmd);
    cmd->add_flag("--json", f->json, json_help);
  };

  CLI::App* create = t->add_subcommand("new", "Create a tournament");
  common(create, "Print {\"tournament\": ID}");
  create->add_option("--name", f->name, "Name of the event")->required();
  create
      ->add_option("--system", f->system,
                   "round-robin, double-round-robin, knockout, "
                   "double-knockout, swiss, swiss-knockout, best-of, "
                   "team-challenge")
      ->required();
  create->add_option("--rounds", f->rounds,
                     "Swiss rounds (default: the recommended number)");
  create->add_option("--best-of", f->best_of, "best-of: 3, 5 or 7 games");
  create->add_option("--losses", f->losses,
                     "knockout: losses that eliminate (default 1)");
  create->add_flag("--teams", f->teams, "A team event");
  create->add_option("--boards", f->boards, "Team events: boards per match");
  create->add_option("--knockout-size", f->knockout_size,
                     "swiss-knockout: players going on to the knockout");
  create->add_option("--lots", f->lots,
                     "Seed of the drawing of lots (default: from the name)");
  create->callback([f, exit_code] { *exit_code = RunNew(*f); });

  CLI::App* list = t->add_subcommand("list", "The tournaments stored");
  common(list, "Print a JSON array");
  list->callback([f, exit_code] { *exit_code = RunList(*f); });

  CLI::App* show = t->add_subcommand("show",
                                     "A tournament's players and "
                                     "rounds");
  common(show, "Print JSON");
  AddId(show, f.get());
  show->callback([f, exit_code] { *exit_code = RunShow(*f); });

  CLI::App* player = t->add_subcommand("player", "Register or withdraw");
  player->require_subcommand(1);
  CLI::App* add = player->add_subcommand("add", "Register a player");
  common(add, "Print the tournament as JSON");
  AddId(add, f.get());
  add->add_option("--name", f->name, "Player's name")->required();
  add->add_option("--rating", f->rating, "Rating (Elo-like)");
  add->add_option("--rank", f->rank, "Rank: 15k .. 1k, 1d .. 9d, 1p .. 9p");
  add->add_option("--club", f->club, "Club");
  add->add_option("--team", f->team, "Team (team events, team challenge)");
  add->add_option("--board", f->board, "Board in the team (1 = first)");
  add->callback([f, exit_code] { *exit_code = RunPlayerAdd(*f); });
  CLI::App* withdraw =
      player->add_subcommand("withdraw", "Withdraw a player (art. 28)");
  common(withdraw, "Print the tournament as JSON");
  AddId(withdraw, f.get());
  withdraw->add_option("--name", f->name, "Player's name")->required();
  withdraw->callback(
      [f, exit_code] { *exit_code = RunWithdraw(*f, /*team=*/false); });

  CLI::App* team = t->add_subcommand("team", "Team entrants");
  team->require_subcommand(1);
  CLI::App* team_withdraw =
      team->add_subcommand("withdraw", "Withdraw a team (art. 28)");
  common(team_withdraw, "Print the tournament as JSON");
  AddId(team_withdraw, f.get());
  team_withdraw->add_option("--name", f->name, "Team's name")->required();
  team_withdraw->callback(
      [f, exit_code] { *exit_code = RunWithdraw(*f, /*team=*/true); });

  CLI::App* warn = t->add_subcommand("warn", "Give a player warnings");
  common(warn, "Print the tournament as JSON");
  AddId(warn, f.get());
  warn->add_option("--name", f->name, "Player's name")->required();
  warn->add_option("--count", f->count, "Warnings (default 1)");
  warn->callback([f, exit_code] { *exit_code = RunWarn(*f); });

  CLI::App* pair = t->add_subcommand(
      "pair", "Pair the next round (refused while results are missing)");
  common(pair,
         "Print {\"round\", \"pairings\": [{table, black, white}], \"bye\"}");
  AddId(pair, f.get());
  pair->add_flag("--allow-repeats", f->allow_repeats,
                 "Swiss: pair with the fewest repeats when none is free");
  pair->callback([f, exit_code] { *exit_code = RunPair(*f); });

  CLI::App* result = t->add_subcommand(
      "result", "Enter a game's result (team events: a board's, or --boards)");
  common(result, "Print the tournament as JSON");
  AddId(result, f.get());
  result->add_option("--round", f->round, "Round (1-based)")->required();
  result->add_option("--table", f->table, "Table (1-based)")->required();
  result->add_option("--board", f->board, "Team events: board (1-based)");
  result->add_option("--result", f->result,
                     "B+, W+, draw, B+forfeit, W+forfeit, both-lose, void, "
                     "or none (clears it)");
  result->add_option("--boards", f->board_results,
                     "Team events: every board's result, board 1 first, "
                     "comma-separated (e.g. B+,W+,draw)");
  result->add_option("--game", f->game_id, "Id of the stored game");
  result->callback([f, exit_code] { *exit_code = RunResult(*f); });

  CLI::App* standings =
      t->add_subcommand("standings", "Ranks with their tie-breaks");
  common(standings, "Print {\"order\", \"rows\": [...]}");
  AddId(standings, f.get());
  standings->callback([f, exit_code] { *exit_code = RunStandings(*f); });

  CLI::App* cross = t->add_subcommand("crosstable", "Every round of everyone");
  common(cross, "Print JSON");
  AddId(cross, f.get());
  cross->callback([f, exit_code] { *exit_code = RunCrosstable(*f); });

  CLI::App* ratings = t->add_subcommand(
      "ratings",
      "Bradley-Terry (BayesElo) ratings from the games played, with 95% "
      "intervals and Black's advantage");
  common(ratings, "Print {\"advantage\", \"players\": [...]}");
  AddId(ratings, f.get());
  ratings->callback([f, exit_code] { *exit_code = RunRatings(*f); });

  CLI::App* exp = t->add_subcommand(
      "export", "Standings as CSV, or the event as OpenGotha-style XML");
  common(exp, "(unused)");
  AddId(exp, f.get());
  exp->add_option("--format", f->format, "csv or opengotha")
      ->capture_default_str();
  exp->callback([f, exit_code] { *exit_code = RunExport(*f); });
}

}  // namespace qipu::ops
