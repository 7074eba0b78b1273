// `qipu query openings|ko|cycles|results|game`: the statistical queries of
// the game database, against a running coordinator (--server HOST:PORT,
// over gRPC) or a database directory opened here (--db DIR; it must not be
// held by a running coordinator). Every query takes the filters --size,
// --rules, --komi, --handicap, --source, --policy, --from and --to, and
// prints a table, or one JSON object with --json (report/query_report.h).
//
//   qipu query openings --server localhost:7070 --size 9 --moves "E5 C3"
//   qipu query openings --db /var/lib/qipu --moves "B:Q16" --to-play B
//   qipu query ko --db /var/lib/qipu --rules tromp-taylor --json
//   qipu query game s3-17 --server localhost:7070 --sgf
//
// Exit status: 0 answered, 1 the query failed, 2 bad flags, filters or
// moves.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "base/console.h"
#include "client/query_client.h"
#include "coordinator/queries.h"
#include "ops/commands.h"
#include "ops/flags.h"
#include "report/query_report.h"

namespace qipu::ops {
namespace {

// Flags shared by every query subcommand.
struct QueryFlags {
  TargetFlags target;
  FilterFlags filter;
  bool json = false;
  uint32_t examples = coordinator::kDefaultQueryExamples;
  // openings
  std::string moves;
  std::string setup;
  std::string to_play;
  uint32_t limit = 0;
  // game
  std::string id;
  bool sgf = false;
};

// Prints a failed query as "qipu query <cmd>: <why>"; returns the exit
// status (2 for the caller's mistakes).
int Fail(const std::string& cmd, const absl::Status& s) {
  return base::Fail("query " + cmd, s.message(),
                    absl::IsInvalidArgument(s) ? 2 : 1);
}

void Print(const nlohmann::json& j) { std::printf("%s\n", j.dump().c_str()); }
void Print(const std::string& text) { std::fputs(text.c_str(), stdout); }

int RunQuery(const std::string& cmd, const QueryFlags& f) {
  auto filter = f.filter.ToProto();
  if (!filter.ok()) return Fail(cmd, filter.status());
  auto target = f.target.ToTarget();
  if (!target.ok()) return Fail(cmd, target.status());
  auto client = client::QueryClient::Open(*target);
  if (!client.ok()) return Fail(cmd, client.status());
  client::QueryClient& q = **client;
  if (cmd == "openings") {
    qipu::v1::OpeningsRequest req;
    *req.mutable_filter() = *filter;
    for (absl::string_view m :
         absl::StrSplit(f.moves, absl::ByAnyChar(" ,;"), absl::SkipEmpty())) {
      req.add_moves(std::string(m));
    }
    for (absl::string_view s :
         absl::StrSplit(f.setup, absl::ByAnyChar(" ,;"), absl::SkipEmpty())) {
      req.add_setup(std::string(s));
    }
    if (!f.to_play.empty()) {
      const char c =
          absl::ascii_toupper(static_cast<unsigned char>(f.to_play[0]));
      req.set_to_play(c == 'B' ? qipu::v1::COLOR_BLACK : qipu::v1::COLOR_WHITE);
    }
    req.set_examples(f.examples);
    req.set_limit(f.limit);
    auto r = q.Openings(req);
    if (!r.ok()) return Fail(cmd, r.status());
    f.json ? Print(report::OpeningsJson(*r))
           : Print(report::OpeningsText(*r, req));
  } else if (cmd == "ko") {
    qipu::v1::KoRequest req;
    *req.mutable_filter() = *filter;
    auto r = q.Ko(req);
    if (!r.ok()) return Fail(cmd, r.status());
    f.json ? Print(report::KoJson(*r)) : Print(report::KoText(*r));
  } else if (cmd == "cycles") {
    qipu::v1::CyclesRequest req;
    *req.mutable_filter() = *filter;
    req.set_examples(f.examples);
    auto r = q.Cycles(req);
    if (!r.ok()) return Fail(cmd, r.status());
    f.json ? Print(report::CyclesJson(*r)) : Print(report::CyclesText(*r));
  } else if (cmd == "results") {
    qipu::v1::ResultsRequest req;
    *req.mutable_filter() = *filter;
    auto r = q.Results(req);
    if (!r.ok()) return Fail(cmd, r.status());
    f.json ? Print(report::ResultsJson(*r)) : Print(report::ResultsText(*r));
  } else {
    qipu::v1::GetGameRequest req;
    req.set_id(f.id);
    auto r = q.GetGame(req);
    if (!r.ok()) return Fail(cmd, r.status());
    if (f.json) {
      nlohmann::json j = report::GameJson(*r);
      if (!f.sgf) j.erase("sgf");
      Print(j);
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

// Registers the flags every query takes (filters only where they apply).
void AddCommonFlags(CLI::App* cmd, QueryFlags* f, bool filters) {
  f->target.Add(cmd, 10, "Deadline per query, seconds");
  cmd->add_flag("--json", f->json, "Print one JSON object");
  if (filters) f->filter.Add(cmd);
}

}  // namespace

void AddQueryCommand(CLI::App& app, int* exit_code) {
  CLI::App* query = app.add_subcommand(
      "query",
      "Statistics of the game database (openings, ko, cycles, results) "
      "and single games");
  query->require_subcommand(1);
  auto f = std::make_shared<QueryFlags>();

  CLI::App* openings = query->add_subcommand(
      "openings",
      "The position after --setup and --moves with --to-play to move, the "
      "games that reached it (symmetries folded) and every continuation");
  AddCommonFlags(openings, f.get(), true);
  openings->add_option(
      "--moves", f->moves,
      "Moves from the start, GTP vertices or pass, each optionally with its "
      "colour: \"Q16 D4 pass\" alternates from Black (White after handicap "
      "stones); \"B:Q16 B:D4 W:Q4\" gives each move's colour (a side may "
      "move twice, as in free-placement handicaps recorded as moves)");
  openings->add_option(
      "--setup", f->setup,
      "Stones on the board before the moves, each with its colour "
      "(\"B:D4 B:Q16 W:Q4\"); replaces --handicap's fixed stones");
  openings
      ->add_option("--to-play", f->to_play,
                   "Side to move at the position, whose continuations are "
                   "listed: B or W (default: the opponent of the last move; "
                   "with no moves, White after handicap stones, else Black)")
      ->check(CLI::IsMember({"B", "W", "black", "white"}, CLI::ignore_case));
  openings
      ->add_option("--examples", f->examples,
                   "Example game ids per move (1..10)")
      ->check(CLI::Range(1, 10))
      ->capture_default_str();
  openings->add_option("--limit", f->limit, "Most continuations (0 = all)");
  openings->callback([f, exit_code] { *exit_code = RunQuery("openings", *f); });

  CLI::App* ko = query->add_subcommand(
      "ko",
      "Ko captures per game: mean, percentiles, histogram, by size, "
      "rules and game length");
  AddCommonFlags(ko, f.get(), true);
  ko->callback([f, exit_code] { *exit_code = RunQuery("ko", *f); });

  CLI::App* cycles = query->add_subcommand(
      "cycles",
      "Cycles (triple ko, eternal life, ...) by class and outcome (ended "
      "the game, prevented, or continued under --cycle none), per 10,000 "
      "games, with example games");
  AddCommonFlags(cycles, f.get(), true);
  cycles
      ->add_option("--examples", f->examples,
                   "Example game ids per row (1..10)")
      ->check(CLI::Range(1, 10))
      ->capture_default_str();
  cycles->callback([f, exit_code] { *exit_code = RunQuery("cycles", *f); });

  CLI::App* results = query->add_subcommand(
      "results", "Wins by colour, draws, void, end reasons, margins, lengths");
  AddCommonFlags(results, f.get(), true);
  results->callback([f, exit_code] { *exit_code = RunQuery("results", *f); });

  CLI::App* game = query->add_subcommand("game", "One stored game");
  AddCommonFlags(game, f.get(), false);
  game->add_option("id", f->id, "Game id (s<job>-<index> or i<32 hex>)")
      ->required();
  game->add_flag("--sgf", f->sgf, "Print the game as SGF");
  game->callback([f, exit_code] { *exit_code = RunQuery("game", *f); });
  AddQueryPatternCommand(query, exit_code);
}

}  // namespace qipu::ops
