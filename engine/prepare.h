// Validation and preparation of games for storage. A game enters in the
// rules' terms -- a worker's upload is read once, at the edge, into a
// rules::GameRecord plus rules::SelfPlayClaims (wire::SelfPlayFromProto);
// an import is already a GameRecord -- and then takes one path: replayed
// with the rules core (an illegal move refuses an upload; an import keeps
// a real record as played, noted or cut, see PrepareImport()), stored as
// the record
// with the rules, result, area, cycles and ko captures the replay gave,
// its facts counted and its positions indexed. Self-play adds the claim
// checks: job, seed, setup, where the game ended, result, area, cycles,
// ko captures and voided attempts must match exactly, or the game is
// refused with InvalidArgument naming the first difference. Games of jobs
// whose policies are not both "random" may end by a policy and carry
// search visits (engine/policy_claims.h); only light-policy games are
// regenerated from their seed. A prepared game carries everything one
// ingest batch writes for it.
#ifndef QIPU_ENGINE_PREPARE_H_
#define QIPU_ENGINE_PREPARE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "engine/jobs.h"
#include "proto/convert.h"
#include "qipu/v1/game.pb.h"
#include "qipu/v1/store.pb.h"
#include "rules/record.h"
#include "rules/record_note.h"
#include "rules/replay.h"
#include "store/aggregate.h"
#include "store/game_id.h"
#include "store/indexer.h"
#include "store/player_index.h"

namespace qipu::engine {

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
  // The game's pattern-index entry (store/pattern_index.h), written with
  // the game under store::PatternKey(id).
  std::string pattern_entry;
  // The game's player-index entries (store/player_index.h).
  store::PlayerEntries players;
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

// Validates a worker's upload against its job and prepares it: the
// message is read once (wire::SelfPlayFromProto; InvalidArgument naming a
// field that does not decode), then checked and stored as below (its board
// fields stored as received: they decoded to the record that was checked).
// Thread-safe.
absl::StatusOr<PreparedGame> PrepareSelfPlay(const qipu::v1::Game& upload,
                                             const JobInfo& job,
                                             absl::Time now);

// Validates an upload already in the rules' terms against its job (job,
// game index, board size, handicap and its stones as the only setup,
// rules, attempt, seed) and a replay under the job's rules (legal moves,
// claimed prevented cycles, the game ends where the record does, result,
// cycles, ko captures, area, voided attempts replayed from their seeds),
// and prepares it. The first difference is refused with InvalidArgument
// naming it ("move 2 is illegal (occupied)", "result: the game claims ...
// but the rules give ..."). Thread-safe.
absl::StatusOr<PreparedGame> PrepareSelfPlay(const wire::SelfPlayUpload& upload,
                                             const JobInfo& job,
                                             absl::Time now);

// What import knows of a record besides the record itself.
struct ImportContext {
  // Provenance.source and the configuration's source dimension.
  std::string source = "import";
  // Provenance.file.
  std::string file;
  // Plies of the game indexed.
  int index_depth = 60;
  // Provenance.stored_unix_micros.
  absl::Time now;
  // Refuse a record with a move its rules forbid or that cannot be played
  // (qipu import --strict) instead of keeping it noted or cut.
  bool strict = false;
};

// Result of preparing an imported record.
struct PreparedImport {
  PreparedGame game;
  rules::ReplayReport report;
  // Every normalisation of the game, in Meta.normalised order: the
  // record's notes, then the rules and result assumed by the import.
  std::vector<rules::RecordNote> notes;
  // How the record was kept: "" whole and within its rules, "noted"
  // (report.breaches: moves its rules forbid, played as recorded), "cut"
  // (report.cut: stored up to the move before it) -- ConfigRecord.record.
  std::string kept;
  // When kept: the first note's move number and text
  // (rules::RuleBreachText() or rules::RecordCutText()).
  int kept_move = 0;
  std::string kept_note;
};

// Replays `record` under its own rules (RU, else chinese; komi from KM,
// else the preset's) and prepares it, keeping the record's own result
// (record.result.value, read with the record; Meta.record_result keeps
// record.result.text, the RE as written) and metadata. A result that names
// the winner with a reason SGF does not define is that side's win, reason
// illegal ("W+Illegal") or other ("W+J", "W"), and noted; one that names
// no winner is unknown, and noted.
//
// A record is history. A move its rules forbid only by their repetition
// rules (ko, superko, the cycle rule) or suicide rule, or one played after
// the rules ended the game, is stored as played (rules::ReplayRecord()):
// Game.breaches lists each (the note names the move and the rule), cycles
// it goes through are CYCLE_OUTCOME_CONTINUED_IN_RECORD, the configuration
// is record "noted". A record that cannot go on -- a stone on an occupied
// point, a move off the board or no point at all (GameRecord::unread) --
// is stored up to the move before (its indexes cover those moves),
// Game.cut says where and why, record "cut"; the result is the record's
// either way. The content id is the whole record's. With ctx.strict such
// records are refused with InvalidArgument naming the move number and
// reason ("move 3 is illegal under chinese rules (occupied)"), and no game
// is prepared; `illegal_move`, when given, is set to that move's 1-based
// number (0 for any other outcome). `configs` interns the configuration
// bucket. Thread-safe.
absl::StatusOr<PreparedImport> PrepareImport(const rules::GameRecord& record,
                                             const ImportContext& ctx,
                                             store::ConfigRegistry* configs,
                                             int* illegal_move = nullptr);

}  // namespace qipu::engine

#endif  // QIPU_ENGINE_PREPARE_H_
