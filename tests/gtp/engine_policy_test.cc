// External GTP engines as policies (gtp/engine_policy.h over
// gtp/engine_process.h): engines written by the test as small shell
// scripts that crash, exit, hang, answer garbage, resign or refuse a
// command -- each failure a distinct error, the engine killed and reaped
// (no child left, no grandchild running), and a new engine for the next
// game -- and the real `qipu gtp` binary as a well-behaved engine playing
// whole games against the light policy, handicap and takebacks included.
#include "gtp/engine_policy.h"

#include <signal.h>
#include <sys/types.h>
#include <unistd.h>

#include <memory>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "base/files.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "gtp/engine.h"
#include "gtp/engine_process.h"
#include "gtp/policy_factory.h"
#include "rules/coord.h"
#include "rules/game.h"
#include "tests/gtp/process_util.h"

namespace qipu::gtp {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

class GtpEnginePolicyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto dir = base::TempDir::Create("gtp-engines");
    ASSERT_TRUE(dir.ok()) << dir.status();
    dir_ = std::make_unique<base::TempDir>(std::move(*dir));
    ASSERT_THAT(ChildProcesses(), IsEmpty());
  }

  void TearDown() override { EXPECT_THAT(ChildProcesses(), IsEmpty()); }

  // A policy over the script engine whose genmove does `genmove`.
  std::unique_ptr<EnginePolicy> Script(const std::string& name,
                                       const std::string& genmove) {
    return Policy(WriteScript(dir_->path(), name, ScriptEngine(genmove)));
  }

  std::unique_ptr<EnginePolicy> Policy(const std::string& command_line) {
    EnginePolicyOptions o;
    o.command_timeout = absl::Seconds(20);
    o.genmove_timeout = absl::Seconds(20);
    o.quit_timeout = absl::Seconds(5);
    auto p = EnginePolicy::Create(command_line, o);
    EXPECT_TRUE(p.ok()) << p.status();
    return p.ok() ? std::move(*p) : nullptr;
  }

  std::unique_ptr<base::TempDir> dir_;
  rules::Game game_{9, 9, rules::Rules{}};
};

TEST_F(GtpEnginePolicyTest, CrashIsUnavailableAndTheNextGameRestarts) {
  auto p = Script("crash.sh", "kill -SEGV $$");
  ASSERT_TRUE(p->NewGame(game_).ok());
  const pid_t first = p->engine_pid();
  EXPECT_THAT(ChildProcesses(), ElementsAre(first));
  absl::StatusOr<policy::MoveChoice> c = p->Choose(game_, {});
  EXPECT_TRUE(absl::IsUnavailable(c.status())) << c.status();
  EXPECT_THAT(std::string(c.status().message()),
              HasSubstr("killed by signal 11"));
  EXPECT_THAT(ChildProcesses(), IsEmpty());
  // Gone for the rest of the game.
  c = p->Choose(game_, {});
  EXPECT_TRUE(absl::IsUnavailable(c.status())) << c.status();
  EXPECT_THAT(std::string(c.status().message()), HasSubstr("next game"));
  // A new game: a new engine.
  ASSERT_TRUE(p->NewGame(game_).ok());
  EXPECT_EQ(p->engines_started(), 2);
  EXPECT_NE(p->engine_pid(), first);
  EXPECT_THAT(ChildProcesses(), ElementsAre(p->engine_pid()));
}

TEST_F(GtpEnginePolicyTest, QipuGtpStartsAFailedEngineOverAtTheNextGenmove) {
  // Crashes at its first genmove only (a marker file remembers), then
  // passes.
  const std::string marker = dir_->Sub("crashed-once");
  auto made = EnginePolicy::Create(
      WriteScript(dir_->path(), "once.sh",
                  ScriptEngine(absl::StrCat(
                      "if [ -e ", marker, " ]; then printf '= pass\\n\\n'; ",
                      "else touch ", marker, "; kill -KILL $$; fi"))),
      EnginePolicyOptions{});
  ASSERT_TRUE(made.ok());
  EngineOptions options;
  options.size = 9;
  Engine engine(std::move(*made), options);
  EXPECT_EQ(engine.HandleLine("play b e5"), "= \n\n");
  const std::string failed = engine.HandleLine("genmove w");
  EXPECT_THAT(failed, HasSubstr("? policy: engine"));
  EXPECT_THAT(failed, HasSubstr("killed by signal 9"));
  EXPECT_THAT(ChildProcesses(), IsEmpty());
  EXPECT_EQ(engine.HandleLine("genmove w"), "= pass\n\n");
  EXPECT_EQ(ChildProcesses().size(), 1u);
  EXPECT_EQ(engine.state().moves_played(), 2);
}

