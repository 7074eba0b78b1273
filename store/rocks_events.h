// How RocksDB reports to qipu: its info log, and its background errors.
//
// RocksDB writes an info log (the LOG file) into the database directory by
// default. qipu sends it to spdlog instead: operators find RocksDB's
// warnings and errors in the service's own log, and a full disk cannot
// break the database a second time through its log file (Debian's
// librocksdb is built with assertions, and a LOG write after a failed one
// aborts the process).
//
// StorageHealth is the sticky "can this database take writes" state that
// Store keeps: the first write or background error since the last write
// that succeeded. RocksDB stops accepting writes after a hard error (a full
// disk, a deleted directory) until DB::Resume() succeeds; Store retries
// that at most every few seconds, and the error stays visible (health
// checks, metrics, `qipu local`) until it does. Some errors RocksDB never
// resumes from (fatal()): then only reopening the database helps, and the
// coordinator exits so that its supervisor restarts it.
#ifndef QIPU_STORE_ROCKS_EVENTS_H_
#define QIPU_STORE_ROCKS_EVENTS_H_

#include <atomic>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "rocksdb/env.h"
#include "rocksdb/listener.h"

namespace qipu::store {

// A rocksdb::Logger that forwards to spdlog's default logger, each line
// prefixed with "rocksdb <dir>: ". Levels: RocksDB's DEBUG -> trace,
// INFO and HEADER -> debug (flush and compaction chatter, statistics
// dumps), WARN -> info (routine write stalls), ERROR -> error,
// FATAL -> critical. Thread-safe (spdlog loggers are).
std::shared_ptr<rocksdb::Logger> NewSpdlogRocksLogger(std::string dir);

// The write health of one database. Thread-safe.
class StorageHealth {
 public:
  // OK while writes succeed; otherwise the error that stopped them, with
  // the time it was first seen (Since()).
  absl::Status Get() const;
  // When the current error was first seen; InfinitePast() while healthy.
  absl::Time Since() const;
  // True while an error is recorded (a cheap check for hot paths).
  bool failing() const { return failing_.load(std::memory_order_acquire); }
  // True when the recorded error is one RocksDB does not resume from (a
  // failed WAL write, say): the database takes writes again only after it
  // is reopened, i.e. after the process restarts. Nothing acknowledged is
  // lost: RocksDB replays its WAL on open.
  bool fatal() const { return fatal_.load(std::memory_order_acquire); }
  // True once RocksDB has reported a background error (one that may have
  // stopped writes), even after it resumed; never cleared. librocksdb 7.8
  // leaves its "stopped" flag set after recovering from such an error
  // (ErrorHandler::ClearBGError does not reset it; fixed upstream in 8.x),
  // and then IngestExternalFile() runs with file number 0 and aborts on an
  // assertion: callers that ingest files check this and write instead.
  bool stopped_once() const {
    return stopped_once_.load(std::memory_order_acquire);
  }
  // Records that RocksDB stopped writes (see stopped_once()).
  void RecordStopped() { stopped_once_.store(true, std::memory_order_release); }

  // Records `error` (not OK) unless an error is already recorded: the
  // first one is the cause, later ones are its consequences. `fatal` (see
  // fatal()) sticks until RecordSuccess().
  void RecordError(const absl::Status& error, bool fatal = false);
  // A write succeeded: clears the recorded error.
  void RecordSuccess();

  // True when the caller should try DB::Resume() now: an error is
  // recorded and the last attempt was at least `every` ago. Marks the
  // attempt.
  bool ShouldTryResume(absl::Duration every);

 private:
  std::atomic<bool> failing_{false};
  std::atomic<bool> fatal_{false};
  std::atomic<bool> stopped_once_{false};
  mutable absl::Mutex mu_;
  absl::Status error_ ABSL_GUARDED_BY(mu_);
  absl::Time since_ ABSL_GUARDED_BY(mu_) = absl::InfinitePast();
  absl::Time last_resume_ ABSL_GUARDED_BY(mu_) = absl::InfinitePast();
};

// A rocksdb::EventListener that records background (flush, compaction,
// WAL, manifest) errors in `health` and clears them when RocksDB's own
// recovery succeeds. `health` must outlive the database.
std::shared_ptr<rocksdb::EventListener> NewHealthListener(StorageHealth* health,
                                                          std::string dir);

}  // namespace qipu::store

#endif  // QIPU_STORE_ROCKS_EVENTS_H_
