// Conversions between qipu.v1 messages and rules/ domain types, shared by
// the coordinator, the worker and the qipu tool: every enum pair, rule
// sets, packed move and point lists, cycles, results, whole games <->
// GameRecord, and a worker's self-play upload <-> the rules' record and
// claims. Decoding validates (remote input) and returns InvalidArgument
// naming the field.
#ifndef QIPU_PROTO_CONVERT_H_
#define QIPU_PROTO_CONVERT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "qipu/v1/game.pb.h"
#include "qipu/v1/rules.pb.h"
#include "qipu/v1/work.pb.h"
#include "rules/game.h"
#include "rules/record.h"
#include "rules/replay.h"
#include "rules/result.h"
#include "rules/rules.h"
#include "rules/scoring.h"
#include "rules/selfplay.h"
#include "rules/selfplay_claims.h"
#include "rules/types.h"

namespace qipu::wire {

// Enums: one explicit pair per enum, both ways a switch, so that a
// reordering of either enum cannot map a value wrongly. ToProto is total.
// FromProto maps every value the proto enum defines that has a domain
// counterpart and refuses anything else -- an UNSPECIFIED without a
// counterpart, a value from a newer or broken peer -- with InvalidArgument
// "<n> is not a <what>" (callers prefix the field).
qipu::v1::KoRule KoRuleToProto(rules::KoRule k);
absl::StatusOr<rules::KoRule> KoRuleFromProto(qipu::v1::KoRule k);
qipu::v1::CycleRule CycleRuleToProto(rules::CycleRule c);
absl::StatusOr<rules::CycleRule> CycleRuleFromProto(qipu::v1::CycleRule c);
qipu::v1::DameRule DameRuleToProto(rules::DameRule d);
absl::StatusOr<rules::DameRule> DameRuleFromProto(qipu::v1::DameRule d);
qipu::v1::HandicapCompensation HandicapCompensationToProto(
    rules::HandicapCompensation h);
absl::StatusOr<rules::HandicapCompensation> HandicapCompensationFromProto(
    qipu::v1::HandicapCompensation h);
qipu::v1::CycleClass CycleClassToProto(rules::CycleClass c);
absl::StatusOr<rules::CycleClass> CycleClassFromProto(qipu::v1::CycleClass c);
qipu::v1::CycleOutcome CycleOutcomeToProto(rules::CycleOutcome o);
absl::StatusOr<rules::CycleOutcome> CycleOutcomeFromProto(
    qipu::v1::CycleOutcome o);
// kEmpty <-> COLOR_UNSPECIFIED (no colour: a setup that leaves the side to
// move alone). kWall, never a record's colour, also gives COLOR_UNSPECIFIED.
qipu::v1::Color ColorToProto(rules::Color c);
absl::StatusOr<rules::Color> ColorFromProto(qipu::v1::Color c);
// kNone <-> WINNER_NONE; WINNER_UNSPECIFIED is refused.
qipu::v1::Winner WinnerToProto(rules::Winner w);
absl::StatusOr<rules::Winner> WinnerFromProto(qipu::v1::Winner w);
// kNotOver <-> END_REASON_UNSPECIFIED (ResultFromProto refuses a result
// that is not over).
qipu::v1::EndReason EndReasonToProto(rules::EndReason r);
absl::StatusOr<rules::EndReason> EndReasonFromProto(qipu::v1::EndReason r);

// Names of proto cycle values for display: rules::CycleClassName() and
// rules::CycleOutcomeName() of the domain value ("triple_ko",
// "prevented-superko"), or "?" for a value FromProto refuses.
const char* CycleClassName(qipu::v1::CycleClass c);
const char* CycleOutcomeName(qipu::v1::CycleOutcome o);

// Rule sets. FromProto checks every axis (unspecified ones are an error)
// and the komi.
qipu::v1::RuleSet RulesToProto(const rules::Rules& r);
absl::StatusOr<rules::Rules> RulesFromProto(const qipu::v1::RuleSet& p);

// Packed points: varint (y * width + x + 1) each, 0 for a pass.
void PackPoint(rules::Point p, int width, std::string* out);
std::string PackPoints(const std::vector<rules::Point>& points, int width);
// Fails on truncation, points off the board and (when !allow_pass) passes.
absl::StatusOr<std::vector<rules::Point>> UnpackPoints(const std::string& data,
                                                       int width, int height,
                                                       bool allow_pass);

// Cycles, results, areas.
qipu::v1::Cycle CycleToProto(const rules::CycleRecord& c, int width);
absl::StatusOr<rules::CycleRecord> CycleFromProto(const qipu::v1::Cycle& c,
                                                  int width, int height);
// Results. Counting is written only when it is JUDGED, AGREED or
// PLAYED_OUT (a count as played leaves the field unset, as before it
// existed); an unset one reads as kUnknown.
qipu::v1::Result ResultToProto(const rules::GameResult& r);

// An imported record's notes (rules/replay.h): a move played against its
// rules, and where the record was cut (`recorded_moves`: RecordCut's
// count of the record's moves). FromProto checks colours, points, rules.
qipu::v1::RuleBreach BreachToProto(const rules::RuleBreach& b, int width);
absl::StatusOr<rules::RuleBreach> BreachFromProto(const qipu::v1::RuleBreach& p,
                                                  int width, int height);
qipu::v1::RecordCut CutToProto(const rules::RecordCut& c, int width,
                               int recorded_moves);
absl::StatusOr<rules::RecordCut> CutFromProto(const qipu::v1::RecordCut& p,
                                              int width, int height);
absl::StatusOr<rules::GameResult> ResultFromProto(const qipu::v1::Result& r);
qipu::v1::Area AreaToProto(const rules::AreaCount& a);

// Moves, setup, size and handicap of a game as a GameRecord (metadata
// copied from Meta; the result is the game's own beside the RE as written,
// rules::RecordResult::Stored()). Validates sizes, points, colours and
// counts.
absl::StatusOr<rules::GameRecord> GameToRecord(const qipu::v1::Game& g);
// Fills size, handicap, setup and moves (with colours) from a record;
// leaves Meta, rules, results, cycles and provenance to the caller.
void BoardToGame(const rules::GameRecord& r, qipu::v1::Game* g);
// BoardToGame() plus Meta: players, ranks, date, event, the RE as written
// and the notes (rules::NoteText()) as Meta.normalised.
void RecordToGame(const rules::GameRecord& r, qipu::v1::Game* g);

// A worker's self-play upload in the rules' terms: the record (size,
// handicap, setup, moves), everything the game claims besides, and the
// name of the worker that played it.
struct SelfPlayUpload {
  rules::GameRecord record;
  rules::SelfPlayClaims claims;
  std::string worker;
  // Provenance.policy, black_policy and white_policy as sent.
  std::string policy;
  std::string black_policy;
  std::string white_policy;
  // Result.detail and Result.illegal_point (games a policy ended).
  std::string result_detail;
  uint32_t illegal_point = 0;
  // Result.dead_stones (a count that took stones off), unpacked.
  std::vector<rules::Point> dead_stones;
  // Game.search_visits, as sent (checked by the coordinator).
  std::string search_visits;
};
// Reads an upload once, at the edge: GameToRecord() plus the rules,
// result, area, cycles, voided cycles, ko captures and provenance.
// InvalidArgument names the first field that does not decode; nothing is
// checked against a job or a replay (engine/prepare.h does that).
absl::StatusOr<SelfPlayUpload> SelfPlayFromProto(const qipu::v1::Game& g);

// The record of a finished rules::Game: size, handicap stones as a root
// setup step, and the moves. (The game's own setup history is not kept:
// self-play games only have the handicap.)
rules::GameRecord RecordOfGame(const rules::Game& game,
                               const std::vector<rules::Point>& handicap);

// The self-play spec of game `index` of a job with configuration `config`
// played under `rules` (the job's rules, already validated from
// config.rules()). Does not check the configuration.
rules::SelfPlaySpec SelfPlaySpecFor(const qipu::v1::JobConfig& config,
                                    const rules::Rules& rules,
                                    uint64_t index = 0);

// A finished self-play game of the light policy as uploaded by a worker:
// record, rules, result, area, cycles, ko captures and provenance (job,
// index, seed, attempt, worker, policy "random"), voided cycles. Games of
// other policies set their provenance's policies, the result's detail and
// the search visits afterwards (worker/policy_game.h).
void SelfPlayToProto(const rules::Game& game, const rules::SelfPlaySpec& spec,
                     const rules::SelfPlayOutcome& outcome, uint64_t job,
                     const std::string& worker, qipu::v1::Game* out);

}  // namespace qipu::wire

#endif  // QIPU_PROTO_CONVERT_H_
