// `qipu play [--size N] [--black P] [--white P] [--rules R] [--komi X]
// [--handicap H] [--time T] [--byoyomi T] [--periods K] [--canadian S]
// [--clock TEXT] [--last-period lose|pass] [--sgf FILE] [--seed S]
// [--engine-log FILE]`: a full-screen Go board in the terminal
// (play/tui.h) for two people on one keyboard, or a person against a qipu
// policy or a GTP engine (P: "human", "random", "mcts:playouts=2000",
// "gtp:gnugo --mode gtp"). Keys: play/keymap.h. Prints the result on
// stdout when the game ended. Exit status 0, 1 when the terminal or an
// engine fails, 2 for bad flags.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <random>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtp/time_settings.h"
#include "ops/commands.h"
#include "ops/flags.h"
#include "play/board_session.h"
#include "play/tui.h"

namespace qipu::ops {
namespace {

struct PlayOptions {
  int size = 19;
  RuleFlags rules;
  int handicap = 0;
  std::string black = play::kHuman;
  std::string white = play::kHuman;
  std::string time;
  std::string byoyomi;
  std::optional<int> periods;
  std::optional<int> canadian;
  std::string clock;
  std::string last_period = "lose";
  std::string sgf;
  std::optional<uint64_t> seed;
  std::string engine_log;
};

// "600" (seconds), "10m", "1m30s", "1h": a duration, else InvalidArgument
// naming the flag.
absl::StatusOr<absl::Duration> ParseTime(const std::string& flag,
                                         const std::string& text) {
  double seconds = 0;
  if (absl::SimpleAtod(text, &seconds) && seconds >= 0) {
    return absl::Seconds(seconds);
  }
  absl::Duration d;
  if (absl::ParseDuration(text, &d) && d >= absl::ZeroDuration()) return d;
  return absl::InvalidArgumentError(absl::StrCat(
      flag, " ", text, ": not a duration (600 = seconds, 10m, 1m30s, 1h)"));
}

int RunPlay(const PlayOptions& o) {
  auto fail = [](const absl::Status& s, int code) {
    std::fprintf(stderr, "qipu play: %s\n", std::string(s.message()).c_str());
    return code;
  };
  play::SessionOptions options;
  absl::StatusOr<rules::Rules> r = o.rules.Resolve(rules::Rules{});
  if (!r.ok()) return fail(r.status(), 2);
  options.rules = *r;
  options.size = o.size;
  options.handicap = o.handicap;
  options.black = o.black;
  options.white = o.white;
  options.engine_log = o.engine_log;
  gtp::TimeSettings& time = options.time;
  if (!o.clock.empty()) {
    if (!o.time.empty() || !o.byoyomi.empty() || o.periods.has_value() ||
        o.canadian.has_value()) {
      return fail(absl::InvalidArgumentError(
                      "--clock gives the whole time control: not with "
                      "--time, --byoyomi, --periods or --canadian"),
                  2);
    }
    absl::StatusOr<gtp::TimeSettings> t = gtp::ParseTimeSettings(o.clock);
    if (!t.ok()) return fail(t.status(), 2);
    time = *t;
  } else {
    absl::Duration main = absl::ZeroDuration();
    if (!o.time.empty()) {
      absl::StatusOr<absl::Duration> t = ParseTime("--time", o.time);
      if (!t.ok()) return fail(t.status(), 2);
      main = *t;
    }
    time.main_s = static_cast<int>(absl::ToInt64Seconds(main));
    if (!o.byoyomi.empty()) {
      absl::StatusOr<absl::Duration> t = ParseTime("--byoyomi", o.byoyomi);
      if (!t.ok()) return fail(t.status(), 2);
      if (o.periods.has_value() && o.canadian.has_value()) {
        return fail(absl::InvalidArgumentError(
                        "--periods (byo-yomi) or --canadian, not both"),
                    2);
      }
      time.system = o.canadian.has_value() ? gtp::TimeSystem::kCanadian
                                           : gtp::TimeSystem::kJapanese;
      time.period_s = static_cast<int>(absl::ToInt64Seconds(*t));
      time.stones = o.canadian.value_or(o.periods.value_or(1));
    } else if (o.periods.has_value() || o.canadian.has_value()) {
      return fail(
          absl::InvalidArgumentError("--periods and --canadian need --byoyomi"),
          2);
    } else if (time.main_s > 0) {
      time.system = gtp::TimeSystem::kAbsolute;
    }
  }
  if (o.last_period == "pass") {
    time.last_period = gtp::LastPeriod::kPass;
  } else if (o.last_period != "lose") {
    return fail(absl::InvalidArgumentError(absl::StrCat(
                    "--last-period ", o.last_period, ": lose or pass")),
                2);
  }
  options.seed = o.seed.has_value() ? *o.seed
                                    : (uint64_t{std::random_device{}()} << 32) ^
                                          std::random_device{}();
  const absl::Time now = absl::Now();
  options.sgf_path = o.sgf.empty()
                         ? absl::StrCat("qipu-play-",
                                        absl::FormatTime("%Y%m%d-%H%M%S", now,
                                                         absl::LocalTimeZone()),
                                        ".sgf")
                         : o.sgf;
  absl::StatusOr<std::unique_ptr<play::BoardSession>> session =
      play::BoardSession::Create(options, now);
  if (!session.ok()) {
    return fail(session.status(),
                absl::IsInvalidArgument(session.status()) ? 2 : 1);
  }
  if (absl::Status s = play::RunTui(**session); !s.ok()) return fail(s, 1);
  if ((*session)->phase() == play::Phase::kOver) {
    std::printf("%s\n", (*session)->ResultText().c_str());
  }
  return 0;
}

}  // namespace

void AddPlayCommand(CLI::App& app, int* exit_code) {
  auto opts = std::make_shared<PlayOptions>();
  CLI::App* cmd = app.add_subcommand(
      "play", "A Go board in the terminal: people, qipu policies, GTP engines");
  cmd->add_option("--size", opts->size, "Board size (2-25)")
      ->capture_default_str();
  cmd->add_option("--black", opts->black,
                  "Black: human, a policy (random, mcts:playouts=2000) or "
                  "gtp:<engine command line>")
      ->capture_default_str();
  cmd->add_option("--white", opts->white, "White: as --black")
      ->capture_default_str();
  opts->rules.Add(cmd);
  cmd->add_option("--handicap", opts->handicap,
                  "Fixed handicap stones (2-9); White then moves first")
      ->capture_default_str();
  cmd->add_option("--time", opts->time,
                  "Main time per player (600 = seconds, 10m, 1h); none: "
                  "untimed");
  cmd->add_option("--byoyomi", opts->byoyomi,
                  "Byo-yomi period after the main time (30s)");
  cmd->add_option("--periods", opts->periods,
                  "Byo-yomi periods (default 1 with --byoyomi)");
  cmd->add_option("--canadian", opts->canadian,
                  "Canadian byo-yomi: moves per --byoyomi period (time left "
                  "in a period carries into the next)");
  cmd->add_option("--clock", opts->clock,
                  "The whole time control as tournament files say it "
                  "(byoyomi:600+3x30, canadian:600+25/300, absolute:1800, "
                  "a byo-yomi followed by ,pass)");
  cmd->add_option("--last-period", opts->last_period,
                  "Art. 22.5, the last byo-yomi period run out: lose (the "
                  "rule), or pass (the move is a pass, the same byo-yomi "
                  "goes on)")
      ->capture_default_str();
  cmd->add_option("--sgf", opts->sgf,
                  "Where s saves the game (default "
                  "qipu-play-<date>-<time>.sgf)");
  cmd->add_option("--seed", opts->seed,
                  "Seed of the computer players (random when not given)");
  cmd->add_option("--engine-log", opts->engine_log,
                  "File for the stderr of gtp: engines (default: discarded)");
  cmd->callback([opts, exit_code] { *exit_code = RunPlay(*opts); });
}

}  // namespace qipu::ops
