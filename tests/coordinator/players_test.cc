// The player index (issue 32) through a real database: hand-made records
// with full-width names, ranks in names and alias groups, every filter of
// the player index, paging, players by prefix, player-filtered openings
// and results; and over the shared fox-pro corpus, a player's game count
// and openings as Black against a count made here from the SGF files.
#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/engine.h"
#include "engine/queries.h"
#include "gtest/gtest.h"
#include "rocksdb/write_batch.h"
#include "store/player_index.h"
#include "tests/common/corpus_dir.h"
#include "tests/common/store_test_peer.h"
#include "tests/coordinator/corpus_test_util.h"

namespace qipu::coordinator {
namespace {

using test_util::TempDir;
using testing::ReadAll;
using testing::WriteFile;

std::unique_ptr<engine::Engine> OpenDb(const std::string& dir) {
  engine::EngineOptions o;
  o.create = true;
  o.store.sync = false;
  auto e = engine::Engine::Open(dir, o);
  EXPECT_TRUE(e.ok()) << e.status();
  return e.ok() ? *std::move(e) : nullptr;
}

// Four games, three spellings of Ke Jie (one only through an alias).
const char* const kRecords[] = {
    "(;GM[1]FF[4]SZ[19]PB[Ke Jie 9p]PW[Gu Li]DT[2017-05-23]"
    "EV[Future of Go]RE[B+R];B[pd];W[dp];B[pp])",
    "(;GM[1]FF[4]SZ[19]PB[ＫＥ　ＪＩＥ]PW[古力 九段]DT[2018-01-02]"
    "EV[Chinese League]RE[W+1.5];B[dd];W[pp])",
    "(;GM[1]FF[4]SZ[19]PB[古力]PW[柯洁 九段]DT[2019-03-04]"
    "EV[Future of Go Summit]RE[W+R];B[pd];W[dd])",
    "(;GM[1]FF[4]SZ[19]PB[Lee Sedol]PW[Ke Jie]WR[9p]DT[2016]RE[Draw]"
    ";B[pd];W[dp])",
};

class PlayersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (size_t i = 0; i < std::size(kRecords); ++i) {
      const std::string path = absl::StrCat(dir_.path(), "/g", i, ".sgf");
      WriteFile(path, kRecords[i]);
      paths_.push_back(path);
    }
    db_ = OpenDb(dir_.path() + "/db");
    ASSERT_NE(db_, nullptr);
    auto importer = db_->importer();
    ASSERT_TRUE(importer.ok());
    engine::ImportSummary s = (*importer)->ImportPaths(paths_, {});
    ASSERT_EQ(s.imported, std::size(kRecords));
  }

  qipu::v1::GamesResponse Games(const std::string& filter_text,
                                uint32_t page_size = 0,
                                const std::string& token = "",
                                bool newest = false) {
    qipu::v1::GamesRequest req;
    qipu::v1::Filter& f = *req.mutable_filter();
    // filter_text: "player=...;as=B;opponent=...;event=...;result=..."
    for (absl::string_view kv :
         absl::StrSplit(filter_text, ';', absl::SkipEmpty())) {
      const size_t eq = kv.find('=');
      const std::string k(kv.substr(0, eq));
      const std::string v(kv.substr(eq + 1));
      if (k == "player") f.set_player(v);
      if (k == "as") {
        f.set_player_as(v == "B" ? qipu::v1::COLOR_BLACK
                                 : qipu::v1::COLOR_WHITE);
      }
      if (k == "opponent") f.set_opponent(v);
      if (k == "event") f.set_event(v);
      if (k == "result") f.set_result(v);
      if (k == "rank_min") f.set_rank_min(v);
      if (k == "rank_max") f.set_rank_max(v);
    }
    req.set_page_size(page_size);
    req.set_page_token(token);
    req.set_newest_first(newest);
    auto r = db_->queries().Games(req);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? *r : qipu::v1::GamesResponse();
  }

  void SetAliases(const std::string& text) {
    auto g = store::AliasGroups::Parse(text, "aliases.txt");
    ASSERT_TRUE(g.ok()) << g.status();
    ASSERT_TRUE(db_->queries().SetAliases(*g).ok());
  }

