// `qipu play` as a person uses it: the real binary in a tmux session (a
// private server socket, a 100x40 window), keys typed with `send-keys`,
// the screen read with `capture-pane`, every wait a poll of the screen
// with a deadline. Two people play a 5x5 game to two passes (an occupied
// point refused on the way), mark a dead chain, count, save and quit; a
// person plays against the `random` policy and resigns. Skipped when tmux
// is not installed.
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "base/files.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace qipu::play {
namespace {

using ::testing::HasSubstr;

const std::string kQipu = std::string(QIPU_BINARY_DIR) + "/ops/qipu";

// `s` as one sh(1) word.
std::string Quote(const std::string& s) {
  return absl::StrCat("'", absl::StrReplaceAll(s, {{"'", "'\\''"}}), "'");
}

struct Output {
  int status = -1;
  std::string text;
};

// Runs `command` with sh(1): exit status and stdout (with stderr).
Output Shell(const std::string& command) {
  Output out;
  FILE* f = popen(absl::StrCat(command, " 2>&1").c_str(), "r");
  if (f == nullptr) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), f)) > 0) out.text.append(buf, n);
  const int status = pclose(f);
  out.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

bool HaveTmux() { return Shell("command -v tmux >/dev/null").status == 0; }

// One tmux server of the test's own, with one session ("play") running
// a command in a 100x40 window that stays after the command exits.
class Tmux {
 public:
  explicit Tmux(const std::string& dir) {
    static std::atomic<int> counter{0};
    socket_ = absl::StrCat("qipu-play-test-", getpid(), "-", counter++);
    config_ = absl::StrCat(dir, "/tmux.conf");
    Shell(
        absl::StrCat("printf '%s\\n' 'set -g remain-on-exit on' "
                     "'set -g default-terminal screen' > ",
                     Quote(config_)));
  }
  ~Tmux() { Run("kill-server"); }

  Output Run(const std::string& args) {
    return Shell(absl::StrCat("LC_ALL=C.UTF-8 tmux -u -L ", socket_, " -f ",
                              Quote(config_), " ", args));
  }

  // Starts `command` in the session.
  Output Start(const std::string& command) {
    return Run(
        absl::StrCat("new-session -d -s play -x 100 -y 40 ", Quote(command)));
  }

  // Types the keys (tmux key names: "Up", "Enter", "l", "Space" ...).
  void Keys(const std::vector<std::string>& keys) {
    std::vector<std::string> quoted;
    for (const std::string& k : keys) quoted.push_back(Quote(k));
    const Output o =
        Run(absl::StrCat("send-keys -t play ", absl::StrJoin(quoted, " ")));
    EXPECT_EQ(o.status, 0) << o.text;
  }

  std::string Screen() { return Run("capture-pane -p -t play").text; }
  // The screen and the lines scrolled off it (after the program's exit
  // tmux sometimes scrolls its last line of output away).
  std::string ScreenAndHistory() {
    return Run("capture-pane -p -S - -t play").text;
  }

  // Polls the screen until it shows `text`; the screen, or a failure
  // with the last screen after `timeout`.
  std::string WaitFor(const std::string& text,
                      absl::Duration timeout = absl::Seconds(10)) {
    const absl::Time deadline = absl::Now() + timeout;
    std::string screen;
    while (absl::Now() < deadline) {
      screen = Screen();
      if (absl::StrContains(screen, text)) return screen;
      absl::SleepFor(absl::Milliseconds(20));
    }
    ADD_FAILURE() << "no '" << text << "' on the screen after "
                  << absl::FormatDuration(timeout) << ":\n"
                  << screen;
    return screen;
  }

 private:
  std::string socket_;
  std::string config_;
};

