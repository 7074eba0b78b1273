// `qipu arena ...`: tournaments between engines -- qipu's policies and GTP
// engines -- refereed by qipu (arena/): a tournament file names the
// entrants, the system, the board, rules, clock, illegal-move policy and
// how many games run at once; the arena pairs each round, plays its games,
// stores them (games column family, source "tournament:<id>") and the
// tournament's state in the database (--db DIR) or on a coordinator
// (--server HOST:PORT). Killed and started again with the same command, it
// continues where it was.
//
//   qipu arena run gauntlet.json --db D [--concurrency 4] [--sgf-dir out]
//   qipu arena run --tournament 3 --db D          continue tournament 3
//   qipu arena show --tournament 3 --db D --json  standings, crosstable,
//                                                 games, ratings
//   qipu export --db D --source tournament:3      the games as SGF
//
// Exit status: 0 done, 1 the run failed (storage, an unreachable server),
// 2 bad flags or a bad tournament file.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "arena/arena_file.h"
#include "arena/arena_runner.h"
#include "backend/tournament_client.h"
#include "base/console.h"
#include "ops/commands.h"
#include "ops/flags.h"
#include "report/arena_report.h"

namespace qipu::ops {
namespace {

struct ArenaFlags {
  TargetFlags target;
  std::string file;
  std::string tournament;
  int concurrency = 0;
  std::string sgf_dir;
  std::string engine_log;
  bool json = false;
  bool quiet = false;
};

int ArenaFail(const std::string& cmd, const absl::Status& s) {
  return base::Fail("arena " + cmd, s.message(),
                    absl::IsInvalidArgument(s) || absl::IsNotFound(s) ? 2 : 1);
}

int PrintReport(const std::string& cmd, const qipu::v1::Tournament& t,
                bool json) {
  if (json) {
    auto j = report::ArenaReportJson(t);
    if (!j.ok()) return ArenaFail(cmd, j.status());
    std::printf("%s\n", j->dump().c_str());
  } else {
    auto text = report::ArenaReportText(t);
    if (!text.ok()) return ArenaFail(cmd, text.status());
    std::fputs(text->c_str(), stdout);
  }
  return 0;
}

int RunArenaCommand(const ArenaFlags& f) {
  auto target = f.target.ToTarget();
  if (!target.ok()) return ArenaFail("run", target.status());
  arena::ArenaRunOptions o;
  o.target = *target;
  if (f.file.empty() == f.tournament.empty()) {
    return ArenaFail("run", absl::InvalidArgumentError(
                                "give a tournament file, or --tournament ID to "
                                "continue one (not both)"));
  }
  if (!f.file.empty()) {
    auto file = arena::ReadArenaFile(f.file);
    if (!file.ok()) return ArenaFail("run", file.status());
    o.file = *std::move(file);
  }
  o.tournament_id = f.tournament;
  o.concurrency = f.concurrency;
  o.sgf_dir = f.sgf_dir;
  o.engine_log = f.engine_log;
  if (!o.sgf_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(o.sgf_dir, ec);
    if (ec) {
      return ArenaFail("run",
                       absl::InvalidArgumentError(absl::StrCat(
                           "--sgf-dir ", o.sgf_dir, ": ", ec.message())));
    }
  }
  if (!f.quiet) {
    o.on_round = [](const qipu::v1::Tournament& t, int round) {
      const bool repeats = round >= 1 && round <= t.round_size() &&
                           t.round(round - 1).repeats_accepted();
      std::fprintf(stderr, "tournament %s: round %d paired%s\n", t.id().c_str(),
                   round,
                   repeats ? " (no pairing without a repeated pair existed: "
                             "the fewest repeats)"
                           : "");
    };
    o.on_game = [](const arena::ArenaGameEvent& e) {
      std::fprintf(
          stderr, "round %d table %d%s: %s (B) - %s (W): %s, %d moves%s%s\n",
          e.round, e.table,
          e.board > 0 ? absl::StrCat(" board ", e.board).c_str() : "",
          e.black.c_str(), e.white.c_str(), e.result.c_str(), e.moves,
          e.recovered
              ? " (stored from the interrupted run)"
              : absl::StrFormat(", %.1f s", absl::ToDoubleSeconds(e.wall))
                    .c_str(),
          e.detail.empty() || e.recovered
              ? ""
              : absl::StrCat(" -- ", e.detail).c_str());
    };
  }
  auto summary = arena::RunArena(o);
  if (!summary.ok()) return ArenaFail("run", summary.status());
  if (!f.quiet) {
    const double s = absl::ToDoubleSeconds(summary->wall);
    std::fprintf(stderr,
                 "tournament %s %s: %d games played, %d stored from an "
                 "interrupted run, %.1f s (%.2f games/s)\n",
                 summary->tournament.id().c_str(),
                 summary->resumed ? "continued" : "finished",
                 summary->games_played, summary->games_recovered, s,
                 s > 0 ? summary->games_played / s : 0.0);
  }
  return PrintReport("run", summary->tournament, f.json);
}

int RunShow(const ArenaFlags& f) {
  auto target = f.target.ToTarget();
  if (!target.ok()) return ArenaFail("show", target.status());
  auto c = backend::TournamentClient::Open(*target);
  if (!c.ok()) return ArenaFail("show", c.status());
  qipu::v1::TournamentRequest req;
  req.set_tournament(f.tournament);
  auto r = (*c)->Get(req);
  if (!r.ok()) return ArenaFail("show", r.status());
  if (!r->tournament().has_arena()) {
    return ArenaFail("show",
                     absl::InvalidArgumentError(absl::StrCat(
                         "tournament ", f.tournament,
                         " is not an arena's (see qipu tournament show)")));
  }
  return PrintReport("show", r->tournament(), f.json);
}

}  // namespace

void AddArenaCommand(CLI::App& app, int* exit_code) {
  auto f = std::make_shared<ArenaFlags>();
  CLI::App* a = app.add_subcommand(
      "arena", "Tournaments between engines (qipu policies, GTP engines)");
  a->require_subcommand(1);

  CLI::App* run = a->add_subcommand(
      "run", "Play a tournament file to its end (or continue one)");
  f->target.Add(run);
  run->add_option("file", f->file,
                  "Tournament file (JSON; see arena/README.md)");
  run->add_option("--tournament", f->tournament,
                  "Continue this arena tournament instead");
  run->add_option("--concurrency", f->concurrency,
                  "Games at once (default: the file's)")
      ->check(CLI::Range(1, 256));
  run->add_option("--sgf-dir", f->sgf_dir, "Also write every game's SGF here");
  run->add_option("--engine-log", f->engine_log,
                  "Append GTP engines' stderr to this file");
  run->add_flag("--json", f->json, "Print the final report as JSON");
  run->add_flag("--quiet", f->quiet, "No progress lines on stderr");
  run->callback([f, exit_code] { *exit_code = RunArenaCommand(*f); });

  CLI::App* show = a->add_subcommand(
      "show", "Standings, crosstable, games and ratings of an arena");
  f->target.Add(show);
  show->add_option("--tournament", f->tournament, "Tournament id")->required();
  show->add_flag("--json", f->json, "Print JSON");
  show->callback([f, exit_code] { *exit_code = RunShow(*f); });
}

}  // namespace qipu::ops