  TempDir dir_;
  std::vector<std::string> paths_;
  std::unique_ptr<engine::Engine> db_;
};

std::vector<std::string> Dates(const qipu::v1::GamesResponse& r) {
  std::vector<std::string> out;
  for (const auto& g : r.games()) out.push_back(g.date());
  return out;
}

TEST_F(PlayersTest, NamesAreFoldedAndRanksSplit) {
  // "Ke Jie 9p", "ＫＥ　ＪＩＥ" and "Ke Jie" are one key; 柯洁 is not (yet).
  qipu::v1::GamesResponse r = Games("player=ke jie");
  EXPECT_EQ(r.total(), 3u);
  EXPECT_EQ(Dates(r),
            (std::vector<std::string>{"2016", "2017-05-23", "2018-01-02"}));
  const qipu::v1::GameSummary& first = r.games(1);
  EXPECT_EQ(first.black().name(), "Ke Jie 9p");
  EXPECT_EQ(first.black().key(), "ke jie");
  EXPECT_EQ(first.black().rank(), "9p");
  EXPECT_EQ(first.event(), "Future of Go");
  EXPECT_EQ(first.result(), "B+R");
  EXPECT_EQ(first.moves(), 3u);
  EXPECT_EQ(first.record(), "clean");
  EXPECT_EQ(r.games(2).white().rank(), "9p");  // 古力 九段
  EXPECT_EQ(Games("player=柯洁").total(), 1u);
  EXPECT_EQ(Games("player=KE JIE 9段").total(), 3u);
}

TEST_F(PlayersTest, AliasesGivenAfterTheImportApply) {
  SetAliases("# Ke Jie and Gu Li\nKe Jie, 柯洁\nGu Li\t古力\n");
  EXPECT_EQ(Games("player=柯洁").total(), 4u);
  EXPECT_EQ(Games("player=ke jie;as=B").total(), 2u);
  EXPECT_EQ(Games("player=ke jie;as=W").total(), 2u);
  EXPECT_EQ(Games("player=ke jie;opponent=古力").total(), 3u);
  EXPECT_EQ(Games("player=ke jie;opponent=lee sedol").total(), 1u);
  qipu::v1::GamesResponse r = Games("player=gu li");
  EXPECT_EQ(r.total(), 3u);
  for (const auto& g : r.games()) {
    EXPECT_TRUE(g.black().key() == "gu li" || g.white().key() == "gu li");
  }
  // Players: one row per person, the other spellings among its names.
  qipu::v1::PlayersRequest pr;
  pr.set_prefix("柯");
  auto players = db_->queries().Players(pr);
  ASSERT_TRUE(players.ok()) << players.status();
  ASSERT_EQ(players->players_size(), 1);
  const qipu::v1::PlayerSummary& ke = players->players(0);
  EXPECT_EQ(ke.key(), "ke jie");
  EXPECT_EQ(ke.games(), 4u);
  EXPECT_EQ(ke.as_black().games(), 2u);
  EXPECT_EQ(ke.as_black().black_wins(), 1u);
  EXPECT_EQ(ke.as_white().games(), 2u);
  EXPECT_EQ(ke.as_white().white_wins(), 1u);
  EXPECT_EQ(ke.as_white().draws(), 1u);
  EXPECT_EQ(ke.first_ymd(), 20160000u);
  EXPECT_EQ(ke.last_ymd(), 20190304u);
  EXPECT_EQ(ke.rank(), "9p");
  ASSERT_EQ(ke.years_size(), 4);
  EXPECT_EQ(ke.years(0).year(), 2016u);
  EXPECT_EQ(ke.years(3).year(), 2019u);
  EXPECT_EQ(ke.years(3).wins(), 1u);
  std::set<std::string> names(ke.names().begin(), ke.names().end());
  names.insert(ke.display());
  EXPECT_TRUE(names.contains("柯洁 九段")) << ke.DebugString();
  EXPECT_TRUE(names.contains("ＫＥ　ＪＩＥ")) << ke.DebugString();
}

