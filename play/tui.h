// The terminal board: BoardSession (play/board_session.h) on a full
// ncurses screen. Draws play/board_view.h's text, highlights the cursor,
// turns the terminal's keys into keymap.h's codes, ticks the clocks, and
// lets a computer player think on a thread of its own while the screen
// keeps drawing (the clocks run, the cursor moves, q quits after its
// move). Everything else -- rules, counting, messages -- is the session's.
#ifndef QIPU_PLAY_TUI_H_
#define QIPU_PLAY_TUI_H_

#include "absl/status/status.h"
#include "play/board_session.h"

namespace qipu::play {

// Runs `session` on the terminal of stdin/stdout until the player quits
// (or SIGINT/SIGTERM arrive), then restores the terminal. While it runs
// stderr goes to /dev/null when it is the terminal (log lines would tear
// the screen). Call before the process starts threads of its own: it
// blocks SIGINT and SIGTERM. FailedPrecondition when stdin or stdout is
// no terminal, or ncurses cannot set it up (unknown TERM).
absl::Status RunTui(BoardSession& session);

}  // namespace qipu::play

#endif  // QIPU_PLAY_TUI_H_
