#include "worker/uploader.h"

#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "base/grpc_status.h"
#include "grpcpp/client_context.h"
#include "grpcpp/impl/codegen/proto_utils.h"
#include "qipu/v1/game.pb.h"
#include "spdlog/spdlog.h"

namespace qipu::worker {
namespace {

// How often the uploader's thread looks at the stream and the queue.
constexpr absl::Duration kTick = absl::Milliseconds(50);
// How long a stream the coordinator ended waits for its writer to stop
// before cancelling the call.
constexpr absl::Duration kWriterGrace = absl::Seconds(1);
// At most one spool error line per this period (LogSpoolError()).
constexpr absl::Duration kSpoolLogEvery = absl::Seconds(5);

const char* AckName(qipu::v1::AckStatus s) {
  switch (s) {
    case qipu::v1::ACK_STATUS_STORED:
      return "stored";
    case qipu::v1::ACK_STATUS_DUPLICATE:
      return "duplicate";
    case qipu::v1::ACK_STATUS_REJECTED:
      return "rejected";
    case qipu::v1::ACK_STATUS_NOT_STORED:
      return "not stored";
    default:
      return "unspecified";
  }
}

}  // namespace

Uploader::Uploader(const UploaderOptions& options, CoordinatorClient* client,
                   Spool* spool, GameQueue* queue, AckCallback on_ack)
    : options_(options),
      client_(client),
      spool_(spool),
      queue_(queue),
      on_ack_(std::move(on_ack)) {}

Uploader::~Uploader() {
  Stop(absl::Now());
  Wait();
}

void Uploader::Start() {
  if (thread_.joinable()) return;
  thread_ = std::thread([this] {
    // Named for top -H and profilers (at most 15 characters).
    pthread_setname_np(pthread_self(), "qipu-upload");
    Run();
  });
}

void Uploader::Stop(absl::Time deadline) {
  queue_->Close();
  absl::MutexLock lock(&mu_);
  stopping_ = true;
  deadline_ = std::min(deadline_, deadline);
}

void Uploader::Wait() {
  if (thread_.joinable()) thread_.join();
}

size_t Uploader::pending() const {
  const size_t outside = queue_->size() + spool_->pending();
  absl::MutexLock lock(&mu_);
  return outside + intake_;
}

UploaderStats Uploader::stats() const {
  absl::MutexLock lock(&mu_);
  return stats_;
}

void Uploader::SpoolEverything() {
  absl::MutexLock lock(&mu_);
  spool_everything_ = true;
}

bool Uploader::SpoolsEverything() const {
  absl::MutexLock lock(&mu_);
  return spool_everything_ || stopping_;
}

bool Uploader::Finished() const {
  const bool drained =
      queue_->closed() && queue_->size() == 0 && spool_->pending() == 0;
  absl::MutexLock lock(&mu_);
  if (!stopping_) return false;
  return (drained && intake_ == 0) || absl::Now() >= deadline_;
}

void Uploader::Run() {
  Backoff backoff(options_.backoff, options_.seed);
  for (;;) {
    Intake(absl::ZeroDuration());
    if (Finished()) break;
    if (spool_->pending() <= unsynced_.size()) {
      Intake(kTick);  // Nothing to send: wait for games.
      continue;
    }
    const absl::Status s = RunStream();
    {
      absl::MutexLock lock(&mu_);
      if (stream_acks_ > 0) backoff.Reset();
    }
    if (s.ok() || Finished()) continue;
    const absl::Duration delay = backoff.Next();
    spdlog::warn(
        "worker {}: upload stream to {}: {}; {} game(s) pending, "
        "retrying in {} ms",
        options_.worker, client_->options().address, s.ToString(),
        spool_->pending(), absl::ToInt64Milliseconds(delay));
    Pause(delay);
  }
  // Whatever is still queued goes to the spool for the next run.
  while (queue_->size() > 0 || !backlog_.empty()) {
    const size_t before = queue_->size() + backlog_.size();
    Intake(absl::ZeroDuration());
    if (!backlog_.empty() && queue_->size() + backlog_.size() >= before) {
      spdlog::error(
          "worker {}: {} finished game(s) could not be spooled "
          "and are lost",
          options_.worker, before);
      break;
    }
  }
  const size_t left = spool_->pending();
  if (left > 0) {
    spdlog::info("worker {}: {} game(s) left in the spool {} for the next run",
                 options_.worker, left, spool_->dir());
  }
}

void Uploader::Pause(absl::Duration d) {
  const absl::Time until = absl::Now() + d;
  while (!Finished()) {
    const absl::Duration left = until - absl::Now();
    if (left <= absl::ZeroDuration()) break;
    Intake(std::min(left, kTick));
  }
}

void Uploader::LogSpoolError(const std::string& what) {
  int skipped = 0;
  {
    absl::MutexLock lock(&log_mu_);
    const absl::Time now = absl::Now();
    if (now - last_spool_log_ < kSpoolLogEvery) {
      ++spool_logs_skipped_;
      return;
    }
    last_spool_log_ = now;
    skipped = std::exchange(spool_logs_skipped_, 0);
  }
  if (skipped > 0) {
    spdlog::error("worker {}: {} ({} more spool errors in the last {})",
                  options_.worker, what, skipped,
                  absl::FormatDuration(kSpoolLogEvery));
  } else {
    spdlog::error("worker {}: {}", options_.worker, what);
  }
}

bool Uploader::StreamBusy() {
  // Take the writer's request before looking, so that one made after the
  // look is not lost.
  sync_wanted_.store(false);
  const size_t window = static_cast<size_t>(std::max(options_.window, 1));
  absl::MutexLock lock(&mu_);
  return !stopping_ && !spool_everything_ && unsent_.size() >= window;
}

void Uploader::Intake(absl::Duration timeout) {
  const size_t group = static_cast<size_t>(std::max(options_.spool_group, 1));
  const size_t max_unsynced = std::max<size_t>(options_.max_unsynced, 1);
  // While the stream is busy, games are taken off the queue a whole group
  // at a time and synced later (see the file comment); the writer's
  // request (sync_wanted_) cuts the wait for a group short.
  bool busy = StreamBusy();
  if (!unsynced_.empty() && (!busy || unsynced_.size() >= max_unsynced)) {
    // A sync is due: take what is queued and sync, without waiting.
    timeout = absl::ZeroDuration();
    busy = false;
  }
  // False when no more games will be appended for now: sync what waits.
  bool more_coming = true;
  if (!backlog_.empty()) {
    group_.swap(backlog_);
  } else if (spool_->pending() >= options_.max_pending && !SpoolsEverything()) {
    // Spool full: leave games in the queue (the runner blocks).
    more_coming = false;
    if (unsynced_.empty()) absl::SleepFor(std::min(timeout, kTick));
  } else {
    queue_->PopBatch(group, timeout, &group_, busy ? group : 1,
                     busy ? &sync_wanted_ : nullptr);
    absl::MutexLock lock(&mu_);
    intake_ = group_.size();
  }
  if (!group_.empty()) {
    const size_t n = group_.size();
    absl::StatusOr<size_t> added = spool_->AppendBatch(&group_, &unsynced_);
    if (!added.ok()) {
      LogSpoolError(absl::StrCat(
          "spool append of ", n, " game(s) failed (the first: lease ",
          group_[0].lease_id, " game ", group_[0].key.ToString(),
          "): ", added.status().ToString(), "; will retry"));
      backlog_.swap(group_);
      absl::SleepFor(kTick);
    } else if (*added < n) {
      absl::MutexLock lock(&mu_);
      stats_.already_pending += n - *added;
    }
  }
  if (!unsynced_.empty() &&
      (!more_coming || unsynced_.size() >= max_unsynced || !StreamBusy())) {
    if (absl::Status s = spool_->Sync(); !s.ok()) {
      LogSpoolError(
          absl::StrCat("spool sync failed: ", s.ToString(), "; will retry"));
    } else {
      absl::MutexLock lock(&mu_);
      unsent_.insert(unsent_.end(), std::make_move_iterator(unsynced_.begin()),
                     std::make_move_iterator(unsynced_.end()));
      unsynced_.clear();
    }
  }
  absl::MutexLock lock(&mu_);
  intake_ = backlog_.size();
}

absl::Status Uploader::RunStream() {
  grpc::ClientContext ctx;
  const absl::Time start = absl::Now();
  ctx.set_deadline(std::chrono::system_clock::now() +
                   absl::ToChronoMilliseconds(options_.stream_lifetime +
                                              options_.ack_timeout));
  const std::vector<SpooledGame> pending = spool_->Pending();
  absl::flat_hash_set<GameKey> unsynced;
  for (const SpooledGame& g : unsynced_) unsynced.insert(g->key);
  {
    absl::MutexLock lock(&mu_);
    unsent_.clear();
    for (const SpooledGame& g : pending) {
      if (!unsynced.contains(g->key)) unsent_.push_back(g);
    }
    in_flight_.clear();
    close_writes_ = writer_exit_ = write_failed_ = reader_done_ = false;
    writer_done_ = false;
    not_stored_.clear();
    protocol_error_.clear();
    stream_acks_ = 0;
    last_progress_ = start;
    ++stats_.streams;
  }
  spdlog::debug("worker {}: upload stream to {} opened, {} game(s) to send",
                options_.worker, client_->options().address, pending.size());
  std::unique_ptr<CoordinatorClient::UploadStream> stream =
      client_->UploadGames(&ctx);
  std::thread reader([&] {
    pthread_setname_np(pthread_self(), "qipu-acks");
    ReadLoop(stream.get(), &ctx);
  });
  std::thread writer([&] {
    WriteLoop(stream.get());
    absl::MutexLock lock(&mu_);
    writer_done_ = true;
  });
  std::string cancel_why;
  absl::Time idle_since = start;
  for (;;) {
    Intake(kTick);
    const bool drained =
        queue_->closed() && queue_->size() == 0 && spool_->pending() == 0;
    bool cancel = false;
    {
      absl::MutexLock lock(&mu_);
      if (reader_done_) break;
      if (!cancel_why.empty()) continue;
      const absl::Time now = absl::Now();
      if (!unsent_.empty() || !in_flight_.empty()) idle_since = now;
      if (stopping_ && now >= deadline_) {
        cancel_why = "stopping";
      } else if (!in_flight_.empty() &&
                 now - last_progress_ > options_.ack_timeout) {
        cancel_why = absl::StrCat(
            "no ack for ", absl::FormatDuration(options_.ack_timeout), " with ",
            in_flight_.size(), " game(s) in flight");
      } else if (!protocol_error_.empty()) {
        cancel_why = protocol_error_;
      } else if (!close_writes_ && (now - start >= options_.stream_lifetime ||
                                    now - idle_since >= options_.idle_close ||
                                    (stopping_ && drained))) {
        close_writes_ = true;
      }
      cancel = !cancel_why.empty();
    }
    if (cancel) ctx.TryCancel();
  }
  bool closed_cleanly = false;
  bool writer_done = false;
  {
    absl::MutexLock lock(&mu_);
    writer_exit_ = true;
    closed_cleanly = close_writes_ && cancel_why.empty() && !write_failed_;
    if (!closed_cleanly && cancel_why.empty()) {
      // The coordinator ended the call (the reader saw its end): the
      // writer stops by itself, and not cancelling keeps the
      // coordinator's status -- why it ended the stream -- for Finish().
      mu_.AwaitWithTimeout(absl::Condition(&writer_done_), kWriterGrace);
      writer_done = writer_done_;
    }
  }
  if (!closed_cleanly && !writer_done) ctx.TryCancel();
  writer.join();
  reader.join();
  const grpc::Status finish = stream->Finish();

  absl::Status result;
  bool malformed = false;
  {
    absl::MutexLock lock(&mu_);
    if (!cancel_why.empty()) {
      result = absl::UnavailableError(cancel_why);
    } else if (!not_stored_.empty()) {
      result = absl::UnavailableError(not_stored_);
    } else if (!finish.ok()) {
      result = base::FromGrpc(finish);
      malformed = finish.error_code() == grpc::StatusCode::INVALID_ARGUMENT;
    } else if (!in_flight_.empty()) {
      result = absl::UnavailableError(absl::StrCat(
          "stream closed with ", in_flight_.size(), " game(s) unacknowledged"));
    } else if (!close_writes_) {
      result = absl::UnavailableError("the coordinator closed the stream");
    }
    if (!result.ok()) ++stats_.stream_failures;
    in_flight_.clear();
    unsent_.clear();
  }
  if (malformed) DropUnparsableGames();
  return result;
}

void Uploader::WriteLoop(CoordinatorClient::UploadStream* stream) {
  const size_t window = static_cast<size_t>(std::max(options_.window, 1));
  const size_t batch = static_cast<size_t>(std::max(options_.batch, 1));
  std::vector<UploadItem> items;
  for (;;) {
    items.clear();
    bool running_short = false;
    {
      absl::MutexLock lock(&mu_);
      auto ready = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return writer_exit_ || close_writes_ ||
               (!unsent_.empty() && in_flight_.size() < window);
      };
      mu_.Await(absl::Condition(&ready));
      if (writer_exit_) return;
      if (close_writes_) break;
      const size_t n =
          std::min({batch, unsent_.size(), window - in_flight_.size()});
      if (in_flight_.empty()) last_progress_ = absl::Now();
      for (size_t i = 0; i < n; ++i) {
        items.push_back(UploadItem{next_seq_++, std::move(unsent_.front())});
        unsent_.pop_front();
        in_flight_.push_back(items.back());
      }
      stats_.sent += n;
      running_short = unsent_.size() < window;
    }
    // Ask the uploader's thread for a sync of what it has appended, and
    // for the next games (once: StreamBusy() re-arms the request).
    if (running_short && !sync_wanted_.exchange(true)) queue_->Wake();
    // Encoded outside the lock: the reader applies acks meanwhile.
    const grpc::ByteBuffer message = EncodeUpload(items, batch > 1);
    if (!stream->Write(message)) {
      absl::MutexLock lock(&mu_);
      write_failed_ = true;
      return;
    }
  }
  stream->WritesDone();
}

