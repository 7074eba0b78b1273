// BoardSession, the terminal board without the terminal: keys and the
// cursor, moves refused with the rules' reason, takebacks, resigning and
// quitting (asked twice), two passes into the marking of dead stones and
// the count under the Chinese rules (points and stones), time losses,
// SGF saving, and computer players -- qipu policies and a GTP engine that
// plays an illegal move.
#include "play/board_session.h"

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rules/coord.h"
#include "rules/sgf_reader.h"
#include "tests/gtp/process_util.h"

namespace qipu::play {
namespace {

using rules::Color;
using rules::Point;
using ::testing::HasSubstr;
using ::testing::StartsWith;

const absl::Time kSessionT0 = absl::FromUnixSeconds(1700000000);

std::unique_ptr<BoardSession> NewSession(const SessionOptions& options) {
  absl::StatusOr<std::unique_ptr<BoardSession>> s =
      BoardSession::Create(options, kSessionT0);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? std::move(*s) : nullptr;
}

std::unique_ptr<BoardSession> NewSession(int size) {
  SessionOptions o;
  o.size = size;
  return NewSession(o);
}

Point At(const BoardSession& s, const std::string& gtp) {
  absl::StatusOr<Point> p =
      rules::ParseGtpPoint(gtp, s.options().size, s.options().size);
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *p : rules::kPass;
}

// Moves the cursor onto `gtp` with the vim keys, as a person would.
void CursorTo(BoardSession& s, const std::string& gtp) {
  const Point p = At(s, gtp);
  while (s.cursor_x() < rules::PointX(p)) s.HandleKey('l', kSessionT0);
  while (s.cursor_x() > rules::PointX(p)) s.HandleKey('h', kSessionT0);
  while (s.cursor_y() < rules::PointY(p)) s.HandleKey('j', kSessionT0);
  while (s.cursor_y() > rules::PointY(p)) s.HandleKey('k', kSessionT0);
  ASSERT_EQ(s.cursor(), p);
}

// Plays each move ("D4", "pass") with the cursor and Enter, or `p`.
void PlayKeys(BoardSession& s, std::initializer_list<const char*> moves) {
  for (const char* m : moves) {
    const int before = s.game().num_moves();
    if (std::string(m) == "pass") {
      s.HandleKey('p', kSessionT0);
    } else {
      CursorTo(s, m);
      s.HandleKey(kKeyEnter, kSessionT0);
    }
    ASSERT_EQ(s.game().num_moves(), before + 1) << m << ": " << s.message();
  }
}

// The 5x5 game of the counting tests: a black wall on the D line, White
// on E1-E4 (E5 is dame), and White stones at B3 (and B2) inside Black's
// area; then two passes.
//     A B C D E
//   5 . . . X .
//   4 . . . X O
//   3 . O . X O
//   2 . O . X O
//   1 . . . X O
void PlayWallGame(BoardSession& s) {
  PlayKeys(s, {"D1", "E1", "D2", "E2", "D3", "E3", "D4", "E4", "D5", "B3",
               "pass", "B2", "pass", "pass"});
}

TEST(BoardSession, CursorStartsAtTheCentreAndMovesWithArrowsAndVimKeys) {
  auto s = NewSession(9);
  EXPECT_EQ(rules::GtpPoint(s->cursor(), 9), "E5");
  s->HandleKey('h', kSessionT0);
  EXPECT_EQ(rules::GtpPoint(s->cursor(), 9), "D5");
  s->HandleKey(kKeyUp, kSessionT0);
  EXPECT_EQ(rules::GtpPoint(s->cursor(), 9), "D6");
  s->HandleKey('j', kSessionT0);
  s->HandleKey('j', kSessionT0);
  EXPECT_EQ(rules::GtpPoint(s->cursor(), 9), "D4");
  s->HandleKey(kKeyRight, kSessionT0);
  s->HandleKey('l', kSessionT0);
  EXPECT_EQ(rules::GtpPoint(s->cursor(), 9), "F4");
  s->HandleKey(kKeyLeft, kSessionT0);
  s->HandleKey(kKeyDown, kSessionT0);
  EXPECT_EQ(rules::GtpPoint(s->cursor(), 9), "E3");
  // The edges hold the cursor.
  for (int i = 0; i < 12; ++i) s->HandleKey('h', kSessionT0);
  for (int i = 0; i < 12; ++i) s->HandleKey('k', kSessionT0);
  EXPECT_EQ(rules::GtpPoint(s->cursor(), 9), "A9");
  // Keys without an action change nothing.
  s->HandleKey('z', kSessionT0);
  EXPECT_EQ(s->game().num_moves(), 0);
}

TEST(BoardSession, EnterAndSpacePlayAtTheCursorAndPPasses) {
  auto s = NewSession(9);
  s->HandleKey('\r', kSessionT0);
  EXPECT_EQ(s->game().board().at(At(*s, "E5")), Color::kBlack);
  EXPECT_EQ(s->message(), "Black E5. White to play.");
  EXPECT_EQ(s->last_move(), At(*s, "E5"));
  s->HandleKey('l', kSessionT0);
  s->HandleKey(' ', kSessionT0);
  EXPECT_EQ(s->game().board().at(At(*s, "F5")), Color::kWhite);
  s->HandleKey('p', kSessionT0);
  EXPECT_EQ(s->last_move(), rules::kPass);
  EXPECT_EQ(s->message(),
            "Black passes. White to play; another pass ends the game.");
  EXPECT_EQ(s->game().to_play(), Color::kWhite);
  EXPECT_EQ(s->phase(), Phase::kPlaying);
}

TEST(BoardSession, OccupiedPointIsRefusedWithTheReason) {
  auto s = NewSession(9);
  s->HandleKey(kKeyEnter, kSessionT0);
  s->HandleKey('\n', kSessionT0);
  EXPECT_EQ(s->message(),
            "Illegal move E5: occupied (a stone is already there).");
  EXPECT_EQ(s->game().num_moves(), 1);
  EXPECT_EQ(s->game().to_play(), Color::kWhite);
}

TEST(BoardSession, SuicideIsRefusedWithTheReason) {
  auto s = NewSession(5);
  PlayKeys(*s, {"A2", "E5", "B1"});
  CursorTo(*s, "A1");
  s->HandleKey(kKeyEnter, kSessionT0);
  EXPECT_EQ(s->message(),
            "Illegal move A1: suicide (the stone would have no liberty and "
            "captures nothing).");
  EXPECT_EQ(s->game().num_moves(), 3);
}

TEST(BoardSession, KoRetakeIsRefusedWithTheReason) {
  auto s = NewSession(5);
  PlayKeys(*s, {"C4", "D4", "B3", "E3", "C2", "D2", "A5", "C3", "D3"});
  EXPECT_EQ(s->game().captures(Color::kBlack), 1);
  EXPECT_THAT(s->message(), StartsWith("Black D3 captures 1 stone."));
  CursorTo(*s, "C3");
  s->HandleKey(kKeyEnter, kSessionT0);
  EXPECT_EQ(s->message(),
            "Illegal move C3: ko (the ko may not be retaken at once; play "
            "elsewhere first).");
  // After a move elsewhere the ko may be taken back.
  PlayKeys(*s, {"A1", "A4", "C3"});
  EXPECT_EQ(s->game().captures(Color::kWhite), 1);
}

TEST(BoardSession, RepetitionsAreRefusedWithTheRulesVerdicts) {
  // Positional superko (chinese-superko): D3 would bring back the board
  // after move 6 -- no simple ko retake, passes in between.
  SessionOptions o;
  o.size = 4;
  o.rules = *rules::PresetRules("chinese-superko");
  auto s = NewSession(o);
  PlayKeys(*s, {"C3", "C1", "pass", "C2", "D4", "D3", "pass", "A1", "D1",
                "pass", "D2"});
  CursorTo(*s, "D3");
  s->HandleKey(kKeyEnter, kSessionT0);
  EXPECT_EQ(s->message(),
            "Illegal move D3: superko (it repeats an earlier whole-board "
            "position).");
  EXPECT_EQ(s->game().num_moves(), 11);

  // The chinese preset: D2 would complete an unbalanced cycle (art. 20).
  o.rules = rules::Rules{};
  auto t = NewSession(o);
  PlayKeys(*t, {"B2", "C3", "D3", "D2", "C1", "D4", "C2", "D1", "D3"});
  CursorTo(*t, "D2");
  t->HandleKey(kKeyEnter, kSessionT0);
  EXPECT_EQ(t->message(),
            "Illegal move D2: cycle (it repeats an earlier position through "
            "an unbalanced cycle).");
  EXPECT_EQ(t->game().num_moves(), 9);
}

TEST(BoardSession, TakeBackRestoresThePositionAndItsCaptures) {
  auto s = NewSession(5);
  PlayKeys(*s, {"C4", "D4", "B3", "E3", "C2", "D2", "A5", "C3", "D3"});
  ASSERT_EQ(s->game().captures(Color::kBlack), 1);
  s->HandleKey('u', kSessionT0);
  EXPECT_EQ(s->message(), "Took back Black D3. Black to play.");
  EXPECT_EQ(s->game().captures(Color::kBlack), 0);
  EXPECT_EQ(s->game().board().at(At(*s, "C3")), Color::kWhite);
  EXPECT_EQ(s->game().board().at(At(*s, "D3")), Color::kEmpty);
  EXPECT_EQ(s->game().to_play(), Color::kBlack);
  EXPECT_EQ(s->last_move(), At(*s, "C3"));
  // Taking back to the empty board, then once more: nothing left.
  for (int i = 0; i < 8; ++i) s->HandleKey('u', kSessionT0);
  EXPECT_EQ(s->game().num_moves(), 0);
  s->HandleKey('u', kSessionT0);
  EXPECT_EQ(s->message(), "Nothing to take back.");
}

TEST(BoardSession, TakeBackAfterTwoPassesResumesTheGame) {
  auto s = NewSession(5);
  PlayKeys(*s, {"C3", "pass", "pass"});
  ASSERT_EQ(s->phase(), Phase::kCounting);
  s->HandleKey('u', kSessionT0);
  EXPECT_EQ(s->phase(), Phase::kPlaying);
  EXPECT_FALSE(s->game().over());
  EXPECT_EQ(s->game().to_play(), Color::kBlack);
  PlayKeys(*s, {"D3"});
}

TEST(BoardSession, CountingMarksWholeChainsDeadAndCountsChineseArea) {
  auto s = NewSession(5);
  PlayWallGame(*s);
  ASSERT_EQ(s->phase(), Phase::kCounting);
  // qipu's judgement marks every white stone dead: B2-B3 inside Black's
  // area, E1-E4 in atari at E5.
  for (const char* v : {"B2", "B3", "E1", "E2", "E3", "E4"}) {
    EXPECT_TRUE(s->dead(At(*s, v))) << v;
  }
  EXPECT_FALSE(s->dead(At(*s, "D3")));
  EXPECT_EQ(rules::ResultToSgf(s->CountedResult()), "B+17.5");
  EXPECT_THAT(s->message(), HasSubstr("judged dead"));
  // The people change them: all alive again.
  s->ClearDeadMarks();
  // All stones alive: B2-B3 spoil Black's area, all of A-C is dame.
  EXPECT_EQ(rules::ResultToSgf(s->CountedResult()), "W+8.5");
  // Enter on B3 marks the chain B2-B3 dead.
  CursorTo(*s, "B3");
  s->HandleKey(kKeyEnter, kSessionT0);
  EXPECT_TRUE(s->dead(At(*s, "B3")));
  EXPECT_TRUE(s->dead(At(*s, "B2")));
  EXPECT_FALSE(s->dead(At(*s, "E2")));
  EXPECT_EQ(s->message(),
            "The white chain at B3 (2 stones) is dead. Count now: B+8.5.");
  const rules::AreaCount a = s->Count();
  EXPECT_EQ(a.black_stones, 5);
  EXPECT_EQ(a.black_territory, 15);
  EXPECT_EQ(a.white_stones, 4);
  EXPECT_EQ(a.white_territory, 0);
  EXPECT_EQ(a.dame, 1);
  EXPECT_EQ(a.black, 20.5);
  EXPECT_EQ(a.white, 4.5);
  // Enter again brings it back to life; once more dead.
  s->HandleKey(' ', kSessionT0);
  EXPECT_FALSE(s->dead(At(*s, "B2")));
  s->HandleKey(' ', kSessionT0);
  // Enter on an empty point marks nothing.
  CursorTo(*s, "A1");
  s->HandleKey(kKeyEnter, kSessionT0);
  EXPECT_THAT(s->message(), StartsWith("No stone at A1"));
  // d counts: 20.5 - 4.5 - 7.5 = 8.5 points, 4¼ stones.
  s->HandleKey('d', kSessionT0);
  EXPECT_EQ(s->phase(), Phase::kOver);
  EXPECT_EQ(s->result(), (rules::GameResult{rules::Winner::kBlack,
                                            rules::EndReason::kScore, 8.5}));
  EXPECT_EQ(s->ResultText(), "B+8.5 (Black wins by 4¼ stones)");
  EXPECT_EQ(s->message(),
            "Counted: Black 20.5, White 4.5, komi 7.5. B+8.5 (Black wins by "
            "4¼ stones)");
  // Over: keys that would change the game are refused.
  s->HandleKey(kKeyEnter, kSessionT0);
  s->HandleKey('u', kSessionT0);
  EXPECT_EQ(s->message(), "The game is over: nothing to take back.");
  EXPECT_EQ(s->result().margin, 8.5);
}

TEST(BoardSession, DoneBelowTheBoardFinishesTheCount) {
  auto s = NewSession(5);
  PlayWallGame(*s);
  s->ClearDeadMarks();
  CursorTo(*s, "C1");
  s->HandleKey('j', kSessionT0);
  EXPECT_TRUE(s->cursor_on_done());
  s->HandleKey('l', kSessionT0);
  EXPECT_TRUE(s->cursor_on_done());
  s->HandleKey('k', kSessionT0);
  EXPECT_FALSE(s->cursor_on_done());
  s->HandleKey('j', kSessionT0);
  s->HandleKey(kKeyEnter, kSessionT0);
  EXPECT_EQ(s->phase(), Phase::kOver);
  // Nothing marked: Black 5 + 7 (half of 14 dame), White 6 + 7, komi.
  EXPECT_EQ(s->ResultText(), "W+8.5 (White wins by 4¼ stones)");
}

TEST(BoardSession, KomiAndHandicapEnterTheCount) {
  SessionOptions o;
  o.size = 9;
  o.rules.komi = 0;
  o.handicap = 2;
  auto s = NewSession(o);
  EXPECT_EQ(s->game().to_play(), Color::kWhite);
  PlayKeys(*s, {"pass", "pass"});
  // 2 black stones own the board (81), White gets 2 points back.
  s->HandleKey('d', kSessionT0);
  EXPECT_EQ(s->ResultText(), "B+79 (Black wins by 39½ stones)");
  EXPECT_EQ(s->ToRecord().handicap, 2);
}

TEST(BoardSession, ResignAndQuitAskTwice) {
  auto s = NewSession(9);
  s->HandleKey('r', kSessionT0);
  EXPECT_THAT(s->message(), StartsWith("Resign?"));
  s->HandleKey('x', kSessionT0);
  EXPECT_EQ(s->message(), "Cancelled.");
  EXPECT_EQ(s->phase(), Phase::kPlaying);
  s->HandleKey('q', kSessionT0);
  s->HandleKey(kKeyEnter, kSessionT0);
  EXPECT_FALSE(s->quit());
  EXPECT_EQ(s->game().num_moves(), 0);  // the Enter only cancelled
  s->HandleKey('r', kSessionT0);
  s->HandleKey('r', kSessionT0);
  EXPECT_EQ(s->phase(), Phase::kOver);
  EXPECT_EQ(s->ResultText(), "W+R (White wins by resignation)");
  EXPECT_EQ(s->message(),
            "Black (human) resigns. W+R (White wins by resignation)");
  // Over: q quits at once.
  s->HandleKey('q', kSessionT0);
  EXPECT_TRUE(s->quit());
}

TEST(BoardSession, CtrlCQuitsAtOnce) {
  auto s = NewSession(9);
  s->HandleKey(kKeyInterrupt, kSessionT0);
  EXPECT_TRUE(s->quit());
}

TEST(BoardSession, RunningOutOfTimeLoses) {
  SessionOptions o;
  o.size = 9;
  o.time = {gtp::TimeSystem::kAbsolute, 10};
  auto s = NewSession(o);
  ASSERT_TRUE(s->PlayHuman(At(*s, "E5"), kSessionT0 + absl::Seconds(4)));
  // White's clock started at 4 s.
  s->Tick(kSessionT0 + absl::Seconds(13));
  EXPECT_EQ(s->phase(), Phase::kPlaying);
  EXPECT_EQ(s->DescribeClock(Color::kWhite, kSessionT0 + absl::Seconds(13)),
            "0:01");
  EXPECT_EQ(s->DescribeClock(Color::kBlack, kSessionT0 + absl::Seconds(13)),
            "0:06");
  s->Tick(kSessionT0 + absl::Seconds(15));
  EXPECT_EQ(s->phase(), Phase::kOver);
  EXPECT_EQ(s->ResultText(), "B+T (Black wins on time)");
  EXPECT_THAT(s->message(), StartsWith("White (human) ran out of time."));
  // A move after the flag fell is refused.
  EXPECT_FALSE(s->PlayHuman(At(*s, "D4"), kSessionT0 + absl::Seconds(15)));
}

// The seed's byo-yomi at the board (gtp/clock.h): a move that reaches the
// period's length uses the period; the last one run out loses, or under
// art. 22.5's pass is a pass and play goes on.
TEST(BoardSession, ByoYomiAtTheBoardFollowsTheSeed) {
  SessionOptions o;
  o.size = 9;
  o.time = {gtp::TimeSystem::kJapanese, 0, 10, 2};
  auto s = NewSession(o);
  const absl::Time t0 = kSessionT0;
  // 9.999 s: free.
  ASSERT_TRUE(s->PlayHuman(At(*s, "E5"), t0 + absl::Milliseconds(9999)));
  EXPECT_EQ(s->DescribeClock(Color::kBlack, t0 + absl::Seconds(10)),
            "BY 0:10 (2)");
  ASSERT_TRUE(s->PlayHuman(At(*s, "D4"), t0 + absl::Seconds(10)));
  // Exactly 10 s: the period is used.
  ASSERT_TRUE(s->PlayHuman(At(*s, "E4"), t0 + absl::Seconds(20)));
  EXPECT_EQ(s->clock().player(Color::kBlack).stones, 1);
  EXPECT_EQ(s->DescribeClock(Color::kBlack, t0 + absl::Seconds(20)),
            "BY 0:10 (1)");
  ASSERT_TRUE(s->PlayHuman(At(*s, "D5"), t0 + absl::Seconds(20)));
  // The last period reached while the board waits: Black loses.
  s->Tick(t0 + absl::Seconds(30) - absl::Milliseconds(1));
  EXPECT_EQ(s->phase(), Phase::kPlaying);
  s->Tick(t0 + absl::Seconds(30));
  EXPECT_EQ(s->phase(), Phase::kOver);
  EXPECT_EQ(rules::ResultToSgf(s->result()), "W+T");

  o.time.last_period = gtp::LastPeriod::kPass;
  auto p = NewSession(o);
  ASSERT_TRUE(p->PlayHuman(At(*p, "E5"), t0 + absl::Seconds(10)));
  ASSERT_TRUE(p->PlayHuman(At(*p, "D4"), t0 + absl::Seconds(10)));
  p->Tick(t0 + absl::Seconds(20));
  // A pass (art. 22.5); White to play, Black keeps its last period.
  EXPECT_EQ(p->phase(), Phase::kPlaying);
  EXPECT_EQ(p->last_move(), rules::kPass);
  EXPECT_EQ(p->game().to_play(), Color::kWhite);
  EXPECT_THAT(p->message(), HasSubstr("art. 22.5"));
  EXPECT_EQ(p->clock().player(Color::kBlack).stones, 1);
  EXPECT_FALSE(p->clock().player(Color::kBlack).flagged);
}

TEST(BoardSession, SaveWritesAnSgfThatReadsBack) {
  auto dir = base::TempDir::Create("play-sgf");
  ASSERT_TRUE(dir.ok()) << dir.status();
  SessionOptions o;
  o.size = 5;
  o.sgf_path = dir->Sub("game.sgf");
  auto s = NewSession(o);
  PlayWallGame(*s);
  s->ClearDeadMarks();
  CursorTo(*s, "B2");
  s->HandleKey(kKeyEnter, kSessionT0);
  s->HandleKey('d', kSessionT0);
  s->HandleKey('s', kSessionT0);
  EXPECT_EQ(s->message(), absl::StrCat("Saved the game to ", o.sgf_path, "."));
  absl::StatusOr<std::string> text = base::ReadFile(o.sgf_path);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_THAT(*text, HasSubstr("RU[chinese]"));
  EXPECT_THAT(*text, HasSubstr("AP[qipu:"));
  EXPECT_THAT(*text, HasSubstr("DT["));
  const rules::SgfCollection sgf = rules::ReadSgf(*text);
  EXPECT_TRUE(sgf.errors.empty());
  ASSERT_EQ(sgf.games.size(), 1u);
  const rules::GameRecord& g = sgf.games[0];
  EXPECT_EQ(g.width, 5);
  EXPECT_EQ(g.result.text, "B+8.5");
  EXPECT_EQ(g.komi, 7.5);
  EXPECT_EQ(g.moves, s->game().moves());
  EXPECT_EQ(g.black_player, "human");
  // A path that cannot be written says why.
  SessionOptions bad = o;
  bad.sgf_path = dir->Sub("no/such/dir/game.sgf");
  auto t = NewSession(bad);
  EXPECT_FALSE(t->SaveSgf().ok());
  EXPECT_THAT(t->message(), HasSubstr("cannot save"));
  EXPECT_THAT(t->message(), HasSubstr("No such file or directory"));
}

TEST(BoardSession, BadOptionsAreRefused) {
  SessionOptions o;
  o.size = 1;
  EXPECT_THAT(BoardSession::Create(o, kSessionT0).status().message(),
              HasSubstr("board size 1"));
  o = {};
  o.rules.komi = 0.3;
  EXPECT_THAT(BoardSession::Create(o, kSessionT0).status().message(),
              HasSubstr("komi"));
  o = {};
  o.size = 5;
  o.handicap = 9;
  EXPECT_THAT(BoardSession::Create(o, kSessionT0).status().message(),
              HasSubstr("handicap 9"));
  o = {};
  o.white = "no-such-policy";
  absl::Status s = BoardSession::Create(o, kSessionT0).status();
  EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
  EXPECT_THAT(s.message(), HasSubstr("white player 'no-such-policy'"));
  o = {};
  o.time = {gtp::TimeSystem::kJapanese, 0, 0, 2};
  EXPECT_THAT(BoardSession::Create(o, kSessionT0).status().message(),
              HasSubstr("clock"));
}

TEST(BoardSession, HumanAgainstAQipuPolicy) {
  SessionOptions o;
  o.size = 5;
  o.white = "random";
  o.seed = 7;
  auto s = NewSession(o);
  EXPECT_FALSE(s->ComputerToMove());
  PlayKeys(*s, {"C3"});
  ASSERT_TRUE(s->ComputerToMove());
  // A key for the board while the computer is to move is refused.
  s->HandleKey(kKeyEnter, kSessionT0);
  EXPECT_EQ(s->message(), "Wait: White (random) is to move.");
  s->ThinkAndPlay(kSessionT0);
  EXPECT_EQ(s->game().num_moves(), 2);
  EXPECT_EQ(s->game().moves()[1].color, Color::kWhite);
  EXPECT_FALSE(s->ComputerToMove());
  s->HandleKey('u', kSessionT0);
  EXPECT_EQ(s->message(),
            "Takeback is for free play only (human against human).");
  EXPECT_EQ(s->game().num_moves(), 2);
  // Resigning against a computer: the person resigns.
  s->HandleKey('r', kSessionT0);
  s->HandleKey('r', kSessionT0);
  EXPECT_EQ(s->ResultText(), "W+R (White wins by resignation)");
}

TEST(BoardSession, TwoPoliciesPlayToACountedEnd) {
  SessionOptions o;
  o.size = 5;
  o.black = "random";
  o.white = "random";
  o.seed = 11;
  auto s = NewSession(o);
  int moves = 0;
  while (s->ComputerToMove() && moves < 500) {
    s->ThinkAndPlay(kSessionT0);
    ++moves;
  }
  EXPECT_EQ(s->phase(), Phase::kOver);
  EXPECT_NE(s->result().reason, rules::EndReason::kNotOver);
  // Nobody to resign or take back.
  s->HandleKey('r', kSessionT0);
  EXPECT_EQ(s->message(), "The game is over: s saves it, q quits.");
}

TEST(BoardSession, AnEngineThatPlaysAnIllegalMoveForfeits) {
  auto dir = base::TempDir::Create("play-engine");
  ASSERT_TRUE(dir.ok()) << dir.status();
  const std::string engine = gtp::WriteScript(
      dir->path(), "a1.sh", gtp::ScriptEngine("printf '= A1\\n\\n'"));
  SessionOptions o;
  o.size = 5;
  o.white = absl::StrCat("gtp:", engine);
  auto s = NewSession(o);
  ASSERT_NE(s, nullptr);
  PlayKeys(*s, {"A1"});
  ASSERT_TRUE(s->ComputerToMove());
  s->ThinkAndPlay(kSessionT0);
  EXPECT_EQ(s->phase(), Phase::kOver);
  EXPECT_EQ(s->ResultText(), "B+Illegal (Black wins by an illegal move)");
  EXPECT_THAT(s->message(), HasSubstr("played the illegal move A1: occupied"));
}

TEST(BoardSession, AnEngineThatCannotStartIsAnError) {
  SessionOptions o;
  o.white = "gtp:/nonexistent/engine --mode gtp";
  absl::Status s = BoardSession::Create(o, kSessionT0).status();
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("white player"));
}

}  // namespace
}  // namespace qipu::play
