// The referee of one game (arena/referee.h) with real engines: shell-script
// GTP engines that sleep past their byo-yomi, stop answering, crash,
// resign or play illegal moves (under both illegal-move policies), the
// real `qipu gtp` binary playing whole games within its time, and qipu's
// own policies on an injected clock for exact time bookkeeping.
//
// Timing: the only real waits are engines that must overrun a 1 s period
// (they sleep 2 s, or hang until the referee's deadline of 1 s + 1 s);
// engines that must not overrun answer at once and have 3 periods, so
// that a loaded machine cannot make them lose. Nothing sleeps to
// synchronise.
#include "arena/referee.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/files.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "gtp/clock.h"
#include "gtp/engine_policy.h"
#include "gtp/policy_factory.h"
#include "match/player.h"
#include "rules/coord.h"
#include "tests/gtp/process_util.h"

namespace qipu::arena {
namespace {

using gtp::ChildProcesses;
using gtp::ReadLines;
using gtp::ScriptOptions;
using rules::Color;
using rules::EndReason;
using rules::Winner;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

rules::Point Gtp(const char* vertex) {
  absl::StatusOr<rules::Point> p = rules::ParseGtpPoint(vertex, 9, 9);
  EXPECT_TRUE(p.ok()) << vertex;
  return p.ok() ? *p : rules::kPass;
}

gtp::TimeSettings Time(const char* text) {
  absl::StatusOr<gtp::TimeSettings> t = gtp::ParseTimeSettings(text);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *t : gtp::TimeSettings{};
}

// The genmove of a script engine that plays the words of its prelude's
// `set --` in order, then passes.
constexpr char kPlayList[] =
    "if [ $# -gt 0 ]; then printf '= %s\\n\\n' \"$1\"; shift; "
    "else printf '= pass\\n\\n'; fi";

class ArenaRefereeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto dir = base::TempDir::Create("arena-referee");
    ASSERT_TRUE(dir.ok()) << dir.status();
    dir_ = std::make_unique<base::TempDir>(std::move(*dir));
    ASSERT_THAT(ChildProcesses(), IsEmpty());
    options_.size = 9;
  }

  void TearDown() override { EXPECT_THAT(ChildProcesses(), IsEmpty()); }

  // An engine policy over `command_line`; genmove's deadline is the time
  // to the flag plus `margin`.
  std::unique_ptr<gtp::EnginePolicy> Engine(
      const std::string& command_line,
      absl::Duration margin = absl::Seconds(10),
      absl::Duration quit_timeout = absl::Seconds(5)) {
    gtp::EnginePolicyOptions o;
    o.command_timeout = absl::Seconds(20);
    o.genmove_timeout = absl::Seconds(20);
    o.genmove_margin = margin;
    o.quit_timeout = quit_timeout;
    auto p = gtp::EnginePolicy::Create(command_line, o);
    EXPECT_TRUE(p.ok()) << p.status();
    return p.ok() ? std::move(*p) : nullptr;
  }

  // A script engine (tests/gtp/process_util.h) named `name`.
  std::unique_ptr<gtp::EnginePolicy> Script(
      const std::string& name, const ScriptOptions& script,
      absl::Duration margin = absl::Seconds(10)) {
    return Engine(
        gtp::WriteScript(dir_->path(), name, gtp::ScriptEngine(script)),
        margin);
  }

  // A script engine that plays `moves` (GTP vertices) in order, then
  // passes, logging its commands to `log` when given.
  std::unique_ptr<gtp::EnginePolicy> Moves(const std::string& name,
                                           const std::string& moves,
                                           const std::string& log = "") {
    ScriptOptions s;
    s.prelude = absl::StrCat("set -- ", moves);
    s.genmove = kPlayList;
    s.log = log;
    return Script(name, s);
  }

  // The real `qipu gtp` binary with the random policy, its input copied
  // to `log`. (After `quit` the shell waits for tee, which waits for its
  // input: the policy kills the group after a short grace.)
  std::unique_ptr<gtp::EnginePolicy> Qipu(const std::string& name,
                                          uint64_t seed,
                                          const std::string& log) {
    return Engine(
        gtp::WriteScript(
            dir_->path(), name,
            absl::StrCat("#!/bin/sh\ntee -a '", log, "' | '", QIPU_BINARY_DIR,
                         "/ops/qipu' gtp --seed ", seed, "\n")),
        absl::Seconds(10), absl::Milliseconds(200));
  }

