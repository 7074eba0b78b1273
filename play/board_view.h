// The terminal board as plain text: the board with its coordinates, the
// status panel beside it (players, clocks, captures, move number, last
// move, cursor, the count), the message line and the key help below --
// everything the screen shows but attributes, so that the drawing is
// tested without a terminal. play/tui.h puts these lines on the screen and
// highlights the cursor.
//
// The board: 'X' Black, 'O' White, '.' empty, '+' star points; the last
// move between parentheses "(X)", the cursor between brackets "[.]".
// While counting and after the count: 'x' and 'o' dead stones, 'b' and
// 'w' the empty points each side gets (dame stay '.').
#ifndef QIPU_PLAY_BOARD_VIEW_H_
#define QIPU_PLAY_BOARD_VIEW_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "play/board_session.h"

namespace qipu::play {

// What to draw.
struct Screen {
  // The lines, top to bottom (UTF-8, or ASCII when asked).
  std::vector<std::string> lines;
  // The cursor's place: line and column (bytes = columns: the board part
  // of a line is ASCII) of its first character, and how many columns it
  // covers (the point, or the [done] button).
  int cursor_line = 0;
  int cursor_column = 0;
  int cursor_width = 1;
};

// How the screen looks.
struct ViewOptions {
  // Columns available: the message is wrapped to fit.
  int width = 100;
  // Lines available (0: no limit). A short window loses the title line
  // first, then the blank lines, then the key help (19x19 fits 80x24).
  int height = 0;
  // A computer is choosing its move ("thinking…" in the panel).
  bool thinking = false;
  // The terminal takes UTF-8; else "…", "¾" and friends become ASCII.
  bool utf8 = true;
};

// The screen of `session` at `now`.
Screen RenderScreen(const BoardSession& session, absl::Time now,
                    const ViewOptions& options);

// `text` with the non-ASCII characters the view uses in ASCII: "…" as
// "...", "¼" "½" "¾" as " 1/4" ... (no space after a digit: "3 3/4"),
// "—" as "-".
std::string AsciiFallback(absl::string_view text);

// The first `columns` columns of UTF-8 `line` (each character one column,
// as every character the view draws is), never cutting a character.
std::string ClipColumns(absl::string_view line, int columns);

// Column letters of a board: GTP's, A-Z without I.
char ColumnLetter(int x);

}  // namespace qipu::play

#endif  // QIPU_PLAY_BOARD_VIEW_H_
