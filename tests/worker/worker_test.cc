// Tests of worker/worker.h in-process against a real Coordinator: a job
// played to the end (also in many small leases, back to back), two workers
// sharing a job, a coordinator that comes up late, a lease lost on renewal, a
// graceful stop returning the lease, games left in a spool by an earlier run, a
// coordinator whose disk fills up (writes resume, or the store fails for good
// and is restarted), and a coordinator stopped gracefully mid-upload.
#include "worker/worker.h"

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "tests/common/full_disk_fs.h"
#include "tests/common/tcp_proxy.h"
#include "tests/worker/coordinator_fixture.h"
#include "tests/worker/test_util.h"

namespace qipu::worker {
namespace {

using testing::Config;
using testing::CoordinatorSetup;
using testing::JobStatusOf;
using testing::PlayOne;
using testing::StartCoordinator;
using testing::SubmitJob;
using testing::TempDir;
using testing::WaitFor;

WorkerOptions Options(const std::string& address, const std::string& spool,
                      const std::string& name) {
  WorkerOptions o;
  o.coordinator = address;
  o.spool_dir = spool;
  o.name = name;
  o.threads = 2;
  o.exit_when_idle = absl::Milliseconds(400);
  o.drain_timeout = absl::Seconds(5);
  o.rpc_timeout = absl::Seconds(5);
  o.max_idle_poll = absl::Milliseconds(50);
  o.backoff.initial = absl::Milliseconds(20);
  o.backoff.max = absl::Milliseconds(200);
  o.upload.backoff = o.backoff;
  return o;
}

TEST(Worker, PlaysAJobToTheEndAndExitsWhenIdle) {
  TempDir tmp;
  auto c = StartCoordinator(tmp.Sub("db"));
  ASSERT_NE(c, nullptr);
  const uint64_t job = SubmitJob(*c, 300, Config(9, 1));
  Worker w(Options(c->address(), tmp.Sub("spool"), "w1"));
  ASSERT_TRUE(w.Start().ok());
  // Returns once the job is done and the worker idle (it would wait for
  // work forever otherwise).
  ASSERT_TRUE(w.Wait().ok());
  const qipu::v1::JobStatus st = JobStatusOf(*c, job);
  EXPECT_EQ(st.done(), 300u);
  EXPECT_EQ(st.state(), qipu::v1::JOB_STATE_DONE);
  EXPECT_EQ(st.open_leases(), 0u);
  const WorkerStats s = w.stats();
  EXPECT_EQ(s.played, 300u);
  EXPECT_EQ(s.upload.stored, 300u);
  EXPECT_EQ(s.upload.rejected, 0u);
  EXPECT_GE(s.leases, 5u);  // 64 games per lease.
  EXPECT_EQ(s.spool.pending, 0u);
}

TEST(Worker, ManySmallLeasesPlayBackToBackAndEachGameIsStoredOnce) {
  // Leases of 8 games: the next one is leased while the current one plays
  // and its runner starts on the current one's last games, so two runners
  // overlap about fifty times.
  TempDir tmp;
  auto c = StartCoordinator(tmp.Sub("db"));
  ASSERT_NE(c, nullptr);
  const uint64_t job = SubmitJob(*c, 400, Config(9, 7));
  WorkerOptions o = Options(c->address(), tmp.Sub("spool"), "w1");
  o.lease_games = 8;
  Worker w(o);
  ASSERT_TRUE(w.Start().ok());
  ASSERT_TRUE(w.Wait().ok());
  const qipu::v1::JobStatus st = JobStatusOf(*c, job);
  EXPECT_EQ(st.done(), 400u);
  EXPECT_EQ(st.state(), qipu::v1::JOB_STATE_DONE);
  EXPECT_EQ(st.open_leases(), 0u);
  const WorkerStats s = w.stats();
  EXPECT_EQ(s.played, 400u);
  EXPECT_EQ(s.upload.stored, 400u);
  EXPECT_EQ(s.upload.duplicates, 0u);
  EXPECT_EQ(s.leases, 50u);
  EXPECT_EQ(s.spool.pending, 0u);
}

TEST(Worker, TwoWorkersShareAJobAndStoreEachGameOnceBatchedOrNot) {
  TempDir tmp;
  auto c = StartCoordinator(tmp.Sub("db"));
  ASSERT_NE(c, nullptr);
  const uint64_t job = SubmitJob(*c, 500, Config(9, 2));
  Worker a(Options(c->address(), tmp.Sub("a"), "wa"));
  // One batches its uploads (the default), the other sends the single
  // form, one game a message: the coordinator serves both.
  WorkerOptions single = Options(c->address(), tmp.Sub("b"), "wb");
  single.upload.batch = 1;
  Worker b(single);
  ASSERT_TRUE(a.Start().ok());
  ASSERT_TRUE(b.Start().ok());
  ASSERT_TRUE(a.Wait().ok());
  ASSERT_TRUE(b.Wait().ok());
  EXPECT_EQ(JobStatusOf(*c, job).done(), 500u);
  EXPECT_EQ(a.stats().upload.stored + b.stats().upload.stored, 500u);
}

TEST(Worker, BacksOffUntilTheCoordinatorComesUp) {
  TempDir tmp;
  const std::string db = tmp.Sub("db");
  uint64_t job = 0;
  {
    auto c = StartCoordinator(db);
    ASSERT_NE(c, nullptr);
    job = SubmitJob(*c, 100, Config(9, 3));
  }
  // The worker knows only the proxy's address, where nothing answers yet.
  auto proxy = qipu::testing::TcpProxy::Start();
  ASSERT_TRUE(proxy.ok()) << proxy.status();
  WorkerOptions o = Options((*proxy)->address(), tmp.Sub("spool"), "late");
  o.exit_when_idle = absl::ZeroDuration();
  Worker w(o);
  ASSERT_TRUE(w.Start().ok());
  // It tries, is refused, backs off and tries again.
  ASSERT_TRUE(WaitFor([&] { return (*proxy)->accepted() >= 2; }));
  EXPECT_EQ(w.stats().leases, 0u);
  auto c = StartCoordinator(db);
  ASSERT_NE(c, nullptr);
  (*proxy)->SetBackend(c->port());
  ASSERT_TRUE(WaitFor([&] { return JobStatusOf(*c, job).done() == 100; }));
  w.Stop(true);
  ASSERT_TRUE(w.Wait().ok());
  EXPECT_EQ(w.stats().upload.stored, 100u);
}

// 19x19 leases of 100,000 games take one thread several seconds to play
// (~25,000 games/s in a Release build), so a lease can be lost or stopped
// in the middle.
constexpr int kBigLease = 100000;

TEST(Worker, LostLeaseStopsItsGames) {
  TempDir tmp;
  CoordinatorSetup setup;
  setup.lease_games = kBigLease;
  // Renewed every third of it: a renewal may come up to two thirds of
  // the TTL late before the lease expires, plenty on a loaded machine.
  const absl::Duration ttl = absl::Milliseconds(1500) * testing::kSlowdown;
  setup.lease_ttl = ttl;
  auto c = StartCoordinator(tmp.Sub("db"), setup);
  ASSERT_NE(c, nullptr);
  const uint64_t job = SubmitJob(*c, kBigLease, Config(19, 4));
  WorkerOptions o = Options(c->address(), tmp.Sub("spool"), "lost");
  o.threads = 1;
  o.exit_when_idle = absl::ZeroDuration();
  // Thousands of games are played while the lease is watched, and the stop
  // uploads them all (on a slow machine that takes a while).
  o.drain_timeout = absl::Seconds(60) * testing::kSlowdown;
  Worker w(o);
  ASSERT_TRUE(w.Start().ok());
  ASSERT_TRUE(WaitFor([&] { return JobStatusOf(*c, job).open_leases() == 1; }));
  // Renewals keep the lease alive twice its TTL past the grant (the
  // coordinator's ticker expires leases every 50 ms)...
  const absl::Time past_ttl = absl::Now() + 2 * ttl;
  while (absl::Now() < past_ttl) {
    ASSERT_EQ(JobStatusOf(*c, job).open_leases(), 1u) << "the lease expired";
    absl::SleepFor(absl::Milliseconds(20));
  }
  EXPECT_EQ(w.stats().leases_lost, 0u);
  // ...until the coordinator forgets it.
  c->jobs().ExpireLeases(absl::Now() + absl::Hours(1));
  ASSERT_TRUE(WaitFor([&] { return w.stats().leases_lost == 1; }));
  // The runner stops; the games it finished are uploaded.
  ASSERT_TRUE(WaitFor([&] { return w.stats().leases >= 2; }));
  w.Stop(true);
  ASSERT_TRUE(w.Wait().ok());
  const WorkerStats s = w.stats();
  EXPECT_LT(s.played, static_cast<uint64_t>(kBigLease));
  // Every game played was acked, or was a replay (under the re-issued
  // lease) of a game still pending in the spool.
  EXPECT_EQ(s.upload.stored + s.upload.duplicates + s.upload.already_pending,
            s.played);
  EXPECT_EQ(s.spool.pending, 0u);
  EXPECT_EQ(JobStatusOf(*c, job).done(), s.upload.stored);
}

TEST(Worker, GracefulStopUploadsAndReturnsTheLease) {
  TempDir tmp;
  CoordinatorSetup setup;
  setup.lease_games = kBigLease;
  auto c = StartCoordinator(tmp.Sub("db"), setup);
  ASSERT_NE(c, nullptr);
  const uint64_t job = SubmitJob(*c, kBigLease, Config(19, 5));
  WorkerOptions o = Options(c->address(), tmp.Sub("spool"), "stopper");
  o.threads = 1;
  Worker w(o);
  ASSERT_TRUE(w.Start().ok());
  ASSERT_TRUE(WaitFor([&] { return JobStatusOf(*c, job).done() >= 10; }));
  // A graceful stop finishes the game in progress and uploads what is
  // pending (drain_timeout bounds it), then returns the lease.
  w.Stop(true);
  ASSERT_TRUE(w.Wait().ok());
  const qipu::v1::JobStatus st = JobStatusOf(*c, job);
  EXPECT_EQ(st.open_leases(), 0u);
  EXPECT_LT(st.done(), static_cast<uint64_t>(kBigLease));
  const WorkerStats s = w.stats();
  EXPECT_EQ(st.done(), s.played);
  EXPECT_EQ(s.upload.stored, s.played);
  EXPECT_EQ(s.spool.pending, 0u);
}

TEST(Worker, ResendsWhatAnEarlierRunLeftAndDropsRejects) {
  TempDir tmp;
  auto c = StartCoordinator(tmp.Sub("db"));
  ASSERT_NE(c, nullptr);
  const qipu::v1::JobConfig config = Config(9, 6);
  const uint64_t job = SubmitJob(*c, 40, config);
  const std::string dir = tmp.Sub("spool");
  {
    // What a crashed run left: 40 games and a corrupted one.
    auto spool = std::move(*Spool::Open(SpoolOptions{dir}));
    for (uint64_t i = 0; i < 40; ++i) {
      ASSERT_TRUE(spool->Append(PlayOne(config, job, i, "old")).ok());
    }
    FinishedGame bad = PlayOne(config, job + 1, 0, "old");
    ASSERT_TRUE(spool->Append(bad).ok());
    ASSERT_TRUE(spool->Sync().ok());
  }
  Worker w(Options(c->address(), dir, "again"));
  ASSERT_TRUE(w.Start().ok());
  ASSERT_TRUE(w.Wait().ok());
  EXPECT_EQ(JobStatusOf(*c, job).done(), 40u);
  const WorkerStats s = w.stats();
  EXPECT_EQ(s.upload.rejected, 1u);
  // The job's games were also leased and played again: each is acked as
  // a duplicate, or was still pending in the spool and not sent twice.
  EXPECT_GE(s.upload.stored + s.upload.duplicates, 40u);
  EXPECT_LE(s.upload.stored + s.upload.duplicates, 40u + s.played);
  EXPECT_EQ(s.upload.stored, 40u);
  EXPECT_EQ(s.spool.pending, 0u);
  // Nothing is resent by the next run.
  auto spool = std::move(*Spool::Open(SpoolOptions{dir}));
  EXPECT_EQ(spool->pending(), 0u);
}

// A job of 300 games played by a worker (behind a proxy, so that a
// restarted coordinator can take a fresh port) against a coordinator whose
// disk fills up once the job is under way. Each test below makes one of
// the two ways RocksDB handles it happen (tests/store/store_test.cc pins
// them down on the store alone).
class FullDiskWorkerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto proxy = qipu::testing::TcpProxy::Start();
    ASSERT_TRUE(proxy.ok()) << proxy.status();
    proxy_ = *std::move(proxy);
    setup_.env = env_.get();
    c_ = StartCoordinator(tmp_.Sub("db"), setup_);
    ASSERT_NE(c_, nullptr);
    proxy_->SetBackend(c_->port());
    job_ = SubmitJob(*c_, 300, Config(9, 7));
    WorkerOptions o = Options(proxy_->address(), tmp_.Sub("spool"), "full");
    o.exit_when_idle = absl::ZeroDuration();
    worker_ = std::make_unique<Worker>(o);
    ASSERT_TRUE(worker_->Start().ok());
  }

