// Importer (engine/importer.h): the fox-pro corpus against counts
// computed here from the SGF files with a separate, deliberately simple
// reader; every malformed-input path; order and duplicates across threads;
// the Fox result rule and note kinds.
#include "engine/importer.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "engine/queries.h"
#include "gtest/gtest.h"
#include "rules/record_note.h"
#include "rules/sgf_reader.h"
#include "tests/coordinator/corpus_test_util.h"

namespace qipu::coordinator::testing {
namespace {

// --- An independent reading of SGF files -----------------------------------

// What the test needs of one file: its main line and its first result.
struct SimpleGame {
  std::string file;
  // "AB:pd", "B:pd", ... in order, up to the first ')'.
  std::vector<std::string> main_line;
  bool setup_before_first_move = false;
  std::string first_move;  // "B:pd", or "" when none.
  std::string result;
};

// Reads the first game tree's main line: property values are skipped with
// their escapes, the main line ends at the first ')'. Enough for the
// fox-pro files (one game each, some without the opening '(').
SimpleGame ReadSimple(const std::string& file, const std::string& d) {
  SimpleGame g;
  g.file = file;
  std::string id;
  bool in_name = false;
  for (size_t i = 0; i < d.size(); ++i) {
    const char c = d[i];
    if (c >= 'A' && c <= 'Z') {
      if (!in_name) id.clear();
      in_name = true;
      id += c;
    } else if (c == '[') {
      in_name = false;
      std::string value;
      size_t j = i + 1;
      for (; j < d.size() && d[j] != ']'; ++j) {
        if (d[j] == '\\') ++j;
        if (j < d.size()) value += d[j];
      }
      i = j;
      if (id == "B" || id == "W") {
        if (g.first_move.empty()) g.first_move = id + ":" + value;
        g.main_line.push_back(id + ":" + value);
      } else if (id == "AB" || id == "AW" || id == "AE") {
        if (g.first_move.empty()) g.setup_before_first_move = true;
        g.main_line.push_back(id + ":" + value);
      } else if (id == "RE" && g.result.empty()) {
        g.result = value;
      }
    } else if (c == ')') {
      break;
    } else if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
      in_name = false;
    }
  }
  return g;
}

// The first move's class under the 8 symmetries of the 19x19 board:
// colour and the smallest (x, y) image, e.g. "B:3,3" for the 4-4 point.
std::string Canonical19(char color, int x, int y) {
  std::pair<int, int> best{99, 99};
  for (int t = 0; t < 8; ++t) {
    int a = x, b = y;
    if (t & 4) std::swap(a, b);
    if (t & 1) a = 18 - a;
    if (t & 2) b = 18 - b;
    best = std::min(best, std::make_pair(a, b));
  }
  return std::string(1, color) + ":" + std::to_string(best.first) + "," +
         std::to_string(best.second);
}

std::string CanonicalSgfMove(const std::string& m) {
  if (m.size() != 4) return m.substr(0, 1) + ":pass";
  return Canonical19(m[0], m[2] - 'a', m[3] - 'a');
}

// GTP "Q16" on 19x19 (columns skip I, rows from the bottom).
std::string CanonicalGtpMove(char color, const std::string& v) {
  if (v == "pass") return std::string(1, color) + ":pass";
  int x = v[0] - 'A';
  if (v[0] > 'I') --x;
  const int y = 19 - std::stoi(v.substr(1));
  return Canonical19(color, x, y);
}

Counts& Tally(Counts& c, const std::string& re) {
  ++c.games;
  if (absl::StartsWithIgnoreCase(re, "B+")) {
    ++c.black;
  } else if (absl::StartsWithIgnoreCase(re, "W+")) {
    ++c.white;
  } else if (absl::EqualsIgnoreCase(re, "draw") || re == "0") {
    ++c.draws;
  } else {
    ++c.voids;
  }
  return c;
}

TEST(Importer, FoxProCorpusMatchesIndependentCounts) {
  const std::string dir = FoxCorpusDir();
  if (dir.empty()) GTEST_SKIP() << "corpus not in this checkout";
  TempDir tmp;
  CorpusDb db(tmp.Sub("db"));
  const engine::ImportSummary first = db.Import({dir});
  EXPECT_EQ(first.files, 679u);
  EXPECT_EQ(first.games, 679u);
  EXPECT_EQ(first.imported + first.duplicates + first.rejected, first.games);
  // The one repeated main line of STATS.txt.
  EXPECT_EQ(first.duplicates, 1u);
  // One record (a historic game) retakes a ko at once: a record is
  // history, it is stored as played, noted with the move number.
  EXPECT_EQ(first.rejected, 0u);
  EXPECT_TRUE(first.errors.empty());
  EXPECT_EQ(first.noted, 1u);
  EXPECT_EQ(first.cut, 0u);
  ASSERT_EQ(first.kept.size(), 1u);
  EXPECT_EQ(first.kept[0].move(), 282u);
  EXPECT_TRUE(absl::StrContains(first.kept[0].reason(), "retakes a ko at once"))
      << first.kept[0].reason();
  // --strict refuses it, as imports did before.
  {
    CorpusDb strict_db(tmp.Sub("strict"));
    engine::ImportSettings strict;
    strict.strict = true;
    const engine::ImportSummary s = strict_db.Import({dir}, strict);
    EXPECT_EQ(s.imported, 677u);
    ASSERT_EQ(s.rejected, 1u);
    ASSERT_EQ(s.errors.size(), 1u);
    EXPECT_EQ(s.errors[0].move(), 282u);
    EXPECT_EQ(s.errors[0].file(), first.kept[0].file());
    EXPECT_TRUE(absl::StrContains(s.errors[0].reason(), "ko"));
    EXPECT_EQ(s.noted, 0u);
  }
  // Normalisations, counted per kind over the 679 games stored or found
  // again.
  EXPECT_EQ(first.normalised.at("no CA[] charset given: text read as UTF-8"),
            679u);
  EXPECT_EQ(
      first.normalised.at("KM[375] read as komi 7.5 (Fox: 3.75 stones)") +
          first.normalised.at("KM[325] read as komi 6.5 (Fox: 3.25 stones)"),
      219u);
  EXPECT_EQ(
      first.normalised.at("RE[B+0.75] read as B+1.5 (Fox: margin in stones)"),
      6u);
  EXPECT_GE(
      first.normalised.at(
          "game starts with ';' instead of '(': read as if the '(' were there"),
      18u);

  // The same files again: nothing new.
  const engine::ImportSummary again = db.Import({dir});
  EXPECT_EQ(again.games, 679u);
  EXPECT_EQ(again.imported, 0u);
  EXPECT_EQ(again.duplicates, 679u);
  EXPECT_EQ(again.rejected, 0u);

  // Independently: distinct main lines, games at the empty board and their
  // first moves up to symmetry, with the records' results.
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (e.path().extension() == ".sgf") files.push_back(e.path().string());
  }
  ASSERT_EQ(files.size(), 679u);
  std::set<std::vector<std::string>> lines;
  Counts reached;
  std::map<std::string, Counts> firsts;
  for (const std::string& f : files) {
    const SimpleGame g = ReadSimple(f, ReadAll(f));
    if (!lines.insert(g.main_line).second) continue;
    if (g.setup_before_first_move) continue;
    Tally(reached, g.result);
    Tally(firsts[CanonicalSgfMove(g.first_move)], g.result);
  }
  EXPECT_EQ(lines.size(), first.imported);

