// Uploader: moves finished games from the GameQueue into the Spool and
// from the Spool to the coordinator over the UploadGames stream, and
// forgets each game once its ack arrives.
//
// Threads. The uploader's own thread takes games off the queue in groups
// (up to spool_group) and appends each group to the spool with one write;
// games become sendable only once synced. It also opens streams, watches
// them and reconnects. Each stream has a writer thread (the one caller of
// Write/WritesDone) and a reader thread (the one caller of Read), as the
// gRPC sync API requires.
//
// Syncs. A sync makes every game appended before it durable, and costs
// more CPU than spooling dozens of games, so the uploader syncs when the
// stream can use the games, not per group: at once while fewer than
// `window` synced games wait to be sent; while more wait (the coordinator
// is the bottleneck), syncing sooner would send nothing sooner, so up to
// max_unsynced games gather first, and games are taken off the queue only
// a whole group at a time. The writer wakes the uploader's thread as soon
// as it runs short. A stop syncs at once.
//
// Flow control. At most `window` games are sent and unacknowledged on a
// stream; the writer waits for acks beyond that. Games go up to `batch` to
// a message (whatever is ready, not waiting for a full batch). At most
// `max_pending` games sit in the spool; beyond that the uploader stops
// draining the queue, the queue fills, and the game runner's threads
// block.
//
// Bytes. Upload messages are assembled from the spooled bytes
// (upload_wire.h) and sent as raw bytes on the client's channel: a game is
// never parsed, copied into a protobuf or serialized again on its way out.
// The acks of one ack message are recorded in the spool with one write.
//
// Failures. A stream that fails (coordinator down, restarted, storage
// error: UNAVAILABLE), that answers out of order, or that goes ack_timeout
// without an ack while games are in flight is cancelled; after a capped,
// jittered exponential backoff a new stream resends every game still in
// the spool, oldest first. Acks: STORED and DUPLICATE (the coordinator had
// the game already, e.g. from before a reconnect) are success; REJECTED is
// logged and the game dropped, never resent. A stream the coordinator ends
// with INVALID_ARGUMENT (a message it could not parse) makes the uploader
// parse every synced pending game once and drop, as rejected, those that
// do not parse, so that a damaged game cannot block the spool (the
// runner's games always parse: this costs nothing in the normal course).
// Every stream has a deadline (stream_lifetime + ack_timeout); before it,
// the stream is closed cleanly (WritesDone, remaining acks read) and a
// fresh one opened.
#ifndef QIPU_WORKER_UPLOADER_H_
#define QIPU_WORKER_UPLOADER_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "qipu/v1/work.pb.h"
#include "worker/ack_log.h"
#include "worker/backoff.h"
#include "worker/client.h"
#include "worker/game_queue.h"
#include "worker/spool.h"
#include "worker/upload_wire.h"

