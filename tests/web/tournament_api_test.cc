// The explorer's read-only tournament endpoints (web/api.cc:
// /api/v1/tournaments and /api/v1/tournaments/ID) over a real coordinator
// on a RocksDB in a temp dir, answered by Api::Handle (no sockets): the
// list, and one tournament whose summary, standings and crosstable equal
// the JSON `qipu tournament show|standings|crosstable --json` prints for
// the stored tournament; bad ids, unknown ids, parameters and paths are
// 4xx naming what is wrong; a token is needed when the coordinator checks
// them; the page itself is served.
#include <memory>
#include <string>

#include "coordinator/coordinator.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "report/tournament_report.h"
#include "tests/common/temp_dir.h"
#include "tournament/tournament.h"
#include "web/api.h"

namespace qipu::web {
namespace {

using Json = nlohmann::json;

class TournamentApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    coordinator::CoordinatorOptions o;
    o.db_dir = tmp_.Sub("db");
    o.store.sync = false;
    auto c = coordinator::Coordinator::Start(o);
    ASSERT_TRUE(c.ok()) << c.status();
    coordinator_ = *std::move(c);
  }
  void TearDown() override {
    if (coordinator_ != nullptr) coordinator_->Shutdown();
  }

  // A Swiss of 5 (names in two scripts), two rounds played.
  std::string MakeEvent() {
    engine::Tournaments& ts = coordinator_->tournaments();
    qipu::v1::CreateTournamentRequest create;
    create.set_name("Spring Open");
    create.set_system(qipu::v1::TOURNAMENT_SYSTEM_SWISS);
    create.set_rounds(3);
    auto t = ts.Create(create);
    EXPECT_TRUE(t.ok()) << t.status();
    const std::string id = t->tournament().id();
    for (const auto& [name, alt] : {std::pair{"Li Wei", "李偉"},
                                    {"Wang Fang", "王芳"},
                                    {"Zhang Min", "張敏"},
                                    {"Chen Jie", ""},
                                    {"Liu Yang", "劉洋"}}) {
      qipu::v1::AddPlayerRequest add;
      add.set_tournament(id);
      add.set_name(name);
      add.set_alt_name(alt);
      EXPECT_TRUE(ts.AddPlayer(add).ok());
    }
    for (int round = 1; round <= 2; ++round) {
      qipu::v1::PairRequest pair;
      pair.set_tournament(id);
      auto p = ts.Pair(pair);
      EXPECT_TRUE(p.ok()) << p.status();
      for (const auto& g : p->proposal().pairings()) {
        qipu::v1::SetResultRequest r;
        r.set_tournament(id);
        r.set_round(round);
        r.set_table(g.table());
        r.set_result(g.table() % 2 ? qipu::v1::GAME_RESULT_BLACK_WINS
                                   : qipu::v1::GAME_RESULT_DRAW);
        EXPECT_TRUE(ts.SetResult(r, "test").ok());
      }
    }
    return id;
  }

  HttpResponse Get(const std::string& path,
                   std::vector<std::pair<std::string, std::string>> query = {},
                   const engine::TokenRegistry* tokens = nullptr,
                   const std::string& authorization = "") {
    Api api(&coordinator_->queries(), tokens);
    HttpRequest req;
    req.method = "GET";
    req.path = path;
    req.query = std::move(query);
    req.authorization = authorization;
    return api.Handle(req);
  }

  test_util::TempDir tmp_;
  std::unique_ptr<coordinator::Coordinator> coordinator_;
};

TEST_F(TournamentApiTest, ListAndOneTournamentEqualTheCommandsJson) {
  const HttpResponse empty = Get("/api/v1/tournaments");
  ASSERT_EQ(empty.status, 200) << empty.body;
  EXPECT_EQ(Json::parse(empty.body), Json({{"tournaments", Json::array()}}));
  const std::string id = MakeEvent();
  const Json list = Json::parse(Get("/api/v1/tournaments").body);
  ASSERT_EQ(list["tournaments"].size(), 1u) << list;
  EXPECT_EQ(list["tournaments"][0], Json({{"tournament", id},
                                          {"name", "Spring Open"},
                                          {"system", "swiss"},
                                          {"players", 5},
                                          {"rounds", 3},
                                          {"rounds_paired", 2}}));
  const HttpResponse one = Get("/api/v1/tournaments/" + id);
  ASSERT_EQ(one.status, 200) << one.body;
  const Json j = Json::parse(one.body);
  // The same JSON as the commands print for the stored tournament.
  auto stored = coordinator_->tournaments().Get(id);
  ASSERT_TRUE(stored.ok());
  auto s = tournament::GetStandings(*stored);
  auto x = tournament::GetCrosstable(*stored);
  ASSERT_TRUE(s.ok() && x.ok());
  EXPECT_EQ(j["tournament"], report::TournamentSummaryJson(*stored));
  EXPECT_EQ(j["standings"], report::StandingsJson(*stored, *s));
  EXPECT_EQ(j["crosstable"], report::CrosstableJson(*x));
  EXPECT_EQ(j["finished"], false);
  EXPECT_EQ(j["crosstable"]["rows"].size(), 5u);
  EXPECT_EQ(j["crosstable"]["rows"][0]["cells"].size(), 2u);
  // The names in both scripts reach the page.
  bool alt = false;
  for (const Json& p : j["tournament"]["players"]) {
    alt = alt || p["alt_name"] == "李偉";
  }
  EXPECT_TRUE(alt);
}

TEST_F(TournamentApiTest, BadRequestsNameWhatIsWrong) {
  const std::string id = MakeEvent();
  HttpResponse r = Get("/api/v1/tournaments/abc");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Json::parse(r.body)["error"],
            "tournament id 'abc' is not a tournament number (1, 2, ...)");
  r = Get("/api/v1/tournaments/99");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(Json::parse(r.body)["error"], "no tournament 99");
  r = Get("/api/v1/tournaments/" + id, {{"round", "1"}});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Json::parse(r.body)["error"],
            "round: unknown; tournaments take no parameters");
  EXPECT_EQ(Get("/api/v1/tournaments/" + id + "/x").status, 404);
  EXPECT_EQ(Get("/api/v1/tournamentsx").status, 404);
  // A tournament that cannot rank yet still answers, saying why.
  qipu::v1::CreateTournamentRequest c;
  c.set_name("Challenge");
  c.set_system(qipu::v1::TOURNAMENT_SYSTEM_TEAM_CHALLENGE);
  auto t = coordinator_->tournaments().Create(c);
  ASSERT_TRUE(t.ok());
  r = Get("/api/v1/tournaments/" + t->tournament().id());
  ASSERT_EQ(r.status, 200) << r.body;
  const Json j = Json::parse(r.body);
  EXPECT_TRUE(j["standings"].is_null());
  EXPECT_EQ(j["standings_error"],
            "a team challenge needs exactly 2 teams, not 0");
}

TEST_F(TournamentApiTest, TokensAndThePage) {
  MakeEvent();
  const engine::TokenRegistry* tokens = &coordinator_->tokens();
  EXPECT_EQ(Get("/api/v1/tournaments", {}, tokens).status, 401);
  auto reader = coordinator_->tokens().Create(qipu::v1::ROLE_READER, "viewer");
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ(Get("/api/v1/tournaments/1", {}, tokens, "Bearer " + reader->token)
                .status,
            200);
  const HttpResponse page = Get("/tournament.html");
  ASSERT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("<script src=\"tournament.js\"></script>"),
            std::string::npos);
  EXPECT_EQ(Get("/tournament.js").status, 200);
}

}  // namespace
}  // namespace qipu::web
