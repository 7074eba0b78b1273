#include "engine/ingest.h"

#include <pthread.h>

#include <future>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "spdlog/spdlog.h"
#include "store/aggregate.h"
#include "store/game_batch.h"
#include "store/game_id.h"
#include "store/indexer.h"
#include "store/keys.h"
#include "store/position_index.h"

namespace qipu::engine {
namespace {

// How long a batch waits for the position index to make room before it
// fails (its games are then not stored and are sent again).
constexpr absl::Duration kIndexRoomWait = absl::Seconds(2);

}  // namespace

Ingestor::Ingestor(store::Store* store, const IngestOptions& options,
                   StoredHook on_stored, KnownStored known_stored)
    : store_(store),
      options_(options),
      on_stored_(std::move(on_stored)),
      known_stored_(std::move(known_stored)) {
  if (options_.test_fault_drop_acked_every > 0) {
    spdlog::critical(
        "ingest: TEST FAULT ENABLED (--test-fault-drop-acked-every {}): "
        "every {}th batch of new games is acknowledged as stored and NOT "
        "written; this coordinator loses games on purpose",
        options_.test_fault_drop_acked_every,
        options_.test_fault_drop_acked_every);
  }
  thread_ = std::thread([this] { Run(); });
  // Named for top -H and profilers (at most 15 characters).
  pthread_setname_np(thread_.native_handle(), "qipu-ingest");
}

Ingestor::~Ingestor() { Stop(); }

void Ingestor::Stop() {
  {
    absl::MutexLock lock(&mu_);
    if (stopping_ && !thread_.joinable()) return;
    stopping_ = true;
  }
  if (thread_.joinable()) thread_.join();
}

void Ingestor::Submit(PreparedGame game, Callback done) {
  {
    absl::MutexLock lock(&mu_);
    auto room = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return stopping_ || static_cast<int>(queue_.size()) < options_.max_queue;
    };
    mu_.Await(absl::Condition(&room));
    if (!stopping_) {
      queue_.push_back(Item{std::move(game), std::move(done)});
      return;
    }
  }
  done(absl::UnavailableError("the coordinator is shutting down"));
}

void Ingestor::SubmitBatch(std::vector<Submission>* games) {
  size_t next = 0;
  while (next < games->size()) {
    absl::MutexLock lock(&mu_);
    auto room = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return stopping_ || static_cast<int>(queue_.size()) < options_.max_queue;
    };
    mu_.Await(absl::Condition(&room));
    if (stopping_) break;
    while (next < games->size() &&
           static_cast<int>(queue_.size()) < options_.max_queue) {
      Submission& g = (*games)[next++];
      queue_.push_back(Item{std::move(g.game), std::move(g.done)});
    }
  }
  for (; next < games->size(); ++next) {
    (*games)[next].done(
        absl::UnavailableError("the coordinator is shutting down"));
  }
  games->clear();
}

absl::StatusOr<IngestOutcome> Ingestor::SubmitAndWait(PreparedGame game) {
  auto promise =
      std::make_shared<std::promise<absl::StatusOr<IngestOutcome>>>();
  auto future = promise->get_future();
  Submit(std::move(game), [promise](absl::StatusOr<IngestOutcome> r) {
    promise->set_value(std::move(r));
  });
  return future.get();
}

void Ingestor::Run() {
  for (;;) {
    std::deque<Item> batch;
    {
      absl::MutexLock lock(&mu_);
      auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return stopping_ || !queue_.empty();
      };
      mu_.Await(absl::Condition(&ready));
      if (queue_.empty() && stopping_) return;
      while (!queue_.empty() &&
             static_cast<int>(batch.size()) < options_.max_batch) {
        batch.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
    }
    CommitBatch(&batch);
  }
}