// Moves a cursor the test keeps track of, with vim keys or arrows.
class Cursor {
 public:
  Cursor(Tmux& tmux, int size) : tmux_(tmux), size_(size) {
    x_ = y_ = size / 2;
  }
  // Keys that bring the cursor onto `gtp` ("B3"), alternating vim keys and
  // arrows from one move to the next.
  void To(const std::string& gtp) {
    int col = gtp[0] - 'A';
    if (gtp[0] > 'I') --col;
    const int row = size_ - std::stoi(gtp.substr(1));
    std::vector<std::string> keys;
    const bool vim = (moves_++ % 2) == 0;
    for (; x_ < col; ++x_) keys.push_back(vim ? "l" : "Right");
    for (; x_ > col; --x_) keys.push_back(vim ? "h" : "Left");
    for (; y_ < row; ++y_) keys.push_back(vim ? "j" : "Down");
    for (; y_ > row; --y_) keys.push_back(vim ? "k" : "Up");
    if (!keys.empty()) tmux_.Keys(keys);
    tmux_.WaitFor(absl::StrCat("Cursor: ", gtp));
  }

 private:
  Tmux& tmux_;
  int size_;
  int x_;
  int y_;
  int moves_ = 0;
};

class PlayTmuxTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!HaveTmux()) GTEST_SKIP() << "tmux is not installed";
    auto dir = base::TempDir::Create("play-tmux");
    ASSERT_TRUE(dir.ok()) << dir.status();
    dir_ = std::make_unique<base::TempDir>(std::move(*dir));
    tmux_ = std::make_unique<Tmux>(dir_->path());
  }

  // Starts `qipu play` with `flags` in a UTF-8 locale; its exit status is
  // written on the screen when it ends ("qipu exited with status 0": tmux
  // 3.3's #{pane_dead_status} is sometimes lost).
  void StartPlay(const std::string& flags) {
    const Output o = tmux_->Start(
        absl::StrCat("env LANG=C.UTF-8 LC_ALL=C.UTF-8 ", Quote(kQipu), " play ",
                     flags, "; echo \"qipu exited with status $?\""));
    ASSERT_EQ(o.status, 0) << o.text;
  }

  std::unique_ptr<base::TempDir> dir_;
  std::unique_ptr<Tmux> tmux_;
};

TEST_F(PlayTmuxTest, TwoPeoplePlayToACountedResult) {
  const std::string sgf = dir_->Sub("game.sgf");
  StartPlay(absl::StrCat("--size 5 --sgf ", Quote(sgf)));
  std::string screen = tmux_->WaitFor("Black to play");
  EXPECT_THAT(screen, HasSubstr("     A B C D E"));
  EXPECT_THAT(screen, HasSubstr("  3  . .[.]. .  3"));
  EXPECT_THAT(screen, HasSubstr("chinese rules, komi 7.5"));

  Cursor cursor(*tmux_, 5);
  // Each move: to the point, Enter (or Space), then the panel shows it.
  auto play = [&](const std::string& who, const std::string& gtp,
                  const std::string& key = "Enter") {
    cursor.To(gtp);
    tmux_->Keys({key});
    tmux_->WaitFor(absl::StrCat("Last move: ", who, " ", gtp));
  };
  auto pass = [&](const std::string& who) {
    tmux_->Keys({"p"});
    tmux_->WaitFor(absl::StrCat("Last move: ", who, " pass"));
  };
  play("B", "D1");
  // White on Black's stone: refused, with the reason.
  tmux_->Keys({"Enter"});
  screen = tmux_->WaitFor("Illegal move D1: occupied");
  EXPECT_THAT(screen, HasSubstr("> White O  human"));
  play("W", "E1", "Space");
  play("B", "D2");
  play("W", "E2");
  play("B", "D3");
  play("W", "E3");
  play("B", "D4");
  play("W", "E4");
  play("B", "D5");
  play("W", "B3");
  pass("B");
  play("W", "B2");
  pass("B");
  tmux_->Keys({"p"});
  // qipu's judgement marks every white stone dead: B2-B3 inside Black's
  // area, E1-E4 (in atari at E5).
  screen = tmux_->WaitFor("Count now: B+17.5");
  EXPECT_THAT(screen, HasSubstr("the stones marked x/o are judged dead"));
  EXPECT_THAT(screen, HasSubstr("  3  b o b X o  3"));

  // The people keep E1-E4 alive: Enter on E2; d counts.
  cursor.To("E2");
  tmux_->Keys({"Enter"});
  screen = tmux_->WaitFor("Count now: B+8.5");
  EXPECT_THAT(screen, HasSubstr("The white chain at E2 (4 stones) is alive."));
  EXPECT_THAT(screen, HasSubstr("  3  b o b X O  3"));
  tmux_->Keys({"d"});
  screen = tmux_->WaitFor("Result: B+8.5");
  EXPECT_THAT(screen, HasSubstr("Black wins by 4¼ stones"));
  EXPECT_THAT(screen, HasSubstr("Black 20.5 = 5 + 15"));
  EXPECT_THAT(screen, HasSubstr("White 4.5 = 4 + 0"));

  tmux_->Keys({"s"});
  tmux_->WaitFor("Saved the game to");
  absl::StatusOr<std::string> text = base::ReadFile(sgf);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_THAT(*text, HasSubstr("RE[B+8.5]"));
  EXPECT_THAT(*text, HasSubstr("SZ[5]"));

  tmux_->Keys({"q"});
  tmux_->WaitFor("qipu exited with status 0");
  // The result is printed once the screen is restored.
  EXPECT_THAT(tmux_->ScreenAndHistory(),
              HasSubstr("B+8.5 (Black wins by 4¼ stones)"));
}

