// Process test: `qipu query pattern` end to end. Hand-made 19x19 records,
// imported by `qipu import`, each putting a stone on a 4-4 point (in
// different corners and colours) and answering in or outside the pattern's
// rectangle; the command is run on the database (--db, the pattern as text
// and from a file) and through a qipu-coordinator process (--server, the
// same JSON). Bad patterns exit with status 2 naming the row and column.
// `qipu bench pattern --games` builds a database and measures it.
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/ops/process_fixture.h"

namespace qipu::testing {
namespace {

// (move, colour) -> games of a --json answer's continuations.
std::map<std::string, uint64_t> PatternContinuations(const nlohmann::json& j) {
  std::map<std::string, uint64_t> out;
  for (const auto& c : j["continuations"]) {
    out[c["colour"].get<std::string>() + ":" + c["move"].get<std::string>()] =
        c["games"].get<uint64_t>();
  }
  return out;
}

TEST(OpsQueryPattern, CornerPatternByDbAndServer) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const std::string head = "(;GM[1]FF[4]SZ[19]KM[7.5]";
  const std::vector<std::string> records = {
      // Black's 4-4 top left, White answers far away: tenuki.
      "RE[B+R];B[dd];W[pp];B[cc])",
      // Top right, White answers far away: tenuki.
      "RE[W+R];B[pd];W[dd];B[dp];W[qc])",
      // Top left, White's 3-3 invasion: C17 in the caller's frame.
      "RE[B+R];B[dd];W[cc])",
      // Bottom right, the same invasion turned 180 degrees: C17 too.
      "RE[W+R];B[pp];W[qq])",
      // Never a lone black 4-4 stone in an empty corner.
      "RE[B+R];B[jj];W[kk];B[jk])",
      // White's 4-4 and Black's invasion: only with colours swapped.
      "RE[W+R];B[jj];W[dd];B[cc])",
  };
  const std::string db = ImportRecords(tmp.path(), head, records);
  ASSERT_FALSE(::testing::Test::HasFailure());

  const std::string pattern = "..../..../..../...X";
  int runs = 0;
  auto query = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"query", "pattern"});
    args.push_back("--json");
    return RunQipu(tmp.path(), absl::StrCat("pattern", ++runs), args);
  };
  const Ran corner = query({"--db", db, "--pattern", pattern, "--corner"});
  ASSERT_EQ(corner.status, 0) << corner.err;
  const nlohmann::json j = LastJsonLine(corner.out);
  EXPECT_EQ(j["games"], 4) << corner.out;
  EXPECT_EQ(j["black_wins"], 2);
  EXPECT_EQ(j["white_wins"], 2);
  EXPECT_EQ(j["pattern"], pattern);
  EXPECT_EQ(j["placement"], "corner");
  EXPECT_EQ(j["anchor"], "A19");
  EXPECT_EQ(j["colour_swap"], false);
  EXPECT_EQ(PatternContinuations(j),
            (std::map<std::string, uint64_t>{{"W:C17", 2}, {"W:tenuki", 2}}))
      << corner.out;
  ASSERT_EQ(j["matches"].size(), 4u);
  for (const auto& m : j["matches"]) {
    EXPECT_EQ(m["move_number"], 1) << m;
    EXPECT_EQ(m["colour"], "W") << m;
    EXPECT_TRUE(m["result"] == "B+R" || m["result"] == "W+R") << m;
  }
  EXPECT_EQ(j["next_page_token"], "");

  // Colours swapped too: the sixth game, its Black answer shown as White's.
  const Ran swapped =
      query({"--db", db, "--pattern", pattern, "--corner", "--colour-swap"});
  ASSERT_EQ(swapped.status, 0) << swapped.err;
  const nlohmann::json js = LastJsonLine(swapped.out);
  EXPECT_EQ(js["games"], 5);
  EXPECT_EQ(PatternContinuations(js),
            (std::map<std::string, uint64_t>{{"W:C17", 3}, {"W:tenuki", 2}}));

  // The pattern from a file, fixed at its place (A19, = the corner), in
  // pages of one game.
  const std::string file = tmp.Sub("corner.txt");
  std::ofstream(file) << "....\n....\n....\n...X\n";
  const Ran paged = query({"--db", db, "--pattern", file, "--page-size", "1"});
  ASSERT_EQ(paged.status, 0) << paged.err;
  const nlohmann::json jp = LastJsonLine(paged.out);
  EXPECT_EQ(jp["games"], 4);
  EXPECT_EQ(jp["placement"], "fixed");
  ASSERT_EQ(jp["matches"].size(), 1u);
  const std::string token = jp["next_page_token"];
  EXPECT_FALSE(token.empty());
  const Ran page2 = query({"--db", db, "--pattern", file, "--page-size", "1",
                           "--page-token", token});
  ASSERT_EQ(page2.status, 0) << page2.err;
  const nlohmann::json jp2 = LastJsonLine(page2.out);
  ASSERT_EQ(jp2["matches"].size(), 1u);
  EXPECT_NE(jp2["matches"][0]["id"], jp["matches"][0]["id"]);

  // Bad patterns and flags: status 2 and the reason.
  const Ran bad = query({"--db", db, "--pattern", "X.Q", "--corner"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("row 1, column 3"), std::string::npos) << bad.err;
  const Ran ragged = query({"--db", db, "--pattern", "XX/X", "--anywhere"});
  EXPECT_EQ(ragged.status, 2);
  EXPECT_NE(ragged.err.find("row 2"), std::string::npos) << ragged.err;
  const Ran anchor =
      query({"--db", db, "--pattern", pattern, "--anchor", "T1"});
  EXPECT_EQ(anchor.status, 2);
  EXPECT_NE(anchor.err.find("anchor"), std::string::npos) << anchor.err;

  // Through a coordinator: the same answer.
  CoordinatorProcess coord(db, tmp.Sub("coord"));
  ASSERT_TRUE(coord.Start().ok()) << coord.LogTail();
  const Ran served =
      query({"--server", coord.address(), "--pattern", pattern, "--corner"});
  ASSERT_EQ(served.status, 0) << served.err;
  EXPECT_EQ(LastJsonLine(served.out), j);
}

// `qipu bench pattern --games`: builds a database, then measures patterns
// cut from it (each matches at least its own game).
TEST(OpsQueryPattern, BenchPatternBuildsAndMeasures) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const Ran r = RunQipu(
      tmp.path(), "bench",
      {"bench", "pattern", "--db", tmp.Sub("db"), "--games", "200", "--size",
       "9", "--width", "3", "--height", "3", "--queries", "4", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json j = LastJsonLine(r.out);
  EXPECT_EQ(j["games"], 200) << r.out;
  EXPECT_GT(j["index_bytes_per_game"].get<double>(), 20.0);
  for (const char* kind : {"corner", "anywhere"}) {
    EXPECT_EQ(j[kind]["queries"], 4) << r.out;
    EXPECT_GE(j[kind]["mean_matched"].get<double>(), 1.0) << r.out;
    EXPECT_GE(j[kind]["mean_candidates"].get<double>(),
              j[kind]["mean_matched"].get<double>());
  }
  const Ran bad = RunQipu(tmp.path(), "bench-bad",
                          {"bench", "pattern", "--db", tmp.Sub("db"), "--size",
                           "9", "--width", "12"});
  EXPECT_EQ(bad.status, 2);
}

}  // namespace
}  // namespace qipu::testing
