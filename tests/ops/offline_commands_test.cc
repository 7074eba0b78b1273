// Process tests of the qipu commands that need no server:
//  - `qipu selfplay`: the same seed writes byte-identical games whatever
//    the thread count, another seed other games; each file is the game its
//    index names (QS, QI) and replays under its own rules to its own
//    result; bad flags are refused naming the flag.
//  - `qipu replay`: selfplay's games replay legal, ended by the rules with
//    the result they record (JSON and text); a collection gives one report
//    per game; an illegal move is reported with its number and reason;
//    --rules overrides the record's rules; an unreadable file is an error.
//    Issue 16: a collection mixing Go with other games reports each other
//    game as skipped in its place; UTF-16 files are read (noted); a result
//    with a plain winner and a reason SGF does not define is reported as
//    written; malformed UTF-16 is an error naming the byte.
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "rules/sgf_reader.h"
#include "tests/ops/process_fixture.h"
#include "tests/ops/subprocess.h"

namespace qipu::testing {
namespace {

constexpr int kGames = 12;

std::string GameFile(const std::string& dir, int i) {
  return absl::StrFormat("%s/game-%06d.sgf", dir, i);
}

// Runs `qipu selfplay` of kGames 9x9 games with `seed` on `threads`
// threads into dir/<name>; returns the directory.
std::string Selfplay(const TempDir& tmp, const std::string& name, uint64_t seed,
                     int threads) {
  const std::string out = tmp.Sub(name);
  const Ran r = RunQipu(
      tmp.path(), name,
      {"selfplay", "--games", absl::StrCat(kGames), "--size", "9", "--seed",
       absl::StrCat(seed), "--threads", absl::StrCat(threads), "--out", out});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(absl::StrCat(kGames, " games written to ", out)),
            std::string::npos)
      << r.out;
  return out;
}

// The lines of `out` parsed as JSON objects.
std::vector<nlohmann::json> JsonLines(const std::string& out) {
  std::vector<nlohmann::json> lines;
  for (absl::string_view line : absl::StrSplit(out, '\n', absl::SkipEmpty())) {
    lines.push_back(nlohmann::json::parse(line, nullptr, false));
  }
  return lines;
}

TEST(OpsSelfplay, TheSameSeedWritesTheSameGamesWhateverTheThreads) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const std::string one = Selfplay(tmp, "one", 77, 1);
  const std::string three = Selfplay(tmp, "three", 77, 3);
  const std::string other = Selfplay(tmp, "other", 78, 2);
  int differ = 0;
  for (int i = 1; i <= kGames; ++i) {
    const std::string a = ReadFileOrEmpty(GameFile(one, i));
    ASSERT_FALSE(a.empty()) << GameFile(one, i);
    EXPECT_EQ(ReadFileOrEmpty(GameFile(three, i)), a) << "game " << i;
    differ += ReadFileOrEmpty(GameFile(other, i)) != a;
    // The file says which game it is: seed 77, index i - 1.
    const rules::SgfCollection sgf = rules::ReadSgf(a);
    ASSERT_EQ(sgf.games.size(), 1u) << a;
    ASSERT_TRUE(sgf.errors.empty()) << a;
    EXPECT_NE(a.find(absl::StrCat("QI[", i - 1, "]")), std::string::npos) << a;
    EXPECT_NE(a.find("RU[chinese]"), std::string::npos) << a;
    EXPECT_FALSE(sgf.games[0].moves.empty());
  }
  EXPECT_EQ(differ, kGames) << "another seed gave some of the same games";
  EXPECT_FALSE(std::filesystem::exists(GameFile(one, kGames + 1)));

  const Ran size = RunQipu(
      tmp.path(), "bad-size",
      {"selfplay", "--games", "2", "--size", "40", "--out", tmp.Sub("bad")});
  EXPECT_EQ(size.status, 2);
  EXPECT_NE(size.err.find("--size"), std::string::npos) << size.err;
  const Ran rules = RunQipu(tmp.path(), "bad-rules",
                            {"selfplay", "--games", "2", "--rules", "klingon",
                             "--out", tmp.Sub("bad")});
  EXPECT_EQ(rules.status, 2);
  EXPECT_NE(rules.err.find("klingon"), std::string::npos) << rules.err;
}

