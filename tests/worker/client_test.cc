// Tests of worker/client.h and worker/uploader.h against a real
// Coordinator on 127.0.0.1: lease calls (of any job or of one) and their
// error codes, uploads
// with STORED / DUPLICATE / REJECTED acks (over TCP and over the
// coordinator's in-process channel, batched and single form), a spooled
// game that does not parse, and resending after the coordinator restarts
// mid-stream.
#include "worker/client.h"

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/common/tcp_proxy.h"
#include "tests/worker/coordinator_fixture.h"
#include "tests/worker/test_util.h"
#include "worker/spool.h"
#include "worker/uploader.h"

namespace qipu::worker {
namespace {

using testing::Config;
using testing::JobStatusOf;
using testing::PlayOne;
using testing::StartCoordinator;
using testing::SubmitJob;
using testing::TempDir;
using testing::WaitFor;

ClientOptions To(const std::string& address) {
  ClientOptions o;
  o.address = address;
  o.worker = "client-test";
  o.rpc_timeout = absl::Seconds(5);
  return o;
}

TEST(CoordinatorClient, LeaseRenewReturn) {
  TempDir tmp;
  auto c = StartCoordinator(tmp.Sub("db"));
  ASSERT_NE(c, nullptr);
  const qipu::v1::JobConfig config = Config(9, 42);
  const uint64_t job = SubmitJob(*c, 100, config);
  CoordinatorClient client(To(c->address()));

  absl::StatusOr<LeaseReply> r = client.LeaseWork(10);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->lease.has_value());
  EXPECT_EQ(r->lease->job, job);
  EXPECT_EQ(r->lease->indices.size(), 10u);
  EXPECT_EQ(r->lease->config.seed(), 42u);
  EXPECT_EQ(r->lease->config.width(), 9u);
  EXPECT_GT(r->ttl, absl::ZeroDuration());
  const std::string id = r->lease->lease_id;

  absl::StatusOr<absl::Duration> ttl = client.RenewLease(id);
  ASSERT_TRUE(ttl.ok()) << ttl.status();
  EXPECT_GT(*ttl, absl::ZeroDuration());
  EXPECT_TRUE(client.ReturnLease(id).ok());
  EXPECT_EQ(JobStatusOf(*c, job).open_leases(), 0u);
  // A returned lease cannot be renewed: NOT_FOUND, not worth retrying.
  const absl::Status gone = client.RenewLease(id).status();
  EXPECT_TRUE(absl::IsNotFound(gone)) << gone;
  EXPECT_FALSE(IsTransient(gone));
}

TEST(CoordinatorClient, ExpiredLeaseIsNotFound) {
  TempDir tmp;
  auto c = StartCoordinator(tmp.Sub("db"));
  ASSERT_NE(c, nullptr);
  SubmitJob(*c, 10, Config(9, 1));
  CoordinatorClient client(To(c->address()));
  absl::StatusOr<LeaseReply> r = client.LeaseWork(0);
  ASSERT_TRUE(r.ok() && r->lease);
  c->jobs().ExpireLeases(absl::Now() + absl::Hours(1));
  EXPECT_TRUE(absl::IsNotFound(client.RenewLease(r->lease->lease_id).status()));
}

TEST(CoordinatorClient, AClientOfOneJobLeasesOnlyItsGames) {
  TempDir tmp;
  auto c = StartCoordinator(tmp.Sub("db"));
  ASSERT_NE(c, nullptr);
  SubmitJob(*c, 100, Config(9, 1));
  const uint64_t second = SubmitJob(*c, 4, Config(9, 2));
  ClientOptions o = To(c->address());
  o.job = second;
  CoordinatorClient client(o);
  absl::StatusOr<LeaseReply> r = client.LeaseWork(0);
  ASSERT_TRUE(r.ok() && r->lease) << r.status();
  EXPECT_EQ(r->lease->job, second);
  EXPECT_EQ(r->lease->indices.size(), 4u);
  // Its job has no games left to lease: no lease, though the other has.
  r = client.LeaseWork(0);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FALSE(r->lease.has_value());
  // A job that does not exist: NOT_FOUND, not worth retrying.
  o.job = 77;
  CoordinatorClient lost(o);
  const absl::Status missing = lost.LeaseWork(0).status();
  EXPECT_TRUE(absl::IsNotFound(missing)) << missing;
  EXPECT_FALSE(IsTransient(missing));
}

TEST(CoordinatorClient, NoWorkIsAReplyNotAnError) {
  TempDir tmp;
  auto c = StartCoordinator(tmp.Sub("db"));
  ASSERT_NE(c, nullptr);
  CoordinatorClient client(To(c->address()));
  absl::StatusOr<LeaseReply> r = client.LeaseWork(0);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FALSE(r->lease.has_value());
  EXPECT_GT(r->retry_after, absl::ZeroDuration());
}

TEST(CoordinatorClient, UnreachableCoordinatorIsTransient) {
  // A port this test holds and nothing listens on: connections are
  // refused, and no other test's server can appear there meanwhile.
  qipu::testing::RefusingPort refusing;
  ASSERT_NE(refusing.port(), 0);
  // Calls wait for a connection (wait_for_ready) up to their deadline,
  // then fail with DEADLINE_EXCEEDED, a transient error the worker backs
  // off on.
  ClientOptions o = To(refusing.address());
  o.rpc_timeout = absl::Milliseconds(500);
  CoordinatorClient client(o);
  const absl::Time t0 = absl::Now();
  const absl::Status s = client.LeaseWork(0).status();
  EXPECT_TRUE(absl::IsDeadlineExceeded(s)) << s;
  EXPECT_GE(absl::Now() - t0, absl::Milliseconds(400));
  EXPECT_TRUE(IsTransient(s));
}

// A spool holding `n` games of `job`, played with the rules core.
void Fill(Spool* spool, const qipu::v1::JobConfig& config, uint64_t job,
          uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) {
    ASSERT_TRUE(spool->Append(PlayOne(config, job, i, "L")).ok());
  }
  ASSERT_TRUE(spool->Sync().ok());
}

