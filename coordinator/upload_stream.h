// UploadStream: one WorkService.UploadGames call, from its first upload
// message to the status it ends with.
//
// Two threads work on a stream. The RPC's handler thread runs Run(): it
// reads a message (ReadMessage), reserves an ack slot per game and
// validates the games that fit the upload window in parallel on the
// service's pool (AcceptGames), refuses the invalid ones and hands the
// valid ones to the ingestor together (SubmitValid), and at the end waits
// for every outcome (Finish). The writer thread (WriteAcks) sends the acks
// in arrival order as the ingestor's callbacks (OnIngested, on the
// ingestor's thread) fill them in. The AckQueue is all they share.
//
// Frames arrive as raw bytes and are parsed here, because the typed
// streaming API reports a frame that does not parse exactly like the end
// of the stream: such a frame ends the stream with INVALID_ARGUMENT (after
// the acks of the games before it), naming the frame.
#ifndef QIPU_COORDINATOR_UPLOAD_STREAM_H_
#define QIPU_COORDINATOR_UPLOAD_STREAM_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "base/raw_stream.h"
#include "base/work_pool.h"
#include "coordinator/metrics.h"
#include "engine/ingest.h"
#include "engine/jobs.h"
#include "engine/prepare.h"
#include "grpcpp/server_context.h"
#include "grpcpp/support/byte_buffer.h"
#include "grpcpp/support/status.h"
#include "qipu/v1/work.pb.h"

namespace qipu::coordinator {

// The acks of one upload stream, in arrival order. Slots are reserved as
// games arrive and filled as their outcomes become known; the writer sends
// filled slots from the front. Thread-safe.
class AckQueue {
 public:
  // One game's ack, reserved when the game arrived.
  struct Slot {
    qipu::v1::GameAck ack;
    // Filled: the ack can be sent.
    bool ready = false;
    // A storage failure: stop the stream.
    bool failed = false;
    // When the game was read (for the ingest latency).
    absl::Time received;
  };

  // What Reserve() and TryReserve() return instead of a slot number.
  static constexpr int64_t kStreamFailed = -1;
  static constexpr int64_t kWindowFull = -2;

  // At most `window` slots are reserved and not yet taken by the writer.
  explicit AckQueue(int window) : window_(window) {}

  // Blocks while the window is full; returns the slot's sequence number,
  // or kStreamFailed once the stream has failed.
  int64_t Reserve(uint64_t seq);
  // Reserve() without blocking: kWindowFull when the window is full.
  int64_t TryReserve(uint64_t seq);
  // Fills reserved slot `n` with its ack. Precondition: `n` was reserved
  // and not filled.
  void Fill(int64_t n, qipu::v1::AckStatus status, std::string reason,
            std::string game_id, bool failed = false);
  // Waits for the front slot to be ready, then moves it and every ready
  // slot after it (up to `max`) to *out. False when closed and drained,
  // or after a failure (a slot filled as failed).
  bool PopReady(size_t max, std::vector<Slot>* out);
  // No more slots will be reserved: PopReady() returns false once empty.
  void Close();
  // Waits until every reserved slot is filled (callbacks hold pointers).
  void WaitFilled();
  // Marks the stream failed (a write failed): reservations and
  // PopReady() stop.
  void Fail();
  // Waits until every reserved slot has been taken by the writer (or the
  // stream failed), or until `deadline`.
  void WaitSent(absl::Time deadline);
  bool failed() const;

 private:
  // A new slot for `seq` at the back; returns its sequence number.
  int64_t Append(uint64_t seq) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const int window_;
  mutable absl::Mutex mu_;
  // The slots reserved and not yet taken by the writer; slots_[i] has
  // the sequence number first_ + i.
  std::deque<Slot> slots_ ABSL_GUARDED_BY(mu_);
  int64_t first_ ABSL_GUARDED_BY(mu_) = 0;
  // The sequence number of the next slot reserved.
  int64_t next_ ABSL_GUARDED_BY(mu_) = 0;
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  bool failed_ ABSL_GUARDED_BY(mu_) = false;
};

// What an upload stream works with; all of it belongs to the
// WorkServiceImpl, which outlives its streams.
struct UploadStreamDeps {
  engine::JobManager* jobs = nullptr;
  engine::Ingestor* ingest = nullptr;
  // Null: nothing is counted.
  Metrics* metrics = nullptr;
  // Validates the games of upload messages in parallel (with the handler
  // thread); shared by every stream.
  base::WorkPool* pool = nullptr;
  // Unacknowledged games before the stream stops reading.
  int window = 2048;
  // Set when the service begins draining: the stream stops reading.
  const std::atomic<bool>* draining = nullptr;
};

// The status of an upload stream that the coordinator's shutdown ended
// (UNAVAILABLE: the client resends its unacknowledged games later).
grpc::Status UploadShuttingDown();

// One UploadGames stream. Run() and Result() on the RPC's handler thread;
// WaitSent() from any thread while Run() is in progress (Drain()). Not
// copyable; must outlive Run().
class UploadStream {
 public:
  // `ctx` and `stream` are the call's; not owned.
  UploadStream(const UploadStreamDeps& deps, grpc::ServerContext* ctx,
               base::RawServerStream* stream);
  UploadStream(const UploadStream&) = delete;
  UploadStream& operator=(const UploadStream&) = delete;