TEST(OpsReplay, ReplaysGamesToTheirRecordedResultsAndNamesIllegalMoves) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const std::string games = Selfplay(tmp, "games", 5, 2);
  // Every selfplay game replays legal, and the rules end it with the
  // result it records.
  for (int i = 1; i <= kGames; ++i) {
    const Ran r = RunQipu(tmp.path(), absl::StrCat("replay", i),
                          {"replay", GameFile(games, i), "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::vector<nlohmann::json> reports = JsonLines(r.out);
    ASSERT_EQ(reports.size(), 1u) << r.out;
    const nlohmann::json& j = reports[0];
    ASSERT_TRUE(j.is_object()) << r.out;
    const rules::GameRecord record =
        rules::ReadSgf(ReadFileOrEmpty(GameFile(games, i))).games.at(0);
    EXPECT_EQ(j["game"], 1);
    EXPECT_EQ(j["size"], "9");
    EXPECT_EQ(j["legal"], true) << r.out;
    EXPECT_EQ(j["moves"], static_cast<int>(record.moves.size()));
    EXPECT_EQ(j["rules"]["preset"], "chinese") << r.out;
    ASSERT_FALSE(j["ended_at"].is_null()) << r.out;
    EXPECT_EQ(j["ended_at"], static_cast<int>(record.moves.size()));
    EXPECT_EQ(j["rules_result"], j["record_result"]) << r.out;
    EXPECT_FALSE(j["record_result"].is_null());
  }

  // A collection of three: one report per game, in order; the text form
  // says the same.
  const std::string all = tmp.Sub("three.sgf");
  {
    std::string text;
    for (int i = 1; i <= 3; ++i) text += ReadFileOrEmpty(GameFile(games, i));
    std::FILE* f = std::fopen(all.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  }
  const Ran three = RunQipu(tmp.path(), "three", {"replay", all, "--json"});
  ASSERT_EQ(three.status, 0) << three.err;
  const std::vector<nlohmann::json> reports = JsonLines(three.out);
  ASSERT_EQ(reports.size(), 3u) << three.out;
  for (int g = 0; g < 3; ++g) EXPECT_EQ(reports[g]["game"], g + 1);
  const Ran text = RunQipu(tmp.path(), "text", {"replay", all});
  ASSERT_EQ(text.status, 0) << text.err;
  for (int g = 0; g < 3; ++g) {
    EXPECT_NE(text.out.find(absl::StrCat("game ", g + 1, ": ",
                                         reports[g]["moves"].get<int>(),
                                         " moves, legal")),
              std::string::npos)
        << text.out;
  }
  EXPECT_NE(text.out.find("rules chinese"), std::string::npos) << text.out;

  // --rules overrides the record's rules.
  const Ran tt = RunQipu(
      tmp.path(), "tt",
      {"replay", GameFile(games, 1), "--rules", "tromp-taylor", "--json"});
  ASSERT_EQ(tt.status, 0) << tt.err;
  EXPECT_EQ(LastJsonLine(tt.out)["rules"]["preset"], "tromp-taylor") << tt.out;

  // White plays on Black's stone: move 2 is illegal, the point occupied.
  const std::string illegal = tmp.Sub("illegal.sgf");
  {
    std::FILE* f = std::fopen(illegal.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("(;GM[1]FF[4]SZ[9]RU[chinese];B[ee];W[ee];B[cc])", f);
    std::fclose(f);
  }
  const Ran bad = RunQipu(tmp.path(), "illegal", {"replay", illegal, "--json"});
  ASSERT_EQ(bad.status, 0) << bad.err;
  const nlohmann::json b = LastJsonLine(bad.out);
  EXPECT_EQ(b["legal"], false) << bad.out;
  EXPECT_EQ(b["illegal_move"], 2) << bad.out;
  EXPECT_EQ(b["illegal_reason"], "occupied") << bad.out;
  EXPECT_EQ(b["moves"], 3);
  const Ran bad_text = RunQipu(tmp.path(), "illegal-text", {"replay", illegal});
  EXPECT_NE(bad_text.out.find("ILLEGAL (move 2: occupied)"), std::string::npos)
      << bad_text.out;

  // A file that is not there: exit 1, naming it.
  const Ran missing =
      RunQipu(tmp.path(), "missing", {"replay", tmp.Sub("nowhere.sgf")});
  EXPECT_EQ(missing.status, 1);
  EXPECT_TRUE(absl::StrContains(missing.err, "qipu replay: ")) << missing.err;
  EXPECT_TRUE(absl::StrContains(missing.err, "nowhere.sgf")) << missing.err;
}

// The issue 16 inputs (tests/rules/sgf_corpus).
std::string SgfCorpus(const std::string& name) {
  return absl::StrCat(QIPU_SOURCE_DIR, "/tests/rules/sgf_corpus/", name);
}

TEST(OpsReplay, SkipsOtherGamesInTheirPlaceAndReadsUtf16) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  // Go, GM[19], Go, GM[3]: four lines in file order, exit 0.
  const Ran mixed = RunQipu(tmp.path(), "mixed",
                            {"replay", SgfCorpus("mixed_games.sgf"), "--json"});
  ASSERT_EQ(mixed.status, 0) << mixed.err;
  const std::vector<nlohmann::json> lines = JsonLines(mixed.out);
  ASSERT_EQ(lines.size(), 4u) << mixed.out;
  for (int g = 0; g < 4; ++g) EXPECT_EQ(lines[g]["game"], g + 1) << mixed.out;
  EXPECT_EQ(lines[0]["legal"], true);
  EXPECT_EQ(lines[1]["skipped"], true);
  EXPECT_EQ(lines[1]["byte_offset"], 39);
  EXPECT_EQ(lines[1]["reason"],
            "GM[19] at byte 41 (line 2, column 3): not a game of Go (Go is "
            "GM[1])");
  EXPECT_EQ(lines[2]["legal"], true);
  EXPECT_EQ(lines[3]["skipped"], true);
  const Ran mixed_text = RunQipu(tmp.path(), "mixed-text",
                                 {"replay", SgfCorpus("mixed_games.sgf")});
  ASSERT_EQ(mixed_text.status, 0) << mixed_text.err;
  const size_t skipped = mixed_text.out.find(
      "game 2: skipped (byte 39): GM[19] at byte 41 (line 2, column 3): not a "
      "game of Go (Go is GM[1])\n");
  ASSERT_NE(skipped, std::string::npos) << mixed_text.out;
  EXPECT_LT(mixed_text.out.find("game 1: 2 moves, legal"), skipped);
  EXPECT_GT(mixed_text.out.find("game 3: 1 moves, legal"), skipped);

  // A UTF-16 file: the same games as its UTF-8 twin, the decoding noted.
  const Ran utf8 = RunQipu(tmp.path(), "utf8",
                           {"replay", SgfCorpus("unicode_utf8.sgf"), "--json"});
  const Ran utf16 =
      RunQipu(tmp.path(), "utf16",
              {"replay", SgfCorpus("unicode_utf16be_bom.sgf"), "--json"});
  ASSERT_EQ(utf8.status, 0) << utf8.err;
  ASSERT_EQ(utf16.status, 0) << utf16.err;
  const std::vector<nlohmann::json> a = JsonLines(utf8.out);
  const std::vector<nlohmann::json> b = JsonLines(utf16.out);
  ASSERT_EQ(a.size(), 2u) << utf8.out;
  ASSERT_EQ(b.size(), 2u) << utf16.out;
  for (size_t g = 0; g < 2; ++g) {
    for (const char* key : {"moves", "legal", "area_result", "record_result"}) {
      EXPECT_EQ(a[g][key], b[g][key]) << key;
    }
    EXPECT_EQ(b[g]["notes"][0],
              "the file is UTF-16BE (told by its byte order mark): decoded to "
              "UTF-8 before reading")
        << utf16.out;
  }
  EXPECT_EQ(b[1]["record_result"], "B+Illegal");

  // A plain winner with another reason is reported as written.
  const Ran results =
      RunQipu(tmp.path(), "results",
              {"replay", SgfCorpus("results_nonstandard.sgf"), "--json"});
  ASSERT_EQ(results.status, 0) << results.err;
  const std::vector<nlohmann::json> r = JsonLines(results.out);
  ASSERT_EQ(r.size(), 10u) << results.out;
  EXPECT_EQ(r[0]["record_result"], "W+Illegal");
  EXPECT_EQ(r[2]["record_result"], "W+J");
  EXPECT_EQ(r[3]["record_result"], "W");
  EXPECT_EQ(r[5]["record_result"], "B+AW");
  EXPECT_EQ(r[9]["record_result"], "garbage");

  // Malformed UTF-16: exit 1, one error about the file naming the byte.
  const Ran cut = RunQipu(tmp.path(), "cut",
                          {"replay", SgfCorpus("utf16le_truncated.sgf")});
  EXPECT_EQ(cut.status, 1);
  EXPECT_TRUE(cut.out.empty()) << cut.out;
  EXPECT_TRUE(absl::StrContains(
      cut.err,
      "utf16le_truncated.sgf: byte 100: the input is UTF-16LE (told by its "
      "byte order mark) but does not decode"))
      << cut.err;
}

}  // namespace
}  // namespace qipu::testing
