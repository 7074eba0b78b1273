// "Acknowledged only once durable", end to end, against a simulated power
// loss rather than a process kill (which keeps the kernel's page cache and
// cannot tell a sync from no sync):
//  - the coordinator: games uploaded over real gRPC to an in-process
//    Coordinator whose RocksDB runs on PowerLossFileSystem
//    (tests/common/power_loss_fs.h); the power goes mid-upload; every
//    game acknowledged before it is in the reopened database. With the
//    WAL not synced per commit (--no-sync) the same run loses
//    acknowledged games, and the test sees it.
//  - the worker: the uploader sends only games its spool has made
//    durable. The coordinator's disk stalls (nothing is acknowledged), the
//    worker sends every game it has, and then the worker's power goes:
//    its spool (on PowerLossSpoolFs) still holds every game it sent. With
//    the spool's syncs made no-ops, games sent are lost, and the test
//    sees it.
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/synchronization/mutex.h"
#include "gtest/gtest.h"
#include "store/game_id.h"
#include "tests/common/power_loss_fs.h"
#include "tests/common/stored_games.h"
#include "tests/worker/coordinator_fixture.h"
#include "tests/worker/power_loss_spool_fs.h"
#include "tests/worker/test_util.h"
#include "worker/client.h"
#include "worker/spool.h"
#include "worker/uploader.h"

namespace qipu::worker {
namespace {

using qipu::testing::EnvOver;
using qipu::testing::PowerLossFileSystem;
using testing::Config;
using testing::CoordinatorSetup;
using testing::PlayOne;
using testing::PowerLossSpoolFs;
using testing::StartCoordinator;
using testing::SubmitJob;
using testing::TempDir;
using testing::WaitFor;

ClientOptions ToAddress(const std::string& address) {
  ClientOptions o;
  o.address = address;
  o.worker = "power-loss-test";
  o.rpc_timeout = absl::Seconds(10);
  return o;
}

UploaderOptions Upload(int window) {
  UploaderOptions o;
  o.window = window;
  o.batch = 8;
  o.spool_group = 8;
  o.max_unsynced = 8;
  o.ack_timeout = absl::Minutes(10);
  o.backoff.initial = absl::Milliseconds(20);
  o.backoff.max = absl::Milliseconds(200);
  o.worker = "power-loss-test";
  return o;
}

// Games acknowledged (stored or duplicate) so far. Thread-safe.
class Acks {
 public:
  void Add(const GameKey& key, qipu::v1::AckStatus status) {
    if (status != qipu::v1::ACK_STATUS_STORED &&
        status != qipu::v1::ACK_STATUS_DUPLICATE) {
      return;
    }
    absl::MutexLock lock(&mu_);
    keys_.insert(key);
  }
  size_t size() const {
    absl::MutexLock lock(&mu_);
    return keys_.size();
  }
  // Runs `fn` while no ack can be recorded, with the keys so far.
  template <typename Fn>
  absl::flat_hash_set<GameKey> Freeze(Fn fn) const {
    absl::MutexLock lock(&mu_);
    fn();
    return keys_;
  }

