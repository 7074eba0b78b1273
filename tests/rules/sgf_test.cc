// SGF reader: every feature (FF[4] and FF[1]-[3], main line, setup, game
// information, passes, escapes, rectangles, charsets, several games, deep
// nesting), the real-world quirks it normalises (each with a note) and
// every error path (the offset and a reason that says what and why).
// Writer, round trips and the Fox corpus: sgf_writer_test.cc.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rules/record.h"
#include "rules/record_note.h"
#include "rules/sgf_reader.h"
#include "rules/types.h"

namespace qipu::rules {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Pair;

// The point named by SGF letters (column, row from the top).
Point P(const char* sgf) { return MakePoint(sgf[0] - 'a', sgf[1] - 'a'); }

Move B(const char* sgf) { return Move{Color::kBlack, P(sgf)}; }
Move W(const char* sgf) { return Move{Color::kWhite, P(sgf)}; }

// Reads `sgf`, expecting exactly one game and no error.
GameRecord ReadOne(const std::string& sgf) {
  SgfCollection c = ReadSgf(sgf);
  EXPECT_THAT(c.errors, IsEmpty())
      << (c.errors.empty() ? "" : c.errors[0].reason);
  EXPECT_EQ(c.games.size(), 1u);
  return c.games.empty() ? GameRecord{} : c.games[0];
}

// Reads `sgf`, expecting no game and exactly one error.
SgfError ReadError(const std::string& sgf) {
  SgfCollection c = ReadSgf(sgf);
  EXPECT_THAT(c.games, IsEmpty());
  EXPECT_EQ(c.errors.size(), 1u);
  return c.errors.empty() ? SgfError{} : c.errors[0];
}

// The notes of `r` as text (NoteText).
std::vector<std::string> NoteTexts(const GameRecord& r) {
  std::vector<std::string> out;
  for (const RecordNote& n : r.notes) out.push_back(NoteText(n));
  return out;
}

// True when the text of some note of `r` contains `text`.
bool HasNote(const GameRecord& r, const std::string& text) {
  for (const std::string& n : NoteTexts(r)) {
    if (n.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(Sgf, ReadsGameInformationAndMoves) {
  const GameRecord r = ReadOne(
      "(;GM[1]FF[4]CA[UTF-8]SZ[19]HA[0]KM[7.5]RU[Chinese]RE[ B+R ]"
      "PB[Ke Jie]PW[AlphaGo]BR[9p]WR[-]DT[2017-05-23]EV[Future of Go]"
      "GN[Game 1]PC[Wuzhen]\n;B[qd];W[pp];B[])");
  EXPECT_EQ(r.width, 19);
  EXPECT_EQ(r.height, 19);
  EXPECT_EQ(r.handicap, 0);
  EXPECT_TRUE(r.has_komi);
  EXPECT_DOUBLE_EQ(r.komi, 7.5);
  EXPECT_EQ(r.rules, "Chinese");
  EXPECT_EQ(r.result.text, "B+R");
  EXPECT_EQ(r.black_player, "Ke Jie");
  EXPECT_EQ(r.white_player, "AlphaGo");
  EXPECT_EQ(r.black_rank, "9p");
  EXPECT_EQ(r.white_rank, "-");
  EXPECT_EQ(r.date, "2017-05-23");
  EXPECT_EQ(r.event, "Future of Go");
  EXPECT_EQ(r.game_name, "Game 1");
  EXPECT_EQ(r.place, "Wuzhen");
  EXPECT_THAT(r.moves,
              ElementsAre(B("qd"), W("pp"), Move{Color::kBlack, kPass}));
  EXPECT_THAT(r.setup, IsEmpty());
  EXPECT_THAT(r.extra, IsEmpty());
  EXPECT_THAT(NoteTexts(r), IsEmpty());
  EXPECT_EQ(r.game_number, 1);
  EXPECT_EQ(r.byte_offset, 0u);
}

TEST(Sgf, MovesKeepTheColourAsWritten) {
  const GameRecord r = ReadOne("(;SZ[9];B[aa];B[bb];W[cc];W[])");
  EXPECT_THAT(r.moves, ElementsAre(B("aa"), B("bb"), W("cc"),
                                   Move{Color::kWhite, kPass}));
}

TEST(Sgf, TtIsAPassOnBoardsUpTo19Only) {
  EXPECT_THAT(ReadOne("(;SZ[19];B[tt];W[ss])").moves,
              ElementsAre(Move{Color::kBlack, kPass}, W("ss")));
  EXPECT_THAT(ReadOne("(;SZ[9];W[tt])").moves,
              ElementsAre(Move{Color::kWhite, kPass}));
  EXPECT_THAT(ReadOne("(;SZ[21];B[tt])").moves, ElementsAre(B("tt")));
  // Off the board: the main line stops there (the record is kept cut).
  const GameRecord off = ReadOne("(;SZ[20];B[uu])");
  EXPECT_TRUE(off.moves.empty());
  EXPECT_EQ(off.unread.move, 1);
  EXPECT_TRUE(off.unread.off_board);
  EXPECT_THAT(off.unread.reason,
              AllOf(HasSubstr("B[uu]"), HasSubstr("off the 20x20 board")));
}

TEST(Sgf, ReadsSquareAndRectangularSizes) {
  GameRecord r = ReadOne("(;SZ[13])");
  EXPECT_EQ(r.width, 13);
  EXPECT_EQ(r.height, 13);
  r = ReadOne("(;SZ[9:13];B[ai])");
  EXPECT_EQ(r.width, 9);
  EXPECT_EQ(r.height, 13);
  EXPECT_THAT(r.moves, ElementsAre(B("ai")));
  EXPECT_EQ(ReadOne("(;SZ[25];B[yy])").width, 25);
  EXPECT_EQ(ReadOne("(;SZ[2])").width, 2);
  EXPECT_EQ(ReadOne("(;B[aa])").width, 19);  // Default.
}

TEST(Sgf, BadSizeIsAnErrorNamingTheValue) {
  SgfError e = ReadError("(;GM[1]SZ[26];B[aa])");
  EXPECT_EQ(e.game_number, 1);
  EXPECT_EQ(e.byte_offset, 9u);
  EXPECT_THAT(e.reason, AllOf(HasSubstr("SZ[26]"), HasSubstr("not supported")));
  EXPECT_THAT(ReadError("(;SZ[1])").reason, HasSubstr("SZ[1]"));
  EXPECT_THAT(ReadError("(;SZ[19:0])").reason, HasSubstr("SZ[19:0]"));
  e = ReadError("(;SZ[big])");
  EXPECT_EQ(e.byte_offset, 4u);
  EXPECT_THAT(e.reason,
              AllOf(HasSubstr("SZ[big]"), HasSubstr("not a board size")));
}

TEST(Sgf, ReadsLongMixedCaseNamesOfOldFormats) {
  const GameRecord r = ReadOne(
      "(;GaMe[1]FileFormat[3]SiZe[19]PlayerBlack[Go Seigen]"
      "PlayerWhite[Honinbo Shusai]AddBlack[aa][bb]AddWhite[cc];Black[dd]"
      ";White[tt])");
  EXPECT_EQ(r.black_player, "Go Seigen");
  EXPECT_EQ(r.white_player, "Honinbo Shusai");
  ASSERT_EQ(r.setup.size(), 1u);
  EXPECT_THAT(r.setup[0].black, ElementsAre(P("aa"), P("bb")));
  EXPECT_THAT(r.setup[0].white, ElementsAre(P("cc")));
  EXPECT_THAT(r.moves, ElementsAre(B("dd"), Move{Color::kWhite, kPass}));
}

TEST(Sgf, FollowsTheFirstChildAtEveryBranch) {
  const GameRecord r =
      ReadOne("(;SZ[9];B[aa](;W[bb](;B[cc])(;B[dd];W[ee]))(;W[ff];B[gg]))");
  EXPECT_THAT(r.moves, ElementsAre(B("aa"), W("bb"), B("cc")));
}

TEST(Sgf, ReadsRootAndMidGameSetup) {
  const GameRecord r = ReadOne(
      "(;SZ[9]AB[aa][bb]AW[cc]PL[W];W[dd];AE[aa]AB[ee]PL[b];B[ff];PL[B])");
  ASSERT_EQ(r.setup.size(), 3u);
  EXPECT_EQ(r.setup[0].before_move, 0);
  EXPECT_THAT(r.setup[0].black, ElementsAre(P("aa"), P("bb")));
  EXPECT_THAT(r.setup[0].white, ElementsAre(P("cc")));
  EXPECT_THAT(r.setup[0].empty, IsEmpty());
  EXPECT_EQ(r.setup[0].to_play, Color::kWhite);
  EXPECT_EQ(r.setup[1].before_move, 1);
  EXPECT_THAT(r.setup[1].empty, ElementsAre(P("aa")));
  EXPECT_THAT(r.setup[1].black, ElementsAre(P("ee")));
  EXPECT_EQ(r.setup[1].to_play, Color::kBlack);
  EXPECT_EQ(r.setup[2].before_move, 2);
  EXPECT_EQ(r.setup[2].to_play, Color::kBlack);
  EXPECT_THAT(r.moves, ElementsAre(W("dd"), B("ff")));
}

TEST(Sgf, HandicapStonesInTheNodeAfterTheRootAreSetupBeforeMoveOne) {
  // Fox writes the handicap as AB in the first node after the root.
  const GameRecord r = ReadOne("(;SZ[19]HA[2];AB[pd][dp];W[dd];B[pp])");
  EXPECT_EQ(r.handicap, 2);
  ASSERT_EQ(r.setup.size(), 1u);
  EXPECT_EQ(r.setup[0].before_move, 0);
  EXPECT_THAT(r.setup[0].black, ElementsAre(P("pd"), P("dp")));
  EXPECT_THAT(r.moves, ElementsAre(W("dd"), B("pp")));
}

TEST(Sgf, ExpandsCompressedPointLists) {
  GameRecord r = ReadOne("(;SZ[9]AB[aa:cb]AW[ee:dd][ff]AE[])");
  ASSERT_EQ(r.setup.size(), 1u);
  EXPECT_THAT(r.setup[0].black, ElementsAre(P("aa"), P("ba"), P("ca"), P("ab"),
                                            P("bb"), P("cb")));
  EXPECT_THAT(r.setup[0].white,
              ElementsAre(P("dd"), P("ed"), P("de"), P("ee"), P("ff")));
  // Overlaps and repeats are merged.
  r = ReadOne("(;SZ[9]AB[aa:bb][ab][aa:ba])");
  EXPECT_THAT(r.setup[0].black,
              ElementsAre(P("aa"), P("ba"), P("ab"), P("bb")));
  r = ReadOne("(;SZ[19]AB[aa:ss])");
  EXPECT_EQ(r.setup[0].black.size(), 361u);
}

TEST(Sgf, AMoveThatIsNoPointEndsTheMainLineThere) {
  // The record is read up to the move before; the move is kept in
  // `unread` (engine/prepare.h stores the game cut there), and nothing of
  // the main line after it is read (neither moves nor setup).
  GameRecord r = ReadOne("(;SZ[9]RE[B+R];B[aa];W[jj];B[cc]AB[dd];W[ee])");
  EXPECT_THAT(r.moves, ElementsAre(B("aa")));
  EXPECT_TRUE(r.setup.empty());
  EXPECT_EQ(r.unread.move, 2);
  EXPECT_EQ(r.unread.color, Color::kWhite);
  EXPECT_EQ(r.unread.value, "jj");
  EXPECT_TRUE(r.unread.off_board);
  EXPECT_THAT(r.unread.reason,
              AllOf(HasSubstr("W[jj] at "), HasSubstr("line 1"),
                    HasSubstr("off the 9x9 board")));
  EXPECT_EQ(r.result.text, "B+R");
  r = ReadOne("(;B[a])");
  EXPECT_EQ(r.unread.move, 1);
  EXPECT_FALSE(r.unread.off_board);
  EXPECT_THAT(r.unread.reason, HasSubstr("not an SGF point"));
  r = ReadOne("(;B[dd];W[a1])");
  EXPECT_EQ(r.unread.move, 2);
  EXPECT_THAT(r.unread.reason, AllOf(HasSubstr("W[a1]"), HasSubstr("letters")));
  EXPECT_EQ(ReadOne("(;B[dd];W[ee])").unread, UnreadMove{});
}

TEST(Sgf, BadPointsAreErrorsAtTheValue) {
  SgfError e = ReadError("(;SZ[9]AB[aa][ab:zz])");
  EXPECT_EQ(e.byte_offset, 13u);
  EXPECT_THAT(e.reason, AllOf(HasSubstr("AB[ab:zz]"), HasSubstr("off")));
}

TEST(Sgf, UnescapesTextAndRemovesSoftLineBreaks) {
  const GameRecord r = ReadOne(
      "(;PB[a\\]b\\\\c]PW[soft\\\nbreak]GN[two\nlines\r\nhere]"
      "EV[tab\there]C[kept\nas is \\] ok]PC[\\:x\\\r\ny])");
  EXPECT_EQ(r.black_player, "a]b\\c");
  EXPECT_EQ(r.white_player, "softbreak");
  EXPECT_EQ(r.game_name, "two lines here");  // SimpleText: breaks -> space.
  EXPECT_EQ(r.event, "tab here");
  EXPECT_EQ(r.place, ":xy");
  EXPECT_THAT(r.extra, ElementsAre(Pair("C", "kept\nas is ] ok")));
}

TEST(Sgf, ReadsSeveralGamesOfOneFile) {
  const std::string sgf =
      "(;GM[1]PB[a];B[aa])\n(;GM[1]PB[b];W[bb])\r\n  (;PB[c]SZ[9])";
  SgfCollection c = ReadSgf(sgf);
  EXPECT_THAT(c.errors, IsEmpty());
  ASSERT_EQ(c.games.size(), 3u);
  EXPECT_EQ(c.games[0].black_player, "a");
  EXPECT_EQ(c.games[1].black_player, "b");
  EXPECT_EQ(c.games[2].black_player, "c");
  EXPECT_EQ(c.games[2].width, 9);
  EXPECT_EQ(c.games[1].game_number, 2);
  EXPECT_EQ(c.games[1].byte_offset, 20u);
  EXPECT_EQ(c.games[2].byte_offset, sgf.find("(;PB[c]"));
  EXPECT_THAT(c.games[1].moves, ElementsAre(W("bb")));
}

TEST(Sgf, AGameWithAnErrorDoesNotStopTheOthers) {
  const std::string sgf = "(;B[aa])(;AB[zz](;W[bb])(;W[cc]))(;W[bb])";
  SgfCollection c = ReadSgf(sgf);
  ASSERT_EQ(c.errors.size(), 1u);
  EXPECT_EQ(c.errors[0].game_number, 2);
  EXPECT_EQ(c.errors[0].byte_offset, 12u);
  ASSERT_EQ(c.games.size(), 2u);
  EXPECT_EQ(c.games[0].game_number, 1);
  EXPECT_EQ(c.games[1].game_number, 3);
  EXPECT_THAT(c.games[1].moves, ElementsAre(W("bb")));
}

TEST(Sgf, SyntaxErrorsResynchroniseAtTheNextGame) {
  SgfCollection c = ReadSgf("(;B[aa] 12 ;W[bb])(;B[cc])(;B[dd]];W[ee])(;)");
  ASSERT_EQ(c.errors.size(), 2u);
  EXPECT_EQ(c.errors[0].game_number, 1);
  EXPECT_EQ(c.errors[0].byte_offset, 8u);
  EXPECT_THAT(c.errors[0].reason,
              AllOf(HasSubstr("unexpected '1'"), HasSubstr("line 1, column 9"),
                    HasSubstr("expected ';', '(', ')' or a property name")));
  EXPECT_EQ(c.errors[1].game_number, 3);
  EXPECT_EQ(c.errors[1].byte_offset, 33u);
  EXPECT_THAT(c.errors[1].reason, HasSubstr("unbalanced brackets"));
  ASSERT_EQ(c.games.size(), 2u);
  EXPECT_THAT(c.games[0].moves, ElementsAre(B("cc")));
  EXPECT_EQ(c.games[1].game_number, 4);
}

TEST(Sgf, UnterminatedValueIsAnErrorAtItsBracket) {
  const SgfError e = ReadError("(;GM[1]\n;PB[abc;B(aa))");
  EXPECT_EQ(e.byte_offset, 11u);
  EXPECT_THAT(e.reason, AllOf(HasSubstr("PB"), HasSubstr("line 2, column 4"),
                              HasSubstr("no closing ']'")));
}

TEST(Sgf, TruncatedFileIsAnErrorAtTheEnd) {
  const std::string sgf = "(;GM[1];B[aa](;W[bb]";
  const SgfError e = ReadError(sgf);
  EXPECT_EQ(e.byte_offset, sgf.size());
  EXPECT_THAT(e.reason, AllOf(HasSubstr("2 game tree(s) not closed"),
                              HasSubstr("truncated")));
}

TEST(Sgf, StructuralErrors) {
  SgfError e = ReadError("(;GM[1]PB;B[aa])");
  EXPECT_EQ(e.byte_offset, 9u);
  EXPECT_THAT(e.reason, AllOf(HasSubstr("property PB"),
                              HasSubstr("has no value"), HasSubstr("';'")));
  e = ReadError("(;B[aa](;W[bb]);B[cc])");
  EXPECT_EQ(e.byte_offset, 15u);
  EXPECT_THAT(e.reason, HasSubstr("must all come before its variations"));
  e = ReadError("(;B[aa]((;W[bb])))");
  EXPECT_EQ(e.byte_offset, 8u);
  EXPECT_THAT(e.reason, HasSubstr("must begin with a node"));
  e = ReadError("(;B[aa](W[bb]))");
  EXPECT_EQ(e.byte_offset, 8u);
  EXPECT_THAT(e.reason, HasSubstr("outside a node"));
  e = ReadError("(;b[aa])");
  EXPECT_EQ(e.byte_offset, 2u);
  EXPECT_THAT(e.reason, HasSubstr("no uppercase letter"));
}

TEST(Sgf, NonSgfInputIsAnError) {
  SgfError e = ReadError("hello, world\n");
  EXPECT_EQ(e.game_number, 0);  // the input as a whole
  EXPECT_EQ(e.byte_offset, 0u);
  EXPECT_THAT(e.reason,
              AllOf(HasSubstr("no SGF game tree"), HasSubstr("'hello, world"),
                    HasSubstr("not an SGF file")));
  e = ReadError(std::string("\x01\x89PNG\r\n\x1a\n\0\0(x;", 14));
  EXPECT_EQ(e.byte_offset, 0u);
  EXPECT_THAT(e.reason, HasSubstr("\\x01\\x89PNG"));
  e = ReadError("");
  EXPECT_EQ(e.game_number, 0);
  EXPECT_THAT(e.reason, AllOf(HasSubstr("empty"), HasSubstr("not an SGF")));
  e = ReadError("  \n\t ");
  EXPECT_EQ(e.byte_offset, 5u);
  // UTF-16 is read (sgf_input_test.cc): this one is truncated in game 1.
  e = ReadError(std::string("\xFF\xFE(\0;\0", 6));
  EXPECT_EQ(e.game_number, 1);
  EXPECT_EQ(e.byte_offset, 6u);
  EXPECT_THAT(e.reason, HasSubstr("truncated"));
}

TEST(Sgf, DeeplyNestedVariationsNeedNoStack) {
  constexpr int kDepth = 100000;
  std::string main_line = "(;SZ[19]";
  for (int i = 0; i < kDepth; ++i) main_line += i % 2 ? "(;W[bb]" : "(;B[aa]";
  main_line += std::string(kDepth + 1, ')');
  GameRecord r = ReadOne(main_line);
  ASSERT_EQ(r.moves.size(), static_cast<size_t>(kDepth));
  EXPECT_EQ(r.moves.back(), W("bb"));

  std::string variations = "(;SZ[19];B[cc](;W[dd])";
  for (int i = 0; i < kDepth; ++i) variations += "(;W[ee]C[x]";
  variations += std::string(kDepth + 1, ')');
  r = ReadOne(variations);
  EXPECT_THAT(r.moves, ElementsAre(B("cc"), W("dd")));

  // Unclosed: an error at the end, not a crash.
  const SgfError e =
      ReadError(std::string(kDepth, '(') + ";" + std::string(kDepth, '('));
  EXPECT_THAT(e.reason, HasSubstr("must begin with a node"));
}

TEST(Sgf, AcceptsAFileWithoutTheOpeningParen) {
  GameRecord r = ReadOne(";GM[1]SZ[19]PB[x];B[pd](;W[dd])(;W[dp]))");
  EXPECT_TRUE(HasNote(r, "starts with ';' instead of '('"));
  EXPECT_THAT(r.moves, ElementsAre(B("pd"), W("dd")));
  r = ReadOne(";SZ[9];B[aa];W[bb]\n");
  EXPECT_TRUE(HasNote(r, "without ')'"));
  EXPECT_THAT(r.moves, ElementsAre(B("aa"), W("bb")));
}

TEST(Sgf, RepeatedPropertyKeepsTheFirstWithANote) {
  const GameRecord r =
      ReadOne("(;GM[1]AP[GNU Go:3.8]PB[x]AP[foxwq];B[aa]B[bb])");
  EXPECT_THAT(r.extra, ElementsAre(Pair("AP", "GNU Go:3.8")));
  EXPECT_TRUE(HasNote(r, "property AP repeated in the root node at byte 26"));
  EXPECT_TRUE(HasNote(r, "AP[foxwq] ignored"));
  EXPECT_THAT(r.moves, ElementsAre(B("aa")));
  EXPECT_TRUE(HasNote(r, "property B repeated in main-line node 2"));
}

TEST(Sgf, NormalisesFoxKomi) {
  struct Case {
    const char* km;
    double komi;
    const char* note;  // nullptr: no note expected.
  };
  const Case cases[] = {
      {"650", 6.5,
       "KM[650] at byte 2 (line 1, column 3) read as komi 6.5 "
       "(Fox: komi x100)"},
      {"375", 7.5,
       "KM[375] at byte 2 (line 1, column 3) read as komi 7.5 "
       "(Fox: 3.75 stones)"},
      {"325", 6.5, "read as komi 6.5 (Fox: 3.25 stones)"},
      {"750", 7.5, "(Fox: komi x100)"},
      {"550", 5.5, "(Fox: komi x100)"},
      {"-375", -7.5, "(Fox: -3.75 stones)"},
      {"100", 1, "(Fox: komi x100)"},
      {"0", 0, nullptr},
      {"7.5", 7.5, nullptr},
      {"-6.5", -6.5, nullptr},
      {"99", 99, nullptr},
      {"375.0", 375, nullptr},
      {" 0.5 ", 0.5, nullptr},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.km);
    const GameRecord r = ReadOne(std::string("(;KM[") + c.km + "]CA[UTF-8])");
    EXPECT_TRUE(r.has_komi);
    EXPECT_DOUBLE_EQ(r.komi, c.komi);
    if (c.note == nullptr) {
      EXPECT_THAT(NoteTexts(r), IsEmpty());
    } else {
      EXPECT_TRUE(HasNote(r, c.note)) << ::testing::PrintToString(NoteTexts(r));
    }
  }
  EXPECT_FALSE(ReadOne("(;SZ[19])").has_komi);
}

TEST(Sgf, LocationsAreRightInAnyOrder) {
  // The AP repeat (line 3) is noted before KM (line 2): the locator backs up.
  const GameRecord r = ReadOne("(;GM[1]\nKM[650]\nAP[a]AP[b]\n  HA[x])");
  EXPECT_TRUE(HasNote(r,
                      "AP repeated in the root node at byte 21 (line 3, "
                      "column 6)"));
  EXPECT_TRUE(HasNote(r, "KM[650] at byte 8 (line 2, column 1)"));
  EXPECT_TRUE(HasNote(r, "HA[x] at byte 29 (line 4, column 3)"));
}

TEST(Sgf, UnreadableGameInformationIsNotedNotFatal) {
  GameRecord r = ReadOne("(;CA[UTF-8]KM[six]HA[two]PL[X]FF[7]GM[one];B[aa])");
  EXPECT_FALSE(r.has_komi);
  EXPECT_EQ(r.handicap, 0);
  EXPECT_TRUE(HasNote(r, "KM[six] at byte 11"));
  EXPECT_TRUE(HasNote(r, "komi left unset"));
  EXPECT_TRUE(HasNote(r, "HA[two]"));
  EXPECT_TRUE(HasNote(r, "PL[X]"));
  EXPECT_TRUE(HasNote(r, "FF[7]"));
  EXPECT_TRUE(HasNote(r, "GM[one]"));
  EXPECT_THAT(r.setup, IsEmpty());
  EXPECT_THAT(r.moves, ElementsAre(B("aa")));
  r = ReadOne("(;KM[6,5]HA[3]CA[UTF-8])");
  EXPECT_DOUBLE_EQ(r.komi, 6.5);
  EXPECT_EQ(r.handicap, 3);
  EXPECT_TRUE(HasNote(r, "decimal comma"));
}

TEST(Sgf, KeepsTheResultAsWritten) {
  EXPECT_EQ(ReadOne("(;RE[ B+0.02 ])").result.text, "B+0.02");
  EXPECT_EQ(ReadOne("(;RE[W+0.0])").result.text, "W+0.0");
  EXPECT_EQ(ReadOne("(;RE[draw])").result.text, "draw");
  EXPECT_EQ(ReadOne("(;RE[Void])").result.text, "Void");
}

TEST(Sgf, UnknownAndQipuRootPropertiesGoToExtra) {
  const GameRecord r = ReadOne(
      "(;GM[1]QS[12345]ST[2]QJ[job-7]TR[aa][bb]QV[0.1.0];C[not root]"
      "QS[ignored];B[aa])");
  EXPECT_THAT(r.extra, ElementsAre(Pair("QS", "12345"), Pair("ST", "2"),
                                   Pair("QJ", "job-7"), Pair("TR", "aa"),
                                   Pair("QV", "0.1.0")));
}

TEST(Sgf, GameInformationOutsideTheRootIsReadOnce) {
  const GameRecord r =
      ReadOne("(;SZ[9]PB[root];PW[later]PB[again]SZ[13];B[aa])");
  EXPECT_EQ(r.black_player, "root");
  EXPECT_EQ(r.white_player, "later");
  EXPECT_EQ(r.width, 9);
  EXPECT_TRUE(HasNote(r, "PW read from main-line node 2"));
  EXPECT_TRUE(HasNote(r, "PB in main-line node 2"));
  EXPECT_TRUE(HasNote(r, "SZ in main-line node 2"));
}

TEST(Sgf, NotesOddButHarmlessStructure) {
  GameRecord r = ReadOne("(;SZ[9];B[aa]W[bb]()(;B[cc]))");
  EXPECT_THAT(r.moves, ElementsAre(B("aa"), W("bb")));
  EXPECT_TRUE(HasNote(r, "holds both B and W"));
  EXPECT_TRUE(HasNote(r, "empty variation '()' at byte 18"));
  r = ReadOne("(;SZ[9]AB[tt][aa]B[cc][dd])");
  EXPECT_TRUE(HasNote(r, "AB[tt]"));
  EXPECT_THAT(r.setup[0].black, ElementsAre(P("aa")));
  EXPECT_THAT(r.moves, ElementsAre(B("cc")));
  EXPECT_TRUE(HasNote(r, "B at byte 17 (line 1, column 18) has 2 values"));
}

TEST(Sgf, SkipsTextAroundGamesWithANote) {
  SgfCollection c =
      ReadSgf("From: someone\n\n(;B[aa])\nsee you (soon)\n(;W[bb])\n\x1a");
  EXPECT_THAT(c.errors, IsEmpty());
  ASSERT_EQ(c.games.size(), 2u);
  EXPECT_TRUE(HasNote(c.games[0], "13 bytes from byte 0"));
  EXPECT_TRUE(HasNote(c.games[0], "'see you (soon)"));
  EXPECT_THAT(NoteTexts(c.games[1]),
              ElementsAre(HasSubstr("no CA[]")));  // Ctrl-Z is no junk.
}

TEST(Sgf, DecodesTheDeclaredCharset) {
  struct Case {
    const char* ca;
    const char* bytes;
    const char* utf8;
  };
  const Case cases[] = {
      {"GB2312", "\xCE\xA7\xC6\xE5", "围棋"},
      {"gbk", "\x86\xB4", "喆"},  // GBK, not GB2312: read as GB18030.
      {"GB2312", "\x86\xB4", "喆"},
      {"GB18030", "\x95\x32\x82\x36", "𠀀"},
      {"Big5", "\xB3\xF2\xB4\xD1", "圍棋"},
      {"Shift_JIS", "\x88\xCD\x8C\xE9", "囲碁"},
      {"SJIS", "\x88\xCD\x8C\xE9", "囲碁"},
      {"EUC-KR", "\xB9\xD9\xB5\xCF", "바둑"},
      {"ISO-8859-1", "M\xFCller", "Müller"},
      {"latin1", "M\xFCller", "Müller"},
      {" utf-8 ", "\xE5\x9B\xB4\xE6\xA3\x8B", "围棋"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.ca);
    const GameRecord r = ReadOne(std::string("(;PB[") + c.bytes + "]CA[" +
                                 c.ca + "]XX[" + c.bytes + "])");
    EXPECT_EQ(r.black_player, c.utf8);
    EXPECT_THAT(r.extra, ElementsAre(Pair("XX", c.utf8)));
    EXPECT_THAT(NoteTexts(r), IsEmpty());
  }
}

TEST(Sgf, ReplacesUndecodableBytesWithANote) {
  GameRecord r = ReadOne("(;PB[ab\xE5\x9B?]PW[ok]GN[\xFF])");
  EXPECT_EQ(r.black_player, "ab\xEF\xBF\xBD?");
  EXPECT_EQ(r.game_name, "\xEF\xBF\xBD");
  EXPECT_TRUE(HasNote(r, "no CA[] charset given: text read as UTF-8"));
  EXPECT_TRUE(HasNote(r, "invalid UTF-8 in PB, GN replaced by U+FFFD"));
  r = ReadOne("(;CA[GB2312]PB[\xCE\xA7\xFF])");
  EXPECT_EQ(r.black_player, "围\xEF\xBF\xBD");
  EXPECT_TRUE(HasNote(r, "bytes not valid in GB18030 in PB"));
  r = ReadOne("(;CA[klingon]PB[x])");
  EXPECT_TRUE(HasNote(r, "CA[klingon] at byte 2"));
  EXPECT_TRUE(HasNote(r, "not a known charset"));
}

TEST(Sgf, AByteOrderMarkMeansUtf8) {
  const std::string sgf = "\xEF\xBB\xBF(;CA[GB2312]PB[\xE5\x9B\xB4])";
  const GameRecord r = ReadOne(sgf);
  EXPECT_EQ(r.black_player, "围");
  EXPECT_EQ(r.byte_offset, 3u);
  EXPECT_TRUE(HasNote(r, "byte order mark"));
}

TEST(Sgf, NeverFailsOnArbitraryBytes) {
  // A quick deterministic sweep; sgf_fuzz covers this in depth.
  std::string junk;
  uint32_t x = 12345;
  for (int i = 0; i < 20000; ++i) {
    x = x * 1103515245u + 12345u;
    const char alphabet[] = "()[];\\BWABAWSZKM:aszt \n\x80\xff";
    junk += alphabet[(x >> 16) % (sizeof(alphabet) - 1)];
  }
  for (size_t n = 0; n < junk.size(); n += 997) {
    SgfCollection c = ReadSgf(absl::string_view(junk).substr(n));
    EXPECT_FALSE(c.games.empty() && c.errors.empty());
    for (const SgfError& e : c.errors) {
      EXPECT_LE(e.byte_offset, junk.size() - n);
      EXPECT_FALSE(e.reason.empty());
    }
  }
}

}  // namespace
}  // namespace qipu::rules
