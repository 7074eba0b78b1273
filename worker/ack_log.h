// AckLog: a text file to which a worker appends the id of every game the
// coordinator acknowledged as stored (`qipu-worker --ack-log FILE`), so
// that a test can check afterwards that each one really is in the
// database. The soak and fleet tests do (tests/ops/fleet/ack_check.py), as
// do the process tests (tests/ops/ack_check.h): a game acknowledged and
// then lost would otherwise be played again under a new lease and nobody
// would notice.
//
// Format: one line per acknowledged game,
//
//   <game id> <stored|duplicate> <ack time, unix microseconds> <worker>\n
//
// e.g. "s12-345 stored 1765112345678901 w0-g1". `stored`: the
// coordinator wrote this upload; `duplicate`: it had the game already.
// Rejected games are not written (they were never stored). The time is
// taken when the ack arrived, after the coordinator's commit: the stored
// copy's Provenance.stored_unix_micros (set before its commit) is never
// later on the same clock, unless the game was lost and stored again.
//
// Durability: the file is opened O_APPEND and each ack message's lines go
// out in one write(2), before the spool forgets the games. A SIGKILLed
// worker therefore leaves every line of every game it forgot (the page
// cache keeps them); a power loss may not (there is no fsync: this is a
// testing aid, not a record). Several workers may share one file: each
// write(2) lands whole at the end (a short one, on a full disk, may not).
// Thread-safe.
#ifndef QIPU_WORKER_ACK_LOG_H_
#define QIPU_WORKER_ACK_LOG_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "worker/game_queue.h"

namespace qipu::worker {

class AckLog {
 public:
  // Opens (creating it when missing, mode 0644) `path` for appending;
  // lines name `worker`. InvalidArgument for an empty path or a worker
  // name with a line break; the open error (path and errno text)
  // otherwise.
  static absl::StatusOr<std::unique_ptr<AckLog>> Open(
      const std::string& path, const std::string& worker);
  // Closes the file.
  ~AckLog();

  AckLog(const AckLog&) = delete;
  AckLog& operator=(const AckLog&) = delete;

  // One acknowledged game.
  struct Entry {
    GameKey key;
    // DUPLICATE (the coordinator had it already) rather than STORED.
    bool duplicate = false;
  };

  // Appends one line per entry with the ack time `now`, in one write(2)
  // (a short write is continued). The error names the file and errno;
  // the lines are then lost, not retried. Nothing to do for no entries.
  absl::Status Write(absl::Span<const Entry> entries, absl::Time now);

  const std::string& path() const { return path_; }
  // Lines written so far.
  uint64_t lines() const;

 private:
  AckLog(std::string path, std::string worker, int fd)
      : path_(std::move(path)), worker_(std::move(worker)), fd_(fd) {}

  const std::string path_;
  const std::string worker_;
  const int fd_;
  mutable absl::Mutex mu_;
  uint64_t lines_ ABSL_GUARDED_BY(mu_) = 0;
  // The text of a Write(), kept for its capacity.
  std::string out_ ABSL_GUARDED_BY(mu_);
};

}  // namespace qipu::worker

#endif  // QIPU_WORKER_ACK_LOG_H_