UploaderOptions Quick(int window) {
  UploaderOptions o;
  o.window = window;
  o.backoff.initial = absl::Milliseconds(20);
  o.backoff.max = absl::Milliseconds(200);
  o.worker = "client-test";
  return o;
}

TEST(Uploader, StoresThenAnswersDuplicatesAndDropsRejects) {
  TempDir tmp;
  auto c = StartCoordinator(tmp.Sub("db"));
  ASSERT_NE(c, nullptr);
  const qipu::v1::JobConfig config = Config(9, 5);
  const uint64_t job = SubmitJob(*c, 60, config);
  auto spool = std::move(*Spool::Open(SpoolOptions{tmp.Sub("spool")}));
  Fill(spool.get(), config, job, 60);
  // A game whose claimed result is wrong, and one of an unknown job.
  FinishedGame bad = PlayOne(config, job, 60, "L");
  {
    qipu::v1::Game g;
    g.ParseFromString(bad.game);
    g.mutable_result()->set_margin(g.result().margin() + 1);
    g.SerializeToString(&bad.game);
  }
  ASSERT_TRUE(spool->Append(bad).ok());
  ASSERT_TRUE(spool->Append(PlayOne(config, 999, 0, "L")).ok());
  ASSERT_TRUE(spool->Sync().ok());

  CoordinatorClient client(To(c->address()));
  GameQueue queue(16);
  int acks = 0;
  Uploader up(
      Quick(8), &client, spool.get(), &queue,
      [&](const GameKey&, const std::string& lease, qipu::v1::AckStatus) {
        EXPECT_EQ(lease, "L");
        ++acks;
      });
  up.Start();
  ASSERT_TRUE(WaitFor([&] { return up.pending() == 0; }));
  UploaderStats s = up.stats();
  EXPECT_EQ(s.stored, 60u);
  EXPECT_EQ(s.rejected, 2u);
  EXPECT_EQ(s.duplicates, 0u);
  EXPECT_EQ(JobStatusOf(*c, job).done(), 60u);

  // The same games again, through the queue this time: all duplicates.
  for (uint64_t i = 0; i < 60; ++i) {
    ASSERT_TRUE(queue.Push(PlayOne(config, job, i, "L")));
  }
  ASSERT_TRUE(WaitFor([&] { return up.stats().duplicates == 60; }));
  up.Stop(absl::Now() + absl::Seconds(5));
  up.Wait();
  EXPECT_EQ(up.stats().stored, 60u);
  EXPECT_EQ(acks, 122);
  EXPECT_EQ(spool->pending(), 0u);
  EXPECT_EQ(JobStatusOf(*c, job).done(), 60u);
}