  engine::QueryEngine engine(&db.store(), &db.configs());
  qipu::v1::OpeningsRequest req;
  auto resp = engine.Openings(req);
  ASSERT_TRUE(resp.ok()) << resp.status();
  EXPECT_EQ(Counts::Of(resp->reached()), reached);
  std::map<std::string, Counts> got;
  for (const auto& c : resp->continuations()) {
    got[CanonicalGtpMove('B', c.move())] = Counts::Of(c.outcomes());
  }
  // 392 even games less the repeated one (the ko retake is stored).
  EXPECT_EQ(reached.games, 391u);
  EXPECT_EQ(got.size(), firsts.size());
  std::cout << "empty board: " << reached << "; first moves:";
  for (const auto& [move, counts] : firsts) {
    std::cout << " " << move << "=" << counts;
  }
  std::cout << "\n";
  for (const auto& [move, counts] : firsts) {
    EXPECT_EQ(got[move], counts) << move;
  }
}

// --- Malformed inputs ------------------------------------------------------

// The error rows of `file` in `s`.
std::vector<qipu::v1::ImportError> RowsOf(const engine::ImportSummary& s,
                                          const std::string& file) {
  std::vector<qipu::v1::ImportError> out;
  for (const auto& e : s.errors) {
    if (e.file() == file) out.push_back(e);
  }
  return out;
}