  std::unique_ptr<policy::Policy> Random(uint64_t seed) {
    auto p = gtp::MakeAnyPolicy("random", seed);
    EXPECT_TRUE(p.ok()) << p.status();
    return p.ok() ? std::move(*p) : nullptr;
  }

  // A game between two policies (or engines as policies), each as a
  // match::PolicyPlayer (one player when both are the same policy).
  ArenaGame Play(policy::Policy* black, policy::Policy* white) {
    match::PolicyPlayer b(black);
    match::PolicyPlayer w(white);
    absl::StatusOr<ArenaGame> g = PlayGame(
        Entrant{"", &b}, Entrant{"", black == white ? &b : &w}, options_);
    EXPECT_TRUE(g.ok()) << g.status();
    return g.ok() ? *std::move(g)
                  : ArenaGame(match::MatchOutcome(rules::Game(9, 9, {})));
  }

  std::unique_ptr<base::TempDir> dir_;
  RefereeOptions options_;
};

TEST_F(ArenaRefereeTest, AnEngineThatSleepsPastItsByoYomiLosesOnTime) {
  // One period of 1 s; the engine thinks for 2 s and then answers.
  options_.time = Time("byoyomi:0+1x1");
  const std::string log = dir_->Sub("sleeper.log");
  ScriptOptions s;
  s.genmove = "sleep 2; printf '= D4\\n\\n'";
  s.log = log;
  auto sleeper = Script("sleeper.sh", s);
  auto random = Random(1);
  const ArenaGame g = Play(sleeper.get(), random.get());
  EXPECT_EQ(g.end, match::End::kTime) << g.detail;
  EXPECT_EQ(g.result, (rules::GameResult{Winner::kWhite, EndReason::kTime, 0}));
  EXPECT_EQ(g.record.result.text, "W+T");
  EXPECT_THAT(g.detail, HasSubstr("Black's time ran out at move 1"));
  EXPECT_TRUE(g.clocks[0].flagged);
  EXPECT_GE(g.time_used(Color::kBlack), absl::Seconds(2));
  EXPECT_EQ(g.moves(), 0);
  // It answered, late: still running, for its next game.
  EXPECT_THAT(ChildProcesses(), ElementsAre(sleeper->engine_pid()));
  // It was told the clock the Canadian way (no kgs-time_settings listed)
  // and its time before the genmove.
  EXPECT_THAT(ReadLines(log), Contains("time_settings 0 1 1"));
  const std::vector<std::string> lines = ReadLines(log);
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(lines[lines.size() - 2], "time_left black 1 1");
  EXPECT_EQ(lines.back(), "genmove black");
}

TEST_F(ArenaRefereeTest, AnEngineThatStopsAnsweringIsKilledAndLosesOnTime) {
  options_.time = Time("byoyomi:0+1x1");
  const std::string pid_file = dir_->Sub("sleep.pid");
  ScriptOptions s;
  s.genmove = absl::StrCat("sleep 1000 & echo $! > ", pid_file, "; wait");
  // The deadline: 1 s to the flag plus a 1 s margin.
  auto hang = Script("hang.sh", s, absl::Seconds(1));
  auto random = Random(2);
  const absl::Time start = absl::Now();
  const ArenaGame g = Play(random.get(), hang.get());
  EXPECT_LT(absl::Now() - start, absl::Seconds(60));
  EXPECT_EQ(g.end, match::End::kTime) << g.detail;
  EXPECT_EQ(g.record.result.text, "B+T");
  EXPECT_THAT(g.detail, HasSubstr("White's time ran out at move 2"));
  EXPECT_THAT(g.detail, HasSubstr("no answer"));
  EXPECT_EQ(g.moves(), 1);
  // Killed and reaped, its own child with it.
  EXPECT_EQ(hang->engine_pid(), -1);
  EXPECT_THAT(ChildProcesses(), IsEmpty());
  EXPECT_TRUE(gtp::PidFileProcessEnds(pid_file));
}

