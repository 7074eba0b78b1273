// Protocol conformance of the GTP front-end (gtp/engine.h), in process
// with the light policy: the wire format (ids, '=' and '?', the blank line
// after each response, comments, CR, tabs), every command and the spec's
// error strings, undo, handicap, loadsgf/printsgf round trips, showboard,
// final_score and final_status_list, and the clock.
#include "gtp/engine.h"

#include <fstream>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/files.h"
#include "gtest/gtest.h"
#include "gtp/policy_factory.h"
#include "rules/scoring.h"

namespace qipu::gtp {
namespace {

// The `random` policy (whichever library provides it).
std::unique_ptr<policy::Policy> Random(uint64_t seed) {
  absl::StatusOr<std::unique_ptr<policy::Policy>> p =
      MakeAnyPolicy("random", seed);
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? std::move(*p) : nullptr;
}

class GtpEngineTest : public ::testing::Test {
 protected:
  GtpEngineTest() : engine_(Random(7), Options()) {}

  static EngineOptions Options() {
    EngineOptions o;
    o.version = "9.9";
    o.size = 9;
    return o;
  }

  // The raw response to one line.
  std::string Raw(const std::string& line) { return engine_.HandleLine(line); }

  // The text of a successful response (without "= " and the blank line),
  // or "FAILED: <response>".
  std::string Ok(const std::string& line) {
    const std::string r = Raw(line);
    if (r.size() < 3 || r.substr(0, 2) != "= " ||
        r.substr(r.size() - 2) != "\n\n") {
      return "FAILED: " + r;
    }
    return r.substr(2, r.size() - 4);
  }

  // The message of a failure response, or "SUCCEEDED: <response>".
  std::string Err(const std::string& line) {
    const std::string r = Raw(line);
    if (r.size() < 3 || r.substr(0, 2) != "? " ||
        r.substr(r.size() - 2) != "\n\n") {
      return "SUCCEEDED: " + r;
    }
    return r.substr(2, r.size() - 4);
  }