TEST_F(GtpEnginePolicyTest, ExitIsUnavailableWithItsStatus) {
  auto p = Script("exit.sh", "exit 3");
  ASSERT_TRUE(p->NewGame(game_).ok());
  absl::StatusOr<policy::MoveChoice> c = p->Choose(game_, {});
  EXPECT_TRUE(absl::IsUnavailable(c.status())) << c.status();
  EXPECT_THAT(std::string(c.status().message()),
              HasSubstr("exited with status 3"));
}

TEST_F(GtpEnginePolicyTest, HangIsDeadlineExceededAndKillsTheWholeGroup) {
  const std::string pid_file = dir_->Sub("sleep.pid");
  // The deadline is limits.time + genmove_margin: short, for the test.
  EnginePolicyOptions o;
  o.genmove_margin = absl::Milliseconds(300);
  auto made = EnginePolicy::Create(
      WriteScript(dir_->path(), "hang.sh",
                  ScriptEngine(absl::StrCat("sleep 1000 & echo $! > ", pid_file,
                                            "; wait"))),
      o);
  ASSERT_TRUE(made.ok());
  std::unique_ptr<EnginePolicy> p = std::move(*made);
  ASSERT_TRUE(p->NewGame(game_).ok());
  policy::SearchLimits limits;
  limits.time = absl::Milliseconds(100);
  const absl::Time start = absl::Now();
  absl::StatusOr<policy::MoveChoice> c = p->Choose(game_, limits);
  EXPECT_TRUE(absl::IsDeadlineExceeded(c.status())) << c.status();
  EXPECT_LT(absl::Now() - start, absl::Seconds(10));
  EXPECT_THAT(ChildProcesses(), IsEmpty());
  // The engine's own child died with it (SIGKILL to the process group).
  EXPECT_TRUE(PidFileProcessEnds(pid_file));
}

TEST_F(GtpEnginePolicyTest, GarbageIsDataLoss) {
  for (const char* genmove :
       {"echo 'hello there'; echo", "printf '= Z99\\n\\n'", "printf '= \\n\\n'",
        "printf 'junk without an end'"}) {
    SCOPED_TRACE(genmove);
    EnginePolicyOptions o;
    o.genmove_margin = absl::Milliseconds(300);
    auto made = EnginePolicy::Create(
        WriteScript(dir_->path(), "garbage.sh", ScriptEngine(genmove)), o);
    ASSERT_TRUE(made.ok());
    std::unique_ptr<EnginePolicy> p = std::move(*made);
    ASSERT_TRUE(p->NewGame(game_).ok());
    policy::SearchLimits limits;
    if (std::string(genmove).find("end") != std::string::npos) {
      // Never a complete answer: a hang with output.
      limits.time = absl::Milliseconds(10);
    }
    absl::StatusOr<policy::MoveChoice> c = p->Choose(game_, limits);
    if (limits.time != absl::InfiniteDuration()) {
      EXPECT_TRUE(absl::IsDataLoss(c.status()) ||
                  absl::IsDeadlineExceeded(c.status()))
          << c.status();
    } else {
      EXPECT_TRUE(absl::IsDataLoss(c.status())) << c.status();
    }
    EXPECT_THAT(ChildProcesses(), IsEmpty());
  }
}

TEST_F(GtpEnginePolicyTest, ResignAndIllegalMovesGoBackToTheCaller) {
  auto p = Script("resign.sh", "printf '= resign\\n\\n'");
  ASSERT_TRUE(p->NewGame(game_).ok());
  absl::StatusOr<policy::MoveChoice> c = p->Choose(game_, {});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->point, rules::kResign);
  EXPECT_THAT(ChildProcesses(), ElementsAre(p->engine_pid()));

  // An occupied point comes back unchecked: the caller judges it.
  ASSERT_TRUE(game_.TryPlay(rules::MakePoint(4, 4)).legal());
  auto q = Script("illegal.sh", "printf '=7 E5\\n\\n'");
  ASSERT_TRUE(q->NewGame(game_).ok());
  c = q->Choose(game_, {});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->point, rules::MakePoint(4, 4));
  EXPECT_FALSE(game_.Check(c->point).legal());
}