TEST_F(ArenaRefereeTest, QipuGtpPlayingWithinItsTimeNeverLosesOnTime) {
  struct Case {
    const char* time;
    // What Black is told, and its time_left before its first genmove.
    const char* told;
    const char* first_left;
  };
  const Case cases[] = {
      {"byoyomi:0+3x1", "kgs-time_settings byoyomi 0 1 3",
       "time_left black 1 3"},
      {"canadian:0+200/60", "time_settings 0 60 200", "time_left black 60 200"},
      {"absolute:60", "time_settings 60 0 0", "time_left black 60 0"},
  };
  int n = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.time);
    ++n;
    options_.time = Time(c.time);
    const std::string black_log = dir_->Sub(absl::StrCat("black", n));
    const std::string white_log = dir_->Sub(absl::StrCat("white", n));
    auto black = Qipu(absl::StrCat("black", n, ".sh"), 10 + n, black_log);
    auto white = Qipu(absl::StrCat("white", n, ".sh"), 20 + n, white_log);
    const ArenaGame g = Play(black.get(), white.get());
    EXPECT_EQ(g.end, match::End::kCount) << g.detail;
    EXPECT_EQ(g.result, g.game.result());
    EXPECT_GT(g.moves(), 40);
    EXPECT_FALSE(g.clocks[0].flagged);
    EXPECT_FALSE(g.clocks[1].flagged);
    EXPECT_EQ(g.move_times.size(), static_cast<size_t>(g.moves()));
    EXPECT_THAT(g.sgf,
                HasSubstr(absl::StrCat("RE[", g.record.result.text, "]")));
    EXPECT_THAT(g.sgf, HasSubstr("PB[gtp:"));
    black.reset();
    white.reset();
    // The clock once; a time_left right before every genmove.
    const std::vector<std::string> lines = ReadLines(black_log);
    EXPECT_THAT(lines, Contains(c.told));
    int genmoves = 0;
    std::string first_left;
    for (size_t i = 0; i < lines.size(); ++i) {
      if (lines[i] != "genmove black") continue;
      ++genmoves;
      ASSERT_GT(i, 0u);
      EXPECT_EQ(lines[i - 1].rfind("time_left black ", 0), 0u) << lines[i - 1];
      if (first_left.empty()) first_left = lines[i - 1];
    }
    EXPECT_EQ(first_left, c.first_left);
    EXPECT_EQ(genmoves, (g.moves() + 1) / 2);
    int told = 0;
    for (const std::string& line : lines) {
      told += line.find("time_settings") != std::string::npos;
    }
    EXPECT_EQ(told, 1);
    EXPECT_THAT(ReadLines(white_log), Contains(c.told));
  }
}

TEST_F(ArenaRefereeTest, ACrashingEngineLosesAndIsRestartedForTheNextGame) {
  // A clock (told again to the new engine), generous: no time loss here.
  options_.time = Time("byoyomi:0+3x30");
  // Crashes at its third genmove, once (a marker file remembers); passes
  // otherwise.
  const std::string marker = dir_->Sub("crashed");
  ScriptOptions s;
  s.prelude = "n=0";
  s.genmove = absl::StrCat("n=$((n+1)); if [ $n -ge 3 ] && [ ! -e ", marker,
                           " ]; then touch ", marker,
                           "; kill -SEGV $$; fi; printf '= pass\\n\\n'");
  s.log = dir_->Sub("crash.log");
  auto crasher = Script("crash.sh", s);
  auto random = Random(3);
  ArenaGame g = Play(crasher.get(), random.get());
  EXPECT_EQ(g.end, match::End::kEngineFailure) << g.detail;
  EXPECT_EQ(g.result,
            (rules::GameResult{Winner::kWhite, EndReason::kForfeit, 0}));
  EXPECT_EQ(g.record.result.text, "W+F");
  EXPECT_THAT(g.detail, HasSubstr("Black failed at move 5"));
  EXPECT_THAT(g.detail, HasSubstr("killed by signal 11"));
  EXPECT_EQ(g.moves(), 4);
  // Reaped: no zombie, no child.
  EXPECT_THAT(ChildProcesses(), IsEmpty());
  EXPECT_EQ(crasher->engines_started(), 1);

  // The next game starts it again and is played out.
  g = Play(crasher.get(), random.get());
  EXPECT_EQ(crasher->engines_started(), 2);
  EXPECT_THAT(ChildProcesses(), ElementsAre(crasher->engine_pid()));
  EXPECT_EQ(g.end, match::End::kCount) << g.detail;
  EXPECT_EQ(g.result.winner, Winner::kWhite);
  crasher.reset();
  // Each engine was told the clock (byo-yomi the Canadian way).
  const std::vector<std::string> log = ReadLines(s.log);
  EXPECT_EQ(std::count(log.begin(), log.end(), "time_settings 0 30 1"), 2);
}

