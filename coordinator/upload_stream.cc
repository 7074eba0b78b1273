#include "coordinator/upload_stream.h"

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "grpcpp/impl/codegen/proto_utils.h"
#include "spdlog/spdlog.h"
#include "store/game_id.h"

namespace qipu::coordinator {

// Most acks in one batched GameAck message.
constexpr size_t kMaxAcksPerMessage = 1024;

// ---------------------------------------------------------------------------
// AckQueue

int64_t AckQueue::Reserve(uint64_t seq) {
  absl::MutexLock lock(&mu_);
  auto room = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return failed_ || static_cast<int>(slots_.size()) < window_;
  };
  mu_.Await(absl::Condition(&room));
  return failed_ ? kStreamFailed : Append(seq);
}

int64_t AckQueue::TryReserve(uint64_t seq) {
  absl::MutexLock lock(&mu_);
  if (failed_) return kStreamFailed;
  if (static_cast<int>(slots_.size()) >= window_) return kWindowFull;
  return Append(seq);
}

void AckQueue::Fill(int64_t n, qipu::v1::AckStatus status, std::string reason,
                    std::string game_id, bool failed) {
  absl::MutexLock lock(&mu_);
  Slot& s = slots_[n - first_];
  s.ack.set_status(status);
  s.ack.set_reason(std::move(reason));
  s.ack.set_game_id(std::move(game_id));
  s.failed = failed;
  s.ready = true;
}

bool AckQueue::PopReady(size_t max, std::vector<Slot>* out) {
  absl::MutexLock lock(&mu_);
  auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return (!slots_.empty() && slots_.front().ready) ||
           (closed_ && slots_.empty()) || failed_;
  };
  mu_.Await(absl::Condition(&ready));
  if (failed_ || slots_.empty()) return false;
  size_t n = 0;
  while (n < max && !slots_.empty() && slots_.front().ready) {
    if (slots_.front().failed) {
      // Send what came before the failure first, then the failed slot's
      // NOT_STORED ack (with the cause) as the stream's last.
      if (n > 0) break;
      failed_ = true;
      out->push_back(std::move(slots_.front()));
      slots_.pop_front();
      ++first_;
      return true;
    }
    out->push_back(std::move(slots_.front()));
    slots_.pop_front();
    ++first_;
    ++n;
  }
  return true;
}

void AckQueue::Close() {
  absl::MutexLock lock(&mu_);
  closed_ = true;
}

void AckQueue::WaitFilled() {
  absl::MutexLock lock(&mu_);
  auto filled = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    for (const Slot& s : slots_) {
      if (!s.ready) return false;
    }
    return true;
  };
  mu_.Await(absl::Condition(&filled));
}

void AckQueue::Fail() {
  absl::MutexLock lock(&mu_);
  failed_ = true;
}

void AckQueue::WaitSent(absl::Time deadline) {
  absl::MutexLock lock(&mu_);
  auto sent = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return slots_.empty() || failed_;
  };
  mu_.AwaitWithDeadline(absl::Condition(&sent), deadline);
}

bool AckQueue::failed() const {
  absl::MutexLock lock(&mu_);
  return failed_;
}

int64_t AckQueue::Append(uint64_t seq) {
  Slot s;
  s.ack.set_seq(seq);
  s.received = absl::Now();
  slots_.push_back(std::move(s));
  return next_++;
}

// ---------------------------------------------------------------------------
// UploadStream

grpc::Status UploadShuttingDown() {
  return grpc::Status(grpc::StatusCode::UNAVAILABLE,
                      "the coordinator is shutting down; resend "
                      "unacknowledged games later");
}

void UploadStream::RunJobs::Add(const engine::JobManager& jobs, uint64_t job) {
  for (const auto& [id, info] : jobs_) {
    if (id == job) return;
  }
  jobs_.emplace_back(job, jobs.Find(job));
}

const absl::StatusOr<engine::JobInfo>& UploadStream::RunJobs::Get(
    uint64_t job) const {
  for (const auto& [id, info] : jobs_) {
    if (id == job) return info;
  }
  return not_added_;
}

UploadStream::Checked UploadStream::Check(
    const absl::StatusOr<engine::JobInfo>& info, const qipu::v1::Game& game,
    absl::Time now) {
  Checked c;
  if (!info.ok()) {
    c.game = info.status();
    return c;
  }
  c.known_job = true;
  c.game = engine::PrepareSelfPlay(game, *info, now);
  return c;
}