// The coordinator validates the games of each message on several threads
// and, with a window smaller than a message, takes it a few games at a
// time: acks still come in order, one per game, the bad game refused.
TEST(Uploader, ASmallCoordinatorWindowAndParallelValidationKeepAcksInOrder) {
  TempDir tmp;
  testing::CoordinatorSetup setup;
  setup.upload_window = 5;
  setup.validate_threads = 3;
  auto c = StartCoordinator(tmp.Sub("db"), setup);
  ASSERT_NE(c, nullptr);
  const qipu::v1::JobConfig config = Config(9, 6);
  const uint64_t job = SubmitJob(*c, 100, config);
  auto spool = std::move(*Spool::Open(SpoolOptions{tmp.Sub("spool")}));
  for (uint64_t i = 0; i < 100; ++i) {
    FinishedGame g = PlayOne(config, job, i, "L");
    if (i == 37) {
      qipu::v1::Game bad;
      bad.ParseFromString(g.game);
      bad.mutable_result()->set_margin(bad.result().margin() + 1);
      bad.SerializeToString(&g.game);
    }
    ASSERT_TRUE(spool->Append(g).ok());
  }
  ASSERT_TRUE(spool->Sync().ok());
  CoordinatorClient client(To(c->address()));
  GameQueue queue(16);
  std::vector<uint64_t> order;
  std::vector<qipu::v1::AckStatus> statuses;
  UploaderOptions o = Quick(64);
  o.batch = 64;
  Uploader up(
      o, &client, spool.get(), &queue,
      [&](const GameKey& key, const std::string&, qipu::v1::AckStatus status) {
        order.push_back(key.index);
        statuses.push_back(status);
      });
  up.Start();
  ASSERT_TRUE(WaitFor([&] { return up.pending() == 0; }));
  up.Stop(absl::Now() + absl::Seconds(5));
  up.Wait();
  ASSERT_EQ(order.size(), 100u);
  for (uint64_t i = 0; i < 100; ++i) {
    EXPECT_EQ(order[i], i);
    EXPECT_EQ(statuses[i], i == 37 ? qipu::v1::ACK_STATUS_REJECTED
                                   : qipu::v1::ACK_STATUS_STORED)
        << "game " << i;
  }
  const qipu::v1::JobStatus st = JobStatusOf(*c, job);
  EXPECT_EQ(st.done(), 99u);
  EXPECT_EQ(st.rejected(), 1u);
}

// Both message forms, over a dialled address and over an injected
// (in-process) channel.
TEST(Uploader, UploadsOverEitherChannelInEitherForm) {
  TempDir tmp;
  auto c = StartCoordinator(tmp.Sub("db"));
  ASSERT_NE(c, nullptr);
  const qipu::v1::JobConfig config = Config(9, 6);
  const uint64_t job = SubmitJob(*c, 400, config);
  uint64_t next = 0;
  for (bool inproc : {false, true}) {
    for (int batch : {1, 64}) {
      SCOPED_TRACE(absl::StrCat(inproc ? "inproc" : "tcp", " batch ", batch));
      auto spool = std::move(*Spool::Open(
          SpoolOptions{tmp.Sub(absl::StrCat("spool", inproc, batch))}));
      for (uint64_t i = next; i < next + 100; ++i) {
        ASSERT_TRUE(spool->Append(PlayOne(config, job, i, "L")).ok());
      }
      ASSERT_TRUE(spool->Sync().ok());
      next += 100;
      ClientOptions co = To(c->address());
      if (inproc) co.channel = c->InProcessChannel();
      CoordinatorClient client(co);
      GameQueue queue(16);
      UploaderOptions uo = Quick(16);
      uo.batch = batch;
      Uploader up(uo, &client, spool.get(), &queue, nullptr);
      up.Start();
      ASSERT_TRUE(WaitFor([&] { return up.pending() == 0; }));
      EXPECT_EQ(up.stats().stored, 100u);
      EXPECT_EQ(up.stats().stream_failures, 0u);
      up.Stop(absl::Now() + absl::Seconds(5));
      up.Wait();
    }
  }
  EXPECT_EQ(JobStatusOf(*c, job).done(), 400u);
}