 private:
  mutable absl::Mutex mu_;
  absl::flat_hash_set<GameKey> keys_ ABSL_GUARDED_BY(mu_);
};

// What became of the games acknowledged before the power loss.
struct CoordinatorVerdict {
  size_t acknowledged = 0;
  std::vector<uint64_t> lost;
  // Games the job counts as stored after the restart.
  uint64_t done_after = 0;
  PowerLossFileSystem::Restored restored;
};

// Uploads `games` games of a fresh job to a coordinator on a power-loss
// file system (WAL synced per commit or not), loses the power once
// `loss_at` games are acknowledged, restores what the disk kept, reopens
// the database and looks for every game acknowledged before the loss.
CoordinatorVerdict UploadThroughAPowerLoss(const TempDir& tmp, bool sync,
                                           uint64_t games, size_t loss_at) {
  CoordinatorVerdict v;
  const std::string db = tmp.Sub("db");
  auto fs = std::make_shared<PowerLossFileSystem>();
  std::unique_ptr<rocksdb::Env> env = EnvOver(fs);
  CoordinatorSetup setup;
  setup.env = env.get();
  setup.sync = sync;
  auto c = StartCoordinator(db, setup);
  if (c == nullptr) return v;
  const qipu::v1::JobConfig config = Config(9, 31);
  const uint64_t job = SubmitJob(*c, games, config);
  absl::flat_hash_set<GameKey> before;
  {
    auto spool = std::move(*Spool::Open(SpoolOptions{tmp.Sub("spool")}));
    CoordinatorClient client(ToAddress(c->address()));
    GameQueue queue(games);
    Acks acks;
    Uploader up(Upload(32), &client, spool.get(), &queue,
                [&acks](const GameKey& key, const std::string&,
                        qipu::v1::AckStatus status) { acks.Add(key, status); });
    up.Start();
    for (uint64_t i = 0; i < games; ++i) {
      EXPECT_TRUE(queue.Push(PlayOne(config, job, i, "L")));
    }
    EXPECT_TRUE(WaitFor([&] { return acks.size() >= loss_at; }));
    // Every ack recorded so far was sent after its commit returned: the
    // power goes after all of them, before any later one.
    before = acks.Freeze([&] { fs->PowerLoss(); });
    up.Stop(absl::Now());
    up.Wait();
  }
  // What the coordinator does after the loss (more commits, the index's
  // last flush, closing) never reaches the disk.
  c->Shutdown(absl::Seconds(5));
  c.reset();
  absl::StatusOr<PowerLossFileSystem::Restored> restored =
      fs->RestoreDurableState();
  EXPECT_TRUE(restored.ok()) << restored.status();
  if (restored.ok()) v.restored = *restored;
  v.acknowledged = before.size();

  // The power is back: the database opens from what the disk kept.
  auto again = StartCoordinator(db);
  if (again == nullptr) return v;
  for (const GameKey& k : before) {
    absl::StatusOr<std::optional<std::string>> g = test_util::StoredGame(
        again->store(), store::GameId::SelfPlay(k.job, k.index));
    EXPECT_TRUE(g.ok()) << g.status();
    if (!g.ok() || !g->has_value()) v.lost.push_back(k.index);
  }
  // (Without syncs the job itself may be gone.)
  auto st = again->jobs().Status(job);
  v.done_after = st.ok() && st->size() == 1 ? (*st)[0].done() : 0;
  return v;
}

TEST(CoordinatorPowerLoss, EveryGameAcknowledgedBeforeThePowerLossIsStored) {
  TempDir tmp;
  const CoordinatorVerdict v =
      UploadThroughAPowerLoss(tmp, /*sync=*/true, 400, 150);
  EXPECT_GE(v.acknowledged, 150u);
  EXPECT_TRUE(v.lost.empty()) << v.lost.size() << " of " << v.acknowledged
                              << " acknowledged games lost";
  // The job's count is as durable as its games.
  EXPECT_GE(v.done_after, v.acknowledged);
  // The harness did lose something: the writes after the power loss.
  EXPECT_GT(v.restored.bytes_dropped + v.restored.files_removed, 0);
}

TEST(CoordinatorPowerLoss, WithoutAWalSyncPerCommitTheHarnessSeesLosses) {
  // --no-sync keeps acknowledged games across a process crash (the page
  // cache has them) but not across a power loss: the same upload loses
  // games it acknowledged, and the test notices.
  TempDir tmp;
  const CoordinatorVerdict v =
      UploadThroughAPowerLoss(tmp, /*sync=*/false, 400, 150);
  EXPECT_GE(v.acknowledged, 150u);
  EXPECT_GT(v.lost.size(), 0u) << "no acknowledged game lost without syncs";
  EXPECT_LT(v.done_after, v.acknowledged);
  EXPECT_GT(v.restored.bytes_dropped, 0);
}

// The games of a job sent by an uploader to a coordinator that
// acknowledges nothing (its disk stalls), then the worker's power goes.
struct WorkerVerdict {
  uint64_t sent = 0;
  // Sent, and not in the spool after the power loss.
  std::vector<uint64_t> lost;
};

WorkerVerdict SendThenLosePower(const TempDir& tmp, bool spool_syncs) {
  WorkerVerdict v;
  constexpr uint64_t kGames = 120;
  auto fs = std::make_shared<PowerLossFileSystem>();
  std::unique_ptr<rocksdb::Env> env = EnvOver(fs);
  CoordinatorSetup setup;
  setup.env = env.get();
  auto c = StartCoordinator(tmp.Sub("db"), setup);
  if (c == nullptr) return v;
  const qipu::v1::JobConfig config = Config(9, 32);
  const uint64_t job = SubmitJob(*c, kGames, config);
  // From now on every commit waits for its WAL sync: no game is
  // acknowledged, so every game sent stays the worker's responsibility.
  fs->HoldSyncs(true);

  PowerLossSpoolFs spool_fs("/mem");
  spool_fs.DropFileSyncs(!spool_syncs);
  SpoolOptions so;
  so.dir = "/mem/spool";
  so.fs = &spool_fs;
  {
    auto spool = std::move(*Spool::Open(so));
    CoordinatorClient client(ToAddress(c->address()));
    GameQueue queue(kGames);
    Uploader up(Upload(static_cast<int>(kGames)), &client, spool.get(), &queue,
                nullptr);
    up.Start();
    for (uint64_t i = 0; i < kGames; ++i) {
      EXPECT_TRUE(queue.Push(PlayOne(config, job, i, "L")));
    }
    // The window covers the job: everything is sent once, nothing acked
    // (the coordinator's first commit waits on its WAL sync).
    EXPECT_TRUE(WaitFor([&] { return up.stats().sent >= kGames; }));
    EXPECT_TRUE(WaitFor([&] { return fs->syncs_waiting() > 0; }))
        << "the coordinator's disk did not stall";
    EXPECT_EQ(up.stats().stored, 0u);
    v.sent = up.stats().sent;
    spool_fs.PowerLoss();
    up.Stop(absl::Now());
    up.Wait();
  }
  fs->HoldSyncs(false);
  c->Shutdown(absl::Seconds(5));
  c.reset();

  // The worker's next run opens what its disk kept.
  spool_fs.DropFileSyncs(false);
  auto spool = Spool::Open(so);
  EXPECT_TRUE(spool.ok()) << spool.status();
  if (!spool.ok()) return v;
  for (uint64_t i = 0; i < kGames; ++i) {
    absl::StatusOr<SpooledGame> g = (*spool)->Get(GameKey{job, i});
    if (!g.ok() || (*g)->game != PlayOne(config, job, i, "L").game) {
      v.lost.push_back(i);
    }
  }
  return v;
}

TEST(WorkerPowerLoss, EveryGameSentIsInTheSpoolAfterThePowerLoss) {
  TempDir tmp;
  const WorkerVerdict v = SendThenLosePower(tmp, /*spool_syncs=*/true);
  EXPECT_EQ(v.sent, 120u);
  EXPECT_TRUE(v.lost.empty()) << v.lost.size() << " sent games lost";
}

TEST(WorkerPowerLoss, WithSpoolSyncsThatDoNothingTheHarnessSeesLosses) {
  TempDir tmp;
  const WorkerVerdict v = SendThenLosePower(tmp, /*spool_syncs=*/false);
  EXPECT_EQ(v.sent, 120u);
  EXPECT_EQ(v.lost.size(), 120u) << "sent games survived without syncs";
}

}  // namespace
}  // namespace qipu::worker
