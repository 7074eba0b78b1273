// `qipu replay FILE.sgf [--rules NAME] [--ko K] [--cycle C] [--suicide]
// [--komi X] [--json]`: replays each game of an SGF file under the given
// rules (default: the record's RU, else chinese; komi: --komi, else KM,
// else the preset's) and prints one result per game (one JSON object per
// line with --json). Replay stops at the first illegal move. Games of
// other games than Go (GM other than 1) in a collection are skipped and
// said so in their place ("game 2: skipped (byte 39): GM[19] at byte 41
// ...: not a game of Go ..."; with --json {"game": 2, "skipped": true,
// "byte_offset": 39, "reason": ...}). UTF-16 files are read (decoded
// first; each game's JSON notes say so). Exit status: 0 when every game was
// read or skipped, 1 when the file or a game could not be read (errors on
// stderr).
#include <cstdio>
#include <limits>
#include <memory>
#include <string>

#include "base/files.h"
#include "nlohmann/json.hpp"
#include "ops/commands.h"
#include "ops/flags.h"
#include "report/rules_json.h"
#include "rules/coord.h"
#include "rules/replay.h"
#include "rules/result.h"
#include "rules/sgf_reader.h"

namespace qipu::ops {
namespace {

struct ReplayOptions {
  std::string file;
  RuleFlags rules;
  bool json = false;
};

nlohmann::json ReportJson(const rules::GameRecord& rec, const rules::Rules& r,
                          const rules::ReplayReport& rep,
                          const std::string& rules_note) {
  nlohmann::json cycles = nlohmann::json::array();
  for (const auto& c : rep.cycles)
    cycles.push_back(report::CycleJson(c, rec.height));
  nlohmann::json j = {
      {"game", rec.game_number},
      {"size",
       std::to_string(rec.width) +
           (rec.width == rec.height ? "" : ":" + std::to_string(rec.height))},
      {"moves", rep.moves},
      {"legal", rep.legal},
      {"illegal_move", nullptr},
      {"illegal_reason", nullptr},
      {"ended_at", nullptr},
      {"cycles", cycles},
      {"ko_captures", rep.ko_captures},
      {"handicap", rep.handicap},
      {"area", report::AreaJson(rep.area)},
      {"area_result", rules::ResultToSgf(rep.area_result)},
      {"area_result_stones", rules::ResultInStones(rep.area_result)},
      {"record_result", nullptr},
      {"rules", report::RulesJson(r)},
  };
  if (!rep.legal) {
    j["illegal_move"] = rep.illegal_move;
    j["illegal_reason"] = rules::IllegalReasonName(rep.illegal_reason);
  }
  if (rep.ended_at > 0) {
    j["ended_at"] = rep.ended_at;
    j["rules_result"] = rules::ResultToSgf(rep.rules_result);
  }
  if (!rec.result.text.empty()) {
    j["record_result"] =
        rec.result.understood
            ? rules::ResultToSgf(rec.result.value, rec.result.other_reason)
            : rec.result.text;
  }
  nlohmann::json notes = nlohmann::json::array();
  for (const auto& n : rec.notes) notes.push_back(rules::NoteText(n));
  if (!rules_note.empty()) notes.push_back(rules_note);
  j["notes"] = notes;
  return j;
}

void PrintText(const rules::GameRecord& rec, const nlohmann::json& j) {
  std::printf("game %d: %d moves, %s", rec.game_number, j["moves"].get<int>(),
              j["legal"].get<bool>() ? "legal" : "ILLEGAL");
  if (!j["legal"].get<bool>()) {
    std::printf(" (move %d: %s)", j["illegal_move"].get<int>(),
                j["illegal_reason"].get<std::string>().c_str());
  }
  std::printf("\n  rules %s, komi %g\n",
              j["rules"]["preset"].get<std::string>().c_str(),
              j["rules"]["komi"].get<double>());
  if (!j["ended_at"].is_null()) {
    std::printf("  the rules end the game at move %d\n",
                j["ended_at"].get<int>());
  }
  std::printf("  area B %g W %g (dame %d): %s = %s\n",
              j["area"]["black"].get<double>(),
              j["area"]["white"].get<double>(), j["area"]["dame"].get<int>(),
              j["area_result"].get<std::string>().c_str(),
              j["area_result_stones"].get<std::string>().c_str());
  if (!j["record_result"].is_null()) {
    std::printf("  record result %s\n",
                j["record_result"].get<std::string>().c_str());
  }
  std::printf("  ko captures %d, cycles %zu\n", j["ko_captures"].get<int>(),
              j["cycles"].size());
  for (const auto& c : j["cycles"]) {
    std::printf("    %s from move %d, period %d, captures %d/%d: %s\n",
                c["class"].get<std::string>().c_str(),
                c["first_move"].get<int>(), c["period"].get<int>(),
                c["black_captures"].get<int>(), c["white_captures"].get<int>(),
                c["outcome"].get<std::string>().c_str());
  }
}

int RunReplay(const ReplayOptions& o) {
  auto data = base::ReadFile(o.file);
  if (!data.ok()) {
    std::fprintf(stderr, "qipu replay: %s\n",
                 std::string(data.status().message()).c_str());
    return 1;
  }
  const rules::SgfCollection sgf = rules::ReadSgf(*data);
  int status = sgf.errors.empty() ? 0 : 1;
  for (const auto& e : sgf.errors) {
    if (e.game_number == 0) {
      std::fprintf(stderr, "qipu replay: %s: byte %zu: %s\n", o.file.c_str(),
                   e.byte_offset, e.reason.c_str());
    } else {
      std::fprintf(stderr, "qipu replay: %s: game %d, byte %zu: %s\n",
                   o.file.c_str(), e.game_number, e.byte_offset,
                   e.reason.c_str());
    }
  }
  // Skipped games are reported in file order among the games read.
  size_t next_skipped = 0;
  const auto report_skipped_before = [&](int game_number) {
    for (; next_skipped < sgf.skipped.size() &&
           sgf.skipped[next_skipped].game_number < game_number;
         ++next_skipped) {
      const rules::SgfSkippedGame& g = sgf.skipped[next_skipped];
      if (o.json) {
        const nlohmann::json j = {{"game", g.game_number},
                                  {"skipped", true},
                                  {"byte_offset", g.byte_offset},
                                  {"reason", g.reason}};
        std::printf("%s\n", j.dump().c_str());
      } else {
        std::printf("game %d: skipped (byte %zu): %s\n", g.game_number,
                    g.byte_offset, g.reason.c_str());
      }
    }
  };
  for (const rules::GameRecord& rec : sgf.games) {
    report_skipped_before(rec.game_number);
    std::string note;
    rules::Rules fallback = rules::RulesFromSgf(rec.rules, &note);
    if (rec.has_komi) fallback.komi = rec.komi;
    if (!o.rules.preset.empty()) note.clear();
    auto r = o.rules.Resolve(fallback);
    if (!r.ok()) {
      std::fprintf(stderr, "qipu replay: %s\n",
                   std::string(r.status().message()).c_str());
      return 2;
    }
    if (!o.rules.preset.empty() && !o.rules.komi && rec.has_komi) {
      r->komi = rec.komi;
    }
    auto rep = rules::Replay(rec, *r);
    if (!rep.ok()) {
      std::fprintf(stderr, "qipu replay: %s: game %d: %s\n", o.file.c_str(),
                   rec.game_number,
                   std::string(rep.status().message()).c_str());
      status = 1;
      continue;
    }
    const nlohmann::json j = ReportJson(rec, *r, *rep, note);
    if (o.json) {
      std::printf("%s\n", j.dump().c_str());
    } else {
      PrintText(rec, j);
    }
  }
  report_skipped_before(std::numeric_limits<int>::max());
  return status;
}

}  // namespace

void AddReplayCommand(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<ReplayOptions>();
  CLI::App* cmd = app.add_subcommand(
      "replay", "Replay the games of an SGF file under a rule set");
  cmd->add_option("file", o->file, "SGF file")->required();
  o->rules.Add(cmd);
  cmd->add_flag("--json", o->json, "One JSON object per game, one per line");
  cmd->callback([o, exit_code] { *exit_code = RunReplay(*o); });
}

}  // namespace qipu::ops