TEST(Importer, EveryMalformedInputIsOneCleanErrorRow) {
  TempDir tmp;
  const std::string in = tmp.Sub("in");
  const auto path = [&](const std::string& name) { return in + "/" + name; };
  WriteFile(path("a_empty.sgf"), "");
  WriteFile(path("b_junk.sgf"), std::string("\x7f"
                                            "ELF\x02\x01\x01\x00\x00\x89PNG",
                                            13));
  WriteFile(path("c_truncated.sgf"), "(;GM[1]FF[4]SZ[19];B[pd];W[dp];B[pp");
  WriteFile(path("d_bad_size.sgf"), "(;GM[1]FF[4]SZ[99];B[aa])");
  WriteFile(path("e_illegal.sgf"), "(;GM[1]FF[4]SZ[9];B[ee];W[cc];B[cc])");
  WriteFile(path("f_setup.sgf"), "(;GM[1]FF[4]SZ[9]AW[aa]AB[ab][ba];B[ee])");
  WriteFile(path("g_charset.sgf"), "(;GM[1]FF[4]CA[klingon]SZ[9]PB[x];B[ee])");
  WriteFile(path("h_not_go.sgf"), "(;GM[2]FF[4]SZ[8];B[aa])");
  WriteFile(path("i_collection.sgf"),
            "(;GM[1]SZ[9];B[ce])(;GM[1]SZ[9];B[zz])(;GM[1]SZ[9];B[dd])");
  WriteFile(path("j_big.sgf"),
            "(;GM[1]SZ[9]C[" + std::string(5000, 'x') + "])");
  WriteFile(path("k_utf16.sgf"), std::string("\xFF\xFE(\0;\0", 6));
  WriteFile(path("l_bad.jsonl"), R"({"width":9,"height":9,"moves":["E5"]})"
                                 "\nnot json\n"
                                 R"({"width":9,"height":9,"moves":["Z9"]})"
                                 "\n");
  std::filesystem::create_symlink(tmp.Sub("nowhere.sgf"),
                                  path("m_dangling.sgf"));
  std::filesystem::create_directories(tmp.Sub("empty_folder"));
  engine::ImporterOptions options;
  options.max_file_bytes = 4096;
  CorpusDb db(tmp.Sub("db"), options);
  // Under --strict, as imports were before records were kept: the illegal
  // move and the move off the board are error rows too.
  engine::ImportSettings strict;
  strict.strict = true;
  const std::vector<std::string> inputs = {
      in, path("l_bad.jsonl"), tmp.Sub("empty_folder"), tmp.Sub("missing")};
  const engine::ImportSummary s = db.Import(inputs, strict);

  EXPECT_EQ(s.imported + s.duplicates + s.rejected + s.skipped.size(), s.games);
  for (const auto& e : s.errors) {
    EXPECT_FALSE(e.file().empty());
    EXPECT_FALSE(e.reason().empty()) << e.file();
  }
  auto one = [&](const std::string& file) {
    auto rows = RowsOf(s, file);
    EXPECT_EQ(rows.size(), 1u) << file;
    return rows.empty() ? qipu::v1::ImportError() : rows[0];
  };
  for (const char* f : {"a_empty.sgf", "b_junk.sgf"}) {
    const auto e = one(path(f));
    EXPECT_EQ(e.game(), 0u) << f;
    EXPECT_TRUE(absl::StrContains(e.reason(), "not an SGF file")) << e.reason();
  }
  // UTF-16 is read (import_inputs_test.cc): this file is a truncated game.
  auto e = one(path("k_utf16.sgf"));
  EXPECT_EQ(e.game(), 1u);
  EXPECT_EQ(e.byte_offset(), 6u);
  EXPECT_TRUE(absl::StrContains(e.reason(), "truncated")) << e.reason();
  e = one(path("c_truncated.sgf"));
  EXPECT_EQ(e.game(), 1u);
  EXPECT_GT(e.byte_offset(), 20u);
  EXPECT_TRUE(absl::StrContains(e.reason(), "has no closing ']'"))
      << e.reason();
  e = one(path("d_bad_size.sgf"));
  EXPECT_EQ(e.game(), 1u);
  EXPECT_TRUE(absl::StrContains(e.reason(), "SZ[99]")) << e.reason();
  e = one(path("e_illegal.sgf"));
  EXPECT_EQ(e.game(), 1u);
  EXPECT_EQ(e.move(), 3u) << e.reason();
  EXPECT_EQ(e.reason(), "move 3 is illegal under chinese rules (occupied)");
  e = one(path("f_setup.sgf"));
  EXPECT_TRUE(absl::StrContains(e.reason(), "setup")) << e.reason();
  EXPECT_TRUE(RowsOf(s, path("g_charset.sgf")).empty());
  EXPECT_EQ(
      s.normalised.at("CA[klingon] is not a known charset: text read as UTF-8"),
      1u);
  // Not Go: skipped, not an error.
  EXPECT_TRUE(RowsOf(s, path("h_not_go.sgf")).empty());
  ASSERT_EQ(s.skipped.size(), 1u);
  EXPECT_EQ(s.skipped[0].file(), path("h_not_go.sgf"));
  EXPECT_EQ(s.skipped[0].game(), 1u);
  EXPECT_TRUE(absl::StrContains(s.skipped[0].reason(), "not a game of Go"))
      << s.skipped[0].reason();
  e = one(path("i_collection.sgf"));
  EXPECT_EQ(e.game(), 2u);
  EXPECT_TRUE(absl::StrContains(e.reason(), "'zz' is off the 9x9 board"))
      << e.reason();
  e = one(path("j_big.sgf"));
  EXPECT_EQ(e.game(), 0u);
  EXPECT_TRUE(absl::StrContains(e.reason(), "larger than")) << e.reason();
  auto rows = RowsOf(s, path("l_bad.jsonl"));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].game(), 2u);
  EXPECT_TRUE(absl::StrContains(rows[0].reason(), "not a JSON value"));
  EXPECT_EQ(rows[1].game(), 3u);
  EXPECT_TRUE(absl::StrContains(rows[1].reason(), "moves[0]"));
  e = one(path("m_dangling.sgf"));
  EXPECT_EQ(e.game(), 0u);
  EXPECT_TRUE(absl::StrContains(e.reason(), "No such file")) << e.reason();
  e = one(tmp.Sub("empty_folder"));
  EXPECT_TRUE(absl::StrContains(e.reason(), "no .sgf files")) << e.reason();
  e = one(tmp.Sub("missing"));
  EXPECT_TRUE(absl::StrContains(e.reason(), "no such file")) << e.reason();
  // Stored: g_charset, two of i_collection, the first line of l_bad.jsonl
  // (the same game as i_collection's first: a duplicate).
  EXPECT_EQ(s.imported, 3u);
  EXPECT_EQ(s.duplicates, 1u);
  EXPECT_EQ(s.files, 13u);

  // By default a record is history: the occupied point and the move off
  // the board cut their games there, stored (with their first note as a
  // `kept` row); every other row is as above.
  CorpusDb kept_db(tmp.Sub("db-kept"), options);
  const engine::ImportSummary k = kept_db.Import(inputs);
  EXPECT_EQ(k.imported, 5u);
  EXPECT_EQ(k.cut, 2u);
  EXPECT_EQ(k.noted, 0u);
  EXPECT_EQ(k.errors.size(), s.errors.size() - 2);
  EXPECT_TRUE(RowsOf(k, path("e_illegal.sgf")).empty());
  EXPECT_TRUE(RowsOf(k, path("i_collection.sgf")).empty());
  ASSERT_EQ(k.kept.size(), 2u);
  EXPECT_EQ(k.kept[0].file(), path("e_illegal.sgf"));
  EXPECT_EQ(k.kept[0].move(), 3u);
  EXPECT_EQ(k.kept[0].reason(), "cut at move 3 (B C7): the point is occupied");
  EXPECT_EQ(k.kept[1].file(), path("i_collection.sgf"));
  EXPECT_EQ(k.kept[1].game(), 2u);
  EXPECT_EQ(k.kept[1].move(), 1u);
  EXPECT_TRUE(
      absl::StrContains(k.kept[1].reason(), "'zz' is off the 9x9 board"))
      << k.kept[1].reason();
}