void Ingestor::CommitBatch(std::deque<Item>* batch) {
  // Duplicates: already stored, or earlier in this batch. What the caller
  // knows exactly is not looked up (self-play games: the job manager's
  // bitmaps); the others are, in one MultiGet.
  std::vector<int8_t> stored_before(batch->size(), -1);  // -1: look it up
  std::vector<size_t> lookup;
  std::vector<absl::string_view> keys;
  for (size_t i = 0; i < batch->size(); ++i) {
    const std::optional<bool> known =
        known_stored_ ? known_stored_((*batch)[i].game) : std::nullopt;
    if (known.has_value()) {
      stored_before[i] = *known ? 1 : 0;
    } else {
      lookup.push_back(i);
      keys.emplace_back((*batch)[i].game.key);
    }
  }
  absl::Status read_error;
  if (!keys.empty()) {
    absl::StatusOr<std::vector<bool>> found =
        store_->Contains(store::Records::kGames, keys);
    if (found.ok()) {
      for (size_t k = 0; k < lookup.size(); ++k) {
        stored_before[lookup[k]] = (*found)[k] ? 1 : 0;
      }
    } else {
      read_error = found.status();
    }
  }
  std::vector<bool> fresh(batch->size(), false);
  absl::flat_hash_set<std::string> seen;
  for (size_t i = 0; i < batch->size(); ++i) {
    if (stored_before[i] == 0) {
      fresh[i] = seen.insert((*batch)[i].game.key).second;
    }
  }
  // The test fault: this batch's new games are acknowledged, not written.
  const bool drop =
      options_.test_fault_drop_acked_every > 0 && read_error.ok() &&
      !seen.empty() &&
      ++fault_batches_ % options_.test_fault_drop_acked_every == 0;

  absl::Status status = read_error;
  uint64_t positions = 0;
  if (status.ok() && !drop) {
    store::GameBatch writes(store_);
    for (size_t i = 0; i < batch->size(); ++i) {
      if (!fresh[i]) continue;
      const PreparedGame& g = (*batch)[i].game;
      writes.Add({.id = g.id,
                  .key = g.key,
                  .value = g.value,
                  .pattern_entry = g.pattern_entry,
                  .config_id = g.config_id,
                  .day = g.day,
                  .facts = &g.facts,
                  .position_ops = &g.position_ops,
                  .index_plies = g.index_plies,
                  .players = &g.players});
    }
    positions = writes.positions();
    status = writes.Commit(kIndexRoomWait);
  }

  uint64_t stored = 0;
  uint64_t dups = 0;
  for (size_t i = 0; i < batch->size(); ++i) {
    Item& it = (*batch)[i];
    if (!status.ok()) {
      it.done(status);
      continue;
    }
    if (fresh[i]) {
      ++stored;
      if (on_stored_ && !drop) on_stored_(it.game);
      it.done(IngestOutcome::kStored);
    } else {
      ++dups;
      it.done(IngestOutcome::kDuplicate);
    }
  }
  if (!status.ok()) {
    spdlog::error("ingest: batch of {} games not written: {}", batch->size(),
                  status.ToString());
  }
  if (drop) {
    std::string ids;
    for (size_t i = 0; i < batch->size(); ++i) {
      if (fresh[i]) {
        absl::StrAppend(&ids, " ", store::GameIdText((*batch)[i].game.id));
      }
    }
    spdlog::error(
        "ingest: TEST FAULT: {} game(s) acknowledged as stored and NOT "
        "written:{}",
        stored, ids);
  }
  absl::MutexLock lock(&mu_);
  ++counters_.batches;
  counters_.stored += stored;
  counters_.duplicates += dups;
  counters_.positions += positions;
  if (!status.ok()) counters_.failed += batch->size();
}

IngestCounters Ingestor::counters() const {
  absl::MutexLock lock(&mu_);
  return counters_;
}

int Ingestor::queue_depth() const {
  absl::MutexLock lock(&mu_);
  return static_cast<int>(queue_.size());
}

}  // namespace qipu::engine