TEST_F(ArenaRefereeTest, AnIllegalMoveLosesUnderForfeit) {
  options_.illegal = match::IllegalMovePolicy::kForfeit;
  auto black = Moves("black.sh", "E5 E5");
  auto white = Moves("white.sh", "");
  const ArenaGame g = Play(black.get(), white.get());
  EXPECT_EQ(g.end, match::End::kIllegalMove);
  EXPECT_EQ(g.result,
            (rules::GameResult{Winner::kWhite, EndReason::kIllegal, 0}));
  EXPECT_EQ(g.record.result.text, "W+Illegal");
  EXPECT_THAT(g.detail,
              HasSubstr("Black's E5 at move 3 is illegal (occupied)"));
  ASSERT_EQ(g.illegal_moves.size(), 1u);
  EXPECT_EQ(g.illegal_moves[0].move_number, 3);
  EXPECT_EQ(g.illegal_moves[0].point, Gtp("E5"));
  EXPECT_TRUE(g.illegal_moves[0].lost);
  EXPECT_EQ(g.moves(), 2);
  // The engine is fine: it played on and still runs.
  EXPECT_EQ(ChildProcesses().size(), 2u);
}

TEST_F(ArenaRefereeTest, AnIllegalMoveIsVoidAndAPassUnderChinese) {
  options_.illegal = match::IllegalMovePolicy::kChinese;
  auto black = Moves("black.sh", "E5 E5");
  auto white = Moves("white.sh", "");
  const ArenaGame g = Play(black.get(), white.get());
  // B E5, W pass, B E5 (occupied: void, a pass): two passes, the count.
  EXPECT_EQ(g.end, match::End::kCount) << g.detail;
  EXPECT_THAT(g.game.moves(),
              ElementsAre(rules::Move{Color::kBlack, Gtp("E5")},
                          rules::Move{Color::kWhite, rules::kPass},
                          rules::Move{Color::kBlack, rules::kPass}));
  ASSERT_EQ(g.illegal_moves.size(), 1u);
  EXPECT_TRUE(g.illegal_moves[0].voided);
  EXPECT_FALSE(g.illegal_moves[0].warning);
  EXPECT_EQ(g.warnings, (std::array<int, 2>{0, 0}));
  EXPECT_EQ(g.result, g.game.result());
  EXPECT_EQ(g.record.result.text, "B+73.5");
  EXPECT_THAT(g.sgf, HasSubstr(";B[]C[Black's E5 is illegal (occupied): void, "
                               "a pass (art. 19)]"));
}

// A ko on the left of the board: Black C5 D6 D4, White D5 E6 E4 F5; Black
// E5 takes the ko at move 9 and White retakes at once at move 10.
constexpr char kBlackKo[] = "C5 D6 D4 J9 E5";
constexpr char kWhiteKo[] = "D5 E6 E4 F5 D5";

