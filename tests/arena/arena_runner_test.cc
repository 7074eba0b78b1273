// RunArena (arena/arena_runner.h) on a real RocksDB in a temp dir: a round
// robin of qipu policies played to its end with every game stored once
// (source "tournament:<id>", ids distinct, results and standings
// consistent); a run that finds a game played and staged by an earlier,
// interrupted run stores that game instead of playing the pairing again;
// a finished tournament's file starts a new one; and a file whose name
// belongs to an unfinished tournament of other settings is refused.
#include "arena/arena_runner.h"

#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "arena/referee.h"
#include "engine/engine.h"
#include "engine/tournaments.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "match/player.h"
#include "rules/sgf_reader.h"
#include "store/game_id.h"
#include "tests/common/temp_dir.h"
#include "tournament/tournament.h"

namespace qipu::arena {
namespace {

using ::qipu::test_util::TempDir;

constexpr char kFile[] = R"({
  "name": "random four",
  "system": "round-robin",
  "board_size": 9,
  "concurrency": 2,
  "index_depth": 10,
  "entrants": [
    {"name": "r1", "spec": "random"},
    {"name": "r2", "spec": "random"},
    {"name": "p1", "spec": "pattern"},
    {"name": "p2", "spec": "pattern"}
  ]
})";

ArenaFile File(const std::string& text = kFile) {
  auto f = ParseArenaFile(text, "test.json");
  EXPECT_TRUE(f.ok()) << f.status();
  return *f;
}

// Games stored with source "tournament:<id>".
uint64_t StoredGames(const std::string& db_dir, const std::string& id) {
  auto db = engine::Engine::Open(db_dir);
  EXPECT_TRUE(db.ok()) << db.status();
  if (!db.ok()) return 0;
  qipu::v1::ResultsRequest req;
  req.mutable_filter()->set_source(absl::StrCat("tournament:", id));
  auto r = (*db)->queries().Results(req);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? r->outcomes().games() : 0;
}

// Every game of `t` has a result and one game id; returns the ids.
std::set<std::string> GameIds(const qipu::v1::Tournament& t) {
  std::set<std::string> ids;
  int games = 0;
  for (const qipu::v1::Round& r : t.round()) {
    for (const qipu::v1::Pairing& p : r.pairings()) {
      EXPECT_NE(p.result(), qipu::v1::GAME_RESULT_UNKNOWN);
      EXPECT_EQ(p.game_ids_size(), 1);
      EXPECT_TRUE(p.pending().sgf().empty());
      for (const std::string& id : p.game_ids()) ids.insert(id);
      ++games;
    }
  }
  EXPECT_EQ(static_cast<int>(ids.size()), games);
  return ids;
}

TEST(ArenaRunnerTest, PlaysARoundRobinAndStoresEveryGameOnce) {
  TempDir dir("arena_runner");
  ArenaRunOptions o;
  o.target.db = dir.path() + "/db";
  o.file = File();
  int events = 0;
  o.on_game = [&](const ArenaGameEvent& e) {
    ++events;
    EXPECT_FALSE(e.recovered);
    EXPECT_GT(e.moves, 0);
  };
  auto s = RunArena(o);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_FALSE(s->resumed);
  EXPECT_EQ(s->games_played, 6);
  EXPECT_EQ(events, 6);
  const qipu::v1::Tournament& t = s->tournament;
  auto finished = tournament::IsFinished(t);
  ASSERT_TRUE(finished.ok());
  EXPECT_TRUE(*finished);
  EXPECT_EQ(t.round_size(), 3);
  EXPECT_EQ(GameIds(t).size(), 6u);
  auto standings = tournament::GetStandings(t);
  ASSERT_TRUE(standings.ok());
  double points = 0;
  for (const auto& row : standings->rows) points += row.points;
  EXPECT_EQ(points, 12);  // 2 points a game (a win, or two draws)
  EXPECT_EQ(StoredGames(o.target.db, t.id()), 6u);

  // The file again: its tournament is over, so a new one is played.
  auto again = RunArena(o);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_NE(again->tournament.id(), t.id());
  EXPECT_EQ(again->games_played, 6);
  EXPECT_EQ(StoredGames(o.target.db, t.id()), 6u);
}