TEST_F(GtpEnginePolicyTest, RefusalsAndStartFailures) {
  // An engine that refuses the board size.
  const std::string refuse =
      WriteScript(dir_->path(), "refuse.sh",
                  "#!/bin/sh\nwhile read -r cmd rest; do\n"
                  "  case \"$cmd\" in\n"
                  "    boardsize) printf '? unacceptable size\\n\\n' ;;\n"
                  "    quit) printf '= \\n\\n'; exit 0 ;;\n"
                  "    *) printf '= \\n\\n' ;;\n  esac\ndone\n");
  auto p = Policy(refuse);
  absl::Status s = p->NewGame(game_);
  EXPECT_TRUE(absl::IsFailedPrecondition(s)) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("unacceptable size"));

  // A program that does not exist, and one that exits at once.
  auto missing = Policy(dir_->Sub("no-such-engine"));
  s = missing->NewGame(game_);
  EXPECT_TRUE(absl::IsFailedPrecondition(s)) << s;
  auto quitter =
      Policy(WriteScript(dir_->path(), "quit.sh", "#!/bin/sh\nexit 1\n"));
  s = quitter->NewGame(game_);
  EXPECT_TRUE(absl::IsUnavailable(s)) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("exited with status 1"));

  // Specs that do not split.
  EXPECT_TRUE(absl::IsInvalidArgument(
      MakeAnyPolicy("gtp:gnugo 'unterminated", 1).status()));
  EXPECT_TRUE(absl::IsInvalidArgument(MakeAnyPolicy("gtp:", 1).status()));
  EXPECT_TRUE(absl::IsInvalidArgument(MakeAnyPolicy("alphago", 1).status()));
  auto any = MakeAnyPolicy("gtp:gnugo   --mode \"gtp\"", 1);
  ASSERT_TRUE(any.ok());
  EXPECT_EQ((*any)->spec(), "gtp:gnugo --mode gtp");
}

TEST_F(GtpEnginePolicyTest, EngineProcessCommands) {
  EngineProcessOptions o;
  o.argv = {"/bin/sh", "-c",
            "while read -r c r; do case $c in "
            "multi) printf '=5 line one\\nline two\\n\\n' ;; "
            "bad) printf '? no such thing\\r\\n\\r\\n' ;; "
            "*) printf '= ok\\n\\n' ;; esac; done"};
  o.command_timeout = absl::Seconds(20);
  o.quit_timeout = absl::Milliseconds(200);
  auto e = EngineProcess::Start(o);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(*(*e)->Command("anything"), "ok");
  EXPECT_EQ(*(*e)->Command("multi"), "line one\nline two");
  absl::StatusOr<std::string> r = (*e)->Command("bad");
  EXPECT_TRUE(absl::IsFailedPrecondition(r.status())) << r.status();
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("no such thing"));
  EXPECT_TRUE((*e)->alive());
  // This engine does not know quit: Stop() kills it after the grace time.
  (*e)->Stop();
  EXPECT_FALSE((*e)->alive());
  EXPECT_TRUE(absl::IsUnavailable((*e)->Command("x").status()));
}

// The commands after the setup (from the first genmove's time commands on).
std::vector<std::string> From(const std::vector<std::string>& log,
                              const std::string& first) {
  for (size_t i = 0; i < log.size(); ++i) {
    if (log[i].rfind(first, 0) == 0) {
      return std::vector<std::string>(log.begin() + i, log.end());
    }
  }
  return {};
}

