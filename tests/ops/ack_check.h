// "Every acknowledged game is stored": the check a process test runs at
// its end over the ack logs of its workers (`qipu-worker --ack-log FILE`,
// worker/ack_log.h) and the database the coordinator left. A job that
// finishes is not enough: a game acknowledged and then lost is played
// again under a new lease, and the job still ends with all its games.
// So each acknowledged game must be in the database, and its stored copy
// must be the one that was acknowledged, or older: stored (its
// Provenance.stored_unix_micros, set before the commit) no later than the
// ack arrived. A copy stored after its ack is a replay of a lost game.
// (The same check for the fleet tests: tests/ops/fleet/ack_check.py.)
//
// The comparison of times assumes the coordinator and the workers read
// the same clock, as they do on the one machine of a test.
#ifndef QIPU_TESTS_OPS_ACK_CHECK_H_
#define QIPU_TESTS_OPS_ACK_CHECK_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace qipu::testing {

// One line of an ack log.
struct AckedGame {
  // "s<job>-<index>".
  std::string id;
  // False for a STORED ack, true for DUPLICATE.
  bool duplicate = false;
  // When the ack arrived, unix microseconds.
  int64_t ack_unix_micros = 0;
  std::string worker;
  // Where it was read: "<file>:<line>".
  std::string where;
};

// The lines of the ack log at `path`. NotFound when the file is missing;
// InvalidArgument naming the file, the line and what is wrong with it.
// An empty file has no lines.
absl::StatusOr<std::vector<AckedGame>> ReadAckLog(const std::string& path);

// What the check found.
struct AckCheck {
  // Ack lines read and distinct game ids among them.
  uint64_t acks = 0;
  uint64_t games = 0;
  // Acknowledged ids not in the database, sorted, each once.
  std::vector<std::string> missing;
  // Acknowledged ids whose stored copy was stored after the (earliest)
  // ack: the acknowledged write was lost and the game stored again.
  std::vector<std::string> stored_after_ack;
  // One line per missing or late id: its ack (file:line, worker, time)
  // and, when late, its stored time.
  std::vector<std::string> details;

  bool ok() const { return missing.empty() && stored_after_ack.empty(); }
  // The counts, then the details, one per line.
  std::string Summary() const;
};

// Looks up a stored game's Provenance.stored_unix_micros: nullopt when
// the game is not stored.
using StoredTime = std::function<absl::StatusOr<std::optional<int64_t>>(
    const std::string& id)>;

// Checks every line of `acks` against `stored_time` (see the file
// comment). An error of `stored_time` is returned as it is.
absl::StatusOr<AckCheck> CheckAckedGamesStored(
    const std::vector<AckedGame>& acks, const StoredTime& stored_time);

// The same over the ack logs at `ack_logs` and the database in `db_dir`,
// which no process may hold open (read with tests/common/stored_games.h).
// An ack log that is missing or bad, or a stored game that does not
// parse, is an error.
absl::StatusOr<AckCheck> CheckAckedGamesStoredIn(
    const std::string& db_dir, const std::vector<std::string>& ack_logs);

}  // namespace qipu::testing

#endif  // QIPU_TESTS_OPS_ACK_CHECK_H_
