#include "bench/arena_bench.h"

#include <filesystem>
#include <memory>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "arena/arena_runner.h"
#include "local/local_run.h"
#include "proto/convert.h"
#include "rules/rules.h"

namespace qipu::bench {
namespace {

namespace fs = std::filesystem;

absl::StatusOr<double> RunLocalReference(const ArenaBenchOptions& o,
                                         const std::string& db,
                                         double* seconds) {
  local::LocalOptions lo;
  lo.db = db;
  lo.threads = o.threads;
  lo.job.set_games(static_cast<uint64_t>(o.local_games));
  qipu::v1::JobConfig& c = *lo.job.mutable_config();
  c.set_width(static_cast<uint32_t>(o.size));
  c.set_height(static_cast<uint32_t>(o.size));
  *c.mutable_rules() = wire::RulesToProto(rules::Rules{});  // Chinese
  c.set_policy("random");
  c.set_seed(1);
  auto run = local::LocalRun::Start(lo);
  if (!run.ok()) return run.status();
  for (;;) {
    auto p = (*run)->Poll();
    if (!p.ok()) return p.status();
    if (p->finished || p->cancelled) break;
    absl::SleepFor(absl::Milliseconds(20));
  }
  auto summary = (*run)->Finish();
  if (!summary.ok()) return summary.status();
  *seconds = summary->seconds;
  return summary->games_per_sec;
}

}  // namespace

absl::StatusOr<ArenaBenchResult> RunArenaBench(const ArenaBenchOptions& o) {
  if (o.size < 2 || o.size > 25 || o.entrants < 2 || o.entrants > 1000 ||
      o.local_games < 1 || o.threads < 1) {
    return absl::InvalidArgumentError(
        "bench arena: --size 2..25, --entrants 2..1000, --local-games >= 1, "
        "--threads >= 1");
  }
  std::error_code ec;
  const bool temporary = o.dir.empty();
  const fs::path dir = temporary
                           ? fs::temp_directory_path() /
                                 absl::StrCat("qipu-bench-arena-", ::getpid(),
                                              "-", std::random_device{}())
                           : fs::path(o.dir);
  fs::create_directories(dir, ec);
  if (ec) {
    return absl::InvalidArgumentError(
        absl::StrCat("bench arena: ", dir.string(), ": ", ec.message()));
  }
  ArenaBenchResult r;
  r.options = o;
  auto cleanup = [&] {
    fs::remove_all(dir / "local", ec);
    fs::remove_all(dir / "arena", ec);
    if (temporary) fs::remove_all(dir, ec);
  };

  auto local = RunLocalReference(o, (dir / "local").string(), &r.local_seconds);
  if (!local.ok()) {
    cleanup();
    return local.status();
  }
  r.local_games = o.local_games;
  r.local_games_per_sec = *local;

  arena::ArenaFile file;
  file.create.set_name("bench");
  file.create.set_system(qipu::v1::TOURNAMENT_SYSTEM_ROUND_ROBIN);
  qipu::v1::ArenaSettings& a = *file.create.mutable_arena();
  a.set_size(o.size);
  a.set_rules("chinese");
  a.set_komi(7.5);
  a.set_time("none");
  a.set_illegal("forfeit");
  a.set_concurrency(o.threads);
  a.set_seed(1);
  a.set_index_depth(60);
  for (int i = 0; i < o.entrants; ++i) {
    arena::ArenaFileEntrant e;
    e.name = absl::StrCat("random-", i + 1);
    e.spec = "random";
    qipu::v1::ArenaEntrant* pe = a.add_entrants();
    pe->set_name(e.name);
    pe->set_spec(e.spec);
    file.entrants.push_back(std::move(e));
  }
  arena::ArenaRunOptions ao;
  ao.target.db = (dir / "arena").string();
  ao.file = std::move(file);
  absl::Duration play = absl::ZeroDuration();
  ao.on_game = [&](const arena::ArenaGameEvent& e) { play += e.wall; };
  auto s = arena::RunArena(ao);
  cleanup();
  if (!s.ok()) return s.status();
  r.arena_games = s->games_played;
  r.arena_seconds = absl::ToDoubleSeconds(s->wall);
  r.arena_games_per_sec =
      r.arena_seconds > 0 ? r.arena_games / r.arena_seconds : 0;
  r.ratio = r.local_games_per_sec > 0
                ? r.arena_games_per_sec / r.local_games_per_sec
                : 0;
  if (r.arena_games > 0) {
    r.arena_us_per_game = r.arena_seconds * 1e6 / r.arena_games;
    r.arena_play_us_per_game = absl::ToDoubleMicroseconds(play) / r.arena_games;
  }
  return r;
}

nlohmann::json ArenaBenchJson(const ArenaBenchResult& r) {
  return {{"size", r.options.size},
          {"entrants", r.options.entrants},
          {"threads", r.options.threads},
          {"arena_games", r.arena_games},
          {"arena_seconds", r.arena_seconds},
          {"arena_games_per_sec", r.arena_games_per_sec},
          {"local_games", r.local_games},
          {"local_seconds", r.local_seconds},
          {"local_games_per_sec", r.local_games_per_sec},
          {"ratio", r.ratio},
          {"arena_us_per_game", r.arena_us_per_game},
          {"arena_play_us_per_game", r.arena_play_us_per_game}};
}

std::string ArenaBenchText(const ArenaBenchResult& r) {
  return absl::StrFormat(
      "arena: %d games (round robin of %d random entrants, %dx%d, %d at "
      "once) in %.2f s: %.1f games/s, %.0f us a game wall (each game's own "
      "referee + store: %.0f us on its thread)\n"
      "qipu local: %.0f games in %.2f s: %.1f games/s\n"
      "ratio arena / local: %.4f\n",
      r.arena_games, r.options.entrants, r.options.size, r.options.size,
      r.options.threads, r.arena_seconds, r.arena_games_per_sec,
      r.arena_us_per_game, r.arena_play_us_per_game, r.local_games,
      r.local_seconds, r.local_games_per_sec, r.ratio);
}

}  // namespace qipu::bench
