// The explorer's HTTP API (web/api.h, web/explorer.h) over a real
// coordinator: its QueryEngine on a RocksDB in a temp dir holding fox-pro
// games imported through the real importer, served by the real HTTP
// server on 127.0.0.1 (a free port), every case twice: over plain HTTP and
// over HTTPS (a certificate of ops/tls/make-certs, the client verifying it
// against the test CA).
//   - every query endpoint answers exactly the report JSON of `qipu query
//     --json` for the same request, the game endpoints the game, its SGF
//     and a replay consistent with the stored record;
//   - bad input is a 4xx with a message naming the parameter, never a 5xx;
//   - concurrent readers are served while games are being imported;
//   - with tokens, 401 without one, 403 for a worker's, 200 for a reader's.
#include <atomic>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "backend/query_args.h"
#include "coordinator/coordinator.h"
#include "engine/game_format.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "report/pattern_report.h"
#include "report/query_report.h"
#include "rules/sgf_reader.h"
#include "rules/types.h"
#include "store/game_id.h"
#include "tests/common/corpus_dir.h"
#include "tests/common/http_get.h"
#include "tests/common/temp_dir.h"
#include "tests/common/test_certs.h"
#include "web/api.h"
#include "web/explorer.h"

namespace qipu::web {
namespace {

using test_util::HttpResult;

// Files of the corpus imported before the tests; the rest are imported
// while the concurrency test reads.
constexpr size_t kWebFirstFiles = 150;

// The parameter: whether the explorer speaks HTTPS. Each instantiation has
// its own coordinator and database (made by its first test's SetUp(), as
// a static SetUpTestSuite() cannot see the parameter).
class WebApiTest : public ::testing::TestWithParam<bool> {
 protected:
  static void SetUpServers(bool tls) {
    corpus_ = test_util::SharedCorpusDir("fox-pro");
    if (corpus_.empty()) return;
    files_ = test_util::SgfFilesUnder(corpus_);
    tmp_ = new test_util::TempDir();
    tls_ = tls;
    if (tls_) certs_ = test_util::TestCerts::Make(tmp_->Sub("certs"), {});
    coordinator::CoordinatorOptions o;
    o.db_dir = tmp_->Sub("db");
    o.store.sync = false;
    auto c = coordinator::Coordinator::Start(o);
    ASSERT_TRUE(c.ok()) << c.status();
    coordinator_ = c->release();
    const std::vector<std::string> first(
        files_.begin(),
        files_.begin() + std::min(kWebFirstFiles, files_.size()));
    const engine::ImportSummary s =
        coordinator_->importer().ImportPaths(first, {"fox", 60});
    ASSERT_GT(s.imported, 100u);
    auto e = Explorer::Start(Options(), &coordinator_->queries(), nullptr);
    ASSERT_TRUE(e.ok()) << e.status();
    explorer_ = e->release();
    ASSERT_EQ(explorer_->server().tls(), tls_);
  }
  static void TearDownTestSuite() {
    delete explorer_;
    explorer_ = nullptr;
    if (coordinator_ != nullptr) coordinator_->Shutdown();
    delete coordinator_;
    coordinator_ = nullptr;
    delete tmp_;
    tmp_ = nullptr;
    set_up_ = false;
  }
  void SetUp() override {
    if (!set_up_ || tls_ != GetParam()) {
      TearDownTestSuite();
      set_up_ = true;
      SetUpServers(GetParam());
    }
    if (corpus_.empty()) {
      GTEST_SKIP() << "the fox-pro corpus is absent (neither "
                   << QIPU_SOURCE_DIR
                   << "/../shared/corpora/fox-pro nor /work/shared/corpora/"
                      "fox-pro)";
    }
    ASSERT_NE(explorer_, nullptr);
  }