  // Once some games are stored, fills the disk (for good, or for the next
  // `writes` writes only); returns when a commit has failed, with the
  // store saying why.
  void FillTheDisk(int writes = 0) {
    ASSERT_TRUE(WaitFor([&] { return JobStatusOf(*c_, job_).done() >= 20; }));
    if (writes > 0) {
      fs_->RefuseNext(writes);
    } else {
      fs_->SetFull(true);
    }
    ASSERT_TRUE(WaitFor([&] { return c_->store().health().failing(); }));
    const absl::Status why = c_->store().health().Get();
    EXPECT_TRUE(absl::IsResourceExhausted(why)) << why;
    EXPECT_NE(why.message().find("injected: no space left"),
              absl::string_view::npos)
        << why;
  }

  // The worker finishes the job: every game stored once, nothing left.
  void ExpectTheJobDone() {
    ASSERT_TRUE(WaitFor([&] {
      return JobStatusOf(*c_, job_).state() == qipu::v1::JOB_STATE_DONE;
    }));
    worker_->Stop(true);
    ASSERT_TRUE(worker_->Wait().ok());
    const qipu::v1::JobStatus st = JobStatusOf(*c_, job_);
    EXPECT_EQ(st.done(), 300u);
    // Each game acknowledged once, as stored or as a duplicate: a commit
    // whose WAL append reached the file before a refused sync fails, and
    // still comes back when RocksDB replays its WAL at the restart; the
    // resent games are then duplicates. A replay under a re-issued lease
    // is one too.
    EXPECT_EQ(
        worker_->stats().upload.stored + worker_->stats().upload.duplicates,
        300u);
    EXPECT_EQ(worker_->stats().spool.pending, 0u);
    EXPECT_GT(fs_->refused(), 0);
  }