TEST_F(PlayersTest, EventResultAndRankFilters) {
  EXPECT_EQ(Games("event=future of go").total(), 2u);
  EXPECT_EQ(Games("event=FUTURE OF GO SUMMIT").total(), 1u);
  EXPECT_EQ(Games("result=W+").total(), 2u);
  EXPECT_EQ(Games("result=draw").total(), 1u);
  EXPECT_EQ(Games("result=B+").total(), 1u);
  // Ranks known: 9p (name), 9p (WR); the full-width game has none.
  EXPECT_EQ(Games("player=ke jie;rank_min=9p").total(), 2u);
  EXPECT_EQ(Games("player=ke jie;rank_max=9d").total(), 0u);
  // Without a player: both players' ranks must be in range (none is).
  EXPECT_EQ(Games("rank_min=1p").total(), 0u);
  qipu::v1::GamesRequest bad;
  bad.mutable_filter()->set_result("B+R");
  auto r = db_->queries().Games(bad);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::StartsWith(r.status().message(), "filter.result:"))
      << r.status();
  bad.mutable_filter()->set_result("");
  bad.mutable_filter()->set_rank_min("10p");
  EXPECT_FALSE(db_->queries().Games(bad).ok());
}

TEST_F(PlayersTest, PagesByDate) {
  qipu::v1::GamesResponse p1 = Games("", 3);
  EXPECT_EQ(p1.total(), 4u);
  ASSERT_EQ(p1.games_size(), 3);
  ASSERT_FALSE(p1.next_page_token().empty());
  qipu::v1::GamesResponse p2 = Games("", 3, p1.next_page_token());
  EXPECT_EQ(p2.total(), 4u);
  ASSERT_EQ(p2.games_size(), 1);
  EXPECT_TRUE(p2.next_page_token().empty());
  EXPECT_EQ(p2.games(0).date(), "2019-03-04");
  qipu::v1::GamesResponse newest = Games("", 2, "", true);
  EXPECT_EQ(Dates(newest),
            (std::vector<std::string>{"2019-03-04", "2018-01-02"}));
  qipu::v1::GamesResponse older = Games("", 2, newest.next_page_token(), true);
  EXPECT_EQ(Dates(older), (std::vector<std::string>{"2017-05-23", "2016"}));
  qipu::v1::GamesRequest bad;
  bad.set_page_token("zz");
  EXPECT_FALSE(db_->queries().Games(bad).ok());
}

TEST_F(PlayersTest, OpeningsAndResultsOfAPlayer) {
  SetAliases("Ke Jie, 柯洁\n");
  qipu::v1::OpeningsRequest req;
  req.mutable_filter()->set_player("Ke Jie");
  req.mutable_filter()->set_player_as(qipu::v1::COLOR_BLACK);
  auto r = db_->queries().Openings(req);
  ASSERT_TRUE(r.ok()) << r.status();
  // As Black: Q16 (pd) and D16 (dd), one continuation with symmetries
  // folded, in the caller's frame.
  EXPECT_EQ(r->reached().games(), 2u);
  ASSERT_EQ(r->continuations_size(), 1);
  EXPECT_EQ(r->continuations(0).outcomes().games(), 2u);
  EXPECT_EQ(r->continuations(0).outcomes().black_wins(), 1u);
  EXPECT_EQ(r->continuations(0).outcomes().white_wins(), 1u);
  // After Q16 with White to move, as White: 古力's game (Q16 D16 by 柯洁).
  req.mutable_filter()->set_player_as(qipu::v1::COLOR_WHITE);
  req.add_moves("Q16");
  r = db_->queries().Openings(req);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->reached().games(), 2u);  // Lee Sedol's game too
  int total = 0;
  for (const auto& c : r->continuations()) total += c.outcomes().games();
  EXPECT_EQ(total, 2);
  // The unfiltered query agrees on the games at the empty board.
  qipu::v1::OpeningsRequest all;
  auto a = db_->queries().Openings(all);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->reached().games(), 4u);
  // Results of the player read their games.
  qipu::v1::ResultsRequest rr;
  rr.mutable_filter()->set_player("ke jie");
  auto res = db_->queries().Results(rr);
  ASSERT_TRUE(res.ok()) << res.status();
  EXPECT_EQ(res->outcomes().games(), 4u);
  EXPECT_EQ(res->outcomes().black_wins(), 1u);
  EXPECT_EQ(res->outcomes().white_wins(), 2u);
  EXPECT_EQ(res->outcomes().draws(), 1u);
}