  // The explorer's options: HTTPS with the test certificate when tls_.
  static ExplorerOptions Options() {
    ExplorerOptions o;
    if (tls_) {
      o.http.tls_cert = certs_.server_cert();
      o.http.tls_key = certs_.server_key();
    }
    return o;
  }
  // test_util::HttpRequest over HTTPS (verifying the server against the
  // test CA) when tls_.
  static absl::StatusOr<HttpResult> HttpRequest(
      int port, const std::string& target,
      const std::vector<std::pair<std::string, std::string>>& headers = {},
      const std::string& method = "GET") {
    const test_util::HttpTls tls{certs_.ca()};
    return test_util::HttpRequest(port, target, headers, method,
                                  absl::Seconds(20), tls_ ? &tls : nullptr);
  }

  static HttpResult Get(
      const std::string& target,
      const std::vector<std::pair<std::string, std::string>>& headers = {},
      int port = 0) {
    auto r = HttpRequest(port != 0 ? port : explorer_->port(), target, headers);
    EXPECT_TRUE(r.ok()) << target << ": " << r.status();
    return r.ok() ? *r : HttpResult{};
  }
  static nlohmann::json GetJson(const std::string& target) {
    const HttpResult r = Get(target);
    EXPECT_EQ(r.status, 200) << target << ": " << r.body;
    EXPECT_EQ(
        r.headers.count("content-type") ? r.headers.at("content-type") : "",
        "application/json");
    return nlohmann::json::parse(r.body, nullptr, false);
  }

  static engine::QueryEngine& engine() { return coordinator_->queries(); }