TEST_F(ArenaRefereeTest, KoRetakesAreWarnedAndTheSecondWarningLoses) {
  options_.illegal = match::IllegalMovePolicy::kChinese;
  options_.time = Time("byoyomi:0+3x30");
  const std::string white_log = dir_->Sub("white.log");
  // 10 W D5 retakes: void, warning. 12 W D5 retakes legally; 13 B E5
  // retakes at once: void, warning. 15 B E5 legally; 16 W D5: White's
  // second warning.
  auto black = Moves("black.sh", absl::StrCat(kBlackKo, " J1 E5 E5"));
  auto white =
      Moves("white.sh", absl::StrCat(kWhiteKo, " D5 A9 D5"), white_log);
  const ArenaGame g = Play(black.get(), white.get());
  EXPECT_EQ(g.end, match::End::kSecondWarning) << g.detail;
  EXPECT_EQ(g.result,
            (rules::GameResult{Winner::kBlack, EndReason::kForfeit, 0}));
  EXPECT_EQ(g.record.result.text, "B+F");
  EXPECT_THAT(g.detail, HasSubstr("White's D5 at move 16 is illegal (ko)"));
  EXPECT_THAT(g.detail, HasSubstr("art. 24.2"));
  EXPECT_EQ(g.warnings, (std::array<int, 2>{1, 2}));
  ASSERT_EQ(g.illegal_moves.size(), 3u);
  EXPECT_EQ(g.illegal_moves[0].move_number, 10);
  EXPECT_EQ(g.illegal_moves[0].color, Color::kWhite);
  EXPECT_TRUE(g.illegal_moves[0].warning);
  EXPECT_TRUE(g.illegal_moves[0].voided);
  EXPECT_EQ(g.illegal_moves[1].move_number, 13);
  EXPECT_EQ(g.illegal_moves[1].color, Color::kBlack);
  EXPECT_EQ(g.illegal_moves[2].move_number, 16);
  EXPECT_TRUE(g.illegal_moves[2].lost);
  EXPECT_FALSE(g.illegal_moves[2].voided);
  EXPECT_EQ(g.moves(), 15);
  EXPECT_EQ(g.game.moves()[9], (rules::Move{Color::kWhite, rules::kPass}));
  EXPECT_EQ(g.game.moves()[12], (rules::Move{Color::kBlack, rules::kPass}));
  EXPECT_THAT(g.sgf, HasSubstr("C[White's D5 is illegal (ko): void, a pass "
                               "(art. 18.3); a warning: one stone (art. "
                               "24.1)]"));
  EXPECT_THAT(g.sgf, HasSubstr("GC[second-warning: "));
  EXPECT_THAT(g.sgf, HasSubstr("White 2 warnings"));
  // White's engine had played its void D5: the referee took it back.
  const std::vector<std::string> log = ReadLines(white_log);
  const auto undo = std::find(log.begin(), log.end(), "undo");
  ASSERT_NE(undo, log.end());
  EXPECT_EQ(*(undo + 1), "play white pass");
  EXPECT_EQ(*(undo + 2), "play black J1");
}

TEST_F(ArenaRefereeTest, AWarningCostsAStoneAtTheCount) {
  options_.illegal = match::IllegalMovePolicy::kChinese;
  // Black 5 stones and D5, White 3 stones, 72 dame split: 42 to 39; with
  // komi 3.5 the count is W+0.5, and White's warning makes it B+1.5.
  options_.rules.komi = 3.5;
  auto black = Moves("black.sh", absl::StrCat(kBlackKo, " pass"));
  auto white = Moves("white.sh", kWhiteKo);
  const ArenaGame g = Play(black.get(), white.get());
  EXPECT_EQ(g.end, match::End::kCount) << g.detail;
  EXPECT_EQ(g.moves(), 11);
  EXPECT_EQ(g.warnings, (std::array<int, 2>{0, 1}));
  EXPECT_EQ(g.game.result(),
            (rules::GameResult{Winner::kWhite, EndReason::kScore, 0.5}));
  EXPECT_EQ(g.result,
            (rules::GameResult{Winner::kBlack, EndReason::kScore, 1.5}));
  EXPECT_EQ(g.record.result.text, "B+1.5");
  EXPECT_THAT(g.detail, HasSubstr("counted W+0.5; B+1.5 with a stone per "
                                  "warning deducted (art. 24.1)"));
}