namespace qipu::worker {

struct UploaderOptions {
  // Most games sent and not yet acknowledged on a stream, >= 1. A game is
  // acked once its group commit is synced, and a game waits for its spool
  // sync and then its coordinator's sync (several milliseconds on a busy
  // disk), so the window has to cover that much play: with 256, qipu
  // local's 9x9 games waited on acks (46k games/s; 1024: 51k); with 1024
  // they still did at index depth 0 (76k-85k games/s, cores 1.62 busy;
  // 2048: 91k-95k, 1.80). The coordinator's own window is 2048 games per
  // stream.
  int window = 2048;
  // Most games per upload message, >= 1. Above 1 the stream uses the
  // batched form (GameUpload.batch) and gets batched acks; 1 sends the
  // single form, one game per message.
  int batch = 64;
  // Most games taken off the queue per spool write, >= 1.
  int spool_group = 64;
  // Most games appended to the spool and not yet synced, >= 1; see the
  // file comment. 1 syncs every group at once.
  size_t max_unsynced = 1024;
  // Most games pending in the spool before the queue is left to fill: at
  // least the window plus max_unsynced, or the window is never used.
  size_t max_pending = 8192;
  // A stream with games in flight and no ack for this long is restarted.
  absl::Duration ack_timeout = absl::Seconds(30);
  // Age at which a stream is closed cleanly and replaced.
  absl::Duration stream_lifetime = absl::Minutes(10);
  // A stream with nothing to send or acknowledge for this long is closed
  // cleanly (an idle worker holds no stream open on the coordinator).
  absl::Duration idle_close = absl::Seconds(2);
  // Delays between failed streams.
  BackoffOptions backoff;
  // Seed of the backoff jitter.
  uint64_t seed = 1;
  // Names this worker in log lines.
  std::string worker;
  // When set, every game acked STORED or DUPLICATE is written to it (one
  // write per ack message, before the spool forgets the games): the
  // worker's --ack-log. Not owned; must outlive the uploader.
  AckLog* ack_log = nullptr;
};

// Counters since Start(). Plain value.
struct UploaderStats {
  uint64_t sent = 0;
  uint64_t stored = 0;
  uint64_t duplicates = 0;
  uint64_t rejected = 0;
  // Games handed over while the same game (same job and index, e.g.
  // played again under a re-issued lease) was still pending in the spool:
  // not spooled or sent a second time.
  uint64_t already_pending = 0;
  // Streams opened, and streams that ended in an error.
  uint64_t streams = 0;
  uint64_t stream_failures = 0;
};

// Thread-safe: every method may be called from any thread.
class Uploader {
 public:
  // Called on the stream's reader thread after each ack (the game is
  // already forgotten by the spool), in ack order; also on the uploader's
  // thread for a spooled game dropped because it does not parse
  // (REJECTED). Must not block for long.
  using AckCallback = std::function<void(
      const GameKey& key, const std::string& lease_id, qipu::v1::AckStatus)>;

  // Does not own client, spool or queue; all must outlive the uploader.
  // `on_ack` may be empty.
  Uploader(const UploaderOptions& options, CoordinatorClient* client,
           Spool* spool, GameQueue* queue, AckCallback on_ack);

  // Stop(absl::Now()), then Wait().
  ~Uploader();

  Uploader(const Uploader&) = delete;
  Uploader& operator=(const Uploader&) = delete;

  // Starts the uploader's thread. Call once.
  void Start();

  // Closes the queue and asks the uploader to finish: it spools whatever
  // is queued, keeps uploading until nothing is pending or `deadline`
  // passes, then ends its stream. Games still pending stay in the spool
  // for the next run. Returns at once; an earlier deadline wins.
  void Stop(absl::Time deadline);

  // Lifts max_pending: from now on everything queued is spooled at once.
  // For a graceful stop, so that the runner can queue its last games even
  // when the coordinator is unreachable and the spool is full.
  void SpoolEverything();

  // Blocks until the uploader's thread has ended (after Stop()).
  void Wait();

  // Games not yet acknowledged: queued, being spooled, or in the spool.
  size_t pending() const;

  UploaderStats stats() const;

 private:
  // The uploader's thread.
  void Run();
  // Moves up to one group of games from the queue into the spool, waiting
  // up to `timeout` for them; then makes synced games sendable.
  void Intake(absl::Duration timeout);
  // Opens a stream, runs it until it ends, and returns how it ended (OK
  // for a clean close with nothing in flight).
  absl::Status RunStream();
  void WriteLoop(CoordinatorClient::UploadStream* stream);
  void ReadLoop(CoordinatorClient::UploadStream* stream,
                grpc::ClientContext* ctx);
  // Applies one ack message (single or batched form): forgets its games,
  // in one spool write, then calls on_ack_ for each. Returns a
  // description of the protocol error when an ack is out of order or
  // malformed (the acks before it are applied), else an empty string.
  std::string ApplyAcks(const qipu::v1::GameAck& message);
  // Parses every synced pending game and drops (acks as REJECTED) those
  // that do not parse. Uploader's thread, between streams.
  void DropUnparsableGames();
  // True while the stream has at least `window` synced games to send and
  // no stop is under way: syncing more games now would send nothing
  // sooner (see the file comment). Clears sync_wanted_. Uploader's thread.
  bool StreamBusy();
  // True after SpoolEverything() or Stop().
  bool SpoolsEverything() const;
  // True when Stop() was called and either everything is uploaded or the
  // deadline passed.
  bool Finished() const;
  // Waits up to `d` while spooling arrivals; returns early when Finished().
  void Pause(absl::Duration d);
  // Logs a spool error (level error) at most every few seconds: on a full
  // disk every game and every ack fails the same way. Thread-safe.
  void LogSpoolError(const std::string& what);