TEST(ArenaRunnerTest, PlaysATeamEventBoardByBoard) {
  TempDir dir("arena_teams");
  ArenaRunOptions o;
  o.target.db = dir.path() + "/db";
  o.file = File(R"({
    "name": "teams", "system": "round-robin", "teams": true, "boards": 2,
    "board_size": 7, "concurrency": 2,
    "entrants": [
      {"name": "a1", "spec": "pattern", "team": "A", "board": 1},
      {"name": "a2", "spec": "random", "team": "A", "board": 2},
      {"name": "b1", "spec": "pattern", "team": "B", "board": 1},
      {"name": "b2", "spec": "random", "team": "B", "board": 2},
      {"name": "c1", "spec": "pattern", "team": "C", "board": 1},
      {"name": "c2", "spec": "random", "team": "C", "board": 2}
    ]})");
  auto s = RunArena(o);
  ASSERT_TRUE(s.ok()) << s.status();
  // Three teams: three rounds of one match (and a bye), two boards each.
  EXPECT_EQ(s->games_played, 6);
  std::set<std::string> ids;
  for (const qipu::v1::Round& r : s->tournament.round()) {
    for (const qipu::v1::Pairing& p : r.pairings()) {
      EXPECT_NE(p.result(), qipu::v1::GAME_RESULT_UNKNOWN);
      ASSERT_EQ(p.boards_size(), 2);
      for (const qipu::v1::BoardGame& b : p.boards()) {
        EXPECT_NE(b.result(), qipu::v1::GAME_RESULT_UNKNOWN);
        ASSERT_EQ(b.game_ids_size(), 1);
        ids.insert(b.game_ids(0));
      }
    }
  }
  EXPECT_EQ(ids.size(), 6u);
  EXPECT_EQ(StoredGames(o.target.db, s->tournament.id()), 6u);
}

TEST(ArenaRunnerTest, StoresAStagedGameInsteadOfPlayingItAgain) {
  TempDir dir("arena_resume");
  const std::string db_dir = dir.path() + "/db";
  const ArenaFile file = File();
  std::string id;
  std::string staged_id;
  {
    // An earlier run: created, paired round 1, played table 1 and staged it
    // -- then died before storing it.
    auto db = engine::Engine::Open(db_dir, {.create = true});
    ASSERT_TRUE(db.ok()) << db.status();
    engine::Tournaments& ts = (*db)->tournaments();
    auto created = ts.Create(file.create);
    ASSERT_TRUE(created.ok()) << created.status();
    id = created->tournament().id();
    for (const ArenaFileEntrant& e : file.entrants) {
      qipu::v1::AddPlayerRequest add;
      add.set_tournament(id);
      add.set_name(e.name);
      ASSERT_TRUE(ts.AddPlayer(add).ok());
    }
    qipu::v1::PairRequest pair;
    pair.set_tournament(id);
    auto paired = ts.Pair(pair);
    ASSERT_TRUE(paired.ok()) << paired.status();
    const qipu::v1::Pairing& p = paired->tournament().round(0).pairings(0);
    auto b = match::MakePlayer("random", 1);
    auto w = match::MakePlayer("random", 2);
    ASSERT_TRUE(b.ok() && w.ok());
    RefereeOptions ro;
    ro.size = 9;
    auto g = PlayGame({"x", b->get()}, {"y", w->get()}, ro);
    ASSERT_TRUE(g.ok()) << g.status();
    rules::SgfCollection c = rules::ReadSgf(g->sgf);
    ASSERT_EQ(c.games.size(), 1u);
    staged_id = store::GameIdText(store::ContentId(c.games[0]));
    qipu::v1::RecordGameRequest rec;
    rec.set_tournament(id);
    rec.set_round(1);
    rec.set_table(p.table());
    rec.mutable_game()->set_sgf(g->sgf);
    rec.mutable_game()->set_game_id(staged_id);
    rec.mutable_game()->set_result(qipu::v1::GAME_RESULT_DRAW);
    ASSERT_TRUE(ts.RecordGame(rec).ok());
  }
  ArenaRunOptions o;
  o.target.db = db_dir;
  o.file = file;
  auto s = RunArena(o);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_TRUE(s->resumed);
  EXPECT_EQ(s->tournament.id(), id);
  EXPECT_EQ(s->games_recovered, 1);
  EXPECT_EQ(s->games_played, 5);
  const qipu::v1::Pairing& first = s->tournament.round(0).pairings(0);
  EXPECT_EQ(first.result(), qipu::v1::GAME_RESULT_DRAW);
  ASSERT_EQ(first.game_ids_size(), 1);
  EXPECT_EQ(first.game_ids(0), staged_id);
  EXPECT_EQ(GameIds(s->tournament).size(), 6u);
  EXPECT_EQ(StoredGames(db_dir, id), 6u);
}

