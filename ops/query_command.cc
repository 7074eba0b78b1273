// `qipu query openings|ko|cycles|results|game|games|players`: the queries of
// the game database, against a running coordinator (--server HOST:PORT,
// over gRPC) or a database directory opened here (--db DIR; it must not be
// held by a running coordinator). Every query takes the filters --size,
// --rules, --komi, --handicap, --source, --policy, --from and --to, the
// player index's --player, --as, --opponent, --event, --result,
// --rank-min and --rank-max (issue 32), and
// prints a table, or one JSON object with --json (report/query_report.h).
// The query flags and how they fill the requests are backend/query_args.h's
// table, shared with the HTTP API (web/api.h).
//
//   qipu query openings --server localhost:7070 --size 9 --moves "E5 C3"
//   qipu query openings --db /var/lib/qipu --moves "B:Q16" --to-play B
//   qipu query ko --db /var/lib/qipu --rules tromp-taylor --json
//   qipu query game s3-17 --server localhost:7070 --sgf
//   qipu query openings --db ./games --player "Ke Jie" --as black --moves Q16
//   qipu query games --db ./games --player "Ke Jie" --opponent "Gu Li"
//   qipu query players --db ./games --prefix ke --json
//
// Exit status: 0 answered, 1 the query failed, 2 bad flags, filters or
// moves.
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backend/query_args.h"
#include "backend/query_client.h"
#include "base/console.h"
#include "engine/queries.h"
#include "ops/commands.h"
#include "ops/flags.h"
#include "report/query_report.h"

namespace qipu::ops {
namespace {

// What a query subcommand was given.
struct QueryFlags {
  TargetFlags target;
  bool json = false;
  // game
  bool sgf = false;
  // The query arguments (backend/query_args.h) by name; given() says which
  // were on the command line.
  std::map<std::string, std::string> values;
  std::map<std::string, CLI::Option*> options;