UploadStream::UploadStream(const UploadStreamDeps& deps,
                           grpc::ServerContext* ctx,
                           base::RawServerStream* stream)
    : deps_(deps), ctx_(ctx), stream_(stream), acks_(deps.window) {}

void UploadStream::Run() {
  writer_ = std::thread([this] { WriteAcks(); });
  while (!acks_.failed() && !draining() && stream_->Read(&frame_)) {
    ++messages_;
    if (!ReadMessage()) break;
    // The games before a bad batch entry are still taken (and acked).
    const bool live = AcceptGames();
    SubmitValid();
    if (!live || !bad_frame_.empty()) break;
  }
  Finish();
}

bool UploadStream::ReadMessage() {
  const size_t bytes = frame_.Length();
  const grpc::Status parsed =
      grpc::SerializationTraits<qipu::v1::GameUpload>::Deserialize(&frame_,
                                                                   &up_);
  if (!parsed.ok()) {
    bad_frame_ = absl::StrCat(
        "upload message ", messages_, " of the stream (", bytes,
        " bytes) is not a qipu.v1.GameUpload: ", parsed.error_message());
    return false;
  }
  games_.clear();
  if (up_.batch_size() == 0) {
    games_.push_back(&up_);
    return true;
  }
  if (up_.has_game() || up_.seq() != 0 || !up_.lease_id().empty()) {
    bad_frame_ =
        absl::StrCat("upload message ", messages_,
                     " of the stream mixes the single form (lease_id, game, "
                     "seq) with the batched form (batch)");
    return false;
  }
  batched_.store(true, std::memory_order_release);
  for (int i = 0; i < up_.batch_size(); ++i) {
    if (up_.batch(i).batch_size() != 0) {
      bad_frame_ = absl::StrCat("upload message ", messages_,
                                " of the stream: batch entry ", i + 1,
                                " is itself a batch");
      break;
    }
    games_.push_back(&up_.batch(i));
  }
  return true;
}

bool UploadStream::AcceptGames() {
  const absl::Time now = absl::Now();
  size_t begin = 0;
  while (begin < games_.size()) {
    size_t end = begin;
    if (!ReserveRun(begin, &end)) return false;
    ValidateRun(begin, end, now);
    for (size_t k = 0; k < end - begin; ++k) {
      Deliver(*games_[begin + k], slots_[k], checked_[k]);
    }
    begin = end;
  }
  return true;
}

bool UploadStream::ReserveRun(size_t begin, size_t* end) {
  slots_.clear();
  size_t j = begin;
  for (; j < games_.size(); ++j) {
    const int64_t slot = acks_.TryReserve(games_[j]->seq());
    if (slot == AckQueue::kWindowFull) break;
    if (slot < 0) {
      // The stream failed: the slots of this run never reach the
      // ingestor, so fill them here (WaitFilled() waits for every
      // reserved slot).
      for (const int64_t s : slots_) {
        acks_.Fill(s, qipu::v1::ACK_STATUS_NOT_STORED,
                   "not stored, resend later: the stream failed", "", true);
      }
      return false;
    }
    slots_.push_back(slot);
  }
  if (j == begin) {
    // The window is full: what is held back goes to the ingestor before
    // waiting for room.
    SubmitValid();
    const int64_t slot = acks_.Reserve(games_[begin]->seq());
    if (slot < 0) return false;
    slots_.push_back(slot);
    j = begin + 1;
  }
  *end = j;
  return true;
}

void UploadStream::ValidateRun(size_t begin, size_t end, absl::Time now) {
  checked_.clear();
  checked_.resize(end - begin);
  run_jobs_.Clear();
  for (size_t k = begin; k < end; ++k) {
    run_jobs_.Add(*deps_.jobs, games_[k]->game().provenance().job());
  }
  deps_.pool->ParallelFor(end - begin, [&](size_t k) {
    const qipu::v1::Game& g = games_[begin + k]->game();
    checked_[k] = Check(run_jobs_.Get(g.provenance().job()), g, now);
  });
}

