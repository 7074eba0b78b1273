// Process test: records are history. Hand-made SGF records of each kind a
// real corpus holds, imported by the real `qipu import`: one legal only
// under its own rules (RU[Japanese], replayed under chinese, going round a
// sending-two-returning-one cycle twice), a Chinese-rules game completing
// that cycle (art. 20 forbids it), a suicide, a stone on an occupied
// point, a move off the board, a clean game, and a file that is not SGF.
// The import keeps the first three noted and the next two cut, counts
// them (text and --json) and rejects only the non-SGF file, with its
// reason; --strict refuses all five as before. `qipu query game` (text and
// --json) shows each note (move, vertex, rule); the export's games carry
// them; the filters select or leave out such games (--records
// all|clean|noted|cut) in results, openings, cycles and export, and the
// cycle went on in the record (continued-in-record). Also through a
// coordinator (--server): the same summary, --strict carried over.
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/ops/process_fixture.h"

namespace qipu::testing {
namespace {

// The records, by file name (9x9; the cycle shape: Black's ba da cb db
// and White's ab bb set up; B aa sends two, W ca takes them, B ba takes
// one back: the setup position again).
const std::map<std::string, std::string>& Records() {
  static const auto* const records = new std::map<std::string, std::string>{
      {"japanese.sgf",
       "(;GM[1]FF[4]SZ[9]RU[Japanese]KM[6.5]PB[Honinbo]PW[Jowa]RE[W+R]"
       "AB[ba][da][cb][db]AW[ab][bb]PL[B]"
       ";B[aa];W[ca];B[ba];W[ee];B[aa];W[ca];B[ba];W[gg])\n"},
      {"chinese.sgf",
       "(;GM[1]FF[4]SZ[9]RU[Chinese]KM[7.5]RE[B+2.5]"
       "AB[ba][da][cb][db]AW[ab][bb]PL[B]"
       ";B[aa];W[ca];B[ba];W[ee];B[gc])\n"},
      {"suicide.sgf",
       "(;GM[1]FF[4]SZ[9]RU[Chinese]KM[7.5]RE[W+R]AW[ba][ab]"
       ";B[aa];W[ee];B[gg];W[cg])\n"},
      {"occupied.sgf",
       "(;GM[1]FF[4]SZ[9]KM[7.5]RE[W+3.5];B[cc];W[gg];B[ee];W[cc];B[ff])\n"},
      {"offboard.sgf",
       "(;GM[1]FF[4]SZ[9]KM[7.5]RE[B+R];B[cd];W[gg];B[jj];W[ee])\n"},
      {"clean.sgf", "(;GM[1]FF[4]SZ[9]KM[7.5]RE[B+R];B[ee];W[gg];B[cc])\n"},
      {"notsgf.sgf", "These are my notes on the game, not a record.\n"},
  };
  return *records;
}

std::string WriteRecords(const TempDir& tmp) {
  const std::string dir = tmp.Sub("records");
  std::filesystem::create_directories(dir);
  for (const auto& [name, text] : Records()) {
    std::ofstream(dir + "/" + name) << text;
  }
  return dir;
}

// The rows of a summary's list by file base name.
std::map<std::string, nlohmann::json> ByFile(const nlohmann::json& rows) {
  std::map<std::string, nlohmann::json> out;
  for (const nlohmann::json& r : rows) {
    out[std::filesystem::path(r["file"].get<std::string>()).filename()] = r;
  }
  return out;
}

class OpsImportRecords : public ::testing::Test {
 protected:
  Ran Qipu(const std::vector<std::string>& args) {
    return RunQipu(tmp_.path(), absl::StrCat("run", ++runs_), args);
  }
  // The JSON of a run that must succeed.
  nlohmann::json Json(const std::vector<std::string>& args) {
    const Ran r = Qipu(args);
    EXPECT_EQ(r.status, 0) << r.err;
    return LastJsonLine(r.out);
  }
  // Every game of the database (its JSON, by file base name).
  std::map<std::string, nlohmann::json> Exported(
      const std::string& db, std::vector<std::string> filter = {}) {
    std::vector<std::string> args = {"export", "--db",  db, "--format",
                                     "jsonl",  "--out", "-"};
    args.insert(args.end(), filter.begin(), filter.end());
    const Ran r = Qipu(args);
    EXPECT_EQ(r.status, 0) << r.err;
    std::map<std::string, nlohmann::json> out;
    for (absl::string_view line : absl::StrSplit(r.out, '\n')) {
      if (line.empty()) continue;
      nlohmann::json j = nlohmann::json::parse(line);
      out[std::filesystem::path(j["provenance"]["file"].get<std::string>())
              .filename()] = j;
    }
    return out;
  }
  uint64_t Games(const std::string& db, const std::string& records) {
    const nlohmann::json j =
        Json({"query", "results", "--db", db, "--records", records, "--json"});
    return j["games"].get<uint64_t>();
  }

