// Process test: `qipu query openings|ko|cycles|results|game` end to end,
// against a real database (made by `qipu local`), opened by the command
// itself (--db) and through a qipu-coordinator process (--server). Every
// answer is checked against the games the database holds, read back one by
// one: outcomes and end reasons, ko captures, cycles by class and outcome,
// the first moves of the games (symmetries folded) and the position after
// one of them (also asked with coloured moves and setup stones), and one
// game in full (its JSON, and its SGF). --db and --server give the same
// answers; bad input is refused with a reason. Hand-made records with
// same-colour runs and a pass, imported by `qipu import`, are asked with
// coloured moves.
#include <signal.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/game_format.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "proto/convert.h"
#include "rules/coord.h"
#include "rules/game.h"
#include "rules/result.h"
#include "rules/sgf_reader.h"
#include "rules/types.h"
#include "tests/ops/process_fixture.h"

namespace qipu::testing {
namespace {

constexpr uint64_t kQueryGames = 150;

// What the answers should say, from the stored games.
struct Expected {
  uint64_t black = 0, white = 0, draws = 0, void_games = 0;
  std::map<std::string, uint64_t> by_reason;
  uint64_t moves = 0;
  uint64_t ko_captures = 0, games_with_ko = 0, max_ko = 0;
  // (class, outcome) -> cycles, games with one.
  std::map<std::pair<std::string, std::string>, std::pair<uint64_t, uint64_t>>
      cycles;
  // First move of each game with one (points on 9x9, or kPass).
  std::vector<rules::Point> first_moves;
};

Expected Recount(const std::map<uint64_t, qipu::v1::Game>& games) {
  Expected e;
  for (const auto& [index, g] : games) {
    switch (g.result().winner()) {
      case qipu::v1::WINNER_BLACK:
        ++e.black;
        break;
      case qipu::v1::WINNER_WHITE:
        ++e.white;
        break;
      case qipu::v1::WINNER_DRAW:
        ++e.draws;
        break;
      default:
        ++e.void_games;
    }
    auto result = wire::ResultFromProto(g.result());
    ++e.by_reason[result.ok() ? rules::EndReasonName(result->reason) : "?"];
    e.moves += g.num_moves();
    e.ko_captures += g.ko_captures();
    e.games_with_ko += g.ko_captures() > 0;
    e.max_ko = std::max<uint64_t>(e.max_ko, g.ko_captures());
    std::set<std::pair<std::string, std::string>> seen;
    for (const auto* list : {&g.cycles(), &g.voided_cycles()}) {
      for (const qipu::v1::Cycle& c : *list) {
        auto rc = wire::CycleFromProto(c, static_cast<int>(g.width()),
                                       static_cast<int>(g.height()));
        const std::pair<std::string, std::string> key = {
            rc.ok() ? rules::CycleClassName(rc->cls) : "?",
            rc.ok() ? rules::CycleOutcomeName(rc->outcome) : "?"};
        ++e.cycles[key].first;
        if (seen.insert(key).second) ++e.cycles[key].second;
      }
    }
    auto record = wire::GameToRecord(g);
    if (record.ok() && !record->moves.empty()) {
      e.first_moves.push_back(record->moves[0].point);
    }
  }
  return e;
}

// The 8 images of `p` under the symmetries of the 9x9 board.
std::set<rules::Point> Orbit(rules::Point p) {
  if (p == rules::kPass) return {p};
  const int x = rules::PointX(p);
  const int y = rules::PointY(p);
  std::set<rules::Point> out;
  for (int t = 0; t < 8; ++t) {
    int a = (t & 1) ? 8 - x : x;
    int b = (t & 2) ? 8 - y : y;
    if (t & 4) std::swap(a, b);
    out.insert(rules::MakePoint(a, b));
  }
  return out;
}

class OpsQuery : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(tmp_.path().empty());
    db_ = tmp_.Sub("db");
    const Ran local =
        RunQipu(tmp_.path(), "local",
                {"local", "--games", absl::StrCat(kQueryGames), "--size", "9",
                 "--seed", "21", "--db", db_, "--json"});
    ASSERT_EQ(local.status, 0) << local.err;
    job_ = LastJsonLine(local.out).value("job", uint64_t{0});
    ASSERT_GT(job_, 0u) << local.out;
    auto games = ReadStoredGames(db_, job_);
    ASSERT_TRUE(games.ok()) << games.status();
    ASSERT_EQ(games->size(), kQueryGames);
    games_ = *std::move(games);
  }

