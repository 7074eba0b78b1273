// RunImportBench() (bench/import_bench.h) and its SGF symmetry rewrite:
// three 9x9 games imported under all 8 symmetries into two fresh databases
// are 48 distinct games, all stored, none duplicate; the rate is the count
// over the timed seconds; the rewrite maps B, W, AB, AW and AE points
// (compressed lists too) and nothing else; the renderings carry the fields
// (in their order) and lines `qipu bench import` prints.
#include "bench/import_bench.h"

#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "tests/bench/bench_test_util.h"
#include "tests/common/temp_dir.h"

namespace qipu::bench {
namespace {

using ::qipu::test_util::Keys;
using ::qipu::test_util::Lines;

// Three 9x9 games whose first moves lie on no symmetry axis, so that the 8
// images of each are 8 distinct games.
const char* const kGames[] = {
    "(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese];B[cd];W[fe];B[dg];W[gc];B[ec])",
    "(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese];B[dc];W[gf];B[cf];W[fg])",
    "(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]AB[ce]AW[gd];W[eg];B[dh];W[fb])",
};

TEST(ImportBench, SymmetriesAreDistinctGamesAndTheRateAddsUp) {
  test_util::TempDir tmp("import-bench");
  for (int i = 0; i < 3; ++i) {
    std::ofstream(tmp.Sub("g" + std::to_string(i) + ".sgf")) << kGames[i];
  }
  ImportBenchOptions o;
  o.paths = {tmp.path()};
  o.loops = 2;
  o.symmetries = 8;
  o.threads = 2;
  o.index_depth = 10;
  o.sync = false;
  auto r = RunImportBench(o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->files, 3u);
  EXPECT_EQ(r->symmetries, 8);
  EXPECT_EQ(r->loops, 2);
  EXPECT_EQ(r->threads, 2);
  EXPECT_EQ(r->index_depth, 10);
  EXPECT_EQ(r->total.games, 3u * 8 * 2);
  EXPECT_EQ(r->total.imported, 3u * 8 * 2);
  EXPECT_EQ(r->total.duplicates, 0u);
  EXPECT_EQ(r->total.rejected, 0u);
  EXPECT_GT(r->total.seconds, 0);
  EXPECT_DOUBLE_EQ(r->games_per_sec, r->total.games / r->total.seconds);
}

TEST(ImportBench, NoSgfFilesIsAnError) {
  test_util::TempDir tmp("import-bench-empty");
  ImportBenchOptions o;
  o.paths = {tmp.path()};
  auto r = RunImportBench(o);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message(), "paths: no SGF files found");
}

TEST(ImportBench, SymmetryRewritesMovesAndSetupOnly) {
  const std::string sgf =
      "(;GM[1]SZ[9]C[aa bb]AB[ab]AE[aa:bc];B[ab]W[]B[tt]\nW[ia])";
  EXPECT_EQ(SgfUnderSymmetry(sgf, 0, 9), sgf);
  // Mirror x: column a <-> i; the comment, passes and SZ are untouched.
  EXPECT_EQ(SgfUnderSymmetry(sgf, 1, 9),
            "(;GM[1]SZ[9]C[aa bb]AB[ib]AE[ia:hc];B[ib]W[]B[tt]\nW[aa])");
  // Mirror y: row a <-> i.
  EXPECT_EQ(SgfUnderSymmetry(sgf, 2, 9),
            "(;GM[1]SZ[9]C[aa bb]AB[ah]AE[ai:bg];B[ah]W[]B[tt]\nW[ii])");
  // Transpose.
  EXPECT_EQ(SgfUnderSymmetry(sgf, 4, 9),
            "(;GM[1]SZ[9]C[aa bb]AB[ba]AE[aa:cb];B[ba]W[]B[tt]\nW[ai])");
  // Each symmetry applied to its inverse's image gives the text back
  // (mirrors and the transpose are their own inverses).
  for (int t : {1, 2, 3, 4, 7}) {
    EXPECT_EQ(SgfUnderSymmetry(SgfUnderSymmetry(sgf, t, 9), t, 9), sgf) << t;
  }
}

TEST(ImportBench, SquareSizeReadsSz) {
  EXPECT_EQ(SgfSquareSize("(;GM[1]SZ[13];B[aa])"), 13);
  EXPECT_EQ(SgfSquareSize("(;GM[1];B[aa])"), 19);
  EXPECT_EQ(SgfSquareSize("(;GM[1]SZ[9:13];B[aa])"), 0);
}

TEST(ImportBench, RenderingsHaveTheDocumentedFieldsAndLines) {
  ImportBenchResult r;
  r.files = 3;
  r.symmetries = 8;
  r.loops = 2;
  r.threads = 2;
  r.index_depth = 60;
  r.total.games = 48;
  r.total.imported = 46;
  r.total.duplicates = 1;
  r.total.rejected = 1;
  r.total.seconds = 0.25;
  r.games_per_sec = 192;
  const nlohmann::ordered_json j = ImportBenchJson(r);
  EXPECT_EQ(Keys(j), (std::vector<std::string>{
                         "files", "symmetries", "loops", "threads",
                         "index_depth", "games", "imported", "duplicates",
                         "rejected", "seconds", "games_per_sec"}));
  EXPECT_EQ(j["imported"], 46);
  EXPECT_EQ(Lines(ImportBenchText(r)),
            (std::vector<std::string>{
                "3 files x 8 symmetries x 2 loops, 2 thread(s), depth 60",
                "  games                  48 (imported 46, duplicates 1, "
                "rejected 1)",
                "  seconds             0.250", "  games/s               192"}));
}

}  // namespace
}  // namespace qipu::bench