  TempDir tmp_;
  int runs_ = 0;
};

TEST_F(OpsImportRecords, RealRecordsAreKeptNotedOrCutAndStrictRefusesThem) {
  ASSERT_FALSE(tmp_.path().empty());
  const std::string dir = WriteRecords(tmp_);
  const std::string db = tmp_.Sub("db");

  // The import: 7 files, 6 games stored (3 noted, 2 cut), the non-SGF
  // file the one rejected.
  const nlohmann::json s =
      Json({"import", "--db", db, dir, "--json", "--no-progress"});
  EXPECT_EQ(s["files"], 7u);
  EXPECT_EQ(s["imported"], 6u);
  EXPECT_EQ(s["noted"], 3u);
  EXPECT_EQ(s["cut"], 2u);
  EXPECT_EQ(s["rejected"], 0u) << s.dump();  // a file, not a game
  ASSERT_EQ(s["errors"].size(), 1u) << s.dump();
  const nlohmann::json& bad = s["errors"][0];
  EXPECT_TRUE(absl::EndsWith(bad["file"].get<std::string>(), "notsgf.sgf"));
  EXPECT_EQ(bad["game"], 0u);
  EXPECT_FALSE(bad["reason"].get<std::string>().empty());
  std::map<std::string, nlohmann::json> kept = ByFile(s["kept"]);
  ASSERT_EQ(kept.size(), 5u) << s.dump();
  EXPECT_EQ(kept["japanese.sgf"]["move"], 3u);
  EXPECT_EQ(kept["japanese.sgf"]["reason"],
            "move 3 (B B9) completes a sending_two_returning_one cycle (from "
            "move 1), which the art. 20 cycle rule of chinese rules forbids");
  EXPECT_EQ(kept["chinese.sgf"]["move"], 3u);
  EXPECT_EQ(kept["suicide.sgf"]["move"], 1u);
  EXPECT_EQ(kept["suicide.sgf"]["reason"],
            "move 1 (B A9) is a suicide, which the suicide rule of chinese "
            "rules forbids");
  EXPECT_EQ(kept["occupied.sgf"]["move"], 4u);
  EXPECT_EQ(kept["occupied.sgf"]["reason"],
            "cut at move 4 (W C7): the point is occupied");
  EXPECT_EQ(kept["offboard.sgf"]["move"], 3u);
  EXPECT_TRUE(absl::StrContains(
      kept["offboard.sgf"]["reason"].get<std::string>(), "off the 9x9 board"))
      << kept["offboard.sgf"];

  // The text summary says so too.
  const std::string dir2 = tmp_.Sub("again");
  std::filesystem::create_directories(dir2);
  std::filesystem::copy(dir + "/suicide.sgf", dir2 + "/suicide.sgf");
  const Ran text =
      Qipu({"import", "--db", tmp_.Sub("db-text"), dir2, "--no-progress"});
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_TRUE(absl::StrContains(text.out, "stored with a note 1  cut 0"))
      << text.out;
  EXPECT_TRUE(absl::StrContains(text.out, "kept against their rules"))
      << text.out;
  EXPECT_TRUE(absl::StrContains(text.out,
                                "suicide.sgf: game 1, move 1: move 1 "
                                "(B A9) is a suicide"))
      << text.out;

  // --strict: today's behaviour, all five refused with their moves.
  const nlohmann::json strict =
      Json({"import", "--db", tmp_.Sub("db-strict"), dir, "--strict", "--json",
            "--no-progress"});
  EXPECT_EQ(strict["imported"], 1u);
  EXPECT_EQ(strict["rejected"], 5u);
  EXPECT_EQ(strict["noted"], 0u);
  EXPECT_EQ(strict["cut"], 0u);
  std::map<std::string, nlohmann::json> refused = ByFile(strict["errors"]);
  ASSERT_EQ(refused.size(), 6u) << strict.dump();
  EXPECT_EQ(refused["japanese.sgf"]["move"], 3u);
  // The strict message names the preset and the record's komi.
  EXPECT_EQ(refused["japanese.sgf"]["reason"],
            "move 3 is illegal under chinese rules with komi 6.5 (cycle)");
  EXPECT_EQ(refused["suicide.sgf"]["reason"],
            "move 1 is illegal under chinese rules (suicide)");
  EXPECT_EQ(refused["occupied.sgf"]["move"], 4u);
  EXPECT_EQ(refused["offboard.sgf"]["move"], 3u);
  EXPECT_TRUE(absl::StrContains(
      refused["offboard.sgf"]["reason"].get<std::string>(), "jj"));

  // The stored games: whole (noted) or cut, the record's result kept.
  std::map<std::string, nlohmann::json> games = Exported(db);
  ASSERT_EQ(games.size(), 6u);
  const nlohmann::json& jp = games["japanese.sgf"];
  EXPECT_EQ(jp["record"], "noted");
  EXPECT_EQ(jp["moves"].size(), 8u);
  EXPECT_EQ(jp["result"], "W+R");
  ASSERT_EQ(jp["record_notes"].size(), 2u);
  EXPECT_EQ(jp["record_notes"][1]["move"], 7u);
  EXPECT_EQ(jp["record_notes"][1]["vertex"], "B9");
  EXPECT_EQ(jp["record_notes"][1]["rule"], "cycle");
  ASSERT_EQ(jp["cycles"].size(), 2u);
  EXPECT_EQ(jp["cycles"][0]["outcome"], "continued-in-record");
  EXPECT_EQ(jp["cycles"][0]["class"], "sending_two_returning_one");
  const nlohmann::json& oc = games["occupied.sgf"];
  EXPECT_EQ(oc["record"], "cut");
  EXPECT_EQ(oc["moves"], nlohmann::json({"C7", "G3", "E5"}));
  EXPECT_EQ(oc["result"], "W+3.5");
  ASSERT_EQ(oc["record_notes"].size(), 1u);
  EXPECT_EQ(oc["record_notes"][0]["cut"], true);
  EXPECT_EQ(oc["record_notes"][0]["text"],
            "cut at move 4 (W C7): the point is occupied; stored up to move "
            "3 of 5 read");
  EXPECT_EQ(games["offboard.sgf"]["moves"].size(), 2u);
  EXPECT_EQ(games["offboard.sgf"]["record_notes"][0]["rule"], "off-board");
  EXPECT_EQ(games["clean.sgf"]["record"], "");
  EXPECT_TRUE(games["clean.sgf"]["record_notes"].empty());

  // `qipu query game`: JSON and text show the notes.
  const std::string id = jp["id"].get<std::string>();
  const nlohmann::json q = Json({"query", "game", id, "--db", db, "--json"});
  EXPECT_EQ(q["record_notes"], jp["record_notes"]);
  const Ran qt = Qipu({"query", "game", id, "--db", db});
  ASSERT_EQ(qt.status, 0) << qt.err;
  EXPECT_TRUE(absl::StrContains(qt.out, "Record kept as played (noted):"))
      << qt.out;
  EXPECT_TRUE(absl::StrContains(
      qt.out, "move 7 (B B9) completes a sending_two_returning_one cycle"))
      << qt.out;
  const Ran cut_text =
      Qipu({"query", "game", oc["id"].get<std::string>(), "--db", db});
  EXPECT_TRUE(absl::StrContains(cut_text.out,
                                "Record kept as played (cut):\n"
                                "  cut at move 4 (W C7)"))
      << cut_text.out;

  // The filters: per configuration, no scan.
  EXPECT_EQ(Games(db, "all"), 6u);
  EXPECT_EQ(Games(db, "clean"), 1u);
  EXPECT_EQ(Games(db, "noted"), 5u);
  EXPECT_EQ(Games(db, "cut"), 2u);
  EXPECT_EQ(Json({"query", "results", "--db", db, "--json"})["games"], 6u);
  // Openings: the empty board's first moves, with and without them.
  const nlohmann::json all_open =
      Json({"query", "openings", "--db", db, "--size", "9", "--json"});
  const nlohmann::json clean_open =
      Json({"query", "openings", "--db", db, "--size", "9", "--records",
            "clean", "--json"});
  // The setups' games start elsewhere: occupied, offboard, clean.
  EXPECT_EQ(all_open["games"], 3u) << all_open.dump();
  EXPECT_EQ(clean_open["games"], 1u) << clean_open.dump();
  // Cycles: the two games' three cycles went on in the record.
  const nlohmann::json cycles =
      Json({"query", "cycles", "--db", db, "--records", "noted", "--json"});
  uint64_t went_on = 0;
  for (const nlohmann::json& row : cycles["rows"]) {
    if (row["outcome"] == "continued-in-record") {
      went_on += row["cycles"].get<uint64_t>();
    }
  }
  EXPECT_EQ(went_on, 3u) << cycles.dump();
  EXPECT_EQ(Json({"query", "cycles", "--db", db, "--records", "clean",
                  "--json"})["rows"]
                .size(),
            0u);
  // Export takes the filter too.
  std::map<std::string, nlohmann::json> noted =
      Exported(db, {"--records", "noted"});
  EXPECT_EQ(noted.size(), 5u);
  EXPECT_EQ(noted.count("clean.sgf"), 0u);
  // A bad value is refused with the reason.
  const Ran bad_filter =
      Qipu({"query", "results", "--db", db, "--records", "some"});
  EXPECT_NE(bad_filter.status, 0);
  EXPECT_TRUE(absl::StrContains(bad_filter.err, "records")) << bad_filter.err;

  // Through a coordinator: the same summary; --strict is carried.
  const std::string sdb = tmp_.Sub("db-server");
  CoordinatorProcess coord(sdb, tmp_.Sub("coord"));
  ASSERT_TRUE(coord.Start().ok()) << coord.LogTail();
  const nlohmann::json viaserver = Json(
      {"import", "--server", coord.address(), dir, "--json", "--no-progress"});
  EXPECT_EQ(viaserver["imported"], 6u);
  EXPECT_EQ(viaserver["noted"], 3u);
  EXPECT_EQ(viaserver["cut"], 2u);
  EXPECT_EQ(ByFile(viaserver["kept"]).size(), 5u);
  const nlohmann::json strict_server =
      Json({"import", "--server", coord.address(), dir, "--strict", "--json",
            "--no-progress"});
  // Everything is stored already: the clean game a duplicate, the five
  // refused before the duplicate check.
  EXPECT_EQ(strict_server["rejected"], 5u) << strict_server.dump();
  EXPECT_EQ(strict_server["duplicates"], 1u);
  EXPECT_EQ(coord.Stop(), 0) << coord.LogTail();
}

}  // namespace
}  // namespace qipu::testing
