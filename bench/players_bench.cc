#include "bench/players_bench.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "engine/engine.h"
#include "engine/queries.h"
#include "proto/convert.h"
#include "rules/game.h"
#include "rules/player_name.h"
#include "rules/rules.h"
#include "store/game_id.h"
#include "store/keys.h"
#include "store/player_index.h"

namespace qipu::bench {
namespace {

constexpr char kTarget[] = "Bench Target";

// PB/PW of every *.sgf below `dir` (first game of each file), distinct.
std::vector<std::string> CorpusNames(const std::string& dir) {
  std::set<std::string> names;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->path().extension() != ".sgf") continue;
    std::ifstream in(it->path());
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string t = ss.str();
    for (const char* p : {"PB[", "PW["}) {
      const size_t at = t.find(p);
      if (at == std::string::npos) continue;
      const size_t end = t.find(']', at);
      if (end == std::string::npos || end - at > 64) continue;
      std::string name = t.substr(at + 3, end - at - 3);
      // Files in other charsets (the importer converts them): left out.
      if (!name.empty() &&
          rules::FoldText(name).find("\xEF\xBF\xBD") == std::string::npos) {
        names.insert(std::move(name));
      }
    }
  }
  return {names.begin(), names.end()};
}

// One synthetic 19x19 game: `plies` random legal moves.
rules::GameRecord RandomGame(std::mt19937_64& rng, int plies) {
  rules::GameRecord r;
  r.width = r.height = 19;
  rules::Game game(19, 19, *rules::PresetRules("chinese"));
  std::uniform_int_distribution<int> coord(0, 18);
  for (int k = 0; k < plies; ++k) {
    const rules::Color c = game.to_play();
    bool played = false;
    for (int tries = 0; tries < 30 && !played; ++tries) {
      const rules::Point p = rules::MakePoint(coord(rng), coord(rng));
      const rules::MoveVerdict v = game.Check(c, p);
      if (!v.legal()) continue;
      game.Play(c, p, v);
      r.moves.push_back({c, p});
      played = true;
    }
    if (!played) break;
  }
  return r;
}

double Percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t i = std::min(v.size() - 1, static_cast<size_t>(q * v.size()));
  return v[i];
}

