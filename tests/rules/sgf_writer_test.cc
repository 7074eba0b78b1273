// SGF writer and round trips (ReadSgf(WriteSgf(r)) gives r back), and the
// real Fox corpus: all 679 files read with the note counts of its STATS.txt.
#include "rules/sgf_writer.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rules/record.h"
#include "rules/sgf_reader.h"
#include "rules/types.h"
#include "tests/common/corpus_dir.h"

namespace qipu::rules {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Pair;

Point Pt(const char* sgf) { return MakePoint(sgf[0] - 'a', sgf[1] - 'a'); }

// Everything the writer promises to carry: all but notes, byte_offset and
// game_number.
void ExpectSameGame(const GameRecord& a, const GameRecord& b) {
  EXPECT_EQ(a.width, b.width);
  EXPECT_EQ(a.height, b.height);
  ASSERT_EQ(a.setup.size(), b.setup.size());
  for (size_t i = 0; i < a.setup.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(a.setup[i].before_move, b.setup[i].before_move);
    EXPECT_EQ(a.setup[i].black, b.setup[i].black);
    EXPECT_EQ(a.setup[i].white, b.setup[i].white);
    EXPECT_EQ(a.setup[i].empty, b.setup[i].empty);
    EXPECT_EQ(a.setup[i].to_play, b.setup[i].to_play);
  }
  EXPECT_EQ(a.moves, b.moves);
  EXPECT_EQ(a.handicap, b.handicap);
  EXPECT_EQ(a.has_komi, b.has_komi);
  EXPECT_EQ(a.komi, b.komi);
  EXPECT_EQ(a.rules, b.rules);
  EXPECT_EQ(a.result, b.result);
  EXPECT_EQ(a.black_player, b.black_player);
  EXPECT_EQ(a.white_player, b.white_player);
  EXPECT_EQ(a.black_rank, b.black_rank);
  EXPECT_EQ(a.white_rank, b.white_rank);
  EXPECT_EQ(a.date, b.date);
  EXPECT_EQ(a.event, b.event);
  EXPECT_EQ(a.game_name, b.game_name);
  EXPECT_EQ(a.place, b.place);
  EXPECT_EQ(a.extra, b.extra);
}

GameRecord RoundTrip(const GameRecord& r) {
  const std::string sgf = WriteSgf(r);
  SgfCollection c = ReadSgf(sgf);
  EXPECT_THAT(c.errors, IsEmpty()) << sgf;
  EXPECT_EQ(c.games.size(), 1u) << sgf;
  return c.games.empty() ? GameRecord{} : c.games[0];
}

GameRecord FullRecord() {
  GameRecord r;
  r.width = 13;
  r.height = 9;
  r.handicap = 2;
  r.komi = 0.5;
  r.has_komi = true;
  r.rules = "Chinese";
  r.result = RecordResult::Read("W+R");
  r.black_player = "黑 [x]";
  r.white_player = "a]b\\c";
  r.black_rank = "9d";
  r.white_rank = "P9段";
  r.date = "2019-10-10";
  r.event = "第4届 \\";
  r.game_name = "Round 1";
  r.place = "Fox";
  r.extra = {{"QS", "42"}, {"QJ", "job]7"}, {"C", "two\nlines\\"}};
  SetupStep root;
  root.black = {Pt("dd"), Pt("jf")};
  root.to_play = Color::kWhite;
  SetupStep mid;
  mid.before_move = 2;
  mid.empty = {Pt("dd")};
  mid.white = {Pt("mi")};
  mid.to_play = Color::kBlack;
  SetupStep end;
  end.before_move = 4;
  end.black = {Pt("aa")};
  r.setup = {root, mid, end};
  r.moves = {{Color::kWhite, Pt("cc")},
             {Color::kBlack, Pt("mi")},
             {Color::kBlack, kPass},
             {Color::kWhite, kPass}};
  return r;
}

TEST(Sgf, WritesFf4WithEveryField) {
  const std::string sgf = WriteSgf(FullRecord());
  EXPECT_THAT(sgf, HasSubstr("(;GM[1]FF[4]CA[UTF-8]SZ[13:9]HA[2]KM[0.5]"
                             "RU[Chinese]RE[W+R]PB[黑 [x\\]]PW[a\\]b\\\\c]"));
  EXPECT_THAT(sgf, HasSubstr("QS[42]QJ[job\\]7]C[two\nlines\\\\]"));
  EXPECT_THAT(sgf, HasSubstr("AB[dd][jf]PL[W]\n;W[cc];B[mi];AW[mi]AE[dd]PL[B]"
                             ";B[];W[];AB[aa]\n)\n"));
  EXPECT_EQ(WriteSgf(GameRecord{}), "(;GM[1]FF[4]CA[UTF-8]SZ[19]\n)\n");
}

TEST(Sgf, RoundTripsEveryField) {
  const GameRecord r = FullRecord();
  ExpectSameGame(RoundTrip(r), r);
}

TEST(Sgf, RoundTripsSetupBeforeTheFirstMoveInSeveralSteps) {
  GameRecord r;
  SetupStep a;
  a.white = {Pt("aa")};
  SetupStep b;
  b.black = {Pt("bb")};
  r.setup = {a, b};
  r.moves = {{Color::kBlack, Pt("cc")}};
  EXPECT_THAT(WriteSgf(r), HasSubstr("AW[aa]\n;AB[bb];B[cc]"));
  ExpectSameGame(RoundTrip(r), r);
}

TEST(Sgf, RoundTripsKomiExactly) {
  for (double komi : {0.0, -0.0, 7.5, -6.5, 0.1, 1.0 / 3, 99.0, 100.0, 375.0,
                      -650.0, 150.25, 1e20, 5e-324}) {
    SCOPED_TRACE(komi);
    GameRecord r;
    r.komi = komi;
    r.has_komi = true;
    ExpectSameGame(RoundTrip(r), r);
  }
  GameRecord r;
  r.komi = 375;
  r.has_komi = true;
  EXPECT_THAT(WriteSgf(r), HasSubstr("KM[375.0]"));
}

TEST(Sgf, WriterSkipsWhatCouldNotBeReadBack) {
  GameRecord r;
  r.width = 9;
  r.height = 9;
  r.extra = {{"QS", "1"},  {"QS", "2"}, {"bad", "x"},  {"", "y"},
             {"SZ", "19"}, {"B", "aa"}, {"AP", "qipu"}};
  SetupStep empty_step;
  empty_step.before_move = 0;
  SetupStep off_board;
  off_board.black = {Pt("jj"), kPass, kNoPoint};
  r.setup = {empty_step, off_board};
  r.moves = {{Color::kBlack, Pt("jj")},
             {Color::kEmpty, Pt("aa")},
             {Color::kBlack, kResign},
             {Color::kWhite, Pt("ii")}};
  const std::string sgf = WriteSgf(r);
  EXPECT_EQ(sgf, "(;GM[1]FF[4]CA[UTF-8]SZ[9]QS[1]AP[qipu]\n;W[ii]\n)\n");
  const GameRecord back = RoundTrip(r);
  EXPECT_THAT(back.extra, ElementsAre(Pair("QS", "1"), Pair("AP", "qipu")));
  EXPECT_THAT(back.setup, IsEmpty());
  EXPECT_EQ(back.moves.size(), 1u);
}

TEST(Sgf, WritesQipuTimeAndCommentPropertiesOfMoves) {
  GameRecord r;
  r.width = 9;
  r.height = 9;
  r.moves = {{Color::kBlack, Pt("cc")}, {Color::kWhite, kPass}};
  r.move_extra = {{0, "QM", "cc:3"}, {0, "BL", "59.5"}, {0, "XX", "no"},
                  {1, "WL", "30"},   {1, "OW", "2"},    {1, "C", "void]"},
                  {1, "BX", "no"}};
  const std::string sgf = WriteSgf(r);
  EXPECT_EQ(sgf,
            "(;GM[1]FF[4]CA[UTF-8]SZ[9]\n;B[cc]QM[cc:3]BL[59.5];W[]WL[30]OW[2]"
            "C[void\\]]\n)\n");
  // The reader keeps qipu's own only.
  EXPECT_THAT(RoundTrip(r).move_extra,
              ElementsAre(MoveProperty{0, "QM", "cc:3"}));
}

TEST(Sgf, ReadingIsIdempotentThroughTheWriter) {
  // Whatever the reader normalised (breaks in simple text, RE blanks, Fox
  // komi, charsets) stays as it is on the next round.
  const GameRecord first =
      ReadSgf(
          ";CA[GB2312]KM[375]RE[ B+R ]PB[a\nb\tc]GN[\xCE\xA7]AP[x]AP[y];"
          "AB[aa:bb];W[tt];B[cc]")
          .games.at(0);
  EXPECT_DOUBLE_EQ(first.komi, 7.5);
  EXPECT_EQ(first.black_player, "a b c");
  EXPECT_EQ(first.game_name, "围");
  ExpectSameGame(RoundTrip(first), first);
}

// The Fox corpus (Corpus B): see /work/shared/corpora/fox-pro/STATS.txt.
TEST(Sgf, ReadsTheFoxCorpusWithTheExpectedNotes) {
  // <source>/../shared or /work/shared (a worktree elsewhere).
  const std::string fox = test_util::SharedCorpusDir("fox-pro");
  if (fox.empty()) GTEST_SKIP() << "the fox-pro corpus is absent";
  const std::filesystem::path root =
      std::filesystem::path(fox) / "featurecat-go-dataset";
  ASSERT_TRUE(std::filesystem::is_directory(root)) << root;
  int files = 0;
  int games = 0;
  int errors = 0;
  int lossy = 0;
  int no_paren = 0;
  int duplicate_ap = 0;
  int no_ca = 0;
  int setup_games = 0;
  size_t min_moves = 1000;
  size_t max_moves = 0;
  std::map<std::string, int> rules;
  std::map<int, int> handicaps;
  std::map<double, int> komis;
  std::map<std::string, int> results;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".sgf") {
      continue;
    }
    ++files;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream data;
    data << in.rdbuf();
    const SgfCollection c = ReadSgf(data.str());
    errors += static_cast<int>(c.errors.size());
    for (const SgfError& e : c.errors) {
      ADD_FAILURE() << entry.path() << ": " << e.reason;
    }
    for (const GameRecord& g : c.games) {
      ++games;
      auto has = [&](const char* text) {
        for (const RecordNote& n : g.notes) {
          if (NoteText(n).find(text) != std::string::npos) return 1;
        }
        return 0;
      };
      lossy += has("invalid UTF-8");
      no_paren += has("starts with ';' instead of '('");
      duplicate_ap += has("property AP repeated");
      no_ca += has("no CA[]");
      setup_games += g.setup.empty() ? 0 : 1;
      min_moves = std::min(min_moves, g.moves.size());
      max_moves = std::max(max_moves, g.moves.size());
      ++rules[g.rules];
      ++handicaps[g.handicap];
      ++komis[g.komi];
      ++results[g.result.text];
      EXPECT_EQ(g.width, 19);
      EXPECT_TRUE(g.has_komi);
      // Every game survives the writer unchanged.
      ExpectSameGame(RoundTrip(g), g);
    }
  }
  EXPECT_EQ(files, 679);
  EXPECT_EQ(games, 679);
  EXPECT_EQ(errors, 0);
  EXPECT_EQ(lossy, 620);
  EXPECT_EQ(no_paren, 19);
  EXPECT_EQ(duplicate_ap, 678);
  EXPECT_EQ(no_ca, 679);
  EXPECT_EQ(min_moves, 31u);
  EXPECT_EQ(max_moves, 360u);
  EXPECT_EQ(setup_games, 287);
  EXPECT_EQ(rules["Japanese"], 460);
  EXPECT_EQ(rules["Chinese"], 219);
  EXPECT_EQ(handicaps[0], 387);
  EXPECT_EQ(handicaps[2], 286);
  EXPECT_EQ(handicaps[1], 5);
  EXPECT_EQ(handicaps[4], 1);
  // KM[650] + KM[325] = 6.5, KM[375] + KM[750] = 7.5, KM[550] = 5.5.
  EXPECT_EQ(komis[6.5], 289 + 106);
  EXPECT_EQ(komis[7.5], 113 + 4);
  EXPECT_EQ(komis[5.5], 1);
  EXPECT_EQ(komis[0], 166);
  EXPECT_EQ(results["W+R"], 323);
  EXPECT_EQ(results["B+R"], 260);
  EXPECT_EQ(results["B+0.02"], 6);
  EXPECT_EQ(results["draw"], 3);
}

}  // namespace
}  // namespace qipu::rules
