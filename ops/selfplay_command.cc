// `qipu selfplay --games N --size S [--rules R] [--ko K] [--cycle C]
// [--suicide] [--komi X] [--handicap H] [--threads T] [--seed X] --out DIR`:
// plays self-play games offline with the light policy under full rules and
// writes one SGF per game (DIR/game-000001.sgf ...) with RU, KM, HA, RE and
// qipu's own root properties: QS seed, QI game index, QA attempt, QK ko
// captures, QC cycles ("class:first_move:period:black_captures:
// white_captures:outcome:move", ';'-separated), QR rules axes, QV version.
// Game i is rules::PlaySelfPlay of (seed, i): the same seed gives the same
// games whatever the thread count.
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "base/console.h"
#include "base/version.h"
#include "base/work_pool.h"
#include "ops/commands.h"
#include "ops/flags.h"
#include "proto/convert.h"
#include "rules/coord.h"
#include "rules/rules_key.h"
#include "rules/scoring.h"
#include "rules/selfplay.h"
#include "rules/sgf_writer.h"

namespace qipu::ops {
namespace {

struct SelfplayOptions {
  uint64_t games = 10;
  int size = 9;
  RuleFlags rules;
  int handicap = 0;
  int threads = 1;
  uint64_t seed = 1;
  std::string out;
};

std::string CyclesText(const std::vector<rules::CycleRecord>& cycles, int h) {
  std::vector<std::string> parts;
  for (const auto& c : cycles) {
    parts.push_back(absl::StrCat(
        rules::CycleClassName(c.cls), ":", c.first_move, ":", c.period, ":",
        c.black_captures, ":", c.white_captures, ":",
        rules::CycleOutcomeName(c.outcome), ":", rules::GtpPoint(c.point, h)));
  }
  return absl::StrJoin(parts, ";");
}

rules::GameRecord ToRecord(const rules::Game& g,
                           const rules::SelfPlaySpec& spec,
                           const rules::SelfPlayOutcome& outcome) {
  std::vector<rules::Point> stones;
  if (spec.handicap > 0)
    stones = *rules::FixedHandicap(spec.width, spec.height, spec.handicap);
  rules::GameRecord r = wire::RecordOfGame(g, stones);
  r.handicap = spec.handicap;
  const std::string preset = rules::PresetName(spec.rules);
  r.rules = preset == "custom" ? "chinese" : preset;
  r.komi = spec.rules.komi;
  r.has_komi = true;
  r.result = rules::RecordResult::Of(g.result());
  r.black_player = "qipu random";
  r.white_player = "qipu random";
  r.extra.emplace_back("QS", absl::StrCat(outcome.seed));
  r.extra.emplace_back("QI", absl::StrCat(spec.index));
  r.extra.emplace_back("QA", absl::StrCat(outcome.attempt));
  r.extra.emplace_back("QK", absl::StrCat(g.ko_captures()));
  std::vector<rules::CycleRecord> all = outcome.voided_cycles;
  all.insert(all.end(), g.cycles().begin(), g.cycles().end());
  if (!all.empty()) r.extra.emplace_back("QC", CyclesText(all, spec.height));
  r.extra.emplace_back("QR", rules::RulesKey(spec.rules).Text());
  r.extra.emplace_back("QV",
                       absl::StrCat(base::Version(), "+", base::GitCommit()));
  return r;
}

int RunSelfplay(const SelfplayOptions& o) {
  if (absl::Status s = rules::ValidateSize(o.size, o.size); !s.ok()) {
    std::fprintf(stderr, "qipu selfplay: --size: %s\n",
                 std::string(s.message()).c_str());
    return 2;
  }
  auto r = o.rules.Resolve(rules::Rules{});
  if (!r.ok()) {
    std::fprintf(stderr, "qipu selfplay: %s\n",
                 std::string(r.status().message()).c_str());
    return 2;
  }
  if (o.handicap != 0) {
    if (auto h = rules::FixedHandicap(o.size, o.size, o.handicap); !h.ok()) {
      std::fprintf(stderr, "qipu selfplay: --handicap: %s\n",
                   std::string(h.status().message()).c_str());
      return 2;
    }
  }
  std::error_code ec;
  std::filesystem::create_directories(o.out, ec);
  if (ec) {
    std::fprintf(stderr, "qipu selfplay: --out %s: %s\n", o.out.c_str(),
                 ec.message().c_str());
    return 1;
  }
  std::atomic<uint64_t> written{0};
  std::atomic<bool> failed{false};
  absl::Mutex mu;
  base::ProgressBar bar("selfplay", o.games);  // guarded by mu
  base::WorkPool pool(o.threads - 1, "qipu-selfplay");
  struct State {
    rules::Game game;
    rules::SelfPlayOutcome outcome;
  };
  base::ParallelForEach(
      pool, o.games,
      [&] {
        return std::make_unique<State>(
            State{rules::Game(o.size, o.size, *r), {}});
      },
      [&](std::unique_ptr<State>& st, size_t i) {
        if (failed) return;
        rules::SelfPlaySpec spec;
        spec.width = spec.height = o.size;
        spec.rules = *r;
        spec.handicap = o.handicap;
        spec.job_seed = o.seed;
        spec.index = i;
        if (absl::Status s = rules::PlaySelfPlay(spec, &st->game, &st->outcome);
            !s.ok()) {
          base::PrintError("selfplay", s.message());
          failed = true;
          return;
        }
        const std::string path =
            absl::StrFormat("%s/game-%06d.sgf", o.out, i + 1);
        std::ofstream f(path, std::ios::binary | std::ios::trunc);
        f << rules::WriteSgf(ToRecord(st->game, spec, st->outcome));
        f.close();
        if (!f) {
          base::PrintError("selfplay", "cannot write " + path);
          failed = true;
          return;
        }
        const uint64_t done = ++written;
        absl::MutexLock lock(&mu);
        bar.Update(done);
      });
  bar.Finish();
  if (failed) return 1;
  std::printf("%llu games written to %s\n",
              static_cast<unsigned long long>(written.load()), o.out.c_str());
  return 0;
}

}  // namespace

void AddSelfplayCommand(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<SelfplayOptions>();
  CLI::App* cmd = app.add_subcommand(
      "selfplay", "Play self-play games offline and write them as SGF files");
  cmd->add_option("--games", o->games, "Number of games")
      ->check(CLI::Range(uint64_t{1}, uint64_t{100000000}))
      ->capture_default_str();
  cmd->add_option("--size", o->size, "Board size (2..25)")
      ->capture_default_str();
  o->rules.Add(cmd);
  cmd->add_option("--handicap", o->handicap, "Fixed handicap stones (0, 2..9)")
      ->capture_default_str();
  cmd->add_option("--threads", o->threads, "Threads")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--seed", o->seed, "Seed (same seed, same games)")
      ->capture_default_str();
  cmd->add_option("--out", o->out, "Output directory")->required();
  cmd->callback([o, exit_code] { *exit_code = RunSelfplay(*o); });
}

}  // namespace qipu::ops
