// Conversions between qipu.v1 messages and rules/ domain types, shared by
// the coordinator, the worker and the qipu tool: rule sets, packed move and
// point lists, cycles, results, and whole games <-> GameRecord. Decoding
// validates (remote input) and returns InvalidArgument naming the field.
#ifndef QIPU_PROTO_CONVERT_H_
#define QIPU_PROTO_CONVERT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "qipu/v1/game.pb.h"
#include "qipu/v1/rules.pb.h"
#include "qipu/v1/work.pb.h"
#include "rules/game.h"
#include "rules/record.h"
#include "rules/result.h"
#include "rules/rules.h"
#include "rules/scoring.h"
#include "rules/selfplay.h"

namespace qipu::wire {

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
qipu::v1::Result ResultToProto(const rules::GameResult& r);
absl::StatusOr<rules::GameResult> ResultFromProto(const qipu::v1::Result& r);
qipu::v1::Area AreaToProto(const rules::AreaCount& a);

// Moves, setup, size and handicap of a game as a GameRecord (metadata
// copied from Meta). Validates sizes, points and counts.
absl::StatusOr<rules::GameRecord> GameToRecord(const qipu::v1::Game& g);
// Fills size, handicap, setup, moves (with colours), and Meta from a
// record; leaves rules, results, cycles and provenance to the caller.
void RecordToGame(const rules::GameRecord& r, qipu::v1::Game* g);

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

// A finished self-play game as uploaded by a worker: record, rules, result,
// area, cycles, ko captures and provenance (job, index, seed, attempt,
// worker, policy "random"), voided cycles.
void SelfPlayToProto(const rules::Game& game, const rules::SelfPlaySpec& spec,
                     const rules::SelfPlayOutcome& outcome, uint64_t job,
                     const std::string& worker, qipu::v1::Game* out);

}  // namespace qipu::wire

#endif  // QIPU_PROTO_CONVERT_H_