// A database written before the player index: its family empty and no
// marker. Opening it writes every game's entries, the aliases kept.
TEST_F(PlayersTest, ADatabaseWithoutTheIndexGetsItWhenOpened) {
  SetAliases("Ke Jie, 柯洁\n");
  const uint64_t before = Games("player=ke jie").total();
  ASSERT_EQ(before, 4u);
  db_.reset();
  {
    store::StoreOptions so;
    auto st = store::Store::Open(dir_.path() + "/db", so);
    ASSERT_TRUE(st.ok()) << st.status();
    rocksdb::WriteBatch wipe;
    ASSERT_TRUE(wipe.DeleteRange(store::StoreTestPeer::players(**st),
                                 rocksdb::Slice("a", 1),
                                 rocksdb::Slice("\xff", 1))
                    .ok());
    ASSERT_TRUE(store::StoreTestPeer::Commit(**st, &wipe).ok());
    ASSERT_TRUE(store::StoreTestPeer::Delete(**st,
                                             store::StoreTestPeer::meta(**st),
                                             store::PlayerIndexMarkerKey())
                    .ok());
    auto has = store::HasPlayerIndex(**st);
    ASSERT_TRUE(has.ok());
    EXPECT_FALSE(*has);
  }
  db_ = OpenDb(dir_.path() + "/db");
  ASSERT_NE(db_, nullptr);
  EXPECT_EQ(Games("player=ke jie").total(), before);
  EXPECT_EQ(Games("").total(), 4u);
  EXPECT_EQ(Games("event=future").total(), 2u);
  qipu::v1::PlayersRequest pr;
  pr.set_prefix("ke");
  auto players = db_->queries().Players(pr);
  ASSERT_TRUE(players.ok());
  ASSERT_EQ(players->players_size(), 1);
  EXPECT_EQ(players->players(0).games(), 4u);
  // Opening it again does not count anything twice.
  db_.reset();
  db_ = OpenDb(dir_.path() + "/db");
  players = db_->queries().Players(pr);
  ASSERT_TRUE(players.ok());
  EXPECT_EQ(players->players(0).games(), 4u);
}

TEST(AliasGroups, BadLinesNameFileAndLine) {
  auto one = store::AliasGroups::Parse("Ke Jie, 柯洁\nGu Li\n", "a.txt");
  ASSERT_FALSE(one.ok());
  EXPECT_TRUE(absl::StartsWith(one.status().message(), "a.txt:2: "))
      << one.status();
  auto twice =
      store::AliasGroups::Parse("Ke Jie, 柯洁\n\nKE JIE 9p, kejie\n", "a.txt");
  ASSERT_FALSE(twice.ok());
  EXPECT_TRUE(absl::StartsWith(twice.status().message(), "a.txt:3: "));
  EXPECT_TRUE(absl::StrContains(twice.status().message(), "line 1"));
  auto empty = store::AliasGroups::Parse("Ke Jie,,柯洁\n", "a.txt");
  ASSERT_FALSE(empty.ok());
  EXPECT_TRUE(absl::StrContains(empty.status().message(), "name 2 is empty"));
  auto good = store::AliasGroups::Parse("Ke Jie\t柯洁, the younger\n", "a.txt");
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(good->Canonical("柯洁, the younger"), "ke jie");
  auto back = store::AliasGroups::Deserialize(good->Serialize());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->groups(), good->groups());
}

// --- fox-pro: an independent count ------------------------------------------

// The value of property `id` in the root node (the text up to the first
// move), or "".
std::string RootProperty(const std::string& sgf, const std::string& id) {
  const size_t first_move = std::min(sgf.find(";B["), sgf.find(";W["));
  size_t at = 0;
  while ((at = sgf.find(id + "[", at)) != std::string::npos &&
         at < first_move) {
    if (at == 0 || !std::isupper(static_cast<unsigned char>(sgf[at - 1]))) {
      const size_t end = sgf.find(']', at);
      return sgf.substr(at + id.size() + 1, end - at - id.size() - 1);
    }
    at += id.size();
  }
  return "";
}