absl::Status Build(const PlayersBenchOptions& o, engine::Engine* db,
                   PlayersBenchResult* out) {
  std::mt19937_64 rng(o.seed);
  std::vector<std::string> pool =
      o.corpus.empty() ? std::vector<std::string>() : CorpusNames(o.corpus);
  const uint64_t generated = std::max<uint64_t>(1000, o.games / 50);
  for (uint64_t i = 0; i < generated; ++i) {
    pool.push_back(absl::StrFormat("player %06d", i));
  }
  std::shuffle(pool.begin(), pool.end(), rng);
  std::uniform_real_distribution<double> u(0, 1);
  // Skewed: a few names play many games, the tail few.
  auto pick = [&] {
    const double x = u(rng);
    return pool[std::min(pool.size() - 1,
                         static_cast<size_t>(x * x * x * pool.size()))];
  };
  qipu::v1::ConfigRecord dims;
  dims.set_width(19);
  dims.set_height(19);
  const rules::Rules chinese = *rules::PresetRules("chinese");
  dims.set_rules_key(rules::RulesKey(chinese).Text());
  dims.set_preset("chinese");
  dims.set_komi(chinese.komi);
  dims.set_source("bench");
  dims.set_policy("import");
  auto config = db->configs().Intern(dims);
  if (!config.ok()) return config.status();
  const uint64_t every =
      o.player_games == 0 ? 0 : std::max<uint64_t>(1, o.games / o.player_games);
  store::Store& st = db->store();
  store::WriteSet writes(&st);
  absl::flat_hash_map<std::string, uint64_t> counts;
  uint64_t target_games = 0;
  const absl::Time t0 = absl::Now();
  for (uint64_t i = 0; i < o.games; ++i) {
    rules::GameRecord r = RandomGame(rng, o.opening_plies);
    std::string black = pick();
    std::string white = pick();
    while (white == black) white = pick();
    if (every != 0 && i % every == 0 && target_games < o.player_games) {
      (target_games % 2 == 0 ? black : white) = kTarget;
      ++target_games;
    }
    r.black_player = black;
    r.white_player = white;
    const int year = 2000 + static_cast<int>(rng() % 20);
    const uint32_t day = static_cast<uint32_t>(
        year * 10000 + (1 + rng() % 12) * 100 + 1 + rng() % 28);
    r.date = absl::StrFormat("%04d-%02d-%02d", day / 10000, day / 100 % 100,
                             day % 100);
    if (rng() % 4 == 0) r.event = absl::StrCat("Bench Cup ", rng() % 500);
    const rules::Winner w =
        rng() % 2 == 0 ? rules::Winner::kBlack : rules::Winner::kWhite;
    r.result.text = w == rules::Winner::kBlack ? "B+R" : "W+R";
    qipu::v1::Game game;
    wire::RecordToGame(r, &game);
    *game.mutable_rules() = wire::RulesToProto(chinese);
    *game.mutable_result() =
        wire::ResultToProto(rules::GameResult{w, rules::EndReason::kResign, 0});
    game.mutable_meta()->set_date_ymd(day);
    game.mutable_provenance()->set_source("bench");
    game.mutable_provenance()->set_policy("import");
    const store::GameId id = store::ContentId(r);
    const store::PlayerEntries e = store::BuildPlayerEntries(
        game, id, *config, day, static_cast<uint32_t>(r.moves.size()));
    writes.Put(store::Records::kGames, store::GameKey(id),
               game.SerializeAsString());
    for (const auto& [k, v] : e.puts)
      writes.Put(store::Records::kPlayers, k, v);
    for (const auto& [k, n] : e.counts) counts[k] += n;
    if (writes.count() >= 4000 || i + 1 == o.games) {
      for (const auto& [k, n] : counts) {
        writes.Merge(store::Records::kPlayers, k, store::EncodeUint64Value(n));
      }
      counts.clear();
      if (absl::Status s = st.Commit(&writes, store::Durability::kNoSync);
          !s.ok()) {
        return s;
      }
      writes.Clear();
    }
    if (o.verbose && (i + 1) % 100000 == 0) {
      std::fprintf(stderr, "bench players: %llu games written\n",
                   static_cast<unsigned long long>(i + 1));
    }
  }
  if (absl::Status s = st.Flush(); !s.ok()) return s;
  out->build_seconds = absl::ToDoubleSeconds(absl::Now() - t0);
  out->distinct_players = pool.size() + 1;
  return absl::OkStatus();
}

template <typename Fn>
absl::StatusOr<PlayersBenchRow> Measure(const std::string& name, int n, Fn fn) {
  PlayersBenchRow row;
  row.name = name;
  std::vector<double> ms;
  for (int i = 0; i < n; ++i) {
    const absl::Time t = absl::Now();
    absl::StatusOr<uint64_t> answer = fn();
    ms.push_back(absl::ToDoubleMilliseconds(absl::Now() - t));
    if (!answer.ok()) return answer.status();
    row.answer = *answer;
  }
  row.p50_ms = Percentile(ms, 0.5);
  row.p99_ms = Percentile(ms, 0.99);
  row.max_ms = *std::max_element(ms.begin(), ms.end());
  return row;
}

}  // namespace