  TempDir tmp_;
  std::shared_ptr<qipu::testing::FullDiskFileSystem> fs_ =
      std::make_shared<qipu::testing::FullDiskFileSystem>();
  std::unique_ptr<rocksdb::Env> env_ = qipu::testing::EnvOver(fs_);
  std::unique_ptr<qipu::testing::TcpProxy> proxy_;
  CoordinatorSetup setup_;
  std::unique_ptr<coordinator::Coordinator> c_;
  uint64_t job_ = 0;
  std::unique_ptr<Worker> worker_;
};

TEST_F(FullDiskWorkerTest, TheWorkerKeepsItsGamesUntilWritesResume) {
  // The disk is full for one write (a commit's WAL append) and has room
  // again at once: RocksDB recovers by itself, never fatally. Until it
  // has, the store refuses the games, and the worker keeps them and
  // resends them; then every game is stored once.
  FillTheDisk(/*writes=*/1);
  ASSERT_TRUE(WaitFor([&] { return !c_->store().health().failing(); }));
  EXPECT_FALSE(c_->store().health().fatal());
  ExpectTheJobDone();
  // Whether a batch of games was refused depends on which write the full
  // disk hit (a commit, a lease, an index flush) and on how soon RocksDB
  // resumed; each refused batch reached the worker as a failed stream,
  // whose games it sent again (all stored once, above).
  const uint64_t refused_games = c_->ingestor().counters().failed;
  if (refused_games > 0) {
    EXPECT_GE(worker_->stats().upload.stream_failures, 1u);
  } else {
    EXPECT_EQ(worker_->stats().upload.stream_failures, 0u);
  }
  EXPECT_FALSE(c_->store().health().fatal());
  EXPECT_EQ(fs_->refused(), 1);
}

