// Exporter (engine/exporter.h) and the exchange formats
// (engine/game_format.h): exported SGF and JSONL re-import as the same
// games; filters select exactly the games the queries count.
#include "engine/exporter.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "engine/game_format.h"
#include "engine/queries.h"
#include "gtest/gtest.h"
#include "store/configs.h"
#include "tests/coordinator/corpus_test_util.h"

namespace qipu::coordinator::testing {
namespace {

// Writes every game of `store` matching `req` to `path` in `format`.
uint64_t ExportTo(store::Store& store, const qipu::v1::ExportRequest& req,
                  const std::string& path, bool sgf) {
  std::string out;
  engine::Exporter exporter(&store);
  auto stats = exporter.Export(
      req, [&](const store::GameId& id, const qipu::v1::Game& g) {
        auto text = sgf ? engine::GameToSgf(g)
                        : engine::GameToJsonLine(g, store::GameIdText(id));
        EXPECT_TRUE(text.ok()) << text.status();
        if (text.ok()) out += *text + (sgf ? "" : "\n");
        // The id computed from the game is the stored one.
        auto computed = engine::GameIdOf(g);
        EXPECT_TRUE(computed.ok() && *computed == id);
        return true;
      });
  EXPECT_TRUE(stats.ok()) << stats.status();
  WriteFile(path, out);
  return stats.ok() ? stats->games : 0;
}

// A small corpus of generated records in files under `dir`: 9x9 games
// (every tenth with two handicap stones) and a few 13x13 ones.
std::vector<rules::GameRecord> WriteCorpus(const std::string& dir) {
  std::vector<rules::GameRecord> records;
  for (uint64_t i = 0; i < 40; ++i) {
    records.push_back(
        PlayedRecord(i < 34 ? 9 : 13, 11, i, i % 10 == 3 ? 2 : 0));
    WriteFile(dir + "/g" + std::to_string(100 + i) + ".sgf",
              rules::WriteSgf(records.back()));
  }
  return records;
}

TEST(Export, SgfAndJsonlReimportAsTheSameGames) {
  TempDir tmp;
  std::vector<std::string> inputs = {tmp.Sub("in")};
  const std::vector<rules::GameRecord> records = WriteCorpus(tmp.Sub("in"));
  if (const std::string fox = FoxCorpusDir(); !fox.empty()) {
    inputs.push_back(fox);
  }
  CorpusDb db(tmp.Sub("db"));
  const engine::ImportSummary s = db.Import(inputs);
  ASSERT_GE(s.imported, 40u);
  const std::set<store::GameId> ids = db.Ids();
  EXPECT_EQ(ids.size(), s.imported);
  std::map<store::GameId, qipu::v1::Game> originals;
  for (const StoredGame& g : StoredGames(db.store())) originals[g.id] = g.game;

  for (bool sgf : {true, false}) {
    SCOPED_TRACE(sgf ? "sgf" : "jsonl");
    const std::string file = tmp.Sub(sgf ? "out.sgf" : "out.jsonl");
    EXPECT_EQ(ExportTo(db.store(), {}, file, sgf), ids.size());
    // Into the same database: all duplicates.
    const engine::ImportSummary again = db.Import({file});
    EXPECT_EQ(again.games, ids.size());
    EXPECT_EQ(again.imported, 0u);
    EXPECT_EQ(again.duplicates, ids.size());
    EXPECT_TRUE(again.errors.empty());
    // Into a fresh one: the same ids, results, komi and metadata.
    CorpusDb fresh(tmp.Sub(sgf ? "db_sgf" : "db_jsonl"));
    const engine::ImportSummary into = fresh.Import({file});
    EXPECT_EQ(into.imported, ids.size());
    EXPECT_EQ(fresh.Ids(), ids);
    // Exported rules read back as a preset (komi 6.5 games included).
    for (const auto& [kind, n] : into.normalised) {
      EXPECT_FALSE(absl::StartsWith(kind, "rules '")) << kind;
    }
    for (const StoredGame& g : StoredGames(fresh.store())) {
      const qipu::v1::Game& o = originals[g.id];
      EXPECT_EQ(g.game.result().winner(), o.result().winner());
      EXPECT_EQ(g.game.result().reason(), o.result().reason());
      EXPECT_DOUBLE_EQ(g.game.result().margin(), o.result().margin());
      EXPECT_DOUBLE_EQ(g.game.rules().komi(), o.rules().komi());
      EXPECT_EQ(g.game.handicap(), o.handicap());
      EXPECT_EQ(g.game.ko_captures(), o.ko_captures());
      EXPECT_EQ(g.game.meta().black_player(), o.meta().black_player());
      EXPECT_EQ(g.game.meta().date_ymd(), o.meta().date_ymd());
      EXPECT_EQ(engine::GameDimensions(g.game).handicap(),
                engine::GameDimensions(o).handicap());
    }
  }
}

// The number of games the Results query counts under `f`.
uint64_t QueryCount(engine::QueryEngine& q, const qipu::v1::Filter& f) {
  qipu::v1::ResultsRequest req;
  *req.mutable_filter() = f;
  auto r = q.Results(req);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? r->outcomes().games() : 0;
}

TEST(Export, FiltersSelectWhatTheQueriesCount) {
  TempDir tmp;
  auto c = StartCoordinator(tmp.Sub("db"));
  ASSERT_NE(c, nullptr);
  PlayJob(*c, JobConfigFor(9, "chinese", 10, 5), 12);
  PlayJob(*c, JobConfigFor(9, "tromp-taylor", 10, 6), 6);
  WriteCorpus(tmp.Sub("in"));
  const engine::ImportSummary s =
      c->importer().ImportPaths({tmp.Sub("in")}, {"gen", 60});
  ASSERT_EQ(s.imported, 40u);
  if (const std::string fox = FoxCorpusDir(); !fox.empty()) {
    c->importer().ImportPaths({fox}, {"fox", 60});
  }
  // Every game's rebuilt dimensions are a bucket its preparation interned.
  std::set<std::string> tuples;
  for (const auto& cfg : c->configs().All()) {
    tuples.insert(store::ConfigTuple(cfg));
  }
  for (const StoredGame& g : StoredGames(c->store())) {
    EXPECT_TRUE(
        tuples.count(store::ConfigTuple(engine::GameDimensions(g.game))))
        << store::GameIdText(g.id) << " "
        << engine::GameDimensions(g.game).DebugString();
  }

  std::vector<qipu::v1::Filter> filters(11);
  filters[1].set_width(9);
  filters[1].set_height(9);
  filters[2].set_width(13);
  filters[2].set_height(13);
  filters[3].set_source("gen");
  filters[4].set_policy("random");
  filters[5].set_policy("import");
  filters[6].set_has_handicap(true);
  filters[6].set_handicap(2);
  filters[7].set_rules("tromp-taylor");
  filters[8].set_date_from(20200110);
  filters[8].set_date_to(20200115);
  filters[9].set_has_komi(true);
  filters[9].set_komi(6.5);
  filters[10].set_source("job:1");
  engine::QueryEngine q(&c->store(), &c->configs());
  engine::Exporter exporter(&c->store());
  for (size_t i = 0; i < filters.size(); ++i) {
    qipu::v1::ExportRequest req;
    *req.mutable_filter() = filters[i];
    auto stats = exporter.Export(
        req, [](const store::GameId&, const qipu::v1::Game&) { return true; });
    ASSERT_TRUE(stats.ok()) << stats.status();
    EXPECT_EQ(stats->games, QueryCount(q, filters[i])) << "filter " << i;
    EXPECT_EQ(stats->damaged, 0u);
  }
  qipu::v1::ExportRequest req;
  req.set_limit(5);
  uint64_t n = 0;
  auto stats = exporter.Export(
      req,
      [&](const store::GameId&, const qipu::v1::Game&) { return ++n < 3; });
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(n, 3u);
  req.set_limit(5);
  n = 0;
  EXPECT_EQ(exporter
                .Export(req,
                        [&](const store::GameId&, const qipu::v1::Game&) {
                          ++n;
                          return true;
                        })
                ->games,
            5u);
  req.mutable_filter()->set_rules("ko=superko");
  EXPECT_TRUE(absl::IsInvalidArgument(
      exporter
          .Export(req, [](const store::GameId&,
                          const qipu::v1::Game&) { return true; })
          .status()));
}

TEST(GameFormat, SelfPlayExportsCarryProvenance) {
  TempDir tmp;
  auto c = StartCoordinator(tmp.Sub("db"));
  ASSERT_NE(c, nullptr);
  const uint64_t job = PlayJob(*c, JobConfigFor(9, "chinese", 10, 5), 2);
  const auto games = StoredGames(c->store());
  ASSERT_EQ(games.size(), 2u);
  auto sgf = engine::GameToSgf(games[1].game);
  ASSERT_TRUE(sgf.ok());
  EXPECT_TRUE(absl::StrContains(*sgf, "QJ[" + std::to_string(job) + "]"));
  EXPECT_TRUE(absl::StrContains(*sgf, "QI[1]"));
  EXPECT_TRUE(absl::StrContains(*sgf, "QP[random]"));
  EXPECT_TRUE(absl::StrContains(*sgf, "RU[chinese]"));
  auto json =
      engine::GameToJsonLine(games[1].game, store::GameIdText(games[1].id));
  ASSERT_TRUE(json.ok());
  EXPECT_TRUE(
      absl::StartsWith(*json, "{\"id\":\"s" + std::to_string(job) + "-1\""));
  auto back = engine::JsonLineToRecord(*json);
  ASSERT_TRUE(back.ok()) << back.status();
  auto original = wire::GameToRecord(games[1].game);
  ASSERT_TRUE(original.ok());
  EXPECT_EQ(store::ContentId(*back), store::ContentId(*original));
  EXPECT_EQ(back->moves, original->moves);
}

TEST(GameFormat, JsonLineErrorsNameTheField) {
  EXPECT_FALSE(engine::JsonLineToRecord("{").ok());
  EXPECT_FALSE(engine::JsonLineToRecord("[1,2]").ok());
  auto e = engine::JsonLineToRecord(R"({"height":9,"moves":[]})");
  EXPECT_TRUE(absl::StrContains(e.status().message(), "'width'"));
  e = engine::JsonLineToRecord(R"({"width":30,"height":9,"moves":[]})");
  EXPECT_TRUE(absl::StrContains(e.status().message(), "'width'"));
  e = engine::JsonLineToRecord(R"({"width":9,"height":9})");
  EXPECT_TRUE(absl::StrContains(e.status().message(), "'moves'"));
  e = engine::JsonLineToRecord(R"({"width":9,"height":9,"moves":["A1",7]})");
  EXPECT_TRUE(absl::StrContains(e.status().message(), "'moves[1]'"));
  e = engine::JsonLineToRecord(
      R"({"width":9,"height":9,"moves":["A1"],"first_color":"X"})");
  EXPECT_TRUE(absl::StrContains(e.status().message(), "'first_color'"));
  e = engine::JsonLineToRecord(
      R"({"width":9,"height":9,"moves":["A1","B1"],"same_color_moves":[5]})");
  EXPECT_TRUE(absl::StrContains(e.status().message(), "'same_color_moves'"));
  e = engine::JsonLineToRecord(
      R"({"width":9,"height":9,"moves":[],"setup":[{"black":["pass"]}]})");
  EXPECT_TRUE(absl::StrContains(e.status().message(), "'black[0]'"));
  // Search visits: a move index past the moves, points and visits of
  // different lengths, a zero count, a point off the board.
  e = engine::JsonLineToRecord(
      R"({"width":9,"height":9,"moves":["A1"],"searches":[{"move":1,)"
      R"("points":["A1"],"visits":[3]}]})");
  EXPECT_TRUE(absl::StrContains(e.status().message(), "'searches[0]'"));
  EXPECT_TRUE(absl::StrContains(e.status().message(), "'move'"));
  e = engine::JsonLineToRecord(
      R"({"width":9,"height":9,"moves":["A1"],"searches":[{"move":0,)"
      R"("points":["A1","B1"],"visits":[3]}]})");
  EXPECT_TRUE(absl::StrContains(e.status().message(), "one count"));
  e = engine::JsonLineToRecord(
      R"({"width":9,"height":9,"moves":["A1"],"searches":[{"move":0,)"
      R"("points":["A1"],"visits":[0]}]})");
  EXPECT_TRUE(absl::StrContains(e.status().message(), "'searches[0]'"));
  e = engine::JsonLineToRecord(
      R"({"width":9,"height":9,"moves":["A1"],"searches":[{"move":0,)"
      R"("points":["Z1"],"visits":[2]}]})");
  EXPECT_TRUE(absl::StrContains(e.status().message(), "'points[0]'"));
  auto visits = engine::JsonLineToRecord(
      R"({"width":9,"height":9,"moves":["A1","B2"],"searches":[{"move":1,)"
      R"("points":["B2","pass"],"visits":[7,1]}]})");
  ASSERT_TRUE(visits.ok()) << visits.status();
  ASSERT_EQ(visits->move_extra.size(), 1u);
  EXPECT_EQ(visits->move_extra[0].move, 1);
  EXPECT_EQ(visits->move_extra[0].name, engine::kSearchProperty);
  EXPECT_EQ(visits->move_extra[0].value, "bh:7 pass:1");
  auto ok = engine::JsonLineToRecord(
      R"({"width":9,"height":9,"handicap":2,"setup":[{"black":["C3","G7"]}],)"
      R"("first_color":"W","moves":["E5","pass","D4"],"same_color_moves":[2],)"
      R"("komi":0.5,"rules":"aga","result":"W+R","meta":{"black_player":"b"}})");
  ASSERT_TRUE(ok.ok()) << ok.status();
  ASSERT_EQ(ok->moves.size(), 3u);
  EXPECT_EQ(ok->moves[0].color, rules::Color::kWhite);
  EXPECT_EQ(ok->moves[1].color, rules::Color::kBlack);
  EXPECT_EQ(ok->moves[2].color, rules::Color::kBlack);
  EXPECT_EQ(ok->moves[1].point, rules::kPass);
  EXPECT_EQ(ok->setup.at(0).black.size(), 2u);
  EXPECT_EQ(ok->black_player, "b");
  EXPECT_TRUE(ok->has_komi);
}

}  // namespace
}  // namespace qipu::coordinator::testing
