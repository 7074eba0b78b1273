// Tests of worker/worker.h in-process against a real Coordinator: a job
// played to the end (also in many small leases, back to back), two workers
// sharing a job, a coordinator that comes up late, a lease lost on renewal, a
// graceful stop returning the lease, games left in a spool by an earlier run, a
// coordinator whose disk fills up and is freed again, and a coordinator stopped
// gracefully mid-upload.
#include "worker/worker.h"

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "tests/common/full_disk_fs.h"
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
  const absl::Time t0 = absl::Now();
  ASSERT_TRUE(w.Wait().ok());
  EXPECT_LT(absl::Now() - t0, absl::Seconds(20));
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
  CoordinatorSetup setup;
  uint64_t job = 0;
  {
    auto c = StartCoordinator(db);
    ASSERT_NE(c, nullptr);
    setup.port = c->port();
    job = SubmitJob(*c, 100, Config(9, 3));
  }
  WorkerOptions o =
      Options(absl::StrCat("127.0.0.1:", setup.port), tmp.Sub("spool"), "late");
  o.exit_when_idle = absl::Seconds(3);
  Worker w(o);
  ASSERT_TRUE(w.Start().ok());
  absl::SleepFor(absl::Milliseconds(500));
  EXPECT_EQ(w.stats().leases, 0u);
  auto c = StartCoordinator(db, setup);
  ASSERT_NE(c, nullptr);
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
  setup.lease_ttl = absl::Milliseconds(400);
  auto c = StartCoordinator(tmp.Sub("db"), setup);
  ASSERT_NE(c, nullptr);
  const uint64_t job = SubmitJob(*c, kBigLease, Config(19, 4));
  WorkerOptions o = Options(c->address(), tmp.Sub("spool"), "lost");
  o.threads = 1;
  o.exit_when_idle = absl::ZeroDuration();
  Worker w(o);
  ASSERT_TRUE(w.Start().ok());
  ASSERT_TRUE(WaitFor([&] { return JobStatusOf(*c, job).open_leases() == 1; }));
  // Renewal (every 200 ms) keeps the lease alive past its TTL...
  absl::SleepFor(absl::Milliseconds(500));
  EXPECT_EQ(JobStatusOf(*c, job).open_leases(), 1u);
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
  const absl::Time t0 = absl::Now();
  w.Stop(true);
  ASSERT_TRUE(w.Wait().ok());
  EXPECT_LT(absl::Now() - t0, absl::Seconds(5));
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

TEST(Worker, NothingIsLostWhileTheCoordinatorsDiskIsFull) {
  TempDir tmp;
  auto fs = std::make_shared<qipu::testing::FullDiskFileSystem>();
  std::unique_ptr<rocksdb::Env> env = qipu::testing::EnvOver(fs);
  CoordinatorSetup setup;
  setup.env = env.get();
  auto c = StartCoordinator(tmp.Sub("db"), setup);
  ASSERT_NE(c, nullptr);
  const uint64_t job = SubmitJob(*c, 300, Config(9, 7));
  fs->SetFull(true);
  Worker w(Options(c->address(), tmp.Sub("spool"), "full"));
  ASSERT_TRUE(w.Start().ok());
  // The first commit fails: the store reports why and takes no writes.
  ASSERT_TRUE(WaitFor([&] { return c->store().health().failing(); }));
  const absl::Status why = c->store().health().Get();
  EXPECT_TRUE(absl::IsResourceExhausted(why)) << why;
  EXPECT_NE(why.message().find("injected: no space left"),
            absl::string_view::npos)
      << why;
  // The worker keeps its games and retries; nothing counts as stored.
  ASSERT_TRUE(WaitFor([&] { return w.stats().upload.stream_failures >= 2; }));
  EXPECT_EQ(JobStatusOf(*c, job).done(), 0u);
  EXPECT_EQ(w.stats().upload.stored, 0u);
  // Space is back. RocksDB resumes writes, or, after an error it does not
  // resume from (a failed WAL switch), the coordinator is restarted, as
  // its supervisor restarts qipu-coordinator, which exits then. Either
  // way the resent games are stored, each once.
  fs->SetFull(false);
  ASSERT_TRUE(WaitFor([&] {
    return c->store().health().fatal() || !c->store().health().failing();
  }));
  if (c->store().health().fatal()) {
    setup.port = c->port();
    c->Shutdown();
    c.reset();
    c = StartCoordinator(tmp.Sub("db"), setup);
    ASSERT_NE(c, nullptr);
  }
  ASSERT_TRUE(w.Wait().ok());
  const qipu::v1::JobStatus st = JobStatusOf(*c, job);
  EXPECT_EQ(st.done(), 300u);
  EXPECT_EQ(st.state(), qipu::v1::JOB_STATE_DONE);
  // Each game stored once; games replayed under a re-issued lease (the
  // restarted coordinator lost the leases it could not persist) are
  // duplicates.
  EXPECT_EQ(w.stats().upload.stored, 300u);
  EXPECT_EQ(w.stats().spool.pending, 0u);
  EXPECT_GT(fs->refused(), 0);
  c->Shutdown();
}

TEST(Worker, AGracefulCoordinatorStopEndsUploadStreamsPromptly) {
  TempDir tmp;
  CoordinatorSetup setup;
  auto c = StartCoordinator(tmp.Sub("db"), setup);
  ASSERT_NE(c, nullptr);
  const uint64_t job = SubmitJob(*c, 1500, Config(9, 11));
  Worker w(Options(c->address(), tmp.Sub("spool"), "busy"));
  ASSERT_TRUE(w.Start().ok());
  ASSERT_TRUE(WaitFor([&] { return JobStatusOf(*c, job).done() >= 100; }));
  // The worker's upload stream is open and busy: the stop ends it once
  // its acks are out instead of waiting out the grace period.
  const absl::Time t0 = absl::Now();
  setup.port = c->port();
  c->Shutdown(absl::Seconds(20));
  EXPECT_LT(absl::Now() - t0, absl::Seconds(5));
  c.reset();
  // Restarted where the worker expects it, the job ends with each game
  // stored once; games whose acks the stop cut off come back as
  // duplicates.
  c = StartCoordinator(tmp.Sub("db"), setup);
  ASSERT_NE(c, nullptr);
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