absl::StatusOr<PlayersBenchResult> RunPlayersBench(
    const PlayersBenchOptions& o) {
  if (o.db.empty()) return absl::InvalidArgumentError("--db: missing");
  if (!o.reuse && std::filesystem::exists(o.db)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--db: ", o.db, " exists (give --reuse to query it as it is)"));
  }
  if (o.player_games > o.games) {
    return absl::InvalidArgumentError("--player-games: more than --games");
  }
  if (o.queries < 1) return absl::InvalidArgumentError("--queries: below 1");
  engine::EngineOptions eo;
  eo.create = !o.reuse;
  eo.store.sync = false;
  auto db = engine::Engine::Open(o.db, eo);
  if (!db.ok()) return db.status();
  PlayersBenchResult out;
  out.games = o.games;
  out.player_games = o.player_games;
  if (!o.reuse) {
    if (absl::Status s = Build(o, db->get(), &out); !s.ok()) return s;
  }
  for (const auto& cf : (*db)->store().Sizes().column_families) {
    if (cf.name == store::kPlayersCf) out.players_family_bytes = cf.sst_bytes;
  }
  engine::QueryEngine& q = (*db)->queries();
  qipu::v1::GamesRequest games;
  games.mutable_filter()->set_player(kTarget);
  games.set_page_size(50);
  auto add = [&](absl::StatusOr<PlayersBenchRow> row) -> absl::Status {
    if (!row.ok()) return row.status();
    out.rows.push_back(*std::move(row));
    return absl::OkStatus();
  };
  if (absl::Status s = add(Measure("games: a page of the player's", o.queries,
                                   [&]() -> absl::StatusOr<uint64_t> {
                                     auto r = q.Games(games);
                                     if (!r.ok()) return r.status();
                                     return r->total();
                                   }));
      !s.ok()) {
    return s;
  }
  qipu::v1::OpeningsRequest openings;
  openings.mutable_filter()->set_player(kTarget);
  openings.mutable_filter()->set_player_as(qipu::v1::COLOR_BLACK);
  if (absl::Status s =
          add(Measure("openings: the player as Black, empty board", o.queries,
                      [&]() -> absl::StatusOr<uint64_t> {
                        auto r = q.Openings(openings);
                        if (!r.ok()) return r.status();
                        return r->reached().games();
                      }));
      !s.ok()) {
    return s;
  }
  openings.mutable_filter()->set_player_as(qipu::v1::COLOR_UNSPECIFIED);
  openings.add_moves("Q16");
  if (absl::Status s = add(Measure("openings: the player, after Q16", o.queries,
                                   [&]() -> absl::StatusOr<uint64_t> {
                                     auto r = q.Openings(openings);
                                     if (!r.ok()) return r.status();
                                     return r->reached().games();
                                   }));
      !s.ok()) {
    return s;
  }
  qipu::v1::PlayersRequest players;
  players.set_prefix("bench");
  if (absl::Status s = add(Measure("players: prefix \"bench\"", o.queries,
                                   [&]() -> absl::StatusOr<uint64_t> {
                                     auto r = q.Players(players);
                                     if (!r.ok()) return r.status();
                                     return r->players_size() == 0
                                                ? 0
                                                : r->players(0).games();
                                   }));
      !s.ok()) {
    return s;
  }
  return out;
}

nlohmann::json PlayersBenchJson(const PlayersBenchResult& r) {
  nlohmann::json rows = nlohmann::json::array();
  for (const PlayersBenchRow& row : r.rows) {
    rows.push_back({{"query", row.name},
                    {"p50_ms", row.p50_ms},
                    {"p99_ms", row.p99_ms},
                    {"max_ms", row.max_ms},
                    {"answer", row.answer}});
  }
  return {{"games", r.games},
          {"player_games", r.player_games},
          {"names", r.distinct_players},
          {"build_seconds", r.build_seconds},
          {"players_family_bytes", r.players_family_bytes},
          {"queries", std::move(rows)}};
}

std::string PlayersBenchText(const PlayersBenchResult& r) {
  std::string out = absl::StrFormat(
      "bench players: %llu games (%llu of the player), built in %.1f s, "
      "players family %.1f MB\n",
      static_cast<unsigned long long>(r.games),
      static_cast<unsigned long long>(r.player_games), r.build_seconds,
      r.players_family_bytes / 1e6);
  for (const PlayersBenchRow& row : r.rows) {
    absl::StrAppend(
        &out, absl::StrFormat("  %-44s p50 %7.2f ms  p99 %7.2f ms  "
                              "max %7.2f ms  (answer %llu)\n",
                              row.name, row.p50_ms, row.p99_ms, row.max_ms,
                              static_cast<unsigned long long>(row.answer)));
  }
  return out;
}

}  // namespace qipu::bench