  static inline std::string corpus_;
  static inline std::vector<std::string> files_;
  static inline test_util::TempDir* tmp_ = nullptr;
  static inline coordinator::Coordinator* coordinator_ = nullptr;
  static inline Explorer* explorer_ = nullptr;
  // Whether this instantiation's servers are up (SetUpServers() ran).
  static inline bool set_up_ = false;
  static inline bool tls_ = false;
  static inline test_util::TestCerts certs_;
};

// Two suites ("Plain/WebApiTest", "Https/WebApiTest"), each torn down
// before the next begins.
INSTANTIATE_TEST_SUITE_P(Plain, WebApiTest, ::testing::Values(false));
INSTANTIATE_TEST_SUITE_P(Https, WebApiTest, ::testing::Values(true));

// The request the API builds for `query` (same mapping as the CLI).
backend::QueryArgs ArgsOf(const std::string& query) {
  std::vector<std::pair<std::string, std::string>> out;
  EXPECT_TRUE(ParseQueryString(query, &out)) << query;
  return out;
}

TEST_P(WebApiTest, OpeningsEqualReportJson) {
  // The empty board, then down the most played line, then a side line.
  std::vector<std::string> line;
  for (int depth = 0; depth < 5; ++depth) {
    const std::string moves = absl::StrJoin(line, "+");
    for (const std::string& filters :
         {std::string(""), std::string("&size=19"),
          std::string("&size=19&source=fox&examples=5"),
          std::string("&rules=chinese&limit=3")}) {
      const std::string query = absl::StrCat("moves=", moves, filters);
      auto req = backend::OpeningsFromArgs(ArgsOf(query), "");
      ASSERT_TRUE(req.ok()) << req.status();
      auto want = engine().Openings(*req);
      ASSERT_TRUE(want.ok()) << want.status();
      const nlohmann::json got = GetJson("/api/v1/openings?" + query);
      EXPECT_EQ(got, report::OpeningsJson(*want)) << query;
    }
    auto req = backend::OpeningsFromArgs(ArgsOf("moves=" + moves), "");
    auto r = engine().Openings(*req);
    ASSERT_TRUE(r.ok());
    if (depth == 0) {
      EXPECT_GT(r->reached().games(), 100u);
      EXPECT_GE(r->continuations_size(), 2);
    }
    if (r->continuations_size() == 0) break;
    line.push_back(r->continuations(0).move());
  }
  EXPECT_GE(line.size(), 3u);
  // Coloured moves and the side to move.
  const std::string q = "moves=B:Q16&to-play=B";
  auto req = backend::OpeningsFromArgs(ArgsOf(q), "");
  ASSERT_TRUE(req.ok());
  auto want = engine().Openings(*req);
  ASSERT_TRUE(want.ok());
  EXPECT_EQ(GetJson("/api/v1/openings?" + q), report::OpeningsJson(*want));
  EXPECT_EQ(GetJson("/api/v1/openings?" + q)["to_play"], "B");
}

TEST_P(WebApiTest, AggregatesEqualReportJson) {
  for (const std::string& query :
       {std::string(""), std::string("size=19"), std::string("source=fox"),
        std::string("rules=chinese&size=19x19"), std::string("policy=import"),
        std::string("from=19000101&to=20991231"), std::string("komi=7.5")}) {
    auto ko = engine().Ko(*backend::KoFromArgs(ArgsOf(query), ""));
    ASSERT_TRUE(ko.ok());
    EXPECT_EQ(GetJson("/api/v1/ko?" + query), report::KoJson(*ko)) << query;
    auto cycles = engine().Cycles(*backend::CyclesFromArgs(ArgsOf(query), ""));
    ASSERT_TRUE(cycles.ok());
    EXPECT_EQ(GetJson("/api/v1/cycles?" + query), report::CyclesJson(*cycles))
        << query;
    auto results =
        engine().Results(*backend::ResultsFromArgs(ArgsOf(query), ""));
    ASSERT_TRUE(results.ok());
    EXPECT_EQ(GetJson("/api/v1/results?" + query),
              report::ResultsJson(*results))
        << query;
  }
  EXPECT_GT(GetJson("/api/v1/results")["games"].get<int>(), 100);
}

TEST_P(WebApiTest, PatternEqualsReportJsonAndPages) {
  for (const std::string& query :
       {std::string("pattern=.X./.../...&placement=corner"),
        std::string("pattern=....../..X.../......&anchor=A19"),
        std::string("pattern=XO/OX&placement=anywhere&page-size=7"),
        std::string("pattern=.O./X.X&placement=side&colour-swap=1&size=19"),
        std::string("pattern=..../..X./..../....&anchor=Q16&source=fox")}) {
    auto req = backend::PatternFromArgs(ArgsOf(query), "");
    ASSERT_TRUE(req.ok()) << req.status();
    auto want = engine().Pattern(*req);
    ASSERT_TRUE(want.ok()) << query << ": " << want.status();
    EXPECT_EQ(GetJson("/api/v1/pattern?" + query), report::PatternJson(*want))
        << query;
  }
  // A corner star point stone is in nearly every game; its pages hold
  // every match once.
  const std::string base = "pattern=.../.X./...&anchor=C17&page-size=50";
  nlohmann::json page = GetJson("/api/v1/pattern?" + base);
  const uint64_t total = page["games"].get<uint64_t>();
  EXPECT_GT(total, 100u);
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    for (const auto& m : page["matches"]) {
      EXPECT_TRUE(seen.insert(m["id"].get<std::string>()).second);
    }
    const std::string token = page["next_page_token"].get<std::string>();
    if (token.empty()) break;
    page = GetJson("/api/v1/pattern?" + base + "&page-token=" + token);
  }
  EXPECT_EQ(seen.size(), total);
}

TEST_P(WebApiTest, GameJsonSgfAndReplay) {
  auto openings = engine().Openings(*backend::OpeningsFromArgs({}, ""));
  ASSERT_TRUE(openings.ok());
  std::vector<std::string> ids;
  for (const auto& c : openings->continuations()) {
    for (const std::string& id : c.example_game_ids()) ids.push_back(id);
  }
  ASSERT_GE(ids.size(), 3u);
  for (const std::string& id : ids) {
    qipu::v1::GetGameRequest req;
    req.set_id(id);
    auto game = engine().GetGame(req);
    ASSERT_TRUE(game.ok()) << game.status();
    auto want = report::GameJson(*game);
    ASSERT_TRUE(want.ok()) << want.status();
    want->erase("sgf");
    EXPECT_EQ(GetJson("/api/v1/game/" + id), *want);
    for (const std::string& sgf_path :
         {"/api/v1/game/" + id + ".sgf", "/api/v1/game/" + id + "?sgf=1"}) {
      HttpResult sgf = Get(sgf_path);
      EXPECT_EQ(sgf.status, 200);
      EXPECT_EQ(sgf.body, game->sgf());
      EXPECT_NE(sgf.headers["content-disposition"].find("attachment"),
                std::string::npos);
    }
    const nlohmann::json replay = GetJson("/api/v1/game/" + id + "/replay");
    ASSERT_TRUE(replay.is_object()) << id;
    EXPECT_EQ(replay["id"], id);
    EXPECT_EQ(replay["width"], game->game().width());
    EXPECT_EQ(replay["moves"].size(), game->game().num_moves()) << id;
    EXPECT_EQ(replay["played"], game->game().num_moves());
    EXPECT_TRUE(replay["legal"].get<bool>());
    EXPECT_DOUBLE_EQ(replay["area"]["black"].get<double>(),
                     game->game().area().black());
    EXPECT_DOUBLE_EQ(replay["area"]["white"].get<double>(),
                     game->game().area().white());
    EXPECT_EQ(replay["ko_captures"], game->game().ko_captures());
    EXPECT_EQ(replay["cycles"].size(),
              static_cast<size_t>(game->game().cycles_size()));
    // The replay is the game's own JSON plus its extras: every field of
    // /api/v1/game/ID but the area (the replay's, with more counts) is
    // there as it is.
    for (const auto& [key, value] : want->items()) {
      if (key != "area") {
        EXPECT_EQ(replay.value(key, nlohmann::json()), value)
            << id << " " << key;
      }
    }
    // Prisoners add up: the last move's counts are the captured stones
    // (the colours of the moves are the game's, read as import reads them).
    auto record = engine::JsonLineToRecord(replay.dump());
    ASSERT_TRUE(record.ok()) << record.status();
    ASSERT_EQ(replay["replayed"].size(), game->game().num_moves()) << id;
    size_t captured[2] = {0, 0};
    for (size_t k = 0; k < replay["replayed"].size(); ++k) {
      captured[record->moves[k].color == rules::Color::kBlack ? 0 : 1] +=
          replay["replayed"][k]["captured"].size();
    }
    if (!replay["replayed"].empty()) {
      const auto& last = replay["replayed"].back();
      EXPECT_EQ(last["black_prisoners"].get<size_t>(), captured[0]);
      EXPECT_EQ(last["white_prisoners"].get<size_t>(), captured[1]);
    }
    // The territory plus the stones is the area count (dame halves).
    const auto& t = replay["territory"];
    EXPECT_EQ(t["black"].size(),
              replay["area"]["black_territory"].get<size_t>());
    EXPECT_EQ(t["white"].size(),
              replay["area"]["white_territory"].get<size_t>());
  }
}

// A record kept against its rules (engine/prepare.h) replays as played:
// every stored move is in `replayed` (a suicide removes its own stone),
// the notes are in the JSON, and `records` filters the API's answers.
TEST_P(WebApiTest, RecordsKeptAgainstTheirRulesReplayAsPlayed) {
  const std::string file =
      tmp_->Sub(GetParam() ? "suicide-tls.sgf" : "suicide.sgf");
  const std::string sgf =
      "(;GM[1]FF[4]SZ[9]RU[Chinese]RE[W+R]AW[ba][ab];B[aa];W[ee];B[gg])";
  std::ofstream(file) << sgf;
  const engine::ImportSummary s =
      coordinator_->importer().ImportPaths({file}, {"kept", 60});
  ASSERT_EQ(s.imported + s.duplicates, 1u);
  rules::SgfCollection c = rules::ReadSgf(sgf);
  ASSERT_EQ(c.games.size(), 1u);
  const std::string id = store::GameIdText(store::ContentId(c.games[0]));
  const nlohmann::json replay = GetJson("/api/v1/game/" + id + "/replay");
  ASSERT_TRUE(replay.is_object()) << id;
  EXPECT_EQ(replay["record"], "noted");
  ASSERT_EQ(replay["record_notes"].size(), 1u);
  EXPECT_EQ(replay["record_notes"][0]["rule"], "suicide");
  EXPECT_EQ(replay["record_notes"][0]["vertex"], "A9");
  EXPECT_EQ(replay["played"], 3);
  ASSERT_EQ(replay["replayed"].size(), 3u);
  EXPECT_EQ(replay["replayed"][0]["captured"], nlohmann::json({"A9"}));
  EXPECT_FALSE(replay["legal"].get<bool>());
  EXPECT_EQ(replay["illegal_move"], 1);
  // The filter: this source's game is noted, none is clean.
  EXPECT_EQ(GetJson("/api/v1/results?source=kept&records=noted")["games"], 1u);
  EXPECT_EQ(GetJson("/api/v1/results?source=kept&records=clean")["games"], 0u);
  EXPECT_EQ(GetJson("/api/v1/results?source=kept")["games"], 1u);
}

TEST_P(WebApiTest, BadInputIs4xxNamingTheParameter) {
  struct BadCase {
    std::string target;
    int status;
    std::string message;  // a part of the error
  };
  const std::string many_passes =
      "/api/v1/openings?moves=" +
      absl::StrJoin(std::vector<std::string>(2000, "pass"), "+");
  const std::vector<BadCase> cases = {
      {"/api/v1/openings?moves=Z99", 400, "moves: move 1 'Z99'"},
      {"/api/v1/openings?moves=Q16+Q16", 400, "moves: move 2"},
      {"/api/v1/openings?moves=Q16+resign", 400, "moves"},
      {"/api/v1/openings?moves=X:Q16", 400, "moves"},
      {"/api/v1/openings?moves=E5&size=4", 400, "moves"},
      {many_passes, 400, "moves"},
      {"/api/v1/openings?setup=E5", 400, "setup"},
      {"/api/v1/openings?setup=B:E5+W:E5", 400, "setup"},
      {"/api/v1/openings?size=abc", 400, "size"},
      {"/api/v1/openings?size=0", 400, "size"},
      {"/api/v1/openings?size=99", 400, "size"},
      {"/api/v1/openings?size=99999999999", 400, "size"},
      {"/api/v1/openings?size=19x", 400, "size"},
      {"/api/v1/ko?komi=abc", 400, "komi"},
      {"/api/v1/ko?komi=7.3", 400, "komi"},
      {"/api/v1/openings?bogus=1", 400, "bogus: unknown"},
      {"/api/v1/openings?Moves=Q16", 400, "Moves: unknown"},
      {"/api/v1/openings?limit=100000", 400, "limit"},
      {"/api/v1/openings?limit=-1", 400, "limit"},
      {"/api/v1/openings?limit=1001", 400, "limit"},
      {"/api/v1/openings?examples=11", 400, "examples"},
      {"/api/v1/openings?examples=0", 400, "examples"},
      {"/api/v1/cycles?examples=1000000", 400, "examples"},
      {"/api/v1/openings?to-play=X", 400, "to-play"},
      {"/api/v1/openings?to_play=B", 400, "to_play: unknown"},
      {"/api/v1/results?from=2020", 400, "from"},
      {"/api/v1/results?to=abcdefgh", 400, "to"},
      {"/api/v1/results?from=20201301", 400, "from"},
      {"/api/v1/results?from=20210101&to=20200101", 400, "from"},
      {"/api/v1/ko?rules=ko=superko", 400, "rules"},
      {"/api/v1/ko?rules=nonsense", 400, "rules"},
      {"/api/v1/ko?size=19&size=9", 400, "size: given twice"},
      {"/api/v1/ko?job=abc", 400, "job"},
      {"/api/v1/ko?job=1&source=fox", 400, "job"},
      {"/api/v1/ko?handicap=x", 400, "handicap"},
      {"/api/v1/ko?handicap=100000", 400, "handicap"},
      {"/api/v1/ko?moves=Q16", 400, "moves: unknown"},
      {"/api/v1/results?examples=3", 400, "examples: unknown"},
      {"/api/v1/openings?moves=%ZZ", 400, "malformed query string"},
      {"/api/v1/openings?moves=%4", 400, "malformed query string"},
      {"/api/v1/game/nonsense", 400, "id"},
      {"/api/v1/game/s1", 400, "id"},
      {"/api/v1/game/" + std::string(100, 'a'), 400, "id"},
      {"/api/v1/game/s999999-1", 404, "not stored"},
      {"/api/v1/game/i00000000000000000000000000000000", 404, "not stored"},
      {"/api/v1/game/s999999-1/replay", 404, "not stored"},
      {"/api/v1/game/s1-1?x=1", 400, "x: unknown"},
      {"/api/v1/game/s1-1?sgf=maybe", 400, "sgf"},
      {"/api/v1/game/", 404, "no such path"},
      {"/api/v1/game/a/b/c", 404, "no such path"},
      {"/api/v1/nothing", 404, "no such path"},
      {"/api/v2/openings", 404, "no such path"},
      {"/nothing.html", 404, "no such path"},
      {"/api/v1/pattern", 400, "pattern: missing"},
      {"/api/v1/pattern?pattern=XZ/.X", 400, "pattern"},
      {"/api/v1/pattern?pattern=XO/.", 400, "pattern"},
      {"/api/v1/pattern?pattern=XO/.X&placement=middle", 400, "placement"},
      {"/api/v1/pattern?pattern=XO/.X&anchor=Z99", 400, "anchor"},
      {"/api/v1/pattern?pattern=XO/.X&page-size=5000", 400, "page-size"},
      {"/api/v1/pattern?pattern=XO/.X&page-token=nonsense", 400, "page"},
      {"/api/v1/pattern?pattern=XO/.X&colour-swap=maybe", 400, "colour-swap"},
      {"/api/v1/pattern?bogus=1", 400, "bogus: unknown"},
  };
  for (const BadCase& c : cases) {
    const HttpResult r = Get(c.target);
    EXPECT_EQ(r.status, c.status) << c.target << ": " << r.body;
    const nlohmann::json j = nlohmann::json::parse(r.body, nullptr, false);
    ASSERT_TRUE(j.is_object()) << c.target << ": " << r.body;
    const std::string error = j.value("error", "");
    EXPECT_NE(error.find(c.message), std::string::npos)
        << c.target << ": " << error;
  }
  // Other methods.
  auto post = HttpRequest(explorer_->port(), "/api/v1/openings", {}, "POST");
  ASSERT_TRUE(post.ok());
  EXPECT_EQ(post->status, 405);
  EXPECT_EQ(post->headers["allow"], "GET, HEAD");
  // HEAD: the status and headers of GET, no body.
  auto head = HttpRequest(explorer_->port(), "/api/v1/ko", {}, "HEAD");
  ASSERT_TRUE(head.ok());
  EXPECT_EQ(head->status, 200);
  EXPECT_TRUE(head->body.empty());
}

TEST_P(WebApiTest, PagesAreServedFromTheBinary) {
  HttpResult index = Get("/");
  EXPECT_EQ(index.status, 200);
  EXPECT_EQ(index.headers["content-type"], "text/html; charset=utf-8");
  EXPECT_NE(index.body.find("openings.js"), std::string::npos);
  for (const std::string page :
       {"/openings.html", "/stats.html", "/game.html"}) {
    const HttpResult r = Get(page);
    EXPECT_EQ(r.status, 200) << page;
    EXPECT_NE(r.body.find("common.js"), std::string::npos) << page;
  }
  HttpResult js = Get("/board.js");
  EXPECT_EQ(js.status, 200);
  EXPECT_EQ(js.headers["content-type"], "text/javascript; charset=utf-8");
  EXPECT_NE(js.body.find("class GoBoard"), std::string::npos);
  const nlohmann::json health = GetJson("/api/v1/health");
  EXPECT_EQ(health["status"], "ok");
  EXPECT_EQ(health["auth"], false);
}

TEST_P(WebApiTest, ConcurrentReadersWhileImporting) {
  const nlohmann::json before = GetJson("/api/v1/results");
  const int games_before = before["games"].get<int>();
  const std::vector<std::string> targets = {
      "/api/v1/openings",
      "/api/v1/openings?moves=Q16",
      "/api/v1/openings?moves=Q16+D4&size=19",
      "/api/v1/ko?size=19",
      "/api/v1/cycles",
      "/api/v1/results?source=fox",
      "/api/v1/openings?moves=Z99",
      "/",
  };
  std::atomic<bool> importing{true};
  std::atomic<int> answered{0};
  std::atomic<int> server_errors{0};
  std::atomic<int> regressions{0};
  std::atomic<int> during_import{0};
  std::vector<std::thread> readers;
  constexpr int kReaders = 8;
  constexpr int kRequestsEach = 40;
  for (int t = 0; t < kReaders; ++t) {
    readers.emplace_back([&, t] {
      int last_games = 0;
      for (int i = 0; i < kRequestsEach || importing.load(); ++i) {
        const std::string& target = targets[(t + i) % targets.size()];
        auto r = HttpRequest(explorer_->port(), target);
        if (!r.ok() || r->status >= 500) {
          ++server_errors;
          continue;
        }
        ++answered;
        if (importing.load()) ++during_import;
        if (target == "/api/v1/openings") {
          // Games only ever get added: a reader never sees fewer.
          const int games = nlohmann::json::parse(r->body)["games"].get<int>();
          if (games < last_games) ++regressions;
          last_games = games;
        }
        if (i > 2000) break;
      }
    });
  }
  const std::vector<std::string> rest(
      files_.begin() + std::min(kWebFirstFiles, files_.size()), files_.end());
  const engine::ImportSummary s =
      coordinator_->importer().ImportPaths(rest, {"fox", 60});
  importing = false;
  for (std::thread& t : readers) t.join();
  EXPECT_EQ(server_errors.load(), 0);
  EXPECT_EQ(regressions.load(), 0);
  EXPECT_GE(answered.load(), kReaders * kRequestsEach);
  EXPECT_GT(during_import.load(), 0);
  EXPECT_GT(s.imported, 100u);
  // Every imported game is counted by the API afterwards.
  const nlohmann::json after = GetJson("/api/v1/results");
  EXPECT_EQ(after["games"].get<uint64_t>(),
            static_cast<uint64_t>(games_before) + s.imported);
  auto want = engine().Results(qipu::v1::ResultsRequest());
  ASSERT_TRUE(want.ok());
  EXPECT_EQ(after, report::ResultsJson(*want));
}

TEST_P(WebApiTest, TokensWhenRequired) {
  auto reader = coordinator_->tokens().Create(qipu::v1::ROLE_READER, "web");
  ASSERT_TRUE(reader.ok()) << reader.status();
  auto worker = coordinator_->tokens().Create(qipu::v1::ROLE_WORKER, "w");
  ASSERT_TRUE(worker.ok());
  auto op = coordinator_->tokens().Create(qipu::v1::ROLE_OPERATOR, "op");
  ASSERT_TRUE(op.ok());
  auto revoked = coordinator_->tokens().Create(qipu::v1::ROLE_READER, "old");
  ASSERT_TRUE(revoked.ok());
  ASSERT_TRUE(coordinator_->tokens().Revoke(revoked->info.id()).ok());
  auto secured = Explorer::Start(Options(), &coordinator_->queries(),
                                 &coordinator_->tokens());
  ASSERT_TRUE(secured.ok()) << secured.status();
  const int port = (*secured)->port();
  auto bearer = [](const std::string& t) {
    return std::vector<std::pair<std::string, std::string>>{
        {"Authorization", "Bearer " + t}};
  };
  const std::string target = "/api/v1/openings?moves=Q16";
  const HttpResult none = Get(target, {}, port);
  EXPECT_EQ(none.status, 401);
  EXPECT_EQ(none.headers.at("www-authenticate"), "Bearer");
  EXPECT_NE(none.body.find("token"), std::string::npos);
  EXPECT_EQ(Get(target, bearer("qipu_nonsense"), port).status, 401);
  EXPECT_EQ(Get(target, {{"Authorization", "Basic abc"}}, port).status, 401);
  EXPECT_EQ(Get(target, bearer(revoked->token), port).status, 401);
  EXPECT_EQ(Get("/api/v1/game/s1-1", {}, port).status, 401);
  const HttpResult denied = Get(target, bearer(worker->token), port);
  EXPECT_EQ(denied.status, 403);
  EXPECT_NE(denied.body.find("worker"), std::string::npos);
  const HttpResult ok = Get(target, bearer(reader->token), port);
  EXPECT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(ok.body, Get(target).body);
  EXPECT_EQ(Get(target, bearer(op->token), port).status, 200);
  // Open: health and the pages (the page asks for the token itself).
  EXPECT_EQ(Get("/api/v1/health", {}, port).status, 200);
  EXPECT_EQ(Get("/openings.html", {}, port).status, 200);
  EXPECT_EQ(Get("/common.js", {}, port).status, 200);
}

TEST_P(WebApiTest, AuthorizationIsReadLikeTheGrpcPort) {
  // base::ParseBearer() on both sides: the scheme in any case, exactly one
  // header. (The count of headers comes from the transport,
  // HttpRequest::authorization_count; Api is asked directly here.)
  auto reader = coordinator_->tokens().Create(qipu::v1::ROLE_READER, "web");
  ASSERT_TRUE(reader.ok()) << reader.status();
  const Api api(&coordinator_->queries(), &coordinator_->tokens());
  auto ask = [&](const std::string& authorization, int count) {
    ::qipu::web::HttpRequest req;
    req.method = "GET";
    req.path = "/api/v1/ko";
    req.authorization = authorization;
    req.authorization_count = count;
    return api.Handle(req);
  };
  for (const std::string& v :
       {"Bearer " + reader->token, "bearer " + reader->token,
        "BEARER  " + reader->token + " "}) {
    EXPECT_EQ(ask(v, 1).status, 200) << v;
    EXPECT_EQ(ask(v, -1).status, 200) << v;  // not counted: one
  }
  const HttpResponse two = ask("Bearer " + reader->token, 2);
  EXPECT_EQ(two.status, 401);
  EXPECT_NE(two.body.find("2 authorization headers"), std::string::npos)
      << two.body;
  EXPECT_EQ(ask("", 0).status, 401);
  EXPECT_EQ(ask(reader->token, 1).status, 401);  // no scheme
  EXPECT_EQ(ask(reader->token, 1).body.find(reader->token.substr(5, 12)),
            std::string::npos);

  // Over the wire: the server counts the headers it received.
  auto secured = Explorer::Start(Options(), &coordinator_->queries(),
                                 &coordinator_->tokens());
  ASSERT_TRUE(secured.ok()) << secured.status();
  const int port = (*secured)->port();
  const std::string bearer = "bearer " + reader->token;
  EXPECT_EQ(Get("/api/v1/ko", {{"Authorization", bearer}}, port).status, 200);
  const HttpResult twice =
      Get("/api/v1/ko", {{"Authorization", bearer}, {"authorization", bearer}},
          port);
  EXPECT_EQ(twice.status, 401);
  EXPECT_NE(twice.body.find("2 authorization headers"), std::string::npos)
      << twice.body;
}

TEST(WebQueryString, DecodesAndRefusesBadEscapes) {
  std::vector<std::pair<std::string, std::string>> q;
  ASSERT_TRUE(ParseQueryString("moves=Q16+D4&size=19&x=%41%2B&flag", &q));
  ASSERT_EQ(q.size(), 4u);
  EXPECT_EQ(q[0], std::make_pair(std::string("moves"), std::string("Q16 D4")));
  EXPECT_EQ(q[2].second, "A+");
  EXPECT_EQ(q[3], std::make_pair(std::string("flag"), std::string()));
  EXPECT_FALSE(ParseQueryString("a=%", &q));
  EXPECT_FALSE(ParseQueryString("a=%g1", &q));
}

}  // namespace
}  // namespace qipu::web