std::string Uploader::ApplyAcks(const qipu::v1::GameAck& message) {
  struct Applied {
    UploadItem item;
    // The ack, inside `message`.
    const qipu::v1::GameAck* ack;
  };
  const bool batched = message.batch_size() > 0;
  const int n = batched ? message.batch_size() : 1;
  std::vector<Applied> applied;
  applied.reserve(static_cast<size_t>(n));
  std::string bad;
  {
    absl::MutexLock lock(&mu_);
    for (int i = 0; i < n; ++i) {
      const qipu::v1::GameAck& ack = batched ? message.batch(i) : message;
      if (batched && ack.batch_size() != 0) {
        bad = "a batched ack holds a batch";
        break;
      }
      if (in_flight_.empty() || in_flight_.front().seq != ack.seq()) {
        bad = absl::StrCat("ack for seq ", ack.seq(), " but expected ",
                           in_flight_.empty()
                               ? std::string("none")
                               : absl::StrCat(in_flight_.front().seq));
        break;
      }
      if (ack.status() == qipu::v1::ACK_STATUS_NOT_STORED) {
        // The game stays in the spool and in flight; the coordinator ends
        // the stream, and the next stream resends it.
        not_stored_ = absl::StrCat("the coordinator could not store game ",
                                   in_flight_.front().game->key.ToString(),
                                   ": ", ack.reason());
        continue;
      }
      if (ack.status() != qipu::v1::ACK_STATUS_STORED &&
          ack.status() != qipu::v1::ACK_STATUS_DUPLICATE &&
          ack.status() != qipu::v1::ACK_STATUS_REJECTED) {
        bad = absl::StrCat("ack for seq ", ack.seq(), " has status ",
                           static_cast<int>(ack.status()));
        break;
      }
      applied.push_back(Applied{std::move(in_flight_.front()), &ack});
      in_flight_.pop_front();
      ++stream_acks_;
      if (ack.status() == qipu::v1::ACK_STATUS_STORED) ++stats_.stored;
      if (ack.status() == qipu::v1::ACK_STATUS_DUPLICATE) ++stats_.duplicates;
      if (ack.status() == qipu::v1::ACK_STATUS_REJECTED) ++stats_.rejected;
    }
    if (!applied.empty()) last_progress_ = absl::Now();
  }
  if (applied.empty()) return bad;
  const bool trace = spdlog::should_log(spdlog::level::trace);
  std::vector<GameKey> keys;
  keys.reserve(applied.size());
  for (const Applied& a : applied) {
    const FinishedGame& g = *a.item.game;
    keys.push_back(g.key);
    if (a.ack->status() == qipu::v1::ACK_STATUS_REJECTED) {
      spdlog::warn(
          "worker {} lease {} game {}: rejected by the coordinator "
          "({}); dropped",
          options_.worker, g.lease_id, g.key.ToString(), a.ack->reason());
    } else if (trace) {
      spdlog::trace("worker {} lease {} game {}: {}", options_.worker,
                    g.lease_id, g.key.ToString(), AckName(a.ack->status()));
    }
  }
  if (options_.ack_log != nullptr) {
    // Logged before the spool forgets the games: a kill in between leaves
    // them in the spool, to be sent (and logged) again.
    std::vector<AckLog::Entry> logged;
    logged.reserve(applied.size());
    for (const Applied& a : applied) {
      const qipu::v1::AckStatus st = a.ack->status();
      if (st == qipu::v1::ACK_STATUS_STORED ||
          st == qipu::v1::ACK_STATUS_DUPLICATE) {
        logged.push_back(AckLog::Entry{a.item.game->key,
                                       st == qipu::v1::ACK_STATUS_DUPLICATE});
      }
    }
    if (absl::Status s = options_.ack_log->Write(logged, absl::Now());
        !s.ok()) {
      LogSpoolError(std::string(s.message()));
    }
  }
  if (absl::Status s = spool_->AckBatch(keys); !s.ok()) {
    LogSpoolError(absl::StrCat("spool: recording ", keys.size(),
                               " ack(s): ", s.ToString()));
  }
  if (on_ack_) {
    for (const Applied& a : applied) {
      on_ack_(a.item.game->key, a.item.game->lease_id, a.ack->status());
    }
  }
  return bad;
}

