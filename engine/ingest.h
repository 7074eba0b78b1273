// Ingestor: the single writer of games. Prepared games queue up; one
// committer thread takes whatever has accumulated (group commit, up to
// max_batch games), drops games already stored or repeated within the
// batch (duplicates), folds the batch's aggregate deltas by key (one merge
// operand per distinct key per batch), writes the games, the aggregates
// and the batch's record of unindexed games (store/position_index.h) in
// one WriteBatch durably (Store::Commit()), hands the batch's
// position-index entries to the store's PositionIndex, and only then
// reports each game's outcome. A game is therefore acknowledged exactly
// when it is durable, and stored at most once: the only thread that writes
// games checks each one, against the job manager's record of stored games
// (KnownStored) or else in the games column family (Store::Contains()).
//
// Thread-safe: Submit() may be called from any thread.
#ifndef QIPU_ENGINE_INGEST_H_
#define QIPU_ENGINE_INGEST_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "engine/prepare.h"
#include "store/store.h"

namespace qipu::engine {

enum class IngestOutcome { kStored, kDuplicate };

struct IngestOptions {
  // Most games per WriteBatch.
  int max_batch = 1024;
  // Most queued games; Submit() blocks beyond (back-pressure).
  int max_queue = 16384;
  // TEST FAULT, never for production (qipu-coordinator's hidden
  // --test-fault-drop-acked-every; tests/ops/acked_write_test.cc): every
  // nth batch holding new games is acknowledged (kStored) and NOT written,
  // nor reported to the StoredHook -- a write lost after its ack, as the
  // tests' "every acknowledged game is stored" check must catch. Logged
  // at start and for each dropped batch, naming its games. 0: off.
  int test_fault_drop_acked_every = 0;
};

// Counters, for metrics. Monotonic.
struct IngestCounters {
  uint64_t stored = 0;
  uint64_t duplicates = 0;
  uint64_t failed = 0;
  uint64_t batches = 0;
  uint64_t positions = 0;
};

class Ingestor {
 public:
  using Callback = std::function<void(absl::StatusOr<IngestOutcome>)>;
  // Called on the committer thread for every stored game, after commit.
  using StoredHook = std::function<void(const PreparedGame&)>;

  // Whether a game is stored, when the caller knows it exactly (the job
  // manager keeps which games of each job are stored: see
  // JobManager::IsStored()); nullopt when it does not, and the committer
  // then looks the game up in the games column family. Called on the
  // committer thread, which alone writes games: an answer must cover every
  // game committed before the call (StoredHook runs after each commit).
  using KnownStored = std::function<std::optional<bool>(const PreparedGame&)>;

  // Does not own `store`. Starts the committer thread. `known_stored` may
  // be null (every game is looked up).
  Ingestor(store::Store* store, const IngestOptions& options,
           StoredHook on_stored, KnownStored known_stored = nullptr);
  // Stops after committing everything queued.
  ~Ingestor();

  // Queues `game`; `done` runs on the committer thread once the game is
  // durable (kStored), found already stored (kDuplicate), or the write
  // failed (Unavailable etc.; nothing of the batch was written). After
  // Stop(), `done` runs at once with Unavailable.
  void Submit(PreparedGame game, Callback done);
  // A game and its callback, for SubmitBatch().
  struct Submission {
    PreparedGame game;
    Callback done;
  };
  // Submit() of every entry, in order, under one lock acquisition (one
  // wakeup of the committer for many games). Blocks while the queue is
  // full, queueing what fits. Empties *games.
  void SubmitBatch(std::vector<Submission>* games);
  // Submit() and wait for the outcome.
  absl::StatusOr<IngestOutcome> SubmitAndWait(PreparedGame game);

  // Commits what is queued, then stops accepting games. Idempotent.
  void Stop();

  IngestCounters counters() const;
  // Games queued and not yet committed.
  int queue_depth() const;

 private:
  struct Item {
    PreparedGame game;
    Callback done;
  };
  void Run();
  void CommitBatch(std::deque<Item>* batch);

  store::Store* store_;
  const IngestOptions options_;
  StoredHook on_stored_;
  KnownStored known_stored_;
  mutable absl::Mutex mu_;
  std::deque<Item> queue_ ABSL_GUARDED_BY(mu_);
  // Batches with new games so far, for the test fault (committer thread).
  uint64_t fault_batches_ = 0;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  IngestCounters counters_ ABSL_GUARDED_BY(mu_);
  std::thread thread_;
};

}  // namespace qipu::engine

#endif  // QIPU_ENGINE_INGEST_H_
