// Validation and preparation of games for storage. Every game -- uploaded
// by a worker or imported from a record -- is replayed with the rules core;
// self-play claims (legality, where the game ended, result, area, cycles,
// ko captures, seed) must match exactly what the rules give, or the game
// is refused with InvalidArgument naming the first difference. A prepared
// game carries everything one ingest batch writes for it.
#ifndef QIPU_COORDINATOR_PREPARE_H_
#define QIPU_COORDINATOR_PREPARE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "coordinator/jobs.h"
#include "qipu/v1/game.pb.h"
#include "qipu/v1/store.pb.h"
#include "rules/record.h"
#include "rules/replay.h"
#include "store/aggregate.h"
#include "store/game_id.h"
#include "store/indexer.h"

namespace qipu::coordinator {

// Everything the ingest committer writes for one game.
struct PreparedGame {
  store::GameId id;
  // store::GameKey(id) and the serialized qipu.v1.Game.
  std::string key;
  std::string value;
  uint32_t config_id = 0;
  // YYYYMMDD bucket day.
  uint32_t day = 0;
  // The game's position-index entries, encoded by the preparing thread so
  // that the single ingest committer does not have to.
  store::PositionOps position_ops;
  // Plies the entries cover (min(index depth, moves the rules played)).
  uint32_t index_plies = 0;
  // What the aggregates count of the game (the committer accumulates a
  // batch's games per configuration and day: store::AggregateBuilder).
  store::GameFacts facts;
  // Self-play: job and index (job 0 for imports).
  uint64_t job = 0;
  uint64_t index = 0;
};

// The UTC day of `t` as YYYYMMDD.
uint32_t DayOf(absl::Time t);
// YYYYMMDD of the first date in an SGF DT value ("2018-05-03",
// "2018-05-03,04", "1975"), or 0 when none can be read.
uint32_t DayOfSgfDate(const std::string& dt);

// Validates a worker's upload against its job and prepares it.
// InvalidArgument for anything that does not match; NotFound when the job
// does not exist.
absl::StatusOr<PreparedGame> PrepareSelfPlay(const qipu::v1::Game& upload,
                                             const JobInfo& job,
                                             absl::Time now);

// What import knows of a record besides the record itself.
struct ImportContext {
  std::string source = "import";
  std::string file;
  int index_depth = 60;
  absl::Time now;
};

// Result of preparing an imported record.
struct PreparedImport {
  PreparedGame game;
  rules::ReplayReport report;
};

// Replays `record` under its own rules (RU, else chinese; komi from KM,
// else the preset's) and prepares it, keeping the record's own result and
// metadata. Records with an illegal move are refused with InvalidArgument
// naming the move number and reason (and no game is prepared).
// `configs` interns the configuration bucket.
absl::StatusOr<PreparedImport> PrepareImport(const rules::GameRecord& record,
                                             const ImportContext& ctx,
                                             store::ConfigRegistry* configs);

}  // namespace qipu::coordinator

#endif  // QIPU_COORDINATOR_PREPARE_H_
