#include "engine/prepare.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "base/version.h"
#include "engine/game_format.h"
#include "engine/policy_claims.h"
#include "proto/convert.h"
#include "proto/job_policies.h"
#include "rules/coord.h"
#include "rules/replay.h"
#include "rules/rules_key.h"
#include "rules/scoring.h"
#include "rules/selfplay.h"
#include "store/aggregate.h"
#include "store/keys.h"
#include "store/pattern_index.h"

namespace qipu::engine {
namespace {

// Replays `record` in a Game kept per thread: a Game holds two boards and
// buffers sized for the move cap, and building them for every game cost
// the upload handler a tenth of its time.
// The game of this thread's last ReplayReused(): its final position.
rules::Game* ThreadGame() {
  // On the heap: in static TLS it would take its size out of every
  // thread's stack, including library threads with small stacks.
  thread_local const std::unique_ptr<rules::Game> game =
      std::make_unique<rules::Game>(rules::kMinSize, rules::kMinSize,
                                    rules::Rules{});
  return game.get();
}

absl::StatusOr<rules::ReplayReport> ReplayReused(
    const rules::GameRecord& record, const rules::Rules& rules,
    absl::Span<const rules::CycleRecord> claimed_prevented) {
  return rules::ReplayInto(record, rules, claimed_prevented, ThreadGame());
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

bool IsPrevented(const rules::CycleRecord& c) {
  return c.outcome == rules::CycleOutcome::kPreventedSuperko ||
         c.outcome == rules::CycleOutcome::kPreventedCycleRule;
}

// --- The one path of every game -------------------------------------------

// The rules' name for a message: the preset's ("chinese rules"), the
// preset's with the komi when only the komi differs ("chinese rules with
// komi 6.5": records name their komi, not their preset), else "custom
// rules".
std::string RulesName(const rules::Rules& r) {
  const std::string name = rules::PresetName(r);
  if (name != "custom") return absl::StrCat(name, " rules");
  for (absl::string_view preset_name : rules::PresetNames()) {
    absl::StatusOr<rules::Rules> preset = rules::PresetRules(preset_name);
    if (!preset.ok()) continue;
    rules::Rules other_komi = r;
    other_komi.komi = preset->komi;
    if (other_komi == *preset) {
      return absl::StrCat(preset_name, " rules with komi ", r.komi);
    }
  }
  return "custom rules";
}

// Replays `record` under `rules` (verifying `claimed_prevented`, see
// rules::Replay) and refuses a record with an illegal move: "move N is
// illegal (reason)", or with `name_rules` "move N is illegal under <rules>
// (reason)" (RulesName). (OUT) *illegal_move, when given: that move's number.
absl::StatusOr<rules::ReplayReport> ReplayLegal(
    const rules::GameRecord& record, const rules::Rules& rules,
    absl::Span<const rules::CycleRecord> claimed_prevented, bool name_rules,
    int* illegal_move) {
  auto report = ReplayReused(record, rules, claimed_prevented);
  if (!report.ok() || report->legal) return report;
  if (illegal_move != nullptr) *illegal_move = report->illegal_move;
  return absl::InvalidArgumentError(absl::StrCat(
      "move ", report->illegal_move, " is illegal",
      name_rules ? absl::StrCat(" under ", RulesName(rules)) : std::string(),
      " (", rules::IllegalReasonName(report->illegal_reason), ")"));
}

// The stored form of a replayed game: the record's board, setup and moves
// (and its Meta when `with_meta`), the rules, `result`, and the area,
// cycles and ko captures the replay gave. Provenance is the caller's.
// `encoded`, when given, is a message whose board fields (size, handicap,
// setup, moves and their colours) decoded to `record` -- a self-play
// upload, which stores no Meta: they are copied as they are instead of
// encoded again, which cost the upload path 4% of its time (for an upload
// from wire::SelfPlayToProto the bytes are the same either way).
qipu::v1::Game StoredGame(const rules::GameRecord& record,
                          const qipu::v1::Game* encoded, bool with_meta,
                          const rules::Rules& rules,
                          const rules::GameResult& result,
                          const rules::ReplayReport& report) {
  qipu::v1::Game game;
  if (encoded != nullptr) {
    game.set_width(encoded->width());
    game.set_height(encoded->height());
    game.set_handicap(encoded->handicap());
    *game.mutable_setup() = encoded->setup();
    game.set_moves(encoded->moves());
    game.set_num_moves(encoded->num_moves());
    game.set_first_color(encoded->first_color());
    *game.mutable_same_color_moves() = encoded->same_color_moves();
  } else if (with_meta) {
    wire::RecordToGame(record, &game);
  } else {
    wire::BoardToGame(record, &game);
  }
  *game.mutable_rules() = wire::RulesToProto(rules);
  *game.mutable_result() = wire::ResultToProto(result);
  *game.mutable_area() = wire::AreaToProto(report.area);
  for (const rules::CycleRecord& c : report.cycles) {
    *game.add_cycles() = wire::CycleToProto(c, record.width);
  }
  game.set_ko_captures(static_cast<uint32_t>(report.ko_captures));
  return game;
}

// Fills *out -- key, value, facts and index entries -- for `game`, the
// stored form of `record` (out->config_id and out->day already set): the
// facts are `result` and the replay's moves, ko captures and cycles, then
// `voided` (cycles of voided attempts).
void FinishPrepared(const rules::GameRecord& record,
                    const rules::ReplayReport& report, const store::GameId& id,
                    const rules::GameResult& result,
                    absl::Span<const rules::CycleRecord> voided, int depth,
                    const qipu::v1::Game& game, PreparedGame* out) {
  out->id = id;
  out->key = store::GameKey(id);
  out->facts.id = id;
  out->facts.result = result;
  out->facts.moves = report.moves;
  out->facts.ko_captures = report.ko_captures;
  out->facts.cycles = report.cycles;
  out->facts.cycles.insert(out->facts.cycles.end(), voided.begin(),
                           voided.end());
  out->position_ops.Clear();
  out->index_plies = static_cast<uint32_t>(std::max(
      0,
      std::min({report.played, depth, static_cast<int>(record.moves.size())})));
  if (depth > 0) {
    store::IndexGameOps(record, report.played, depth, result.winner, id,
                        out->config_id, out->day, &out->position_ops);
  }
  // The walk's boards on the heap, once per thread (see ThreadGame()).
  thread_local const std::unique_ptr<store::PositionWalk> walk =
      std::make_unique<store::PositionWalk>();
  out->pattern_entry = store::EncodePatternEntry(record, walk.get());
  out->players = store::BuildPlayerEntries(game, id, out->config_id, out->day,
                                           out->index_plies);
  out->value = game.SerializeAsString();
}

// `record` up to its first `moves` moves: the setups and move properties
// of later moves are left out with them.
rules::GameRecord CutRecord(const rules::GameRecord& record, int moves) {
  rules::GameRecord out = record;
  out.moves.resize(std::min(out.moves.size(), static_cast<size_t>(moves)));
  std::erase_if(out.setup, [moves](const rules::SetupStep& s) {
    return s.before_move > moves;
  });
  std::erase_if(out.move_extra, [moves](const rules::MoveProperty& m) {
    return m.move >= moves;
  });
  out.unread = {};
  return out;
}

// Provenance.qipu_version and stored_unix_micros (`now`).
void SetVersion(qipu::v1::Provenance* p, absl::Time now) {
  p->set_qipu_version(absl::StrCat(base::Version(), "+", base::GitCommit()));
  p->set_stored_unix_micros(absl::ToUnixMicros(now));
}

// --- Self-play claims -----------------------------------------------------

// What an upload claims of its job: job, game index, board size, handicap,
// rules, attempt, seed, and a setup of exactly the handicap stones.
absl::Status CheckAgainstJob(const wire::SelfPlayUpload& u,
                             const JobInfo& job) {
  const rules::SelfPlayClaims& c = u.claims;
  const rules::GameRecord& record = u.record;
  if (c.job != job.job) {
    return absl::InvalidArgumentError(
        absl::StrCat("provenance.job ", c.job, " is not job ", job.job));
  }
  if (c.index >= job.requested) {
    return absl::InvalidArgumentError(
        absl::StrCat("game index ", c.index, " is outside job ", job.job, " (",
                     job.requested, " games)"));
  }
  const qipu::v1::JobConfig& cfg = job.config;
  if (static_cast<uint32_t>(record.width) != cfg.width() ||
      static_cast<uint32_t>(record.height) != cfg.height()) {
    return Mismatch(
        "board size", absl::StrCat(record.width, "x", record.height),
        absl::StrCat(cfg.width(), "x", cfg.height(), " (the job's)"));
  }
  if (static_cast<uint32_t>(record.handicap) != cfg.handicap()) {
    return Mismatch("handicap", absl::StrCat(record.handicap),
                    absl::StrCat(cfg.handicap(), " (the job's)"));
  }
  if (!(c.rules == job.rules)) {
    return Mismatch("rules", rules::RulesKey(c.rules).Text(),
                    rules::RulesKey(job.rules).Text() + " (the job's)");
  }
  if (c.attempt >= static_cast<uint32_t>(rules::kMaxAttempts)) {
    return absl::InvalidArgumentError(
        absl::StrCat("provenance.attempt ", c.attempt, " is too large"));
  }
  const uint64_t seed =
      rules::GameSeedAttempt(cfg.seed(), c.index, static_cast<int>(c.attempt));
  if (c.seed != seed) {
    return Mismatch("seed", absl::StrCat(c.seed), absl::StrCat(seed));
  }
  std::vector<rules::Point> stones;
  if (cfg.handicap() > 0) {
    auto fixed = rules::FixedHandicap(record.width, record.height,
                                      static_cast<int>(cfg.handicap()));
    if (!fixed.ok()) return fixed.status();
    stones = *std::move(fixed);
  }
  const bool setup_ok = stones.empty() ? record.setup.empty()
                                       : record.setup.size() == 1 &&
                                             record.setup[0].before_move == 0 &&
                                             record.setup[0].white.empty() &&
                                             record.setup[0].empty.empty() &&
                                             record.setup[0].black == stones;
  if (!setup_ok) {
    return absl::InvalidArgumentError(
        "setup: a self-play game may only set up its job's handicap stones");
  }
  return absl::OkStatus();
}

// What an upload claims the rules gave, against what they give: the end,
// result, cycles, ko captures and area.
absl::Status CheckAgainstReplay(const rules::SelfPlayClaims& c,
                                const rules::ReplayReport& report, int height,
                                bool policy_ended) {
  if (policy_ended) {
    // CheckPolicyEnd() checked the end and the result.
  } else if (report.ended_at == 0 || report.ended_at != report.moves) {
    return absl::InvalidArgumentError(
        absl::StrCat("the game has ", report.moves, " moves but the rules ",
                     report.ended_at == 0
                         ? "do not end it"
                         : absl::StrCat("end it at move ", report.ended_at)));
  }
  if (!policy_ended && !SameResult(c.result, report.rules_result)) {
    return Mismatch("result", Describe(c.result),
                    Describe(report.rules_result));
  }
  if (report.cycles.size() != c.cycles.size()) {
    return Mismatch("cycles", absl::StrCat(c.cycles.size(), " cycles"),
                    absl::StrCat(report.cycles.size()));
  }
  for (size_t i = 0; i < c.cycles.size(); ++i) {
    if (!(c.cycles[i] == report.cycles[i])) {
      return Mismatch(absl::StrCat("cycle ", i + 1),
                      Describe(c.cycles[i], height),
                      Describe(report.cycles[i], height));
    }
  }
  if (c.ko_captures != static_cast<uint32_t>(report.ko_captures)) {
    return Mismatch("ko captures", absl::StrCat(c.ko_captures),
                    absl::StrCat(report.ko_captures));
  }
  if (std::fabs(c.area_black - report.area.black) > 1e-9 ||
      std::fabs(c.area_white - report.area.white) > 1e-9 ||
      std::fabs(c.area_dame - report.area.dame) > 1e-9) {
    return Mismatch(
        "area", absl::StrCat(c.area_black, "/", c.area_white, "/", c.area_dame),
        absl::StrCat(report.area.black, "/", report.area.white, "/",
                     report.area.dame));
  }
  return absl::OkStatus();
}

// Voided attempts of light-policy games are re-played from their seeds:
// they must have ended by a replay cycle exactly as claimed.
absl::Status CheckVoided(const wire::SelfPlayUpload& u, const JobInfo& job,
                         bool light) {
  const rules::SelfPlayClaims& c = u.claims;
  if (c.voided_cycles.size() != c.attempt) {
    return Mismatch("voided attempts", absl::StrCat(c.voided_cycles.size()),
                    absl::StrCat(c.attempt, " (the attempt number)"));
  }
  if (c.attempt == 0) return absl::OkStatus();
  if (!light) {
    // Policies other than the light one cannot be replayed from the seed:
    // each voided attempt must at least have ended by a replay cycle.
    for (const rules::CycleRecord& v : c.voided_cycles) {
      if (v.outcome != rules::CycleOutcome::kReplay) {
        return absl::InvalidArgumentError(
            "voided attempts: each must end by a replay cycle");
      }
    }
    return absl::OkStatus();
  }
  const rules::SelfPlaySpec spec =
      wire::SelfPlaySpecFor(job.config, job.rules, c.index);
  rules::Game g(spec.width, spec.height, job.rules);
  rules::SelfPlayOutcome outcome;
  if (absl::Status s = rules::PlaySelfPlay(spec, &g, &outcome); !s.ok()) {
    return s;
  }
  if (outcome.attempt != static_cast<int>(c.attempt) ||
      outcome.voided_cycles != c.voided_cycles) {
    return absl::InvalidArgumentError(
        "voided attempts: the seeds do not replay to the claimed cycles");
  }
  return absl::OkStatus();
}

// PrepareSelfPlay() of `u`; `encoded` as for StoredGame().
absl::StatusOr<PreparedGame> PrepareUpload(const wire::SelfPlayUpload& u,
                                           const qipu::v1::Game* encoded,
                                           const JobInfo& job, absl::Time now) {
  const rules::GameRecord& record = u.record;
  const rules::SelfPlayClaims& claims = u.claims;
  if (absl::Status s = CheckAgainstJob(u, job); !s.ok()) return s;
  const qipu::v1::JobConfig& cfg = job.config;
  const wire::ColourPolicies policies = wire::JobPolicies(cfg);
  if (const wire::ColourPolicies claimed = ClaimedPolicies(u);
      claimed.black != policies.black || claimed.white != policies.white) {
    return Mismatch("policies", wire::PolicyDisplay(claimed),
                    wire::PolicyDisplay(policies) + " (the job's)");
  }
  // Only light-policy games are regenerated from their seed (their voided
  // attempts) and only other policies resign, forfeit, fail or search.
  const bool light = policies.light();
  const bool policy_ended = !light && PolicyEnded(claims.result);
  if (light && !u.search_visits.empty()) {
    return absl::InvalidArgumentError(
        "search_visits: the light policy does not search");
  }
  std::vector<rules::CycleRecord> prevented;
  for (const rules::CycleRecord& c : claims.cycles) {
    if (IsPrevented(c)) prevented.push_back(c);
  }
  auto report = ReplayLegal(record, job.rules, prevented,
                            /*name_rules=*/false, /*illegal_move=*/nullptr);
  if (!report.ok()) return report.status();
  if (policy_ended) {
    if (absl::Status s = CheckPolicyEnd(u, *report, *ThreadGame()); !s.ok()) {
      return s;
    }
  }
  if (absl::Status s =
          CheckAgainstReplay(claims, *report, record.height, policy_ended);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckVoided(u, job, light); !s.ok()) return s;
  if (!u.search_visits.empty()) {
    if (absl::Status s = CheckSearches(u, job.rules); !s.ok()) return s;
  }

  const rules::GameResult& result =
      policy_ended ? claims.result : report->rules_result;
  PreparedGame out;
  out.job = job.job;
  out.index = claims.index;
  out.config_id = job.config_id;
  out.day = DayOf(now);
  qipu::v1::Game game = StoredGame(record, encoded, /*with_meta=*/false,
                                   job.rules, result, *report);
  if (policy_ended) {
    game.mutable_result()->set_detail(u.result_detail);
    if (claims.result.reason == rules::EndReason::kIllegal) {
      game.mutable_result()->set_illegal_point(u.illegal_point);
    }
  }
  game.set_search_visits(u.search_visits);
  for (const rules::CycleRecord& c : claims.voided_cycles) {
    *game.add_voided_cycles() = wire::CycleToProto(c, record.width);
  }
  qipu::v1::Provenance* p = game.mutable_provenance();
  p->set_job(claims.job);
  p->set_game_index(claims.index);
  p->set_worker(u.worker);
  p->set_seed(claims.seed);
  wire::SetGamePolicies(policies, p);
  p->set_attempt(claims.attempt);
  SetVersion(p, now);
  FinishPrepared(
      record, *report, store::GameId::SelfPlay(job.job, claims.index), result,
      claims.voided_cycles, static_cast<int>(cfg.index_depth()), game, &out);
  return out;
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
  auto u = wire::SelfPlayFromProto(upload);
  if (!u.ok()) return u.status();
  return PrepareUpload(*u, &upload, job, now);
}

absl::StatusOr<PreparedGame> PrepareSelfPlay(const wire::SelfPlayUpload& upload,
                                             const JobInfo& job,
                                             absl::Time now) {
  return PrepareUpload(upload, nullptr, job, now);
}

absl::StatusOr<PreparedImport> PrepareImport(const rules::GameRecord& record,
                                             const ImportContext& ctx,
                                             store::ConfigRegistry* configs,
                                             int* illegal_move) {
  if (illegal_move != nullptr) *illegal_move = 0;
  std::string rules_note;
  rules::Rules r = rules::RulesFromSgf(record.rules, &rules_note);
  if (record.has_komi) {
    if (absl::Status s = rules::ValidateKomi(record.komi); !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("KM: ", s.message()));
    }
    r.komi = record.komi;
  }
  if (ctx.strict && record.unread.move != 0) {
    if (illegal_move != nullptr) *illegal_move = record.unread.move;
    return absl::InvalidArgumentError(absl::StrCat(
        "move ", record.unread.move, " is not a point of the board (",
        record.unread.reason, ")"));
  }
  auto report =
      ctx.strict ? ReplayLegal(record, r, {}, /*name_rules=*/true, illegal_move)
                 : ReplayReused(record, r, {});
  if (!report.ok()) return report.status();
  // A record is history: one its rules do not accept, or that goes on
  // after they ended the game, is replayed as it was played (only those:
  // the strict replay above is the fast path). Strict keeps what the rules
  // played, as before.
  const rules::GameRecord* stored = &record;
  rules::GameRecord cut_record;
  if (!ctx.strict && (!report->legal || record.unread.move != 0 ||
                      report->played < report->moves)) {
    report = rules::ReplayRecordInto(record, r, ThreadGame());
    if (!report.ok()) return report.status();
    if (report->cut.move != 0) {
      cut_record = CutRecord(record, report->cut.move - 1);
      stored = &cut_record;
      report->moves = static_cast<int>(cut_record.moves.size());
    }
  }
  // What the import assumed, after the reader's notes.
  std::vector<rules::RecordNote> assumed;
  if (!rules_note.empty()) {
    assumed.push_back(
        {.kind = rules::NoteKind::kRulesNotImplemented, .value = record.rules});
  }
  // The record's result, read with the record (rules::RecordResult).
  const rules::RecordResult& written = record.result;
  rules::GameResult result = written.value;
  if (!written.understood) {
    assumed.push_back(
        {.kind = rules::NoteKind::kResultNotUnderstood, .value = written.text});
  } else if (result.reason == rules::EndReason::kIllegal) {
    // A winner with a reason SGF does not define: kept, and said so.
    assumed.push_back({.kind = rules::NoteKind::kResultIllegalMove,
                       .value = written.text,
                       .winner = result.winner});
  } else if (result.reason == rules::EndReason::kOther) {
    assumed.push_back({.kind = rules::NoteKind::kResultOtherReason,
                       .value = written.text,
                       .read = written.other_reason,
                       .winner = result.winner});
  }

  PreparedImport out;
  qipu::v1::Game game =
      StoredGame(*stored, nullptr, /*with_meta=*/true, r, result, *report);
  for (const rules::RuleBreach& b : report->breaches) {
    *game.add_breaches() = wire::BreachToProto(b, record.width);
  }
  if (report->cut.move != 0) {
    *game.mutable_cut() = wire::CutToProto(
        report->cut, record.width,
        std::max(report->cut.move, static_cast<int>(record.moves.size())));
    out.kept = "cut";
  } else if (!report->breaches.empty()) {
    out.kept = "noted";
  }
  if (!report->breaches.empty() &&
      (report->cut.move == 0 || report->breaches[0].move < report->cut.move)) {
    out.kept_move = report->breaches[0].move;
    out.kept_note =
        rules::RuleBreachText(report->breaches[0], r, record.height);
  } else if (report->cut.move != 0) {
    out.kept_move = report->cut.move;
    out.kept_note = rules::RecordCutText(
        report->cut, record.height,
        record.unread.move == report->cut.move ? record.unread.reason : "");
  }
  qipu::v1::Meta* meta = game.mutable_meta();
  for (const rules::RecordNote& n : assumed) {
    meta->add_normalised(rules::NoteText(n));
  }
  const uint32_t day = DayOfSgfDate(record.date);
  meta->set_date_ymd(day);
  qipu::v1::Provenance* p = game.mutable_provenance();
  p->set_source(ctx.source);
  p->set_file(ctx.file);
  p->set_file_game(static_cast<uint32_t>(record.game_number));
  p->set_policy("import");
  SetVersion(p, ctx.now);
  // A cut record's id hashes moves the stored game no longer has: keep it
  // (GameIdOf() reads it back; exports over gRPC name the game by it).
  const store::GameId id = store::ContentId(record);
  if (stored != &record && store::ContentId(*stored) != id) {
    p->set_content_id(store::GameIdText(id));
  }
  // Root visits an export wrote as QM move properties (game_format.h); a
  // record whose QM values do not read keeps none.
  if (auto visits = SearchVisitsOf(record); visits.ok()) {
    game.set_search_visits(*std::move(visits));
  }

  qipu::v1::ConfigRecord dims;
  dims.set_width(static_cast<uint32_t>(record.width));
  dims.set_height(static_cast<uint32_t>(record.height));
  dims.set_rules_key(rules::RulesKey(r).Text());
  dims.set_preset(rules::PresetName(r));
  dims.set_komi(r.komi);
  dims.set_handicap(static_cast<uint32_t>(report->handicap));
  dims.set_source(ctx.source);
  dims.set_policy("import");
  dims.set_record(out.kept);
  auto config_id = configs->Intern(dims);
  if (!config_id.ok()) return config_id.status();

  out.game.config_id = *config_id;
  out.game.day = day;
  FinishPrepared(*stored, *report, id, result, {}, ctx.index_depth, game,
                 &out.game);
  out.report = *std::move(report);
  out.notes = record.notes;
  out.notes.insert(out.notes.end(), assumed.begin(), assumed.end());
  return out;
}

}  // namespace qipu::engine