TEST(ArenaRunnerTest, CompletingTwiceChangesNothing) {
  TempDir dir("arena_complete");
  auto db = engine::Engine::Open(dir.path() + "/db", {.create = true});
  ASSERT_TRUE(db.ok());
  const ArenaFile file = File();
  engine::Tournaments& ts = (*db)->tournaments();
  auto created = ts.Create(file.create);
  ASSERT_TRUE(created.ok());
  const std::string id = created->tournament().id();
  for (const char* name : {"a", "b"}) {
    qipu::v1::AddPlayerRequest add;
    add.set_tournament(id);
    add.set_name(name);
    ASSERT_TRUE(ts.AddPlayer(add).ok());
  }
  qipu::v1::PairRequest pair;
  pair.set_tournament(id);
  ASSERT_TRUE(ts.Pair(pair).ok());
  qipu::v1::RecordGameRequest rec;
  rec.set_tournament(id);
  rec.set_round(1);
  rec.set_table(1);
  rec.set_complete(true);
  rec.mutable_game()->set_game_id("i0123456789abcdef0123456789abcdef");
  rec.mutable_game()->set_result(qipu::v1::GAME_RESULT_BLACK_WINS);
  rec.mutable_game()->set_white_warnings(1);
  auto first = ts.RecordGame(rec);
  ASSERT_TRUE(first.ok()) << first.status();
  auto second = ts.RecordGame(rec);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(first->tournament().SerializeAsString(),
            second->tournament().SerializeAsString());
  int warnings = 0;
  for (const auto& p : second->tournament().players()) warnings += p.warnings();
  EXPECT_EQ(warnings, 1);
  // Another result for the same slot is refused; so is a missing slot.
  rec.mutable_game()->set_result(qipu::v1::GAME_RESULT_WHITE_WINS);
  EXPECT_EQ(ts.RecordGame(rec).status().code(),
            absl::StatusCode::kFailedPrecondition);
  rec.set_table(7);
  EXPECT_EQ(ts.RecordGame(rec).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(ArenaRunnerTest, RefusesAFileWhoseUnfinishedTournamentHasOtherSettings) {
  TempDir dir("arena_other");
  const std::string db_dir = dir.path() + "/db";
  {
    auto db = engine::Engine::Open(db_dir, {.create = true});
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE((*db)->tournaments().Create(File().create).ok());
  }
  std::string other = kFile;
  other.replace(other.find("\"board_size\": 9"), 15, "\"board_size\": 7");
  ArenaRunOptions o;
  o.target.db = db_dir;
  o.file = File(other);
  auto s = RunArena(o);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(s.status().message()),
              ::testing::HasSubstr("other settings"));
}

}  // namespace
}  // namespace qipu::arena