TEST(Importer, CollectionsSpreadOverThreadsKeepFileOrder) {
  TempDir tmp;
  std::vector<rules::GameRecord> records;
  std::string collection;
  for (uint64_t i = 0; i < 120; ++i) {
    records.push_back(PlayedRecord(9, 7, i, i % 10 == 0 ? 2 : 0));
    collection += rules::WriteSgf(records.back());
  }
  // Game 121 repeats game 5.
  collection += rules::WriteSgf(records[4]);
  WriteFile(tmp.Sub("in/a.sgf"), collection);
  WriteFile(tmp.Sub("in/b.sgf"), rules::WriteSgf(records[7]));
  engine::ImporterOptions options;
  options.chunk_games = 8;
  options.threads = 3;
  CorpusDb db(tmp.Sub("db"), options);
  const engine::ImportSummary s = db.Import({tmp.Sub("in")});
  EXPECT_EQ(s.games, 122u);
  EXPECT_EQ(s.imported, 120u);
  EXPECT_EQ(s.duplicates, 2u);
  EXPECT_TRUE(s.errors.empty());
  EXPECT_EQ(db.Ids(), ContentIds(records));
  // The copy stored is the first in file order, whatever thread won.
  for (const StoredGame& g : StoredGames(db.store())) {
    EXPECT_EQ(g.game.provenance().file(), tmp.Sub("in/a.sgf"));
    if (g.id == store::ContentId(records[4])) {
      EXPECT_EQ(g.game.provenance().file_game(), 5u);
    }
  }
}

