// `qipu bench players`: the player index's queries at scale
// (bench/players_bench.h).
//
//   qipu bench players --db DIR --games 1000000 --player-games 5000 \
//       --corpus ../shared/corpora/fox-pro [--json]
//   qipu bench players --db DIR --reuse        query an earlier run's database
//
// Exit status: 0 done, 1 failure, 2 bad flags.
#include <cstdio>
#include <memory>

#include "base/console.h"
#include "bench/players_bench.h"
#include "ops/commands.h"

namespace qipu::ops {

void AddBenchPlayersCommand(CLI::App& bench, int* exit_code) {
  struct Flags {
    bench::PlayersBenchOptions run;
    bool json = false;
  };
  auto f = std::make_shared<Flags>();
  CLI::App* c = bench.add_subcommand(
      "players",
      "Player-filtered game lists and openings over a synthetic database of "
      "--games games (the player index, issue 32): p50/p99");
  c->add_option("--db", f->run.db, "Database to build (must not exist)")
      ->required();
  c->add_flag("--reuse", f->run.reuse, "Query --db as an earlier run left it");
  c->add_option("--games", f->run.games, "Games in the database")
      ->capture_default_str();
  c->add_option("--player-games", f->run.player_games,
                "Games of the measured player")
      ->capture_default_str();
  c->add_option("--plies", f->run.opening_plies, "Moves of each game")
      ->check(CLI::Range(1, 400))
      ->capture_default_str();
  c->add_option("--corpus", f->run.corpus,
                "SGF folder whose PB/PW names join the generated ones");
  c->add_option("--queries", f->run.queries, "Timed repetitions of each query")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  c->add_option("--seed", f->run.seed, "Seed")->capture_default_str();
  c->add_flag("--json", f->json, "Print one JSON object");
  c->callback([f, exit_code] {
    f->run.verbose = !f->json;
    auto r = bench::RunPlayersBench(f->run);
    if (!r.ok()) {
      *exit_code = base::Fail("bench players", r.status(),
                              absl::IsInvalidArgument(r.status()) ? 2 : 1);
      return;
    }
    if (f->json) {
      std::printf("%s\n", bench::PlayersBenchJson(*r).dump().c_str());
    } else {
      std::fputs(bench::PlayersBenchText(*r).c_str(), stdout);
    }
    *exit_code = 0;
  });
}

}  // namespace qipu::ops