TEST_F(PlayTmuxTest, APersonAgainstARandomPolicyResigns) {
  StartPlay("--size 5 --white random --seed 3 --time 10m");
  tmux_->WaitFor("Black to play");
  EXPECT_THAT(tmux_->Screen(), HasSubstr("White O  random"));
  Cursor cursor(*tmux_, 5);
  cursor.To("C3");
  tmux_->Keys({"Enter"});
  // The computer answers by itself.
  std::string screen = tmux_->WaitFor("Last move: W ");
  EXPECT_THAT(screen, HasSubstr("Move 3, Black to play"));
  tmux_->Keys({"u"});
  tmux_->WaitFor("Takeback is for free play only");
  tmux_->Keys({"r"});
  tmux_->WaitFor("Resign? Press r again");
  tmux_->Keys({"r"});
  screen = tmux_->WaitFor("Result: W+R");
  EXPECT_THAT(screen, HasSubstr("White wins by resignation"));
  tmux_->Keys({"q"});
  tmux_->WaitFor("qipu exited with status 0");
  EXPECT_THAT(tmux_->ScreenAndHistory(),
              HasSubstr("W+R (White wins by resignation)"));
}

TEST(PlayCommand, BadFlagsAndNoTerminal) {
  Output o = Shell(absl::StrCat(Quote(kQipu), " play --size 1 </dev/null"));
  EXPECT_EQ(o.status, 2);
  EXPECT_THAT(o.text, HasSubstr("qipu play: board size 1: not in 2..25"));
  o = Shell(absl::StrCat(Quote(kQipu), " play --time soon </dev/null"));
  EXPECT_EQ(o.status, 2);
  EXPECT_THAT(o.text, HasSubstr("--time soon: not a duration"));
  o = Shell(absl::StrCat(Quote(kQipu), " play --white no-such-policy"));
  EXPECT_EQ(o.status, 2);
  EXPECT_THAT(o.text, HasSubstr("white player 'no-such-policy'"));
  o = Shell(absl::StrCat(Quote(kQipu), " play --size 9 </dev/null"));
  EXPECT_EQ(o.status, 1);
  EXPECT_THAT(o.text, HasSubstr("must be a terminal"));
}

}  // namespace
}  // namespace qipu::play