TEST(ListImportFiles, RecursiveSortedSgfOnly) {
  TempDir tmp;
  WriteFile(tmp.Sub("b/z.sgf"), "x");
  WriteFile(tmp.Sub("b/a.SGF"), "x");
  WriteFile(tmp.Sub("a/c/d.sgf"), "x");
  WriteFile(tmp.Sub("a/notes.txt"), "x");
  WriteFile(tmp.Sub("e.txt"), "x");
  const engine::ImportFileList l =
      engine::ListImportFiles({tmp.path(), tmp.Sub("e.txt")});
  EXPECT_TRUE(l.errors.empty());
  EXPECT_EQ(l.files,
            (std::vector<std::string>{tmp.Sub("a/c/d.sgf"), tmp.Sub("b/a.SGF"),
                                      tmp.Sub("b/z.sgf"), tmp.Sub("e.txt")}));
}

TEST(ImportSettings, Validated) {
  EXPECT_TRUE(engine::ValidateImportSettings({}).ok());
  EXPECT_FALSE(engine::ValidateImportSettings({"", 60}).ok());
  EXPECT_FALSE(engine::ValidateImportSettings({"job:3", 60}).ok());
  EXPECT_FALSE(engine::ValidateImportSettings({"a\nb", 60}).ok());
  EXPECT_FALSE(engine::ValidateImportSettings({"x", -1}).ok());
  EXPECT_FALSE(
      engine::ValidateImportSettings({"x", engine::kMaxIndexDepth + 1}).ok());
}