// A policy that thinks for a scripted time on an injected clock: qipu's
// random policy, with the time each of its moves takes.
class TimedPolicy final : public policy::Policy {
 public:
  TimedPolicy(absl::Time* now, std::vector<absl::Duration> takes)
      : now_(now), takes_(std::move(takes)) {
    auto p = gtp::MakeAnyPolicy("random", 7);
    EXPECT_TRUE(p.ok());
    inner_ = std::move(*p);
  }
  std::string spec() const override { return inner_->spec(); }
  absl::Status NewGame(const rules::Game& game) override {
    return inner_->NewGame(game);
  }
  absl::StatusOr<policy::MoveChoice> Choose(
      const rules::Game& game, const policy::SearchLimits& limits) override {
    limits_.push_back(limits.time);
    *now_ += takes_[std::min(calls_++, takes_.size() - 1)];
    return inner_->Choose(game, limits);
  }
  // The time limit of each Choose().
  const std::vector<absl::Duration>& limits() const { return limits_; }

 private:
  absl::Time* now_;
  std::vector<absl::Duration> takes_;
  size_t calls_ = 0;
  std::vector<absl::Duration> limits_;
  std::unique_ptr<policy::Policy> inner_;
};

TEST_F(ArenaRefereeTest, ByoYomiBookkeepingOnAnInjectedClock) {
  absl::Time now = absl::UnixEpoch();
  options_.now = [&now] { return now; };
  options_.time = Time("byoyomi:20+2x10");
  // Black: 15 s (main 5 left), 8 s (3 s into byo-yomi: no period used),
  // 15 s (a period used), then 10 s: the last period reached exactly --
  // used, so out of time (art. 12: "達到60秒的視為已使用"; the old clock
  // let a move of exactly the period go free).
  TimedPolicy black(&now, {absl::Seconds(15), absl::Seconds(8),
                           absl::Seconds(15), absl::Seconds(10)});
  TimedPolicy white(&now, {absl::Seconds(1)});
  const ArenaGame g = Play(&black, &white);
  EXPECT_EQ(g.end, match::End::kTime) << g.detail;
  EXPECT_EQ(g.result.winner, Winner::kWhite);
  EXPECT_EQ(g.moves(), 6);
  EXPECT_THAT(g.detail,
              HasSubstr("Black's time ran out at move 7: it took 10 s with "
                        "10 s left"));
  EXPECT_EQ(g.time_used(Color::kBlack), absl::Seconds(48));
  EXPECT_EQ(g.time_used(Color::kWhite), absl::Seconds(3));
  EXPECT_TRUE(g.clocks[0].flagged);
  EXPECT_EQ(g.clocks[1].main_left, absl::Seconds(17));
  // Time left after each of Black's moves, as the SGF has it.
  EXPECT_EQ(g.move_times[0].left.seconds, 5);
  EXPECT_EQ(g.move_times[2].left.seconds, 10);
  EXPECT_EQ(g.move_times[2].left.stones, 2);
  EXPECT_EQ(g.move_times[4].left.stones, 1);
  EXPECT_THAT(g.sgf, HasSubstr("TM[20]OT[2x10 byo-yomi]"));
  EXPECT_THAT(g.sgf, HasSubstr("BL[5]"));
  EXPECT_THAT(g.sgf, HasSubstr("BL[10]OB[2]"));
  EXPECT_THAT(g.sgf, HasSubstr("WL[19]"));
  // qipu's own policy searched for the clock's allotment: in byo-yomi,
  // 10 * 0.9 - 0.2.
  ASSERT_EQ(black.limits().size(), 4u);
  EXPECT_NEAR(absl::ToDoubleSeconds(black.limits()[2]), 8.8, 1e-6);
  EXPECT_EQ(black.limits()[0],
            gtp::Clock(options_.time).Allot(Color::kBlack, 81));
}