  Engine engine_;
};

TEST_F(GtpEngineTest, WireFormatIdsCommentsAndControlCharacters) {
  EXPECT_EQ(Raw("protocol_version"), "= 2\n\n");
  EXPECT_EQ(Raw("17 protocol_version"), "=17 2\n\n");
  EXPECT_EQ(Raw("18 no_such_command"), "?18 unknown command\n\n");
  EXPECT_EQ(Raw("no_such_command"), "? unknown command\n\n");
  // Blank lines and comment lines get no response at all.
  EXPECT_EQ(Raw(""), "");
  EXPECT_EQ(Raw("   \t "), "");
  EXPECT_EQ(Raw("# a comment"), "");
  // A comment after a command, CR line ends, tabs and other control
  // characters.
  EXPECT_EQ(Raw("3 name # who are you"), "=3 qipu\n\n");
  EXPECT_EQ(Raw("4 name\r"), "=4 qipu\n\n");
  EXPECT_EQ(Raw("5\tknown_command\tplay"), "=5 true\n\n");
  EXPECT_EQ(Raw("6 na\x01me"), "=6 qipu\n\n");
  // Command names are case-sensitive.
  EXPECT_EQ(Err("NAME"), "unknown command");
}

TEST_F(GtpEngineTest, AdministrativeCommands) {
  EXPECT_EQ(Ok("name"), "qipu");
  EXPECT_EQ(Ok("version"), "9.9 (random)");
  EXPECT_EQ(Ok("known_command genmove"), "true");
  EXPECT_EQ(Ok("known_command reg_genmove"), "true");
  EXPECT_EQ(Ok("known_command fly"), "false");
  EXPECT_EQ(Err("known_command"), "syntax error");
  const std::vector<std::string> listed =
      absl::StrSplit(Ok("list_commands"), '\n');
  for (const char* c : {"protocol_version",
                        "name",
                        "version",
                        "known_command",
                        "list_commands",
                        "quit",
                        "boardsize",
                        "clear_board",
                        "komi",
                        "play",
                        "genmove",
                        "reg_genmove",
                        "undo",
                        "fixed_handicap",
                        "place_free_handicap",
                        "set_free_handicap",
                        "final_score",
                        "final_status_list",
                        "time_settings",
                        "time_left",
                        "kgs-time_settings",
                        "loadsgf",
                        "printsgf",
                        "showboard"}) {
    EXPECT_NE(std::find(listed.begin(), listed.end(), c), listed.end()) << c;
    EXPECT_EQ(Ok(absl::StrCat("known_command ", c)), "true") << c;
  }
  EXPECT_FALSE(engine_.quit_requested());
  EXPECT_EQ(Raw("9 quit"), "=9 \n\n");
  EXPECT_TRUE(engine_.quit_requested());
}

TEST_F(GtpEngineTest, BoardSizeKomiAndPlayErrors) {
  EXPECT_EQ(Err("boardsize 1"), "unacceptable size");
  EXPECT_EQ(Err("boardsize 26"), "unacceptable size");
  EXPECT_EQ(Err("boardsize nine"), "syntax error");
  EXPECT_EQ(Err("boardsize"), "syntax error");
  EXPECT_EQ(Ok("boardsize 5"), "");
  EXPECT_EQ(Err("komi x"), "syntax error");
  EXPECT_EQ(Ok("komi 0.5"), "");
  EXPECT_EQ(Ok("komi -3"), "");
  EXPECT_EQ(Err("play red A1"), "invalid color");
  EXPECT_EQ(Err("play b Z1"), "invalid vertex");
  EXPECT_EQ(Err("play b F1"), "invalid vertex");  // off a 5x5 board
  EXPECT_EQ(Err("play b A6"), "invalid vertex");
  EXPECT_EQ(Err("play b"), "syntax error");
  EXPECT_EQ(Ok("play b c3"), "");
  EXPECT_EQ(Err("play w C3"), "illegal move: occupied");
  // Suicide and simple ko.
  EXPECT_EQ(Ok("play w a2"), "");
  EXPECT_EQ(Ok("play w b1"), "");
  EXPECT_EQ(Err("play b a1"), "illegal move: suicide");
  // The same colour twice in a row, and passes, are fine.
  EXPECT_EQ(Ok("play b pass"), "");
  EXPECT_EQ(Ok("play b PASS"), "");
  EXPECT_EQ(Ok("play black d4"), "");
  EXPECT_EQ(Ok("play WHITE e5"), "");
}

TEST_F(GtpEngineTest, KoIsIllegalUntilAMoveElsewhere) {
  ASSERT_EQ(Ok("boardsize 5"), "");
  // . X O . .
  // X O . O .     (row 4 from the top is row 2 in GTP)
  // . X O . .
  for (const char* m : {"play b b5", "play w c5", "play b a4", "play w b4",
                        "play b b3", "play w c3", "play w d4"}) {
    ASSERT_EQ(Ok(m), "") << m;
  }
  ASSERT_EQ(Ok("play b c4"), "");  // captures b4: a ko
  EXPECT_EQ(Err("play w b4"), "illegal move: ko");
  ASSERT_EQ(Ok("play w e1"), "");
  ASSERT_EQ(Ok("play b e2"), "");
  EXPECT_EQ(Ok("play w b4"), "");  // retakes after a ko threat
}

TEST_F(GtpEngineTest, GenmoveAndRegGenmove) {
  ASSERT_EQ(Ok("boardsize 9"), "");
  EXPECT_EQ(Err("genmove purple"), "invalid color");
  EXPECT_EQ(Err("genmove"), "syntax error");
  const std::string guess = Ok("reg_genmove b");
  ASSERT_NE(guess.substr(0, 6), "FAILED");
  // reg_genmove does not play.
  EXPECT_EQ(Err("undo"), "cannot undo");
  const std::string move = Ok("genmove b");
  ASSERT_NE(move.substr(0, 6), "FAILED");
  EXPECT_EQ(Err(absl::StrCat("play w ", move)), "illegal move: occupied");
  // genmove for the side that just moved works too.
  const std::string again = Ok("genmove black");
  ASSERT_NE(again.substr(0, 6), "FAILED");
  EXPECT_NE(again, move);
  EXPECT_EQ(engine_.state().moves_played(), 2);
}

TEST_F(GtpEngineTest, LightPolicyPlaysAWholeGameToTwoPasses) {
  ASSERT_EQ(Ok("boardsize 7"), "");
  std::string last, before;
  int moves = 0;
  for (; moves < 400 && !(last == "pass" && before == "pass"); ++moves) {
    before = last;
    last = Ok(moves % 2 == 0 ? "genmove b" : "genmove w");
    ASSERT_NE(last.substr(0, 6), "FAILED") << "move " << moves;
  }
  ASSERT_TRUE(engine_.state().game().over()) << moves << " moves";
  // final_score is qipu's area count of the board as it stands.
  const rules::GameResult r = engine_.state().game().ScoreNow();
  const std::string expected =
      r.winner == rules::Winner::kBlack   ? absl::StrCat("B+", r.margin)
      : r.winner == rules::Winner::kWhite ? absl::StrCat("W+", r.margin)
                                          : std::string("0");
  EXPECT_EQ(Ok("final_score"), expected);
  // Every stone is alive (qipu counts played-out boards), none dead.
  EXPECT_EQ(Ok("final_status_list dead"), "");
  const std::string alive = Ok("final_status_list alive");
  const std::string seki = Ok("final_status_list seki");
  int stones = 0;
  for (const std::string& list : {alive, seki}) {
    for (absl::string_view line :
         absl::StrSplit(list, '\n', absl::SkipEmpty())) {
      stones += static_cast<int>(
          std::vector<absl::string_view>(absl::StrSplit(line, ' ')).size());
    }
  }
  const rules::Board& b = engine_.state().game().board();
  EXPECT_EQ(stones,
            b.stones(rules::Color::kBlack) + b.stones(rules::Color::kWhite));
  EXPECT_EQ(Err("final_status_list sleeping"), "syntax error");
  // Play goes on after the end if the controller wants it (resumed game).
  const std::string more = Ok("genmove b");
  EXPECT_NE(more.substr(0, 6), "FAILED");
}

TEST_F(GtpEngineTest, FinalStatusListFindsSeki) {
  // A seki with an eye each and one shared liberty (C6), walled in:
  //   6 . X . O . O
  //   5 X X X O O O
  //   4 O O O X X X
  //   3 . . . . . .   (and rows 2, 1 empty)
  ASSERT_EQ(Ok("boardsize 6"), "");
  for (const char* m :
       {"play b B6", "play b A5", "play b B5", "play b C5", "play b D4",
        "play b E4", "play b F4", "play w D6", "play w D5", "play w E5",
        "play w F5", "play w F6", "play w A4", "play w B4", "play w C4"}) {
    ASSERT_EQ(Ok(m), "") << m;
  }
  EXPECT_EQ(Ok("final_status_list seki"), "B6 A5 B5 C5\nD6 F6 D5 E5 F5");
  EXPECT_EQ(Ok("final_status_list alive"), "A4 B4 C4\nD4 E4 F4");
  EXPECT_EQ(Ok("final_status_list dead"), "");
}

TEST_F(GtpEngineTest, FinalScoreTakesTheStonesJudgedDeadOff) {
  // White's area left of its wall on D, Black's right of its wall on E;
  // two black stones (B8 B7) in White's area, one white (H5) in Black's:
  // as GNU Go leaves a board when it passes.
  ASSERT_EQ(Ok("boardsize 9"), "");
  for (int row = 1; row <= 9; ++row) {
    ASSERT_EQ(Ok(absl::StrCat("play w D", row)), "");
    ASSERT_EQ(Ok(absl::StrCat("play b E", row)), "");
  }
  for (const char* m : {"play b B8", "play b B7", "play w H5"}) {
    ASSERT_EQ(Ok(m), "") << m;
  }
  EXPECT_EQ(Ok("final_status_list dead"), "B8 B7\nH5");
  // Black: 9 wall stones and 36 points; White: 9 and 27; komi 7.5 (as
  // the board stands the dead stones would spoil both areas).
  EXPECT_EQ(Ok("final_score"), "B+1.5");
  const std::string alive = Ok("final_status_list alive");
  EXPECT_NE(alive.find("E9 E8 E7"), std::string::npos) << alive;
  EXPECT_EQ(alive.find("H5"), std::string::npos) << alive;
  EXPECT_EQ(Ok("final_status_list seki"), "");
}

TEST_F(GtpEngineTest, UndoReplaysTheGame) {
  ASSERT_EQ(Ok("boardsize 5"), "");
  EXPECT_EQ(Err("undo"), "cannot undo");
  // White captures a1, then undo brings the stone back.
  ASSERT_EQ(Ok("play b a1"), "");
  ASSERT_EQ(Ok("play w a2"), "");
  ASSERT_EQ(Ok("play b e5"), "");
  ASSERT_EQ(Ok("play w b1"), "");
  EXPECT_EQ(engine_.state().game().captures(rules::Color::kWhite), 1);
  ASSERT_EQ(Ok("undo"), "");
  EXPECT_EQ(engine_.state().game().captures(rules::Color::kWhite), 0);
  EXPECT_EQ(engine_.state().game().board().at(rules::MakePoint(0, 4)),
            rules::Color::kBlack);
  EXPECT_EQ(engine_.state().game().to_play(), rules::Color::kWhite);
  // Undo across two passes takes the game out of its end.
  ASSERT_EQ(Ok("play w pass"), "");
  ASSERT_EQ(Ok("play b pass"), "");
  EXPECT_TRUE(engine_.state().game().over());
  ASSERT_EQ(Ok("undo"), "");
  EXPECT_FALSE(engine_.state().game().over());
  for (int i = 0; i < 4; ++i) ASSERT_EQ(Ok("undo"), "") << i;
  EXPECT_EQ(Err("undo"), "cannot undo");
  // Komi changes keep the game.
  ASSERT_EQ(Ok("play b c3"), "");
  ASSERT_EQ(Ok("komi 5.5"), "");
  EXPECT_EQ(engine_.state().moves_played(), 1);
  EXPECT_EQ(Ok("final_score"), "B+19.5");
}

TEST_F(GtpEngineTest, Handicaps) {
  ASSERT_EQ(Ok("boardsize 9"), "");
  EXPECT_EQ(Err("fixed_handicap 1"), "invalid number of stones");
  EXPECT_EQ(Err("fixed_handicap 10"), "invalid number of stones");
  EXPECT_EQ(Err("fixed_handicap x"), "syntax error");
  EXPECT_EQ(Ok("fixed_handicap 3"), "C3 G7 C7");
  EXPECT_EQ(Err("fixed_handicap 2"), "board not empty");
  EXPECT_EQ(Err("set_free_handicap A1 B2"), "board not empty");
  EXPECT_EQ(engine_.state().game().to_play(), rules::Color::kWhite);
  EXPECT_EQ(engine_.state().game().handicap(), 3);
  // Compensation: White gets one point per handicap stone (chinese).
  EXPECT_EQ(Ok("final_score"), "B+70.5");  // 81 - 7.5 - 3

  ASSERT_EQ(Ok("clear_board"), "");
  EXPECT_EQ(Err("set_free_handicap A1"), "bad vertex list");
  EXPECT_EQ(Err("set_free_handicap A1 A1"), "bad vertex list");
  EXPECT_EQ(Err("set_free_handicap A1 pass"), "bad vertex list");
  EXPECT_EQ(Err("set_free_handicap A1 Z9"), "bad vertex list");
  EXPECT_EQ(Ok("set_free_handicap A1 J9 E5"), "");
  EXPECT_EQ(engine_.state().game().handicap(), 3);
  EXPECT_EQ(Err("place_free_handicap 2"), "board not empty");

  ASSERT_EQ(Ok("clear_board"), "");
  EXPECT_EQ(Ok("place_free_handicap 4"), "C3 G7 C7 G3");
  ASSERT_EQ(Ok("boardsize 5"), "");
  // No fixed pattern on 5x5: qipu places them itself.
  const std::string placed = Ok("place_free_handicap 3");
  EXPECT_EQ(std::vector<std::string>(absl::StrSplit(placed, ' ')).size(), 3u)
      << placed;
  EXPECT_EQ(engine_.state().game().board().stones(rules::Color::kBlack), 3);
  ASSERT_EQ(Ok("clear_board"), "");
  EXPECT_EQ(Err("place_free_handicap 20"), "invalid number of stones");
  EXPECT_EQ(Err("place_free_handicap 1"), "invalid number of stones");
}

TEST_F(GtpEngineTest, ShowBoard) {
  ASSERT_EQ(Ok("boardsize 5"), "");
  ASSERT_EQ(Ok("play b c3"), "");
  ASSERT_EQ(Ok("play w d4"), "");
  const std::string r = Raw("showboard");
  ASSERT_EQ(r.substr(0, 3), "= \n") << r;
  EXPECT_EQ(r.find("\n\n"), r.size() - 2) << "no empty line inside: " << r;
  EXPECT_NE(r.find("    A B C D E"), std::string::npos) << r;
  EXPECT_NE(r.find(" 4  . . .(O). "), std::string::npos) << r;
  EXPECT_NE(r.find(" 3  . . X . . "), std::string::npos) << r;
  EXPECT_NE(r.find("B to play, move 3"), std::string::npos) << r;
}

TEST_F(GtpEngineTest, PrintSgfAndLoadSgfRoundTrip) {
  auto dir = base::TempDir::Create("gtp-sgf");
  ASSERT_TRUE(dir.ok()) << dir.status();
  ASSERT_EQ(Ok("boardsize 9"), "");
  ASSERT_EQ(Ok("komi 6.5"), "");
  ASSERT_EQ(Ok("fixed_handicap 2"), "C3 G7");
  for (int i = 0; i < 12; ++i) {
    ASSERT_NE(Ok(i % 2 == 0 ? "genmove w" : "genmove b").substr(0, 6),
              "FAILED");
  }
  const std::string sgf = Ok("printsgf");
  EXPECT_NE(sgf.find("HA[2]"), std::string::npos) << sgf;
  EXPECT_NE(sgf.find("KM[6.5]"), std::string::npos) << sgf;
  EXPECT_NE(sgf.find("AB[cg][gc]"), std::string::npos) << sgf;
  const std::string path = dir->Sub("game.sgf");
  ASSERT_EQ(Ok("printsgf " + path), "");
  const std::string board = Ok("showboard");

  // Into a fresh engine with other settings: the same game comes back.
  Engine other(Random(1), Options());
  auto ok = [&](const std::string& line) { return other.HandleLine(line); };
  ASSERT_EQ(ok("boardsize 13"), "= \n\n");
  ASSERT_EQ(ok("komi 0"), "= \n\n");
  ASSERT_EQ(ok("loadsgf " + path), "= \n\n");
  EXPECT_EQ(other.state().moves_played(), 12);
  EXPECT_EQ(other.state().rules().komi, 6.5);
  EXPECT_EQ(other.state().game().handicap(), 2);
  EXPECT_EQ(ok("showboard"), absl::StrCat("= ", board, "\n\n"));
  EXPECT_EQ(ok("printsgf"), absl::StrCat("= ", sgf, "\n\n"));
  // Undo works into the loaded game, down to the handicap.
  for (int i = 0; i < 12; ++i) ASSERT_EQ(ok("undo"), "= \n\n") << i;
  EXPECT_EQ(ok("undo"), "? cannot undo\n\n");

  // A move number: the position before that move.
  ASSERT_EQ(ok("loadsgf " + path + " 5"), "= \n\n");
  EXPECT_EQ(other.state().moves_played(), 4);
  ASSERT_EQ(ok("loadsgf " + path + " 1"), "= \n\n");
  EXPECT_EQ(other.state().moves_played(), 0);
  EXPECT_EQ(other.state().game().board().stones(rules::Color::kBlack), 2);

  // Files that cannot be loaded leave the game alone.
  EXPECT_EQ(ok("loadsgf " + dir->Sub("missing.sgf")).substr(0, 18),
            "? cannot load file");
  const std::string bad = dir->Sub("bad.sgf");
  std::ofstream(bad) << "(;GM[1]SZ[9];B[ee];W[ee])";
  EXPECT_EQ(ok("loadsgf " + bad),
            "? cannot load file: event 2: illegal move: occupied\n\n");
  const std::string rect = dir->Sub("rect.sgf");
  std::ofstream(rect) << "(;GM[1]SZ[9:7];B[ee])";
  EXPECT_EQ(ok("loadsgf " + rect).substr(0, 18), "? cannot load file");
  EXPECT_EQ(other.state().game().board().stones(rules::Color::kBlack), 2);
  EXPECT_EQ(ok("loadsgf"), "? syntax error\n\n");
}

TEST_F(GtpEngineTest, TimeCommands) {
  EXPECT_EQ(Err("time_settings 10 5"), "syntax error");
  EXPECT_EQ(Err("time_settings -1 5 5"), "syntax error");
  EXPECT_EQ(Ok("time_settings 600 30 10"), "");
  EXPECT_EQ(engine_.clock().system(), TimeSystem::kCanadian);
  EXPECT_EQ(Ok("time_left b 120 0"), "");
  EXPECT_EQ(engine_.clock().seconds_left(rules::Color::kBlack), 120);
  EXPECT_FALSE(engine_.clock().in_byoyomi(rules::Color::kBlack));
  EXPECT_EQ(Ok("time_left white 25 4"), "");
  EXPECT_TRUE(engine_.clock().in_byoyomi(rules::Color::kWhite));
  EXPECT_EQ(Err("time_left w x 1"), "syntax error");
  EXPECT_EQ(Err("time_left green 1 1"), "invalid color");
  EXPECT_EQ(Ok("kgs-time_settings none"), "");
  EXPECT_EQ(engine_.clock().system(), TimeSystem::kNone);
  EXPECT_EQ(Ok("kgs-time_settings absolute 300"), "");
  EXPECT_EQ(engine_.clock().system(), TimeSystem::kAbsolute);
  EXPECT_EQ(Ok("kgs-time_settings byoyomi 300 30 5"), "");
  EXPECT_EQ(engine_.clock().system(), TimeSystem::kJapanese);
  EXPECT_EQ(Ok("kgs-time_settings canadian 300 60 25"), "");
  EXPECT_EQ(engine_.clock().system(), TimeSystem::kCanadian);
  EXPECT_EQ(Err("kgs-time_settings byoyomi 300"), "syntax error");
  EXPECT_EQ(Err("kgs-time_settings sudden"), "syntax error");
  // A genmove under a clock charges the clock.
  EXPECT_EQ(Ok("time_settings 60 0 0"), "");
  ASSERT_NE(Ok("genmove b").substr(0, 6), "FAILED");
  EXPECT_LT(engine_.clock().seconds_left(rules::Color::kBlack), 60);
  EXPECT_EQ(engine_.clock().seconds_left(rules::Color::kWhite), 60);
}

}  // namespace
}  // namespace qipu::gtp