TEST(Importer, NotesAreCountedByKindAndStoredAsText) {
  TempDir tmp;
  // Two games of one file, each starting with ';', each with a Fox komi
  // at its own place: one kind each, counted twice.
  WriteFile(tmp.Sub("a.sgf"),
            ";GM[1]SZ[9]KM[375]RE[B+R];B[ee];W[cc])\n"
            ";GM[1]SZ[9]PB[x]KM[375]RE[W+R];B[ee];W[dd])\n");
  CorpusDb db(tmp.Sub("db"));
  const engine::ImportSummary s = db.Import({tmp.Sub("a.sgf")});
  ASSERT_EQ(s.imported, 2u) << (s.errors.empty() ? "" : s.errors[0].reason());
  EXPECT_EQ(s.normalised,
            (std::map<std::string, uint64_t>{
                {"game starts with ';' instead of '(': read as if the '(' were "
                 "there",
                 2},
                {"KM[375] read as komi 7.5 (Fox: 3.75 stones)", 2},
                {"no CA[] charset given: text read as UTF-8", 2}}));
  const auto games = StoredGames(db.store());
  ASSERT_EQ(games.size(), 2u);
  std::set<std::string> km;
  for (const StoredGame& g : games) {
    for (const std::string& n : g.game.meta().normalised()) {
      if (absl::StartsWith(n, "KM[")) km.insert(n);
    }
  }
  EXPECT_EQ(km, (std::set<std::string>{
                    "KM[375] at byte 11 (line 1, column 12) read as komi 7.5 "
                    "(Fox: 3.75 stones)",
                    "KM[375] at byte 55 (line 2, column 17) read as komi 7.5 "
                    "(Fox: 3.75 stones)"}));
}

TEST(Importer, IllegalMoveRowCarriesTheMoveNumber) {
  TempDir tmp;
  WriteFile(tmp.Sub("a.sgf"),
            "(;GM[1]FF[4]CA[UTF-8]SZ[9];B[ee];W[cc];B[dd];W[ee])");
  CorpusDb db(tmp.Sub("db"));
  engine::ImportSettings strict;
  strict.strict = true;
  const engine::ImportSummary s = db.Import({tmp.Sub("a.sgf")}, strict);
  ASSERT_EQ(s.errors.size(), 1u);
  EXPECT_EQ(s.errors[0].game(), 1u);
  EXPECT_EQ(s.errors[0].move(), 4u);
  EXPECT_EQ(s.errors[0].reason(),
            "move 4 is illegal under chinese rules (occupied)");
  EXPECT_EQ(s.rejected, 1u);
}

rules::GameRecord ReadOne(const std::string& sgf) {
  rules::SgfCollection c = rules::ReadSgf(sgf);
  EXPECT_EQ(c.games.size(), 1u);
  return c.games.empty() ? rules::GameRecord() : c.games[0];
}