TEST_F(ArenaRefereeTest, CanadianBookkeepingOnAnInjectedClock) {
  absl::Time now = absl::UnixEpoch();
  options_.now = [&now] { return now; };
  options_.time = Time("canadian:0+3/10");
  // 3 s a move: 3 moves in the first block, the 1 s left over carried
  // into the second (11 s: "節余時間可延至下一節使用"; the old clock reset
  // the block), 3 more (2 s left, 12 s in the third); Black's 7th move
  // takes the third block's 12 s exactly: out of time.
  TimedPolicy black(&now, {absl::Seconds(3), absl::Seconds(3), absl::Seconds(3),
                           absl::Seconds(3), absl::Seconds(3), absl::Seconds(3),
                           absl::Seconds(12)});
  TimedPolicy white(&now, {absl::Milliseconds(10)});
  const ArenaGame g = Play(&black, &white);
  EXPECT_EQ(g.end, match::End::kTime) << g.detail;
  EXPECT_EQ(g.moves(), 12);
  EXPECT_THAT(g.detail, HasSubstr("it took 12 s with 12 s left"));
  EXPECT_EQ(g.move_times[0].left.seconds, 7);
  EXPECT_EQ(g.move_times[0].left.stones, 2);
  EXPECT_EQ(g.move_times[4].left.seconds, 11);  // a new block, 1 s carried
  EXPECT_EQ(g.move_times[4].left.stones, 3);
  EXPECT_EQ(g.move_times[10].left.seconds, 12);
  EXPECT_THAT(g.sgf, HasSubstr("OT[3/10 Canadian]"));
  EXPECT_THAT(g.sgf, HasSubstr("BL[7]OB[2]"));
  EXPECT_THAT(g.sgf, HasSubstr("BL[11]OB[3]"));
}

// Art. 21.4: two engines pass with a stone they disagree about; play
// resumes with the side that calls it dead moving first, and actual play
// settles it; the record says how the game was counted.
TEST_F(ArenaRefereeTest, DisputedDeadStonesArePlayedOut) {
  ScriptOptions b;
  b.prelude = "set -- D5 F5 E4 pass E6";
  b.genmove = kPlayList;
  // Black calls White's E5 dead, whatever the board.
  b.final_status_list = "printf '= E5\\n\\n'";
  b.log = dir_->Sub("black.log");
  ScriptOptions w;
  w.prelude = "set -- E5";
  w.genmove = kPlayList;
  w.log = dir_->Sub("white.log");
  auto black = Script("black.sh", b);
  auto white = Script("white.sh", w);
  const ArenaGame g = Play(black.get(), white.get());
  EXPECT_EQ(g.end, match::End::kCount) << g.detail;
  ASSERT_EQ(g.disputes.size(), 1u) << g.detail;
  EXPECT_EQ(g.disputes[0].first, Color::kBlack);
  EXPECT_EQ(g.disputes[0].moves, 7);
  EXPECT_EQ(g.disputes[0].black_dead, std::vector<rules::Point>{Gtp("E5")});
  EXPECT_TRUE(g.disputes[0].white_dead.empty());
  // Black moved first after the passes and captured E5.
  ASSERT_GT(g.moves(), 7);
  EXPECT_EQ(g.game.moves()[7].color, Color::kBlack);
  EXPECT_EQ(g.game.moves()[7].point, Gtp("E6"));
  EXPECT_EQ(g.game.board().at(Gtp("E5")), Color::kEmpty);
  EXPECT_EQ(g.result.counting, rules::Counting::kPlayedOut);
  EXPECT_EQ(rules::ResultToSgf(g.result), "B+73.5");
  // Both engines were asked, twice.
  for (const char* log : {"black.log", "white.log"}) {
    int asked = 0;
    for (const std::string& line : ReadLines(dir_->Sub(log))) {
      if (line == "final_status_list dead") ++asked;
    }
    EXPECT_EQ(asked, 2) << log;
  }
  EXPECT_THAT(g.sgf, HasSubstr("art. 21.4"));
  EXPECT_THAT(g.sgf, HasSubstr("GC[count: two passes; after the play-out"));
}

// A broken policy: always the same point, whatever the board.
class FixedPointPolicy final : public policy::Policy {
 public:
  explicit FixedPointPolicy(rules::Point p) : point_(p) {}
  std::string spec() const override { return "fixed"; }
  absl::Status NewGame(const rules::Game&) override { return absl::OkStatus(); }
  absl::StatusOr<policy::MoveChoice> Choose(
      const rules::Game&, const policy::SearchLimits&) override {
    policy::MoveChoice c;
    c.point = point_;
    return c;
  }

 private:
  rules::Point point_;
};