// Bytes in the spool that are not a qipu.v1.Game make the coordinator
// refuse the message that holds them (INVALID_ARGUMENT); the uploader then
// drops that game as rejected and uploads the rest.
TEST(Uploader, UnparsableSpooledGameIsDroppedAsRejected) {
  TempDir tmp;
  auto c = StartCoordinator(tmp.Sub("db"));
  ASSERT_NE(c, nullptr);
  const qipu::v1::JobConfig config = Config(9, 7);
  const uint64_t job = SubmitJob(*c, 40, config);
  auto spool = std::move(*Spool::Open(SpoolOptions{tmp.Sub("spool")}));
  FinishedGame bad = PlayOne(config, job, 20, "L");
  bad.game = std::string(12, '\xff');
  ASSERT_FALSE(qipu::v1::Game().ParseFromString(bad.game));
  for (uint64_t i = 0; i < 40; ++i) {
    ASSERT_TRUE(
        spool->Append(i == 20 ? bad : PlayOne(config, job, i, "L")).ok());
  }
  ASSERT_TRUE(spool->Sync().ok());
  CoordinatorClient client(To(c->address()));
  GameQueue queue(16);
  std::vector<GameKey> rejected;
  Uploader up(
      Quick(8), &client, spool.get(), &queue,
      [&](const GameKey& key, const std::string&, qipu::v1::AckStatus status) {
        if (status == qipu::v1::ACK_STATUS_REJECTED) {
          rejected.push_back(key);
        }
      });
  up.Start();
  ASSERT_TRUE(WaitFor([&] { return up.pending() == 0; }));
  up.Stop(absl::Now() + absl::Seconds(5));
  up.Wait();
  const UploaderStats s = up.stats();
  EXPECT_EQ(s.stored, 39u);
  EXPECT_EQ(s.rejected, 1u);
  EXPECT_GE(s.stream_failures, 1u);
  EXPECT_EQ(rejected, (std::vector<GameKey>{GameKey{job, 20}}));
  EXPECT_EQ(JobStatusOf(*c, job).done(), 39u);
}

// While the stream has plenty of synced games to send, games arriving are
// spooled in whole groups and synced together when the stream runs
// short, not one sync per group.
TEST(Uploader, DefersSyncsWhileTheStreamIsBusy) {
  TempDir tmp;
  auto c = StartCoordinator(tmp.Sub("db"));
  ASSERT_NE(c, nullptr);
  const qipu::v1::JobConfig config = Config(9, 9);
  const uint64_t job = SubmitJob(*c, 1500, config);
  auto spool = std::move(*Spool::Open(SpoolOptions{tmp.Sub("spool")}));
  Fill(spool.get(), config, job, 1000);
  std::vector<FinishedGame> more;
  for (uint64_t i = 1000; i < 1500; ++i) {
    more.push_back(PlayOne(config, job, i, "L"));
  }
  const uint64_t syncs_before = spool->stats().syncs;
  CoordinatorClient client(To(c->address()));
  GameQueue queue(1024);
  // One game a message, 8 in flight: the 1000 spooled games keep the
  // stream busy while the 500 new ones arrive.
  UploaderOptions uo = Quick(8);
  uo.batch = 1;
  Uploader up(uo, &client, spool.get(), &queue, nullptr);
  up.Start();
  for (FinishedGame& g : more) ASSERT_TRUE(queue.Push(std::move(g)));
  ASSERT_TRUE(WaitFor([&] { return up.pending() == 0; }));
  up.Stop(absl::Now() + absl::Seconds(5));
  up.Wait();
  EXPECT_EQ(up.stats().stored, 1500u);
  EXPECT_EQ(JobStatusOf(*c, job).done(), 1500u);
  // 500 games are 8 groups of spool_group (64); one sync took most or all
  // of them (one more when the first group beat the stream's start).
  EXPECT_LE(spool->stats().syncs - syncs_before, 3u);
}

