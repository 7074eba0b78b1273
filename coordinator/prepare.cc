#include "coordinator/prepare.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>

#include "absl/strings/str_cat.h"
#include "base/version.h"
#include "proto/convert.h"
#include "rules/coord.h"
#include "rules/replay.h"
#include "rules/scoring.h"
#include "rules/selfplay.h"
#include "store/aggregate.h"
#include "store/keys.h"

namespace qipu::coordinator {
namespace {

// Replays `record` in a Game kept per thread: a Game holds two boards and
// buffers sized for the move cap, and building them for every game cost
// the upload handler a tenth of its time.
absl::StatusOr<rules::ReplayReport> ReplayReused(
    const rules::GameRecord& record, const rules::Rules& rules,
    absl::Span<const rules::CycleRecord> claimed_prevented = {}) {
  // On the heap: in static TLS it would take its size out of every
  // thread's stack, including library threads with small stacks.
  thread_local const std::unique_ptr<rules::Game> game =
      std::make_unique<rules::Game>(rules::kMinSize, rules::kMinSize,
                                    rules::Rules{});
  return rules::ReplayInto(record, rules, claimed_prevented, game.get());
}

bool SameResult(const rules::GameResult& a, const rules::GameResult& b) {
  return a.winner == b.winner && a.reason == b.reason &&
         std::fabs(a.margin - b.margin) < 1e-9;
}

std::string Describe(const rules::GameResult& r) {
  return absl::StrCat(rules::ResultToSgf(r), " (",
                      rules::EndReasonName(r.reason), ")");
}

std::string Describe(const rules::CycleRecord& c, int height) {
  return absl::StrCat(rules::CycleClassName(c.cls), "/",
                      rules::CycleOutcomeName(c.outcome), " at move ",
                      c.first_move + c.period - 1, " ",
                      rules::GtpPoint(c.point, height));
}

absl::Status Mismatch(absl::string_view what, absl::string_view claimed,
                      absl::string_view actual) {
  return absl::InvalidArgumentError(absl::StrCat(
      what, ": the game claims ", claimed, " but the rules give ", actual));
}

void FinishPrepared(const rules::GameRecord& record, int plies, int depth,
                    const store::GameFacts& facts, qipu::v1::Game* game,
                    PreparedGame* out) {
  out->id = facts.id;
  out->key = store::GameKey(facts.id);
  out->position_ops.Clear();
  out->index_plies = static_cast<uint32_t>(std::max(
      0, std::min({plies, depth, static_cast<int>(record.moves.size())})));
  if (depth > 0) {
    store::IndexGameOps(record, plies, depth, facts.result.winner, facts.id,
                        out->config_id, out->day, &out->position_ops);
  }
  out->facts = facts;
  out->value = game->SerializeAsString();
}

}  // namespace

uint32_t DayOf(absl::Time t) {
  const absl::CivilDay d = absl::ToCivilDay(t, absl::UTCTimeZone());
  return static_cast<uint32_t>(d.year() * 10000 + d.month() * 100 + d.day());
}

uint32_t DayOfSgfDate(const std::string& dt) {
  // The first run of digits and dashes: YYYY[-MM[-DD]].
  size_t i = 0;
  while (i < dt.size() && !std::isdigit(static_cast<unsigned char>(dt[i]))) ++i;
  int parts[3] = {0, 0, 0};
  int n = 0;
  while (i < dt.size() && n < 3) {
    int v = 0;
    int digits = 0;
    while (i < dt.size() && std::isdigit(static_cast<unsigned char>(dt[i]))) {
      v = v * 10 + (dt[i] - '0');
      ++digits;
      ++i;
    }
    if (digits == 0 || (n == 0 && digits != 4) || (n > 0 && digits > 2)) break;
    parts[n++] = v;
    if (i < dt.size() && (dt[i] == '-' || dt[i] == '.' || dt[i] == '/')) {
      ++i;
    } else {
      break;
    }
  }
  if (n == 0 || parts[0] < 1000) return 0;
  const int month = n >= 2 && parts[1] >= 1 && parts[1] <= 12 ? parts[1] : 0;
  const int day =
      n >= 3 && month && parts[2] >= 1 && parts[2] <= 31 ? parts[2] : 0;
  return static_cast<uint32_t>(parts[0] * 10000 + month * 100 + day);
}

absl::StatusOr<PreparedGame> PrepareSelfPlay(const qipu::v1::Game& upload,
                                             const JobInfo& job,
                                             absl::Time now) {
  const qipu::v1::Provenance& prov = upload.provenance();
  if (prov.job() != job.job) {
    return absl::InvalidArgumentError(
        absl::StrCat("provenance.job ", prov.job(), " is not job ", job.job));
  }
  if (prov.game_index() >= job.requested) {
    return absl::InvalidArgumentError(
        absl::StrCat("game index ", prov.game_index(), " is outside job ",
                     job.job, " (", job.requested, " games)"));
  }
  const qipu::v1::JobConfig& cfg = job.config;
  if (upload.width() != cfg.width() || upload.height() != cfg.height()) {
    return Mismatch(
        "board size", absl::StrCat(upload.width(), "x", upload.height()),
        absl::StrCat(cfg.width(), "x", cfg.height(), " (the job's)"));
  }
  if (upload.handicap() != cfg.handicap()) {
    return Mismatch("handicap", absl::StrCat(upload.handicap()),
                    absl::StrCat(cfg.handicap(), " (the job's)"));
  }
  auto claimed_rules = wire::RulesFromProto(upload.rules());
  if (!claimed_rules.ok()) return claimed_rules.status();
  if (!(*claimed_rules == job.rules)) {
    return Mismatch("rules", rules::RulesKey(*claimed_rules),
                    rules::RulesKey(job.rules) + " (the job's)");
  }
  if (prov.attempt() >= static_cast<uint32_t>(rules::kMaxAttempts)) {
    return absl::InvalidArgumentError(
        absl::StrCat("provenance.attempt ", prov.attempt(), " is too large"));
  }
  const uint64_t seed = rules::GameSeedAttempt(
      cfg.seed(), prov.game_index(), static_cast<int>(prov.attempt()));
  if (prov.seed() != seed) {
    return Mismatch("seed", absl::StrCat(prov.seed()), absl::StrCat(seed));
  }
  auto record = wire::GameToRecord(upload);
  if (!record.ok()) return record.status();
  const int w = record->width;
  const int h = record->height;
  // The setup must be exactly the job's handicap stones.
  std::vector<rules::Point> stones;
  if (cfg.handicap() > 0) {
    auto fixed = rules::FixedHandicap(w, h, static_cast<int>(cfg.handicap()));
    if (!fixed.ok()) return fixed.status();
    stones = *fixed;
  }
  const bool setup_ok = stones.empty()
                            ? record->setup.empty()
                            : record->setup.size() == 1 &&
                                  record->setup[0].before_move == 0 &&
                                  record->setup[0].white.empty() &&
                                  record->setup[0].empty.empty() &&
                                  record->setup[0].black == stones;
  if (!setup_ok) {
    return absl::InvalidArgumentError(
        "setup: a self-play game may only set up its job's handicap stones");
  }

  std::vector<rules::CycleRecord> claimed;
  std::vector<rules::CycleRecord> claimed_prevented;
  for (const auto& c : upload.cycles()) {
    auto cr = wire::CycleFromProto(c, w, h);
    if (!cr.ok()) return cr.status();
    claimed.push_back(*cr);
    if (cr->outcome == rules::CycleOutcome::kPreventedSuperko ||
        cr->outcome == rules::CycleOutcome::kPreventedCycleRule) {
      claimed_prevented.push_back(*cr);
    }
  }
  auto report = ReplayReused(*record, job.rules, claimed_prevented);
  if (!report.ok()) return report.status();
  if (!report->legal) {
    return absl::InvalidArgumentError(
        absl::StrCat("move ", report->illegal_move, " is illegal (",
                     rules::IllegalReasonName(report->illegal_reason), ")"));
  }
  if (report->ended_at == 0 || report->ended_at != report->moves) {
    return absl::InvalidArgumentError(
        absl::StrCat("the game has ", report->moves, " moves but the rules ",
                     report->ended_at == 0
                         ? "do not end it"
                         : absl::StrCat("end it at move ", report->ended_at)));
  }
  auto claimed_result = wire::ResultFromProto(upload.result());
  if (!claimed_result.ok()) return claimed_result.status();
  if (!SameResult(*claimed_result, report->rules_result)) {
    return Mismatch("result", Describe(*claimed_result),
                    Describe(report->rules_result));
  }
  if (report->cycles.size() != claimed.size()) {
    return Mismatch("cycles", absl::StrCat(claimed.size(), " cycles"),
                    absl::StrCat(report->cycles.size()));
  }
  for (size_t i = 0; i < claimed.size(); ++i) {
    if (!(claimed[i] == report->cycles[i])) {
      return Mismatch(absl::StrCat("cycle ", i + 1), Describe(claimed[i], h),
                      Describe(report->cycles[i], h));
    }
  }
  if (upload.ko_captures() != static_cast<uint32_t>(report->ko_captures)) {
    return Mismatch("ko captures", absl::StrCat(upload.ko_captures()),
                    absl::StrCat(report->ko_captures));
  }
  const qipu::v1::Area& area = upload.area();
  if (std::fabs(area.black() - report->area.black) > 1e-9 ||
      std::fabs(area.white() - report->area.white) > 1e-9 ||
      std::fabs(area.dame() - report->area.dame) > 1e-9) {
    return Mismatch(
        "area", absl::StrCat(area.black(), "/", area.white(), "/", area.dame()),
        absl::StrCat(report->area.black, "/", report->area.white, "/",
                     report->area.dame));
  }
  // Voided attempts are re-played from their seeds: they must have ended by
  // a replay cycle exactly as claimed.
  std::vector<rules::CycleRecord> voided;
  for (const auto& c : upload.voided_cycles()) {
    auto cr = wire::CycleFromProto(c, w, h);
    if (!cr.ok()) return cr.status();
    voided.push_back(*cr);
  }
  if (voided.size() != prov.attempt()) {
    return Mismatch("voided attempts", absl::StrCat(voided.size()),
                    absl::StrCat(prov.attempt(), " (the attempt number)"));
  }
  if (prov.attempt() > 0) {
    rules::SelfPlaySpec spec;
    spec.width = w;
    spec.height = h;
    spec.rules = job.rules;
    spec.handicap = static_cast<int>(cfg.handicap());
    spec.job_seed = cfg.seed();
    spec.index = prov.game_index();
    rules::Game g(w, h, job.rules);
    rules::SelfPlayOutcome outcome;
    if (absl::Status s = rules::PlaySelfPlay(spec, &g, &outcome); !s.ok()) {
      return s;
    }
    if (outcome.attempt != static_cast<int>(prov.attempt()) ||
        outcome.voided_cycles != voided) {
      return absl::InvalidArgumentError(
          "voided attempts: the seeds do not replay to the claimed cycles");
    }
  }

  PreparedGame out;
  out.job = job.job;
  out.index = prov.game_index();
  out.config_id = job.config_id;
  out.day = DayOf(now);
  qipu::v1::Game game = upload;
  game.clear_meta();
  qipu::v1::Provenance* p = game.mutable_provenance();
  p->set_policy(cfg.policy());
  p->set_qipu_version(absl::StrCat(base::Version(), "+", base::GitCommit()));
  p->set_stored_unix_micros(absl::ToUnixMicros(now));
  p->clear_source();
  p->clear_file();
  p->clear_file_game();

  store::GameFacts facts;
  facts.id = store::GameId::SelfPlay(job.job, prov.game_index());
  facts.result = report->rules_result;
  facts.moves = report->moves;
  facts.ko_captures = report->ko_captures;
  facts.cycles = report->cycles;
  facts.cycles.insert(facts.cycles.end(), voided.begin(), voided.end());
  FinishPrepared(*record, report->played, static_cast<int>(cfg.index_depth()),
                 facts, &game, &out);
  return out;
}

absl::StatusOr<PreparedImport> PrepareImport(const rules::GameRecord& record,
                                             const ImportContext& ctx,
                                             store::ConfigRegistry* configs) {
  std::string note;
  rules::Rules r = rules::RulesFromSgf(record.rules, &note);
  if (record.has_komi) {
    if (absl::Status s = rules::ValidateKomi(record.komi); !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("KM: ", s.message()));
    }
    r.komi = record.komi;
  }
  auto report = ReplayReused(record, r);
  if (!report.ok()) return report.status();
  if (!report->legal) {
    return absl::InvalidArgumentError(
        absl::StrCat("move ", report->illegal_move, " is illegal under ",
                     rules::PresetName(r), " rules (",
                     rules::IllegalReasonName(report->illegal_reason), ")"));
  }
  rules::GameResult result;
  std::vector<std::string> notes = record.notes;
  if (!note.empty()) notes.push_back(note);
  if (auto parsed = rules::ParseSgfResult(record.result); parsed.ok()) {
    result = *parsed;
  } else {
    result.reason = rules::EndReason::kUnknown;
    notes.push_back(
        absl::StrCat("RE[", record.result, "] not understood; result unknown"));
  }