TEST_F(ArenaRefereeTest, APointOffTheBoardIsIllegalAndNamedSafely) {
  FixedPointPolicy broken(rules::MakePoint(20, 20));
  auto random = Random(8);
  ArenaGame g = Play(&broken, random.get());
  EXPECT_EQ(g.end, match::End::kIllegalMove);
  EXPECT_THAT(g.detail, HasSubstr("(off the board) at move 1 is illegal "
                                  "(off-board): forfeit"));
  options_.illegal = match::IllegalMovePolicy::kChinese;
  FixedPointPolicy no_point(rules::kNoPoint);
  g = Play(&no_point, random.get());
  EXPECT_EQ(g.end, match::End::kCount);
  EXPECT_EQ(g.result.winner, Winner::kWhite);
  ASSERT_FALSE(g.illegal_moves.empty());
  EXPECT_TRUE(g.illegal_moves[0].voided);
  EXPECT_THAT(g.sgf, HasSubstr("B[]C[Black's point -1 (off the board) is "
                               "illegal (off-board): void, a pass (art. 19)]"));
}

TEST_F(ArenaRefereeTest, ResignationsStartFailuresAndHandicap) {
  auto resigner = Script("resign.sh", [] {
    ScriptOptions s;
    s.genmove = "printf '= resign\\n\\n'";
    return s;
  }());
  auto random = Random(4);
  ArenaGame g = Play(random.get(), resigner.get());
  EXPECT_EQ(g.end, match::End::kResign);
  EXPECT_EQ(g.record.result.text, "B+R");
  resigner.reset();

  auto missing = Engine(dir_->Sub("no-such-engine"));
  g = Play(missing.get(), random.get());
  EXPECT_EQ(g.end, match::End::kEngineFailure);
  EXPECT_EQ(g.record.result.text, "W+F");
  EXPECT_THAT(g.detail, HasSubstr("Black failed to start the game"));
  auto also_missing = Engine(dir_->Sub("no-such-engine-either"));
  g = Play(missing.get(), also_missing.get());
  EXPECT_EQ(g.end, match::End::kEngineFailure);
  EXPECT_EQ(g.result.winner, Winner::kNone);

  // Handicap: the stones in the record, White first; one policy may
  // play both sides.
  options_.handicap = 2;
  options_.event = "test cup";
  options_.game_name = "round 1";
  match::PolicyPlayer both(random.get());
  absl::StatusOr<ArenaGame> h =
      PlayGame(Entrant{"Alice", &both}, Entrant{"Bob", &both}, options_);
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_EQ(h->end, match::End::kCount);
  EXPECT_EQ(h->game.moves()[0].color, Color::kWhite);
  EXPECT_THAT(h->sgf, HasSubstr("HA[2]KM[7.5]RU[chinese]"));
  EXPECT_THAT(h->sgf, HasSubstr("PB[Alice]PW[Bob]EV[test cup]GN[round 1]"));
  EXPECT_THAT(h->sgf, HasSubstr("GC[count: two passes, counted "));
  EXPECT_THAT(h->sgf, HasSubstr("QB[random]QW[random]AB[cg][gc]"));
}

TEST_F(ArenaRefereeTest, BadOptionsAreErrors) {
  auto random = Random(6);
  match::PolicyPlayer player(random.get());
  const Entrant e{"", &player};
  RefereeOptions o = options_;
  o.size = 1;
  EXPECT_TRUE(absl::IsInvalidArgument(PlayGame(e, e, o).status()));
  o = options_;
  o.rules.komi = 0.3;
  EXPECT_TRUE(absl::IsInvalidArgument(PlayGame(e, e, o).status()));
  o = options_;
  o.handicap = 12;
  EXPECT_TRUE(absl::IsInvalidArgument(PlayGame(e, e, o).status()));
  o = options_;
  o.time = {gtp::TimeSystem::kJapanese, 0, 0, 3};
  EXPECT_TRUE(absl::IsInvalidArgument(PlayGame(e, e, o).status()));
  EXPECT_TRUE(absl::IsInvalidArgument(
      PlayGame(Entrant{"", nullptr}, e, options_).status()));
}

}  // namespace
}  // namespace qipu::arena