void Uploader::ReadLoop(CoordinatorClient::UploadStream* stream,
                        grpc::ClientContext* ctx) {
  grpc::ByteBuffer bytes;
  qipu::v1::GameAck ack;
  while (stream->Read(&bytes)) {
    std::string bad;
    const grpc::Status parsed =
        grpc::SerializationTraits<qipu::v1::GameAck>::Deserialize(&bytes, &ack);
    if (!parsed.ok()) {
      bad = absl::StrCat("an ack message is not a qipu.v1.GameAck: ",
                         parsed.error_message());
    } else {
      bad = ApplyAcks(ack);
    }
    if (!bad.empty()) {
      {
        absl::MutexLock lock(&mu_);
        protocol_error_ = bad;
      }
      spdlog::error("worker {}: protocol error on the upload stream: {}",
                    options_.worker, bad);
      ctx->TryCancel();
      while (stream->Read(&bytes)) {
      }
      break;
    }
  }
  absl::MutexLock lock(&mu_);
  reader_done_ = true;
}

void Uploader::DropUnparsableGames() {
  absl::flat_hash_set<GameKey> unsynced;
  for (const SpooledGame& g : unsynced_) unsynced.insert(g->key);
  qipu::v1::Game parsed;
  std::vector<SpooledGame> bad;
  for (const SpooledGame& g : spool_->Pending()) {
    if (unsynced.contains(g->key) || parsed.ParseFromString(g->game)) continue;
    spdlog::error(
        "worker {} lease {} game {}: spooled game does not parse; dropped",
        options_.worker, g->lease_id, g->key.ToString());
    bad.push_back(g);
  }
  if (bad.empty()) return;
  std::vector<GameKey> keys;
  for (const SpooledGame& g : bad) keys.push_back(g->key);
  if (absl::Status s = spool_->AckBatch(keys); !s.ok()) {
    LogSpoolError(absl::StrCat("spool: dropping ", keys.size(),
                               " unparsable game(s): ", s.ToString()));
  }
  {
    absl::MutexLock lock(&mu_);
    stats_.rejected += bad.size();
  }
  if (on_ack_) {
    for (const SpooledGame& g : bad) {
      on_ack_(g->key, g->lease_id, qipu::v1::ACK_STATUS_REJECTED);
    }
  }
}

}  // namespace qipu::worker