TEST(FoxResult, StoneMarginsDoubledArtefactsDropped) {
  const std::string fox = "(;GM[1]FF[4]SZ[19]AP[GNU Go:3.8]AP[foxwq]";
  // The rule changes the result read (value); the text stays as written.
  rules::GameRecord r = ReadOne(fox + "KM[375]RE[B+0.75];B[pd])");
  EXPECT_TRUE(engine::NormaliseFoxResult(&r));
  EXPECT_EQ(r.result.Sgf(), "B+1.5");
  EXPECT_EQ(r.result.text, "B+0.75");
  r = ReadOne(fox + "KM[650]RE[W+2.50];B[pd])");
  EXPECT_FALSE(engine::NormaliseFoxResult(&r));
  EXPECT_EQ(r.result.text, "W+2.50");
  for (const char* re : {"B+0.02", "W+0.0"}) {
    r = ReadOne(fox + "KM[0]RE[" + re + "];B[pd])");
    EXPECT_TRUE(engine::NormaliseFoxResult(&r));
    EXPECT_EQ(r.result.Sgf(), std::string(re).substr(0, 2));
  }
  r = ReadOne(fox + "KM[375]RE[W+3.2];B[pd])");
  EXPECT_TRUE(engine::NormaliseFoxResult(&r));
  EXPECT_EQ(r.result.Sgf(), "W+");
  r = ReadOne(fox + "KM[375]RE[W+R];B[pd])");
  EXPECT_FALSE(engine::NormaliseFoxResult(&r));
  // Not Fox: margins are points as written.
  r = ReadOne("(;GM[1]FF[4]SZ[19]KM[7.5]RE[B+0.75];B[pd])");
  EXPECT_FALSE(engine::NormaliseFoxResult(&r));
  EXPECT_EQ(r.result.text, "B+0.75");
  // Nor is a record whose skipped text merely mentions Fox's AP and komi
  // (the note's text holds "AP[foxwq"): only the typed facts count.
  r = ReadOne(
      "AP[foxwq] (Fox: 3.75 stones)\n"
      "(;GM[1]FF[4]SZ[19]KM[7,5]RE[B+0.02];B[pd])");
  EXPECT_FALSE(engine::NormaliseFoxResult(&r));
  EXPECT_EQ(r.result.text, "B+0.02");
  // The notes the rule adds are typed too.
  r = ReadOne(fox + "KM[375]RE[B+0.75];B[pd])");
  ASSERT_TRUE(engine::NormaliseFoxResult(&r));
  EXPECT_EQ(r.notes.back().kind, rules::NoteKind::kFoxResultInStones);
  EXPECT_EQ(r.notes.back().value, "B+0.75");
  EXPECT_EQ(r.notes.back().read, "B+1.5");
  r = ReadOne(fox + "KM[375]RE[W+3.2];B[pd])");
  ASSERT_TRUE(engine::NormaliseFoxResult(&r));
  EXPECT_EQ(r.notes.back().kind, rules::NoteKind::kFoxResultArtefact);
  EXPECT_TRUE(r.notes.back().stones);
}

TEST(FoxResult, StoredResultConvertedRawKept) {
  TempDir tmp;
  WriteFile(tmp.Sub("g.sgf"),
            "(;GM[1]FF[4]SZ[19]AP[foxwq]KM[375]RE[B+2.75];B[pd];W[dp])");
  CorpusDb db(tmp.Sub("db"));
  const engine::ImportSummary s = db.Import({tmp.Sub("g.sgf")});
  ASSERT_EQ(s.imported, 1u);
  const auto games = StoredGames(db.store());
  ASSERT_EQ(games.size(), 1u);
  const qipu::v1::Game& g = games[0].game;
  EXPECT_EQ(g.result().winner(), qipu::v1::WINNER_BLACK);
  EXPECT_DOUBLE_EQ(g.result().margin(), 5.5);
  EXPECT_EQ(g.meta().record_result(), "B+2.75");
  EXPECT_DOUBLE_EQ(g.rules().komi(), 7.5);
  EXPECT_EQ(s.normalised.at("RE[B+2.75] read as B+5.5 (Fox: margin in stones)"),
            1u);
}

}  // namespace
}  // namespace qipu::coordinator::testing