TEST(Uploader, ResendsAfterTheCoordinatorRestarts) {
  TempDir tmp;
  const std::string db = tmp.Sub("db");
  // The uploader dials the proxy; the restarted coordinator gets a fresh
  // port behind it.
  auto proxy = qipu::testing::TcpProxy::Start();
  ASSERT_TRUE(proxy.ok()) << proxy.status();
  auto c = StartCoordinator(db);
  ASSERT_NE(c, nullptr);
  (*proxy)->SetBackend(c->port());
  const qipu::v1::JobConfig config = Config(9, 8);
  const uint64_t job = SubmitJob(*c, 400, config);
  auto spool = std::move(*Spool::Open(SpoolOptions{tmp.Sub("spool")}));
  CoordinatorClient client(To((*proxy)->address()));
  GameQueue queue(1024);
  Uploader up(Quick(4), &client, spool.get(), &queue, nullptr);
  up.Start();
  // Games arrive while the coordinator goes away and comes back.
  for (uint64_t i = 0; i < 150; ++i) queue.Push(PlayOne(config, job, i, "L"));
  ASSERT_TRUE(WaitFor([&] { return up.stats().stored >= 20; }));
  (*proxy)->SetBackend(0);
  c->Shutdown(absl::Milliseconds(100));
  c.reset();
  for (uint64_t i = 150; i < 400; ++i) queue.Push(PlayOne(config, job, i, "L"));
  // The stream broke: the uploader retries (refused) until the
  // coordinator is back.
  ASSERT_TRUE(WaitFor([&] { return up.stats().stream_failures >= 1; }));
  EXPECT_GT(up.pending(), 0u);
  c = StartCoordinator(db);
  ASSERT_NE(c, nullptr);
  (*proxy)->SetBackend(c->port());
  ASSERT_TRUE(WaitFor([&] { return up.pending() == 0; }));
  const UploaderStats s = up.stats();
  EXPECT_GE(s.stream_failures, 1u);
  EXPECT_GE(s.streams, 2u);
  EXPECT_EQ(s.rejected, 0u);
  // Every game stored exactly once; resent ones may come back duplicate.
  EXPECT_GE(s.stored + s.duplicates, 400u);
  EXPECT_EQ(JobStatusOf(*c, job).done(), 400u);
  up.Stop(absl::Now());
  up.Wait();
}

TEST(Uploader, StopWithTheCoordinatorDownKeepsGamesSpooled) {
  TempDir tmp;
  qipu::testing::RefusingPort refusing;
  ASSERT_NE(refusing.port(), 0);
  const std::string dir = tmp.Sub("spool");
  const qipu::v1::JobConfig config = Config(9, 8);
  {
    auto spool = std::move(*Spool::Open(SpoolOptions{dir}));
    CoordinatorClient client(To(refusing.address()));
    GameQueue queue(64);
    Uploader up(Quick(4), &client, spool.get(), &queue, nullptr);
    up.Start();
    for (uint64_t i = 0; i < 30; ++i) queue.Push(PlayOne(config, 1, i, "L"));
    // Without the deadline the uploader would retry forever: Wait()
    // returning is the deadline kept.
    up.Stop(absl::Now() + absl::Milliseconds(300));
    up.Wait();
    EXPECT_EQ(up.stats().stored, 0u);
  }
  auto spool = std::move(*Spool::Open(SpoolOptions{dir}));
  EXPECT_EQ(spool->pending(), 30u);
}

}  // namespace
}  // namespace qipu::worker