  // `qipu query <args> --json` on the database directly; its answer.
  nlohmann::json Query(const std::vector<std::string>& args,
                       const std::string& where) {
    std::vector<std::string> argv = {"query"};
    argv.insert(argv.end(), args.begin(), args.end());
    if (where.empty()) {
      argv.insert(argv.end(), {"--db", db_});
    } else {
      argv.insert(argv.end(), {"--server", where});
    }
    argv.push_back("--json");
    const Ran r = RunQipu(tmp_.path(), absl::StrCat("query", ++runs_), argv);
    EXPECT_EQ(r.status, 0) << absl::StrJoin(argv, " ") << ": " << r.err;
    nlohmann::json j = LastJsonLine(r.out);
    EXPECT_TRUE(j.is_object()) << r.out;
    return j;
  }

  TempDir tmp_;
  std::string db_;
  uint64_t job_ = 0;
  std::map<uint64_t, qipu::v1::Game> games_;
  int runs_ = 0;
};

TEST_F(OpsQuery, AnswersAgreeWithTheStoredGamesThroughDbAndServer) {
  const Expected e = Recount(games_);
  const std::string source = absl::StrCat("job:", job_);
  std::map<std::string, nlohmann::json> by_db;
  for (const std::string& where : {std::string(), std::string("server")}) {
    // The second round asks a coordinator process on the same database.
    std::unique_ptr<CoordinatorProcess> coord;
    std::string server;
    if (!where.empty()) {
      coord = std::make_unique<CoordinatorProcess>(db_, tmp_.Sub("coord"));
      ASSERT_TRUE(coord->Start().ok()) << coord->LogTail();
      server = coord->address();
    }
    SCOPED_TRACE(where.empty() ? "--db" : "--server");
    std::map<std::string, nlohmann::json> answers;

    const nlohmann::json results =
        Query({"results", "--source", source}, server);
    answers["results"] = results;
    EXPECT_EQ(results["games"], kQueryGames);
    EXPECT_EQ(results["black_wins"], e.black);
    EXPECT_EQ(results["white_wins"], e.white);
    EXPECT_EQ(results["draws"], e.draws);
    EXPECT_EQ(results["void"], e.void_games);
    for (const auto& [reason, n] : e.by_reason) {
      EXPECT_EQ(results["by_reason"].value(reason, uint64_t{0}), n) << reason;
    }
    EXPECT_NEAR(results["mean_length"].get<double>(),
                static_cast<double>(e.moves) / kQueryGames, 1e-9);

    const nlohmann::json ko = Query({"ko", "--size", "9"}, server);
    answers["ko"] = ko;
    EXPECT_EQ(ko["games"], kQueryGames);
    EXPECT_EQ(ko["games_with_ko"], e.games_with_ko);
    EXPECT_EQ(ko["ko_captures"], e.ko_captures);
    EXPECT_EQ(ko["max"], e.max_ko);
    EXPECT_NEAR(ko["mean"].get<double>(),
                static_cast<double>(e.ko_captures) / kQueryGames, 1e-9);

    const nlohmann::json cycles =
        Query({"cycles", "--source", source, "--examples", "3"}, server);
    answers["cycles"] = cycles;
    EXPECT_EQ(cycles["games"], kQueryGames);
    std::map<std::pair<std::string, std::string>, std::pair<uint64_t, uint64_t>>
        rows;
    for (const nlohmann::json& row : cycles["rows"]) {
      rows[{row["class"].get<std::string>(),
            row["outcome"].get<std::string>()}] = {
          row["cycles"].get<uint64_t>(), row["games"].get<uint64_t>()};
      // Each example is a game of the job with such a cycle.
      for (const nlohmann::json& id : row["examples"]) {
        EXPECT_EQ(id.get<std::string>().rfind(absl::StrCat("s", job_, "-"), 0),
                  0u)
            << id;
      }
    }
    EXPECT_EQ(rows, e.cycles);

    // The first moves, symmetries folded: each continuation counts the
    // games whose first move is one of its images.
    const nlohmann::json root = Query({"openings", "--size", "9"}, server);
    answers["root"] = root;
    EXPECT_EQ(root["games"], kQueryGames);
    uint64_t continued = 0;
    std::string top;
    uint64_t top_games = 0;
    for (const nlohmann::json& c : root["continuations"]) {
      const std::string move = c["move"].get<std::string>();
      auto p = move == "pass" ? absl::StatusOr<rules::Point>(rules::kPass)
                              : rules::ParseGtpPoint(move, 9, 9);
      ASSERT_TRUE(p.ok()) << move;
      uint64_t n = 0;
      for (rules::Point first : e.first_moves) n += Orbit(first).contains(*p);
      EXPECT_EQ(c["games"], n) << move;
      continued += c["games"].get<uint64_t>();
      if (c["games"].get<uint64_t>() > top_games) {
        top_games = c["games"].get<uint64_t>();
        top = move;
      }
    }
    EXPECT_EQ(continued, e.first_moves.size());
    // The position after the most played first move: reached by exactly
    // the games of that continuation.
    ASSERT_FALSE(top.empty());
    const nlohmann::json after =
        Query({"openings", "--size", "9", "--moves", top}, server);
    answers["after"] = after;
    EXPECT_EQ(after["games"], top_games) << top;
    EXPECT_EQ(after["to_play"], "W");
    // The same position asked with the move's colour and the side to move
    // (flags that cross the wire with --server); and with Black to move
    // again, which no self-play game (they alternate) reached.
    const nlohmann::json coloured = Query({"openings", "--size", "9", "--moves",
                                           "B:" + top, "--to-play", "white"},
                                          server);
    answers["coloured"] = coloured;
    EXPECT_EQ(coloured["position_key"], after["position_key"]);
    EXPECT_EQ(coloured["games"], top_games);
    const nlohmann::json again = Query(
        {"openings", "--size", "9", "--moves", "B:" + top, "--to-play", "B"},
        server);
    answers["again"] = again;
    EXPECT_EQ(again["to_play"], "B");
    EXPECT_EQ(again["games"], 0u);
    EXPECT_NE(again["position_key"], after["position_key"]);
    // A setup stone instead of the move: the same board, White to move.
    const nlohmann::json setup = Query(
        {"openings", "--size", "9", "--setup", "B:" + top, "--to-play", "W"},
        server);
    answers["setup"] = setup;
    EXPECT_EQ(setup["position_key"], after["position_key"]);

    // One game in full: its JSON (the one shape of a stored game,
    // engine::GameJson of the game as stored), and its SGF.
    const uint64_t index = games_.begin()->first + kQueryGames / 2;
    const std::string id = absl::StrCat("s", job_, "-", index);
    const nlohmann::json game = Query({"game", id, "--sgf"}, server);
    answers["game"] = game;
    EXPECT_EQ(game["id"], id);
    auto want = engine::GameJson(games_.at(index), id);
    ASSERT_TRUE(want.ok()) << want.status();
    nlohmann::json json_only = game;
    json_only.erase("sgf");
    EXPECT_EQ(json_only, nlohmann::json(*want)) << game.dump();
    EXPECT_EQ(game["moves"].size(), games_.at(index).num_moves());
    EXPECT_EQ(game["ko_captures"], games_.at(index).ko_captures());
    EXPECT_DOUBLE_EQ(game["area"]["black"].get<double>(),
                     games_.at(index).area().black());
    auto record = wire::GameToRecord(games_.at(index));
    ASSERT_TRUE(record.ok()) << record.status();
    // The JSON reads back (as `qipu import` reads it) as the stored moves.
    auto from_json = engine::JsonLineToRecord(json_only.dump());
    ASSERT_TRUE(from_json.ok()) << from_json.status();
    ASSERT_EQ(from_json->moves.size(), record->moves.size());
    for (size_t k = 0; k < record->moves.size(); ++k) {
      EXPECT_EQ(from_json->moves[k].point, record->moves[k].point) << k;
      EXPECT_EQ(from_json->moves[k].color, record->moves[k].color) << k;
    }
    const std::string sgf_text = game.value("sgf", "");
    const rules::SgfCollection sgf = rules::ReadSgf(sgf_text);
    ASSERT_EQ(sgf.games.size(), 1u) << sgf_text;
    ASSERT_EQ(sgf.games[0].moves.size(), record->moves.size());
    for (size_t k = 0; k < record->moves.size(); ++k) {
      EXPECT_EQ(sgf.games[0].moves[k].point, record->moves[k].point) << k;
      EXPECT_EQ(sgf.games[0].moves[k].color, record->moves[k].color) << k;
    }

    // Bad input: refused with the reason, status 2.
    std::vector<std::string> bad = {"query",   "openings", "--size", "9",
                                    "--moves", "Z99",      "--json"};
    if (server.empty()) {
      bad.insert(bad.end(), {"--db", db_});
    } else {
      bad.insert(bad.end(), {"--server", server});
    }
    const Ran refused = RunQipu(tmp_.path(), absl::StrCat("bad", runs_), bad);
    EXPECT_EQ(refused.status, 2) << refused.err;
    EXPECT_NE(refused.err.find("Z99"), std::string::npos) << refused.err;

    if (where.empty()) {
      by_db = answers;
    } else {
      for (const auto& [name, answer] : answers) {
        EXPECT_EQ(answer, by_db[name]) << name << " differs from --db";
      }
      EXPECT_EQ(coord->Stop(), 0) << coord->LogTail();
    }
  }
}