  backend::QueryArgs given() const {
    backend::QueryArgs out;
    for (const auto& [name, opt] : options) {
      if (opt->count() > 0) out.emplace_back(name, values.at(name));
    }
    return out;
  }
};

// Prints a failed query as "qipu query <cmd>: <why>"; returns the exit
// status (2 for the caller's mistakes).
int FailQuery(const std::string& cmd, const absl::Status& s) {
  return base::Fail("query " + cmd, s.message(),
                    absl::IsInvalidArgument(s) ? 2 : 1);
}

void Print(const nlohmann::json& j) { std::printf("%s\n", j.dump().c_str()); }
void Print(const std::string& text) { std::fputs(text.c_str(), stdout); }

int RunQuery(const std::string& cmd, const QueryFlags& f) {
  const backend::QueryArgs args = f.given();
  auto target = f.target.ToTarget();
  if (!target.ok()) return FailQuery(cmd, target.status());
  // Builds the request first (flag errors before any connection).
  auto fail = [&](const absl::Status& s) {
    return FailQuery(cmd, backend::NameArgsInStatus(s, "--"));
  };
  absl::StatusOr<qipu::v1::OpeningsRequest> openings;
  absl::StatusOr<qipu::v1::KoRequest> ko;
  absl::StatusOr<qipu::v1::CyclesRequest> cycles;
  absl::StatusOr<qipu::v1::ResultsRequest> results;
  absl::StatusOr<qipu::v1::GetGameRequest> game;
  absl::StatusOr<qipu::v1::GamesRequest> games;
  absl::StatusOr<qipu::v1::PlayersRequest> players;
  absl::Status built;
  if (cmd == "openings") {
    built = (openings = backend::OpeningsFromArgs(args, "--")).status();
  } else if (cmd == "ko") {
    built = (ko = backend::KoFromArgs(args, "--")).status();
  } else if (cmd == "cycles") {
    built = (cycles = backend::CyclesFromArgs(args, "--")).status();
  } else if (cmd == "results") {
    built = (results = backend::ResultsFromArgs(args, "--")).status();
  } else if (cmd == "games") {
    built = (games = backend::GamesFromArgs(args, "--")).status();
  } else if (cmd == "players") {
    built = (players = backend::PlayersFromArgs(args, "--")).status();
  } else {
    built = (game = backend::GameFromArgs(args, "--")).status();
  }
  if (!built.ok()) return fail(built);
  auto client = backend::QueryClient::Open(*target);
  if (!client.ok()) return FailQuery(cmd, client.status());
  backend::QueryClient& q = **client;
  if (cmd == "openings") {
    auto r = q.Openings(*openings);
    if (!r.ok()) return fail(r.status());
    f.json ? Print(report::OpeningsJson(*r))
           : Print(report::OpeningsText(*r, *openings));
  } else if (cmd == "ko") {
    auto r = q.Ko(*ko);
    if (!r.ok()) return fail(r.status());
    f.json ? Print(report::KoJson(*r)) : Print(report::KoText(*r));
  } else if (cmd == "cycles") {
    auto r = q.Cycles(*cycles);
    if (!r.ok()) return fail(r.status());
    f.json ? Print(report::CyclesJson(*r)) : Print(report::CyclesText(*r));
  } else if (cmd == "results") {
    auto r = q.Results(*results);
    if (!r.ok()) return fail(r.status());
    f.json ? Print(report::ResultsJson(*r)) : Print(report::ResultsText(*r));
  } else if (cmd == "games") {
    auto r = q.Games(*games);
    if (!r.ok()) return fail(r.status());
    f.json ? Print(report::GamesJson(*r)) : Print(report::GamesText(*r));
  } else if (cmd == "players") {
    auto r = q.Players(*players);
    if (!r.ok()) return fail(r.status());
    f.json ? Print(report::PlayersJson(*r)) : Print(report::PlayersText(*r));
  } else {
    auto r = q.GetGame(*game);
    if (!r.ok()) return fail(r.status());
    if (f.json) {
      auto j = report::GameJson(*r);
      if (!j.ok()) return fail(j.status());
      if (!f.sgf) j->erase("sgf");
      Print(*j);
    } else if (f.sgf) {
      Print(r->sgf());
      if (!r->sgf().empty() && r->sgf().back() != '\n')
        Print(std::string("\n"));
    } else {
      Print(report::GameText(*r));
    }
  }
  return 0;
}

// Registers the target flags, --json and the query arguments `kind` takes
// (backend/query_args.h; the game id as a positional argument).
std::shared_ptr<QueryFlags> AddQueryFlags(CLI::App* cmd,
                                          backend::QueryKind kind) {
  auto f = std::make_shared<QueryFlags>();
  f->target.Add(cmd, 10, "Deadline per query, seconds");
  cmd->add_flag("--json", f->json, "Print one JSON object");
  for (const backend::QueryArgSpec& spec : backend::QueryArgSpecsOf(kind)) {
    const std::string name = spec.name;
    const bool positional = kind == backend::QueryKind::kGame && name == "id";
    CLI::Option* opt = cmd->add_option(positional ? name : "--" + name,
                                       f->values[name], spec.help);
    if (positional) opt->required();
    f->options[name] = opt;
  }
  return f;
}

}  // namespace

void AddQueryCommand(CLI::App& app, int* exit_code) {
  CLI::App* query = app.add_subcommand(
      "query",
      "Statistics of the game database (openings, ko, cycles, results) "
      "and single games");
  query->require_subcommand(1);
  struct Sub {
    const char* name;
    backend::QueryKind kind;
    const char* help;
  };
  static constexpr Sub kQuerySubs[] = {
      {"openings", backend::QueryKind::kOpenings,
       "The position after --setup and --moves with --to-play to move, the "
       "games that reached it (symmetries folded) and every continuation"},
      {"ko", backend::QueryKind::kKo,
       "Ko captures per game: mean, percentiles, histogram, by size, rules "
       "and game length"},
      {"cycles", backend::QueryKind::kCycles,
       "Cycles (triple ko, eternal life, ...) by class and outcome (ended "
       "the game, prevented, or continued under --cycle none), per 10,000 "
       "games, with example games"},
      {"results", backend::QueryKind::kResults,
       "Wins by colour, draws, void, end reasons, margins, lengths"},
      {"game", backend::QueryKind::kGame, "One stored game"},
      {"games", backend::QueryKind::kGames,
       "A page of games (id, date, players with ranks, event, result, "
       "length) by date: a player's (--player, --as), between two "
       "(--opponent), of an event (--event), by result or rank"},
      {"players", backend::QueryKind::kPlayers,
       "Players whose name starts with --prefix: games, results by colour, "
       "first and last dates, games by year"},
  };
  for (const Sub& sub : kQuerySubs) {
    CLI::App* cmd = query->add_subcommand(sub.name, sub.help);
    std::shared_ptr<QueryFlags> f = AddQueryFlags(cmd, sub.kind);
    if (sub.kind == backend::QueryKind::kGame) {
      cmd->add_flag("--sgf", f->sgf, "Print the game as SGF");
    }
    const std::string name = sub.name;
    cmd->callback([f, name, exit_code] { *exit_code = RunQuery(name, *f); });
  }
  AddQueryPatternCommand(query, exit_code);
}

}  // namespace qipu::ops