TEST_F(FullDiskWorkerTest, TheWorkerKeepsItsGamesUntilTheFailedStoreRestarts) {
  FillTheDisk();
  // The disk stays full. RocksDB's own recovery, and any flush, need a new
  // WAL, which cannot be created: RocksDB does not resume from that, and
  // the store says so (qipu-coordinator exits then, for its supervisor to
  // restart it). A flush of our own makes sure one is tried.
  EXPECT_FALSE(c_->store().Flush().ok());
  ASSERT_TRUE(WaitFor([&] { return c_->store().health().fatal(); }))
      << c_->store().health().Get();
  // Meanwhile the worker keeps its games and resends them, refused each
  // time.
  const uint64_t failures = worker_->stats().upload.stream_failures;
  ASSERT_TRUE(WaitFor(
      [&] { return worker_->stats().upload.stream_failures >= failures + 2; }));
  fs_->SetFull(false);
  EXPECT_TRUE(c_->store().health().fatal());
  // The supervisor's restart: a fresh process on the same database (a
  // fresh port, behind the worker's proxy). The leases the old one could
  // not persist are granted again.
  proxy_->SetBackend(0);
  c_->Shutdown();
  c_.reset();
  c_ = StartCoordinator(tmp_.Sub("db"));
  ASSERT_NE(c_, nullptr);
  proxy_->SetBackend(c_->port());
  ExpectTheJobDone();
}