TEST_F(GtpEnginePolicyTest, GameClockIsToldOnceAndTimeLeftBeforeEachGenmove) {
  struct Case {
    TimeSettings settings;
    // The engine's list_commands.
    std::string commands;
    std::string told;
    // time_left for (main 0, period 1 s, 3 periods/stones left) and for
    // main time 59.7 s.
    std::string byoyomi_left;
    std::string main_left;
  };
  const Case cases[] = {
      {{TimeSystem::kJapanese, 0, 1, 3},
       "genmove\nkgs-time_settings",
       "kgs-time_settings byoyomi 0 1 3",
       "time_left black 1 3",
       "time_left black 59 0"},
      {{TimeSystem::kJapanese, 0, 1, 3},
       "genmove",
       "time_settings 0 1 1",
       "time_left black 1 1",
       "time_left black 59 0"},
      {{TimeSystem::kCanadian, 60, 30, 5},
       "",
       "time_settings 60 30 5",
       "time_left black 1 3",
       "time_left black 59 0"},
      {{TimeSystem::kAbsolute, 60, 0, 0},
       "",
       "time_settings 60 0 0",
       "time_left black 1 3",
       "time_left black 59 0"},
  };
  int n = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.told);
    const std::string log = dir_->Sub(absl::StrCat("log", ++n));
    ScriptOptions script;
    script.genmove = "printf '= pass\\n\\n'";
    script.log = log;
    script.list_commands = c.commands;
    auto p = Policy(WriteScript(dir_->path(), absl::StrCat("clock", n, ".sh"),
                                ScriptEngine(script)));
    p->SetGameClock(c.settings);
    rules::Game game(9, 9, rules::Rules{});
    ASSERT_TRUE(p->NewGame(game).ok());
    policy::SearchLimits limits;
    limits.time = absl::Seconds(1);
    p->SetTimeLeft(rules::Color::kBlack, 1, 3);
    ASSERT_TRUE(p->Choose(game, limits).ok());
    ASSERT_TRUE(game.TryPlay(rules::kPass).legal());
    ASSERT_TRUE(game.TryPlay(rules::MakePoint(2, 2)).legal());  // W C7
    // No time_left given for this move: none sent; the settings not again.
    ASSERT_TRUE(p->Choose(game, limits).ok());
    ASSERT_TRUE(game.TryPlay(rules::kPass).legal());
    ASSERT_TRUE(game.TryPlay(rules::MakePoint(3, 3)).legal());  // W D6
    // A time_left for White is not sent before Black's genmove.
    p->SetTimeLeft(rules::Color::kWhite, 30, 0);
    ASSERT_TRUE(p->Choose(game, limits).ok());
    ASSERT_TRUE(game.TryPlay(rules::kPass).legal());
    ASSERT_TRUE(game.TryPlay(rules::MakePoint(4, 4)).legal());  // W E5
    p->SetTimeLeft(rules::Color::kBlack, 59.7, 0);
    ASSERT_TRUE(p->Choose(game, limits).ok());
    p.reset();
    // list_commands once per engine (analyze commands, kgs-time_settings).
    std::vector<std::string> want = {"list_commands"};
    want.push_back(c.told);
    for (const std::string& line :
         {c.byoyomi_left, std::string("genmove black"),
          std::string("play white C7"), std::string("genmove black"),
          std::string("play white D6"), std::string("genmove black"),
          std::string("play white E5"), c.main_left,
          std::string("genmove black"), std::string("quit")}) {
      want.push_back(line);
    }
    EXPECT_EQ(From(ReadLines(log), want[0]), want);
  }
}

TEST_F(GtpEnginePolicyTest, AVoidedMoveIsTakenBackWithUndo) {
  const std::string log = dir_->Sub("log");
  ScriptOptions script;
  script.genmove = "printf '= E5\\n\\n'";
  script.log = log;
  auto p = Policy(WriteScript(dir_->path(), "undo.sh", ScriptEngine(script)));
  rules::Game game(9, 9, rules::Rules{});
  ASSERT_TRUE(p->NewGame(game).ok());
  ASSERT_TRUE(game.TryPlay(rules::MakePoint(4, 4)).legal());  // B E5
  absl::StatusOr<policy::MoveChoice> c = p->Choose(game, {});
  ASSERT_TRUE(c.ok()) << c.status();
  // White's E5 is occupied: the controller counts it as a pass.
  ASSERT_FALSE(game.Check(c->point).legal());
  ASSERT_TRUE(game.TryPlay(rules::kPass).legal());
  ASSERT_TRUE(game.TryPlay(rules::MakePoint(2, 2)).legal());  // B C7
  ASSERT_TRUE(p->Choose(game, {}).ok());
  EXPECT_THAT(
      From(ReadLines(log), "play"),
      ElementsAre("play black E5", "list_commands", "genmove white", "undo",
                  "play white pass", "play black C7", "genmove white"));
}