void UploadStream::Deliver(const qipu::v1::GameUpload& up, int64_t slot,
                           Checked& c) {
  const uint64_t job = up.game().provenance().job();
  const uint64_t index = up.game().provenance().game_index();
  std::string id = store::GameIdText(store::GameId::SelfPlay(job, index));
  if (!c.game.ok()) {
    const std::string reason(c.game.status().message());
    if (c.known_job) {
      spdlog::warn("job {}: game {} from {} rejected: {}", job, index,
                   up.game().provenance().worker(), reason);
      deps_.jobs->MarkRejected(job, index, reason);
    }
    if (deps_.metrics != nullptr) deps_.metrics->games_rejected().Increment();
    acks_.Fill(slot, qipu::v1::ACK_STATUS_REJECTED, reason, std::move(id));
    return;
  }
  valid_.push_back(engine::Ingestor::Submission{
      std::move(*c.game), [this, slot, id = std::move(id)](
                              absl::StatusOr<engine::IngestOutcome> r) mutable {
        OnIngested(slot, std::move(id), std::move(r));
      }});
}

void UploadStream::SubmitValid() {
  if (!valid_.empty()) deps_.ingest->SubmitBatch(&valid_);
}

void UploadStream::OnIngested(int64_t slot, std::string id,
                              absl::StatusOr<engine::IngestOutcome> outcome) {
  if (!outcome.ok()) {
    acks_.Fill(
        slot, qipu::v1::ACK_STATUS_NOT_STORED,
        absl::StrCat("not stored, resend later: ", outcome.status().message()),
        std::move(id), true);
    return;
  }
  const bool stored = *outcome == engine::IngestOutcome::kStored;
  if (deps_.metrics != nullptr) {
    (stored ? deps_.metrics->games_accepted()
            : deps_.metrics->games_duplicate())
        .Increment();
  }
  // The last touch of this stream: once every slot is filled, Finish()
  // may return and the stream go away.
  acks_.Fill(
      slot,
      stored ? qipu::v1::ACK_STATUS_STORED : qipu::v1::ACK_STATUS_DUPLICATE, "",
      std::move(id));
}

void UploadStream::Finish() {
  SubmitValid();
  acks_.Close();
  acks_.WaitFilled();
  writer_.join();
}

void UploadStream::WriteAcks() {
  std::vector<AckQueue::Slot> ready;
  qipu::v1::GameAck message;
  while (acks_.PopReady(kMaxAcksPerMessage, &ready)) {
    if (deps_.metrics != nullptr) {
      const absl::Time now = absl::Now();
      for (const AckQueue::Slot& slot : ready) {
        deps_.metrics->ingest_latency().Observe(
            absl::ToDoubleSeconds(now - slot.received));
      }
    }
    const bool ok = SendAcks(&ready, &message);
    ready.clear();
    if (!ok) {
      acks_.Fail();
      break;
    }
  }
  if (acks_.failed()) ctx_->TryCancel();
}

bool UploadStream::SendAcks(std::vector<AckQueue::Slot>* ready,
                            qipu::v1::GameAck* message) {
  const bool as_batch = batched_.load(std::memory_order_acquire);
  bool ok = true;
  for (size_t i = 0; ok && i < ready->size(); ++i) {
    if (as_batch) {
      *message->add_batch() = std::move((*ready)[i].ack);
      if (i + 1 < ready->size()) continue;
    } else {
      *message = std::move((*ready)[i].ack);
    }
    grpc::ByteBuffer bytes;
    bool own = false;
    ok = grpc::SerializationTraits<qipu::v1::GameAck>::Serialize(*message,
                                                                 &bytes, &own)
             .ok() &&
         stream_->Write(bytes);
    message->Clear();
  }
  return ok;
}

grpc::Status UploadStream::Result(bool drained) const {
  if (!bad_frame_.empty()) {
    spdlog::warn("upload stream from {}: {}", ctx_->peer(), bad_frame_);
    if (deps_.metrics != nullptr) deps_.metrics->games_rejected().Increment();
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, bad_frame_);
  }
  if (drained) return UploadShuttingDown();
  if (acks_.failed()) {
    return grpc::Status(grpc::StatusCode::UNAVAILABLE,
                        "storage failed or the stream broke; resend "
                        "unacknowledged games");
  }
  return grpc::Status::OK;
}

}  // namespace qipu::coordinator