TEST(Worker, AGracefulCoordinatorStopEndsUploadStreamsPromptly) {
  TempDir tmp;
  auto proxy = qipu::testing::TcpProxy::Start();
  ASSERT_TRUE(proxy.ok()) << proxy.status();
  auto c = StartCoordinator(tmp.Sub("db"));
  ASSERT_NE(c, nullptr);
  (*proxy)->SetBackend(c->port());
  const uint64_t job = SubmitJob(*c, 1500, Config(9, 11));
  // A lease granted while the stop cut its reply off is the restarted
  // coordinator's until it expires (1 s there): the worker waits longer
  // than that before it calls itself idle.
  WorkerOptions wo = Options((*proxy)->address(), tmp.Sub("spool"), "busy");
  wo.exit_when_idle = absl::Seconds(4);
  Worker w(wo);
  ASSERT_TRUE(w.Start().ok());
  ASSERT_TRUE(WaitFor([&] { return JobStatusOf(*c, job).done() >= 100; }));
  // The worker's upload stream is open and busy: the stop ends it once
  // its acks are out instead of waiting out the grace period. The grace
  // is long enough that the two cannot be confused on any machine.
  constexpr absl::Duration kGrace = absl::Seconds(120);
  const absl::Time t0 = absl::Now();
  (*proxy)->SetBackend(0);
  c->Shutdown(kGrace);
  EXPECT_LT(absl::Now() - t0, kGrace / 2);
  c.reset();
  // Restarted (on a fresh port, behind the same proxy), the job ends with
  // each game stored once; games whose acks the stop cut off come back
  // as duplicates.
  CoordinatorSetup restart;
  restart.lease_ttl = absl::Seconds(1);
  c = StartCoordinator(tmp.Sub("db"), restart);
  ASSERT_NE(c, nullptr);
  (*proxy)->SetBackend(c->port());
  ASSERT_TRUE(w.Wait().ok());
  const qipu::v1::JobStatus st = JobStatusOf(*c, job);
  EXPECT_EQ(st.done(), 1500u);
  EXPECT_EQ(st.state(), qipu::v1::JOB_STATE_DONE);
  EXPECT_GE(w.stats().upload.stored + w.stats().upload.duplicates, 1500u);
  EXPECT_EQ(w.stats().spool.pending, 0u);
}

TEST(Worker, RefusesASpoolInUse) {
  TempDir tmp;
  auto held = std::move(*Spool::Open(SpoolOptions{tmp.Sub("spool")}));
  Worker w(Options("127.0.0.1:1", tmp.Sub("spool"), "x"));
  EXPECT_TRUE(absl::IsFailedPrecondition(w.Start()));
  EXPECT_TRUE(w.Wait().ok());
  Worker bad(Options("", tmp.Sub("other"), "y"));
  EXPECT_TRUE(absl::IsInvalidArgument(bad.Start()));
}

}  // namespace
}  // namespace qipu::worker