  qipu::v1::Game game;
  wire::RecordToGame(record, &game);
  *game.mutable_rules() = wire::RulesToProto(r);
  *game.mutable_result() = wire::ResultToProto(result);
  *game.mutable_area() = wire::AreaToProto(report->area);
  for (const auto& c : report->cycles) {
    *game.add_cycles() = wire::CycleToProto(c, record.width);
  }
  game.set_ko_captures(static_cast<uint32_t>(report->ko_captures));
  game.mutable_meta()->clear_normalised();
  for (const std::string& n : notes) game.mutable_meta()->add_normalised(n);
  const uint32_t day = DayOfSgfDate(record.date);
  game.mutable_meta()->set_date_ymd(day);
  qipu::v1::Provenance* p = game.mutable_provenance();
  p->set_source(ctx.source);
  p->set_file(ctx.file);
  p->set_file_game(static_cast<uint32_t>(record.game_number));
  p->set_policy("import");
  p->set_qipu_version(absl::StrCat(base::Version(), "+", base::GitCommit()));
  p->set_stored_unix_micros(absl::ToUnixMicros(ctx.now));

  qipu::v1::ConfigRecord dims;
  dims.set_width(static_cast<uint32_t>(record.width));
  dims.set_height(static_cast<uint32_t>(record.height));
  dims.set_rules_key(rules::RulesKey(r));
  dims.set_preset(rules::PresetName(r));
  dims.set_komi(r.komi);
  dims.set_handicap(static_cast<uint32_t>(report->handicap));
  dims.set_source(ctx.source);
  dims.set_policy("import");
  auto config_id = configs->Intern(dims);
  if (!config_id.ok()) return config_id.status();

  PreparedImport out;
  out.game.config_id = *config_id;
  out.game.day = day;
  store::GameFacts facts;
  facts.id = store::ContentId(record);
  facts.result = result;
  facts.moves = report->moves;
  facts.ko_captures = report->ko_captures;
  facts.cycles = report->cycles;
  FinishPrepared(record, report->played, ctx.index_depth, facts, &game,
                 &out.game);
  out.report = *std::move(report);
  return out;
}

}  // namespace qipu::coordinator
