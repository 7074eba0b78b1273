#include "play/tui.h"

#include <curses.h>
#include <fcntl.h>
#include <langinfo.h>
#include <unistd.h>

#include <chrono>
#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <future>
#include <memory>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "base/signals.h"
#include "play/board_view.h"
#include "play/keymap.h"

namespace qipu::play {
namespace {

// How long getch() waits for a key: the clocks' refresh period.
constexpr int kKeyTimeoutMs = 100;

// The keymap.h code of an ncurses key.
int KeyCode(int ch) {
  switch (ch) {
    case KEY_UP:
      return kKeyUp;
    case KEY_DOWN:
      return kKeyDown;
    case KEY_LEFT:
      return kKeyLeft;
    case KEY_RIGHT:
      return kKeyRight;
    case KEY_ENTER:
      return kKeyEnter;
    default:
      return ch;
  }
}

void Draw(const BoardSession& session, bool thinking, bool utf8) {
  ViewOptions options;
  options.width = COLS;
  options.height = LINES;
  options.thinking = thinking;
  options.utf8 = utf8;
  const Screen screen = RenderScreen(session, absl::Now(), options);
  erase();
  // Lines clipped to the window (the bottom-right cell left alone: writing
  // it would scroll).
  for (int i = 0; i < static_cast<int>(screen.lines.size()) && i < LINES; ++i) {
    const int columns = i == LINES - 1 ? COLS - 1 : COLS;
    mvaddstr(i, 0, ClipColumns(screen.lines[i], columns).c_str());
  }
  if (screen.cursor_line < LINES && screen.cursor_column < COLS) {
    mvchgat(screen.cursor_line, screen.cursor_column, screen.cursor_width,
            A_REVERSE, 0, nullptr);
  }
  refresh();
}

// Sends stderr to /dev/null while it is the terminal; restores it when
// destroyed.
class QuietStderr {
 public:
  QuietStderr() {
    if (!isatty(STDERR_FILENO)) return;
    const int null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null_fd < 0) return;
    saved_ = dup(STDERR_FILENO);
    if (saved_ >= 0) dup2(null_fd, STDERR_FILENO);
    close(null_fd);
  }
  ~QuietStderr() {
    if (saved_ < 0) return;
    dup2(saved_, STDERR_FILENO);
    close(saved_);
  }
  QuietStderr(const QuietStderr&) = delete;
  QuietStderr& operator=(const QuietStderr&) = delete;

 private:
  int saved_ = -1;
};

}  // namespace

absl::Status RunTui(BoardSession& session) {
  if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
    return absl::FailedPreconditionError(
        "stdin and stdout must be a terminal (run it in a terminal, or in "
        "tmux)");
  }
  base::StopSignals signals;
  std::setlocale(LC_ALL, "");
  const bool utf8 = std::strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
  QuietStderr quiet;
  SCREEN* screen = newterm(nullptr, stdout, stdin);
  if (screen == nullptr) {
    const char* term = std::getenv("TERM");
    return absl::FailedPreconditionError(absl::StrCat(
        "cannot set up the terminal (TERM=", term == nullptr ? "" : term, ")"));
  }
  raw();
  noecho();
  keypad(stdscr, TRUE);
  curs_set(0);
  timeout(kKeyTimeoutMs);

  // The computer's move being chosen: what it works on, and when it was
  // done (written by its thread before the future is ready), owned here so
  // that they outlive the thread.
  struct Thinking {
    explicit Thinking(BoardSession::ThinkJob j) : job(std::move(j)) {}
    BoardSession::ThinkJob job;
    absl::Time done = absl::InfiniteFuture();
  };
  std::unique_ptr<Thinking> work;
  std::future<absl::StatusOr<policy::MoveChoice>> thinking;
  while (!session.quit()) {
    if (signals.Wait(absl::ZeroDuration()) != 0) break;
    // An answer first: charged up to when it came, not to when this loop
    // noticed it, and before the clock is checked.
    if (thinking.valid() && thinking.wait_for(std::chrono::seconds(0)) ==
                                std::future_status::ready) {
      absl::StatusOr<policy::MoveChoice> choice = thinking.get();
      session.FinishThink(choice, work->done);
      work.reset();
    }
    session.Tick(absl::Now());
    if (!thinking.valid() && session.ComputerToMove()) {
      work = std::make_unique<Thinking>(session.PrepareThink(absl::Now()));
      Thinking* w = work.get();
      thinking = std::async(std::launch::async, [w] {
        absl::StatusOr<policy::MoveChoice> choice =
            w->job.player->Choose(w->job.game, w->job.request);
        w->done = absl::Now();
        return choice;
      });
    }
    Draw(session, thinking.valid(), utf8);
    const int ch = getch();
    if (ch == ERR || ch == KEY_RESIZE) continue;
    // Keys while a computer thinks are safe: its thread has a copy of the
    // game, and the session refuses moves until FinishThink().
    session.HandleKey(KeyCode(ch), absl::Now());
  }
  if (thinking.valid()) {
    mvaddstr(LINES - 1, 0, " waiting for the computer's move to quit...");
    refresh();
    thinking.wait();
  }
  endwin();
  delscreen(screen);
  return absl::OkStatus();
}

}  // namespace qipu::play