// A name of valid UTF-8 multi-byte characters only (names with ASCII in
// them are folded by the index; this count compares names as written).
bool PlainUtf8Name(const std::string& s) {
  if (s.empty() || s.find("\xef\xbf\xbd") != std::string::npos) return false;
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const int len = (c & 0xE0) == 0xC0   ? 2
                    : (c & 0xF0) == 0xE0 ? 3
                    : (c & 0xF8) == 0xF0 ? 4
                                         : 0;
    if (len == 0 || i + len > s.size()) return false;
    for (int k = 1; k < len; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += len;
  }
  return true;
}

TEST(PlayersFox, CountsAndOpeningsAgreeWithTheFiles) {
  const std::string corpus = testing::FoxCorpusDir();
  if (corpus.empty()) GTEST_SKIP() << "fox-pro corpus not found";
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(corpus)) {
    if (e.path().extension() == ".sgf") files.push_back(e.path().string());
  }
  ASSERT_EQ(files.size(), 679u);
  // The player named most often (as written, non-ASCII names only).
  std::map<std::string, int> count;
  std::vector<std::string> texts;
  for (const std::string& f : files) {
    texts.push_back(ReadAll(f));
    for (const char* side : {"PB", "PW"}) {
      const std::string name = RootProperty(texts.back(), side);
      if (PlainUtf8Name(name)) ++count[name];
    }
  }
  std::string who;
  for (const auto& [name, n] : count) {
    if (who.empty() || n > count[who]) who = name;
  }
  ASSERT_FALSE(who.empty());
  // The player's games, as Black without setup stones: their first moves
  // folded under the 8 symmetries of the 19x19 board.
  std::set<std::string> games;
  int as_black_at_start = 0;
  std::map<std::pair<int, int>, int> first_moves;
  for (const std::string& t : texts) {
    const std::string pb = RootProperty(t, "PB");
    const std::string pw = RootProperty(t, "PW");
    if (pb != who && pw != who) continue;
    games.insert(t);
    if (pb != who || t.find("AB[") != std::string::npos) continue;
    const size_t m = t.find(";B[");
    if (m == std::string::npos || t.find(";W[") < m) continue;
    ++as_black_at_start;
    int x = t[m + 3] - 'a';
    int y = t[m + 4] - 'a';
    if (t[m + 3] == ']' || x > 18 || y > 18) continue;  // a pass
    x = std::min(x, 18 - x);
    y = std::min(y, 18 - y);
    first_moves[{std::min(x, y), std::max(x, y)}]++;
  }
  std::vector<int> expected_counts;
  for (const auto& [p, n] : first_moves) expected_counts.push_back(n);
  std::sort(expected_counts.rbegin(), expected_counts.rend());

  TempDir dir;
  auto db = OpenDb(dir.path() + "/db");
  ASSERT_NE(db, nullptr);
  auto importer = db->importer();
  ASSERT_TRUE(importer.ok());
  (*importer)->ImportPaths({corpus}, {});

  qipu::v1::GamesRequest gr;
  gr.mutable_filter()->set_player(who);
  gr.set_page_size(1000);
  auto g = db->queries().Games(gr);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(g->total(), games.size()) << who;
  qipu::v1::PlayersRequest pr;
  pr.set_prefix(who);
  auto p = db->queries().Players(pr);
  ASSERT_TRUE(p.ok());
  ASSERT_GE(p->players_size(), 1);
  EXPECT_EQ(p->players(0).games(), games.size());

  qipu::v1::OpeningsRequest req;
  req.mutable_filter()->set_player(who);
  req.mutable_filter()->set_player_as(qipu::v1::COLOR_BLACK);
  auto o = db->queries().Openings(req);
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->reached().games(), static_cast<uint64_t>(as_black_at_start));
  std::vector<int> got_counts;
  for (const auto& c : o->continuations()) {
    if (c.move() != "pass") got_counts.push_back(c.outcomes().games());
  }
  EXPECT_EQ(got_counts, expected_counts) << who;
}

}  // namespace
}  // namespace qipu::coordinator