  const UploaderOptions options_;
  CoordinatorClient* const client_;
  Spool* const spool_;
  GameQueue* const queue_;
  const AckCallback on_ack_;
  std::thread thread_;

  // Used by the uploader's thread only: games taken off the queue that
  // the spool refused (a write error; retried), the group being spooled
  // (empty between Intake() calls, kept for its capacity), and games
  // appended to the spool but not yet synced (not sendable until a sync
  // succeeds).
  std::vector<FinishedGame> backlog_;
  std::vector<FinishedGame> group_;
  std::vector<SpooledGame> unsynced_;
  // Set by the writer when fewer than `window` synced games wait to be
  // sent, to wake the uploader's thread (from GameQueue::PopBatch) for a
  // sync; cleared by StreamBusy().
  std::atomic<bool> sync_wanted_{false};

  mutable absl::Mutex mu_;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  bool spool_everything_ ABSL_GUARDED_BY(mu_) = false;
  absl::Time deadline_ ABSL_GUARDED_BY(mu_) = absl::InfiniteFuture();
  // Games off the queue and not in the spool (backlog_.size() and the
  // group being appended), for pending().
  size_t intake_ ABSL_GUARDED_BY(mu_) = 0;
  // The current stream: spooled games not yet sent (oldest first), games
  // sent and not yet acked (in seq order, the order acks arrive in).
  std::deque<SpooledGame> unsent_ ABSL_GUARDED_BY(mu_);
  std::deque<UploadItem> in_flight_ ABSL_GUARDED_BY(mu_);
  // Set by the stream's monitor to end the writer: close_writes_ cleanly
  // (WritesDone), writer_exit_ at once.
  bool close_writes_ ABSL_GUARDED_BY(mu_) = false;
  bool writer_exit_ ABSL_GUARDED_BY(mu_) = false;
  // The writer's Write() failed; the reader has ended (the stream is over).
  bool write_failed_ ABSL_GUARDED_BY(mu_) = false;
  bool reader_done_ ABSL_GUARDED_BY(mu_) = false;
  // The writer thread of the current stream has returned.
  bool writer_done_ ABSL_GUARDED_BY(mu_) = false;
  // The reader saw an out-of-order or malformed ack.
  std::string protocol_error_ ABSL_GUARDED_BY(mu_);
  // The coordinator acked a game NOT_STORED (why, as a message).
  std::string not_stored_ ABSL_GUARDED_BY(mu_);
  // Last ack, or the write that made in_flight_ non-empty.
  absl::Time last_progress_ ABSL_GUARDED_BY(mu_);
  // Acks on the current stream.
  uint64_t stream_acks_ ABSL_GUARDED_BY(mu_) = 0;
  // Next seq to send; seqs are unique over the uploader's lifetime.
  uint64_t next_seq_ ABSL_GUARDED_BY(mu_) = 1;
  UploaderStats stats_ ABSL_GUARDED_BY(mu_);

  absl::Mutex log_mu_;
  absl::Time last_spool_log_ ABSL_GUARDED_BY(log_mu_) = absl::InfinitePast();
  int spool_logs_skipped_ ABSL_GUARDED_BY(log_mu_) = 0;
};

}  // namespace qipu::worker

#endif  // QIPU_WORKER_UPLOADER_H_