// Hand-made records imported with `qipu import`: free placements given as
// Black moves (B, B, W), an alternating game and one with an explicit pass.
// `qipu query openings` counts each move under the colour that played it,
// and says the side to move.
TEST(OpsQueryColours, SameColourRunsAreAskedWithColouredMoves) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const std::string head = "(;GM[1]FF[4]SZ[19]";
  const std::vector<std::string> records = {
      "HA[0]KM[0]RE[B+R];B[qd];B[dc];W[cp];B[ep])",
      "HA[0]KM[0]RE[W+R];B[qd];B[dp];W[dd])",
      "KM[7.5]RE[B+R];B[qd];W[dc];B[cp];W[ep])",
      "KM[7.5]RE[W+R];B[qd];W[];B[dc];W[cp])",
  };
  const std::string db = ImportRecords(tmp.path(), head, records);
  ASSERT_FALSE(::testing::Test::HasFailure());
  int runs = 0;
  auto query = [&](std::vector<std::string> args, bool json = true) {
    args.insert(args.begin(), {"query", "openings", "--db", db});
    if (json) args.push_back("--json");
    return RunQipu(tmp.path(), absl::StrCat("query", ++runs), args);
  };
  // R16 has no symmetry of its own: one name per continuation.
  auto moves = [](const nlohmann::json& j) {
    std::map<std::string, uint64_t> m;
    for (const nlohmann::json& c : j["continuations"]) {
      m[c["move"].get<std::string>()] = c["games"].get<uint64_t>();
    }
    return m;
  };
  using Moves = std::map<std::string, uint64_t>;

  // White's replies to R16: the alternating game and the pass, not the
  // free placements (Black moved again there).
  const Ran white = query({"--moves", "R16"});
  ASSERT_EQ(white.status, 0) << white.err;
  const nlohmann::json w = LastJsonLine(white.out);
  EXPECT_EQ(w["to_play"], "W");
  EXPECT_EQ(w["games"], 2u);
  EXPECT_EQ(moves(w), (Moves{{"D17", 1}, {"pass", 1}}));
  // Black's second moves: both free placements and the pass game.
  const Ran black = query({"--moves", "B:R16", "--to-play", "B"});
  ASSERT_EQ(black.status, 0) << black.err;
  const nlohmann::json b = LastJsonLine(black.out);
  EXPECT_EQ(b["to_play"], "B");
  EXPECT_EQ(b["games"], 3u);
  EXPECT_EQ(moves(b), (Moves{{"D17", 2}, {"D4", 1}}));
  // Black R16 and D17, White to move: the free placement and the pass
  // game (which reaches the same board), both answered at C4.
  const Ran both = query({"--moves", "B:R16 B:D17"});
  ASSERT_EQ(both.status, 0) << both.err;
  const nlohmann::json bb = LastJsonLine(both.out);
  EXPECT_EQ(bb["to_play"], "W");
  EXPECT_EQ(bb["games"], 2u);
  EXPECT_EQ(moves(bb), (Moves{{"C4", 2}}));
  const Ran passed = query({"--moves", "R16 pass D17"});
  ASSERT_EQ(passed.status, 0) << passed.err;
  EXPECT_EQ(LastJsonLine(passed.out)["position_key"], bb["position_key"]);
  // The table says what was asked and who moves.
  const Ran text = query({"--moves", "B:R16 B:D17"}, false);
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("Position after B:R16 B:D17 on 19x19, White to "
                          "move"),
            std::string::npos)
      << text.out;

  // Bad input: refused with the reason.
  const Ran uncoloured = query({"--setup", "E5"});
  EXPECT_EQ(uncoloured.status, 2) << uncoloured.err;
  EXPECT_NE(uncoloured.err.find("a setup stone names its colour"),
            std::string::npos)
      << uncoloured.err;
  const Ran side = query({"--moves", "R16", "--to-play", "X"});
  EXPECT_NE(side.status, 0);
  EXPECT_NE(side.err.find("--to-play"), std::string::npos) << side.err;
}

TEST_F(OpsQuery, AnUnknownGameAndAHeldDatabaseAreErrorsWithReasons) {
  const Ran missing =
      RunQipu(tmp_.path(), "missing",
              {"query", "game", absl::StrCat("s", job_, "-", kQueryGames + 5),
               "--db", db_});
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.err.find("qipu query game: "), std::string::npos)
      << missing.err;
  // A running coordinator holds the database: --db says to use --server.
  CoordinatorProcess coord(db_, tmp_.Sub("coord"));
  ASSERT_TRUE(coord.Start().ok()) << coord.LogTail();
  const Ran held =
      RunQipu(tmp_.path(), "held", {"query", "results", "--db", db_});
  EXPECT_EQ(held.status, 1);
  EXPECT_NE(held.err.find("use --server ADDR"), std::string::npos) << held.err;
  EXPECT_EQ(coord.Stop(), 0) << coord.LogTail();
}

}  // namespace
}  // namespace qipu::testing