// An engine whose list_commands names lz-genmove_analyze (a script
// answering as Leela Zero's GTP.cpp does: "=", the info set in 1/10000,
// "play <vertex>", then a pondering set): its search is the move's.
TEST_F(GtpEnginePolicyTest, AnEngineThatAnalyzesGivesItsSearch) {
  const std::string log = dir_->Sub("analyze-log");
  const std::string script = absl::StrCat(
      "#!/bin/sh\nwhile read -r cmd rest; do\n"
      "  echo \"$cmd${rest:+ $rest}\" >> '",
      log, "'\n",
      "  case \"$cmd\" in\n"
      "    list_commands) printf '= genmove\\nlz-genmove_analyze\\n\\n' ;;\n"
      "    lz-genmove_analyze) printf '=\\ninfo move C3 visits 30 winrate "
      "5500 prior 3000 lcb 5000 order 0 pv C3 D4 info move E5 visits 0 "
      "winrate 0 prior 100 lcb 0 pv E5 info move D4 visits 10 winrate 4000 "
      "prior 2000 lcb 3000 order 1 pv D4\\nplay C3\\ninfo move A1 visits "
      "99 winrate 100 prior 1 lcb 0 order 0 pv A1\\n\\n' ;;\n"
      "    quit) printf '= \\n\\n'; exit 0 ;;\n"
      "    *) printf '= \\n\\n' ;;\n"
      "  esac\ndone\n");
  auto p = Policy(WriteScript(dir_->path(), "analyze.sh", script));
  rules::Game game(9, 9, rules::Rules{});
  ASSERT_TRUE(p->NewGame(game).ok());
  absl::StatusOr<policy::MoveChoice> c = p->Choose(game, {});
  ASSERT_TRUE(c.ok()) << c.status();
  const rules::Point c3 = rules::ParseGtpPoint("C3", 9, 9).value();
  const rules::Point d4 = rules::ParseGtpPoint("D4", 9, 9).value();
  EXPECT_EQ(c->point, c3);
  // Moves with visits, most visited first; the pondering set is not read.
  EXPECT_THAT(c->visits, ElementsAre(policy::MoveVisits{c3, 30},
                                     policy::MoveVisits{d4, 10}));
  EXPECT_EQ(c->playouts, 40);
  EXPECT_DOUBLE_EQ(c->winrate, 0.55);
  p.reset();
  EXPECT_THAT(
      From(ReadLines(log), "list_commands"),
      ElementsAre("list_commands", "lz-genmove_analyze black 1000000", "quit"));
}

// The real `qipu gtp` binary as the engine.
std::string QipuEngine(uint64_t seed) {
  return absl::StrCat(QIPU_BINARY_DIR, "/ops/qipu gtp --seed ", seed);
}

TEST_F(GtpEnginePolicyTest, QipuBinaryPlaysWholeGamesAgainstTheLightPolicy) {
  auto engine = Policy(QipuEngine(5));
  auto random = MakeAnyPolicy("random", 9);
  ASSERT_TRUE(random.ok()) << random.status();
  policy::Policy& light = **random;
  for (int handicap : {0, 2}) {
    SCOPED_TRACE(handicap);
    rules::Game game(9, 9, rules::Rules{});
    if (handicap > 0) {
      ASSERT_TRUE(game.PlaceHandicap(handicap).ok());
    }
    ASSERT_TRUE(engine->NewGame(game).ok());
    ASSERT_TRUE(light.NewGame(game).ok());
    int moves = 0;
    bool took_back = false;
    while (!game.over() && moves < 1000) {
      // The engine plays White.
      policy::Policy& who = game.to_play() == rules::Color::kWhite
                                ? static_cast<policy::Policy&>(*engine)
                                : light;
      absl::StatusOr<policy::MoveChoice> c = who.Choose(game, {});
      ASSERT_TRUE(c.ok()) << c.status();
      ASSERT_NE(c->point, rules::kResign);
      const rules::MoveVerdict v = game.TryPlay(c->point);
      ASSERT_TRUE(v.legal())
          << "move " << moves << " " << rules::GtpPoint(c->point, 9) << ": "
          << rules::IllegalReasonName(v.reason);
      ++moves;
      // A takeback now and then: the engine is set up again.
      if (moves == 20 && !took_back) {
        took_back = true;
        rules::Game replay(9, 9, rules::Rules{});
        if (handicap > 0) {
          ASSERT_TRUE(replay.PlaceHandicap(handicap).ok());
        }
        for (int i = 0; i < moves - 3; ++i) {
          ASSERT_TRUE(
              replay.TryPlay(game.moves()[i].color, game.moves()[i].point)
                  .legal());
        }
        game = replay;
        moves -= 3;
      }
    }
    EXPECT_TRUE(game.over());
    EXPECT_TRUE(took_back);
    EXPECT_EQ(engine->engines_started(), 1);
  }
  EXPECT_THAT(ChildProcesses(), ElementsAre(engine->engine_pid()));
}

}  // namespace
}  // namespace qipu::gtp