  // Reads the stream until it ends, fails, brings a bad frame or the
  // service drains; returns once every game read has its outcome and the
  // writer has sent what it could. Call once.
  void Run();
  // The status the RPC ends with, after Run(): INVALID_ARGUMENT naming a
  // bad frame (logged and counted as a rejected game), else
  // UploadShuttingDown() when `drained` (Drain() ended the stream), else
  // UNAVAILABLE when storage failed or the stream broke, else OK.
  grpc::Status Result(bool drained) const;
  // For WorkServiceImpl::Drain(): waits until the acks of the games taken
  // are sent (or the stream failed), or until `deadline`. Thread-safe.
  void WaitSent(absl::Time deadline) { acks_.WaitSent(deadline); }

 private:
  // What validation said about one uploaded game.
  struct Checked {
    absl::StatusOr<engine::PreparedGame> game =
        absl::UnknownError("not checked");
    // The game names a job of this coordinator (so a refusal counts
    // against the job).
    bool known_job = false;
  };

  // The jobs a run of uploaded games names, each looked up once for the
  // run: a JobInfo is a copy of the job's configuration, and copying it
  // for every game cost the handler a lock and a few allocations per game.
  class RunJobs {
   public:
    // Forgets the jobs of the previous run.
    void Clear() { jobs_.clear(); }
    // Looks `job` up in `jobs` unless this run already did.
    void Add(const engine::JobManager& jobs, uint64_t job);
    // What Add() found for `job`. Precondition: Add(.., job) since
    // Clear().
    const absl::StatusOr<engine::JobInfo>& Get(uint64_t job) const;

   private:
    // Few: a worker's games are of one job or two.
    std::vector<std::pair<uint64_t, absl::StatusOr<engine::JobInfo>>> jobs_;
    const absl::StatusOr<engine::JobInfo> not_added_ =
        absl::InternalError("job not looked up");
  };

  // Validates one uploaded game (replays it) against its job's `info`.
  // Thread-safe.
  static Checked Check(const absl::StatusOr<engine::JobInfo>& info,
                       const qipu::v1::Game& game, absl::Time now);

  bool draining() const {
    return deps_.draining->load(std::memory_order_acquire);
  }

  // --- The handler thread's steps, in the order Run() takes them. ---
  // Parses frame_ (message `messages_` of the stream) into up_ and lists
  // its games in games_. False when the message is refused whole (it does
  // not parse, or mixes the single and batched forms); a batch entry that
  // is itself a batch sets bad_frame_ too, but the games before it are
  // listed (and taken). Either way bad_frame_ says what is wrong.
  bool ReadMessage();
  // Validates and hands on games_, in order; false when the stream is over
  // (failed). Each run of games that fits the window is validated in
  // parallel on the pool; when the window is full, what is held back
  // reaches the ingestor first, or the acks that would open the window
  // never come.
  bool AcceptGames();
  // Reserves the ack slots (into slots_) of the run of games_ from `begin`
  // that fits the window -- at least one game, waiting for room when the
  // window is full -- and sets *end after it. False when the stream has
  // failed (every slot reserved here is filled then).
  bool ReserveRun(size_t begin, size_t* end);
  // Replays games_[begin, end) in parallel (the handler thread and the
  // pool's), into checked_.
  void ValidateRun(size_t begin, size_t end, absl::Time now);
  // Hands one validated game on: refused (its ack filled at once) or into
  // valid_ for the ingestor.
  void Deliver(const qipu::v1::GameUpload& up, int64_t slot, Checked& c);
  // Hands valid_ to the ingestor, under one lock of its queue.
  void SubmitValid();
  // After the last message: submits what is held back, closes the ack
  // queue, waits for every outcome and joins the writer.
  void Finish();

  // The ingestor's callback of the game of ack slot `slot` (on the
  // ingestor's thread): fills the ack, STORED or DUPLICATE, or NOT_STORED
  // (which fails the stream).
  void OnIngested(int64_t slot, std::string id,
                  absl::StatusOr<engine::IngestOutcome> outcome);

  // --- The writer thread. ---
  // Sends the acks as they become ready, in order, until the queue is
  // closed and empty or the stream fails; cancels the call on a failure.
  void WriteAcks();
  // Writes the acks of `ready` (one message each, or one batched message
  // once the client sends batches), using *message as scratch. False when
  // a write failed.
  bool SendAcks(std::vector<AckQueue::Slot>* ready, qipu::v1::GameAck* message);

  const UploadStreamDeps deps_;
  grpc::ServerContext* const ctx_;
  base::RawServerStream* const stream_;
  // Shared by the handler, the writer and the ingestor's callbacks
  // (thread-safe).
  AckQueue acks_;
  // Set by the handler before it reserves the slots of the stream's first
  // batched upload; from then on the writer sends acks batched.
  std::atomic<bool> batched_{false};
  // The writer thread; joinable from the start of Run() until Finish().
  std::thread writer_;

  // The handler thread's state (nothing else touches it):
  // The frame read and the message it parses into.
  grpc::ByteBuffer frame_;
  qipu::v1::GameUpload up_;
  // Messages read so far (1-based number of the current one).
  int64_t messages_ = 0;
  // Why the stream ends with INVALID_ARGUMENT; empty while frames are good.
  std::string bad_frame_;
  // The games of the current message (pointing into up_).
  std::vector<const qipu::v1::GameUpload*> games_;
  // For the run of games_ being accepted: their ack slots and what
  // validation said (checked_[k] is written by pool threads during
  // ValidateRun() only, index k by one thread).
  std::vector<int64_t> slots_;
  std::vector<Checked> checked_;
  RunJobs run_jobs_;
  // Valid games of the current message, handed to the ingestor together.
  std::vector<engine::Ingestor::Submission> valid_;
};

}  // namespace qipu::coordinator

#endif  // QIPU_COORDINATOR_UPLOAD_STREAM_H_
