// The board as text: coordinates, stones, the last move and the cursor
// marks, the status panel, counting marks, the message line, and the ASCII
// fallback of terminals without UTF-8.
#include "play/board_view.h"

#include <memory>
#include <string>

#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rules/coord.h"

namespace qipu::play {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

const absl::Time kViewT0 = absl::FromUnixSeconds(1700000000);

std::unique_ptr<BoardSession> NewViewSession(const SessionOptions& o) {
  auto s = BoardSession::Create(o, kViewT0);
  EXPECT_TRUE(s.ok()) << s.status();
  return std::move(*s);
}

void Play(BoardSession& s, std::initializer_list<const char*> moves) {
  for (const char* m : moves) {
    auto p = rules::ParseGtpPoint(m, s.options().size, s.options().size);
    ASSERT_TRUE(p.ok());
    ASSERT_TRUE(s.PlayHuman(*p, kViewT0)) << m << ": " << s.message();
  }
}

TEST(BoardView, ColumnLettersSkipI) {
  EXPECT_EQ(ColumnLetter(0), 'A');
  EXPECT_EQ(ColumnLetter(7), 'H');
  EXPECT_EQ(ColumnLetter(8), 'J');
  EXPECT_EQ(ColumnLetter(18), 'T');
}

TEST(BoardView, BoardWithCoordinatesStarPointsCursorAndLastMove) {
  SessionOptions o;
  o.size = 9;
  auto s = NewViewSession(o);
  Play(*s, {"C3", "D4"});
  const Screen screen = RenderScreen(*s, kViewT0, {});
  ASSERT_GE(screen.lines.size(), 13u);
  EXPECT_THAT(screen.lines[0], StartsWith(" qipu play  9x9"));
  EXPECT_EQ(screen.lines[2], "     A B C D E F G H J");
  // Rows from 9 at the top; the cursor (E5) in brackets, the last move
  // (D4) in parentheses; star points '+'.
  EXPECT_THAT(screen.lines[3], StartsWith("  9  . . . . . . . . .  9"));
  EXPECT_THAT(screen.lines[5], StartsWith("  7  . . + . . . + . .  7"));
  EXPECT_THAT(screen.lines[7], StartsWith("  5  . . . .[+]. . . .  5"));
  EXPECT_THAT(screen.lines[8], StartsWith("  4  . . .(O). . . . .  4"));
  EXPECT_THAT(screen.lines[9], StartsWith("  3  . . X . . . + . .  3"));
  EXPECT_THAT(screen.lines[12], StartsWith("     A B C D E F G H J"));
  EXPECT_EQ(screen.cursor_line, 7);
  EXPECT_EQ(screen.cursor_column, 13);
  EXPECT_EQ(screen.lines[7][screen.cursor_column], '+');
  const std::string all = absl::StrJoin(screen.lines, "\n");
  EXPECT_THAT(all, HasSubstr("> Black X  human"));
  EXPECT_THAT(all, HasSubstr("    time untimed\n"));
  EXPECT_THAT(all, HasSubstr("    captures 0\n"));
  EXPECT_THAT(all, HasSubstr("Move 3, Black to play"));
  EXPECT_THAT(all, HasSubstr("Last move: W D4"));
  EXPECT_THAT(all, HasSubstr("Cursor: E5"));
  EXPECT_THAT(all, HasSubstr("chinese rules, komi 7.5"));
  EXPECT_THAT(all, HasSubstr(" White D4. Black to play."));
  EXPECT_THAT(all, HasSubstr("p pass,"));
}

TEST(BoardView, ThinkingAndClocksShowInThePanel) {
  SessionOptions o;
  o.size = 9;
  o.time = {gtp::TimeSystem::kJapanese, 300, 30, 3};
  auto s = NewViewSession(o);
  ViewOptions v;
  v.thinking = true;
  const std::string all = absl::StrJoin(
      RenderScreen(*s, kViewT0 + absl::Seconds(61), v).lines, "\n");
  EXPECT_THAT(all, HasSubstr("time 3:59 +3x0:30"));
  EXPECT_THAT(all, HasSubstr("time 5:00 +3x0:30"));
  EXPECT_THAT(all, HasSubstr("Move 1, Black to play  thinking…"));
}

TEST(BoardView, CountingShowsDeadStonesTerritoryDoneAndTheCount) {
  SessionOptions o;
  o.size = 5;
  auto s = NewViewSession(o);
  Play(*s, {"D1", "E1", "D2", "E2", "D3", "E3", "D4", "E4", "D5", "B3", "pass",
            "pass"});
  ASSERT_EQ(s->phase(), Phase::kCounting);
  auto b3 = rules::ParseGtpPoint("B3", 5, 5);
  // qipu's judgement marked B3 and E1-E4 (in atari at E5) dead; the
  // people keep B3 only.
  EXPECT_TRUE(s->dead(*b3));
  EXPECT_TRUE(s->dead(*rules::ParseGtpPoint("E2", 5, 5)));
  s->ClearDeadMarks();
  ASSERT_TRUE(s->ToggleDead(*b3));
  Screen screen = RenderScreen(*s, kViewT0, {});
  // B3 dead ('o'), A-C Black's ('b'), E5 dame.
  EXPECT_THAT(screen.lines[3], StartsWith("  5  b b b X .  5"));
  EXPECT_THAT(screen.lines[5], StartsWith("  3  b o[b]X O  3"));
  EXPECT_THAT(screen.lines[9], StartsWith("     [done]"));
  std::string all = absl::StrJoin(screen.lines, "\n");
  EXPECT_THAT(all, HasSubstr("Count: stones + territory"));
  EXPECT_THAT(all, HasSubstr("  Black 20.5 = 5 + 15\n"));
  EXPECT_THAT(all, HasSubstr("  White 4.5 = 4 + 0\n"));
  EXPECT_THAT(all, HasSubstr("  dame 1, half each"));
  EXPECT_THAT(all, HasSubstr("Count now: B+8.5"));
  EXPECT_THAT(all, HasSubstr("Enter marks a chain dead/alive"));
  s->FinishCounting(kViewT0);
  all = absl::StrJoin(RenderScreen(*s, kViewT0, {}).lines, "\n");
  EXPECT_THAT(all, HasSubstr("Result: B+8.5"));
  EXPECT_THAT(all, HasSubstr("Black wins by 4¼ stones"));
  ViewOptions ascii;
  ascii.utf8 = false;
  all = absl::StrJoin(RenderScreen(*s, kViewT0, ascii).lines, "\n");
  EXPECT_THAT(all, HasSubstr("Black wins by 4 1/4 stones"));
}

TEST(BoardView, LongMessagesWrap) {
  SessionOptions o;
  o.size = 9;
  auto s = NewViewSession(o);
  s->HandleKey('q', kViewT0);
  ViewOptions v;
  v.width = 40;
  const Screen screen = RenderScreen(*s, kViewT0, v);
  for (const std::string& line : screen.lines) {
    if (line.find("Quit?") != std::string::npos) {
      EXPECT_LE(line.size(), 40u);
    }
  }
  EXPECT_THAT(absl::StrJoin(screen.lines, "\n"), HasSubstr("Quit?"));
}

TEST(BoardView, A19x19BoardFitsAn80x24Terminal) {
  SessionOptions o;
  o.size = 19;
  auto s = NewViewSession(o);
  Play(*s, {"Q16"});
  ViewOptions v;
  v.width = 80;
  v.height = 24;
  Screen screen = RenderScreen(*s, kViewT0, v);
  // Title and blank lines go; board, message and help stay.
  ASSERT_EQ(screen.lines.size(), 24u);
  EXPECT_THAT(screen.lines[0], StartsWith("     A B C D E F G H J K L M N O"));
  EXPECT_THAT(screen.lines[1], StartsWith(" 19  . . . ."));
  EXPECT_EQ(screen.cursor_line, 1 + 9);
  EXPECT_EQ(screen.lines[screen.cursor_line].substr(22, 3), "[+]");
  EXPECT_EQ(screen.lines[21], " Black Q16. White to play.");
  EXPECT_THAT(screen.lines[22], StartsWith(" Keys:"));
  // Shorter still: the help goes too.
  v.height = 22;
  screen = RenderScreen(*s, kViewT0, v);
  ASSERT_EQ(screen.lines.size(), 22u);
  EXPECT_EQ(screen.lines.back(), " Black Q16. White to play.");
}

TEST(BoardView, ClipColumnsCutsWholeCharacters) {
  EXPECT_EQ(ClipColumns("abcdef", 3), "abc");
  EXPECT_EQ(ClipColumns("ab", 3), "ab");
  EXPECT_EQ(ClipColumns("by 4¼ stones", 5), "by 4¼");
  EXPECT_EQ(ClipColumns("by 4¼ stones", 4), "by 4");
  EXPECT_EQ(ClipColumns("x", 0), "");
}

TEST(BoardView, AsciiFallback) {
  EXPECT_EQ(AsciiFallback("Black wins by 3¾ stones"),
            "Black wins by 3 3/4 stones");
  EXPECT_EQ(AsciiFallback("White wins by ¼ stone"), "White wins by 1/4 stone");
  EXPECT_EQ(AsciiFallback("thinking… — ½"), "thinking... - 1/2");
  EXPECT_EQ(AsciiFallback("棋谱"), "??");
}

}  // namespace
}  // namespace qipu::play
