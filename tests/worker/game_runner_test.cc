// Tests of worker/game_runner.h and worker/game_queue.h: games equal the
// rules core's for the same (job seed, index) whatever the thread count,
// every index is played once, stopping works, bad leases are refused; the
// queue's batch pops.
#include "worker/game_runner.h"

#include <atomic>
#include <map>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "qipu/v1/game.pb.h"
#include "tests/worker/test_util.h"

namespace qipu::worker {
namespace {

using testing::Config;
using testing::PlayOne;

Lease MakeLease(const qipu::v1::JobConfig& c, uint64_t job,
                std::vector<uint64_t> indices) {
  Lease l;
  l.lease_id = "L1";
  l.job = job;
  l.config = c;
  l.indices = std::move(indices);
  return l;
}

// Plays the lease on `threads` threads; returns the games by index.
std::map<uint64_t, FinishedGame> PlayAll(const Lease& lease, int threads) {
  GameQueue queue(lease.indices.size() + 1);
  GameRunnerOptions o;
  o.threads = threads;
  o.worker = "test";
  auto runner = GameRunner::Create(o, lease, &queue);
  EXPECT_TRUE(runner.ok()) << runner.status();
  (*runner)->Start();
  EXPECT_TRUE((*runner)->Wait().ok());
  EXPECT_TRUE((*runner)->finished());
  EXPECT_TRUE((*runner)->Unplayed().empty());
  std::vector<FinishedGame> games;
  queue.PopBatch(1 << 20, absl::ZeroDuration(), &games);
  std::map<uint64_t, FinishedGame> by_index;
  for (FinishedGame& g : games) {
    EXPECT_EQ(g.key.job, lease.job);
    EXPECT_EQ(g.lease_id, lease.lease_id);
    EXPECT_TRUE(by_index.emplace(g.key.index, std::move(g)).second);
  }
  return by_index;
}

TEST(GameRunner, SameSeedAndIndexGiveTheSameGameOnAnyThreadCount) {
  const qipu::v1::JobConfig c = Config(9, 1234);
  std::vector<uint64_t> indices;
  for (uint64_t i = 0; i < 60; ++i) indices.push_back(1000 + 3 * i);
  const Lease lease = MakeLease(c, 5, indices);
  const auto one = PlayAll(lease, 1);
  const auto four = PlayAll(lease, 4);
  ASSERT_EQ(one.size(), indices.size());
  ASSERT_EQ(four.size(), indices.size());
  for (uint64_t i : indices) {
    ASSERT_TRUE(one.count(i) && four.count(i)) << i;
    EXPECT_EQ(one.at(i).game, four.at(i).game) << i;
    EXPECT_EQ(one.at(i).game, PlayOne(c, 5, i, "L1").game) << i;
  }
  // Different indices give different games.
  EXPECT_NE(one.at(1000).game, one.at(1003).game);
}

TEST(GameRunner, GamesCarryTheirProvenance) {
  qipu::v1::JobConfig c = Config(13, 77, "tromp-taylor");
  c.set_handicap(3);
  const auto games = PlayAll(MakeLease(c, 9, {0, 1, 2}), 2);
  for (const auto& [index, g] : games) {
    qipu::v1::Game p;
    ASSERT_TRUE(p.ParseFromString(g.game));
    EXPECT_EQ(p.width(), 13u);
    EXPECT_EQ(p.handicap(), 3u);
    EXPECT_EQ(p.provenance().job(), 9u);
    EXPECT_EQ(p.provenance().game_index(), index);
    EXPECT_EQ(p.provenance().worker(), "test");
    EXPECT_EQ(p.provenance().policy(), "random");
    EXPECT_EQ(p.provenance().seed(),
              rules::GameSeedAttempt(
                  77, index, static_cast<int>(p.provenance().attempt())));
    EXPECT_GT(p.num_moves(), 0u);
  }
}

TEST(GameRunner, RefusesLeasesItCannotPlay) {
  GameQueue queue(4);
  GameRunnerOptions o;
  qipu::v1::JobConfig c = Config(9, 1);
  c.set_policy("alphago");
  EXPECT_TRUE(absl::IsInvalidArgument(
      GameRunner::Create(o, MakeLease(c, 1, {0}), &queue).status()));
  c.set_policy("mcts:playouts=0");
  EXPECT_TRUE(absl::IsInvalidArgument(
      GameRunner::Create(o, MakeLease(c, 1, {0}), &queue).status()));
  // An external engine whose command line does not split: refused, naming
  // the colour (a good one starts at its first game, not here).
  c = Config(9, 1);
  c.set_white_policy("gtp:gnugo \"--mode gtp");
  const absl::Status gtp =
      GameRunner::Create(o, MakeLease(c, 1, {0}), &queue).status();
  EXPECT_TRUE(absl::IsInvalidArgument(gtp)) << gtp;
  EXPECT_NE(gtp.message().find("white policy"), absl::string_view::npos) << gtp;
  c = Config(9, 1);
  c.set_width(1);
  EXPECT_TRUE(absl::IsInvalidArgument(
      GameRunner::Create(o, MakeLease(c, 1, {0}), &queue).status()));
  c = Config(9, 1);
  c.mutable_rules()->set_ko(qipu::v1::KO_RULE_UNSPECIFIED);
  EXPECT_TRUE(absl::IsInvalidArgument(
      GameRunner::Create(o, MakeLease(c, 1, {0}), &queue).status()));
  c = Config(8, 1);
  c.set_handicap(9);
  EXPECT_TRUE(absl::IsInvalidArgument(
      GameRunner::Create(o, MakeLease(c, 1, {0}), &queue).status()));
  o.threads = 0;
  EXPECT_TRUE(absl::IsInvalidArgument(
      GameRunner::Create(o, MakeLease(Config(9, 1), 1, {0}), &queue).status()));
}

TEST(GameRunner, StopFinishCurrentLeavesTheRestUnplayed) {
  // A queue of 3 fills up; the threads block in Push() until stopped.
  GameQueue queue(3);
  GameRunnerOptions o;
  o.threads = 2;
  std::vector<uint64_t> indices;
  for (uint64_t i = 0; i < 50; ++i) indices.push_back(i);
  auto runner =
      GameRunner::Create(o, MakeLease(Config(9, 3), 1, indices), &queue);
  ASSERT_TRUE(runner.ok());
  (*runner)->Start();
  while (queue.size() < 3) absl::SleepFor(absl::Milliseconds(1));
  (*runner)->Stop(StopMode::kFinishCurrent);
  // Games being pushed complete as a consumer drains; nothing new starts.
  std::vector<FinishedGame> got;
  std::atomic<bool> done{false};
  std::thread consumer([&] {
    while (!done.load()) queue.PopBatch(10, absl::Milliseconds(5), &got);
  });
  ASSERT_TRUE((*runner)->Wait().ok());
  done.store(true);
  consumer.join();
  queue.PopBatch(10, absl::ZeroDuration(), &got);
  // 3 queued before the stop, plus at most one game per thread.
  EXPECT_GE(got.size(), 3u);
  EXPECT_LE(got.size(), 5u);
  EXPECT_EQ((*runner)->queued(), got.size());
  EXPECT_EQ((*runner)->Unplayed().size() + got.size(), indices.size());
  EXPECT_FALSE((*runner)->finished());
}

TEST(GameRunner, AbandonUnblocksAFullQueueAtOnce) {
  GameQueue queue(1);
  GameRunnerOptions o;
  o.threads = 4;
  std::vector<uint64_t> indices(100);
  for (uint64_t i = 0; i < 100; ++i) indices[i] = i;
  auto runner =
      GameRunner::Create(o, MakeLease(Config(19, 3), 1, indices), &queue);
  ASSERT_TRUE(runner.ok());
  (*runner)->Start();
  while (queue.size() < 1) absl::SleepFor(absl::Milliseconds(1));
  // Nobody drains the queue: without the abandon its threads would block
  // in Push() forever, so Wait() returning is the claim.
  (*runner)->Stop(StopMode::kAbandon);
  ASSERT_TRUE((*runner)->Wait().ok());
  EXPECT_EQ((*runner)->queued(), 1u);
  EXPECT_EQ((*runner)->Unplayed().size(), 99u);
}

TEST(GameRunner, ClosedQueueEndsTheRunner) {
  GameQueue queue(8);
  queue.Close();
  GameRunnerOptions o;
  auto runner =
      GameRunner::Create(o, MakeLease(Config(9, 3), 1, {1, 2, 3}), &queue);
  ASSERT_TRUE(runner.ok());
  (*runner)->Start();
  ASSERT_TRUE((*runner)->Wait().ok());
  EXPECT_EQ((*runner)->queued(), 0u);
  EXPECT_EQ((*runner)->Unplayed(), (std::vector<uint64_t>{1, 2, 3}));
}

TEST(GameRunner, WaitAllTakenReturnsWhenTheLastGameIsHandedOut) {
  // A queue of 2 and 2 threads: with nobody draining, the threads hold
  // games 3 and 4 of 12 and block; the last index is not handed out.
  GameQueue queue(2);
  GameRunnerOptions o;
  o.threads = 2;
  std::vector<uint64_t> indices;
  for (uint64_t i = 0; i < 12; ++i) indices.push_back(i);
  auto runner =
      GameRunner::Create(o, MakeLease(Config(9, 4), 1, indices), &queue);
  ASSERT_TRUE(runner.ok());
  (*runner)->WaitAllTaken();  // never started: returns at once
  (*runner)->Start();
  std::atomic<bool> all_taken{false};
  std::thread waiter([&] {
    (*runner)->WaitAllTaken();
    all_taken.store(true);
  });
  while (queue.size() < 2) absl::SleepFor(absl::Milliseconds(1));
  // Something that must not happen: give it a chance to, then check it
  // did not (a slow machine can only hide a bug here, not fail the test).
  absl::SleepFor(absl::Milliseconds(50));
  EXPECT_FALSE(all_taken.load());
  // Drain until the waiter is released: at most the threads' games (and
  // the queue's) are left to come.
  std::vector<FinishedGame> got;
  while (!all_taken.load()) {
    queue.PopBatch(1, absl::Milliseconds(1), &got);
  }
  waiter.join();
  EXPECT_GE(got.size(), indices.size() - 2 - 2);
  while (got.size() < indices.size()) {
    queue.PopBatch(16, absl::Milliseconds(5), &got);
  }
  ASSERT_TRUE((*runner)->Wait().ok());
  EXPECT_TRUE((*runner)->finished());
}

TEST(GameRunner, WaitAllTakenReturnsOnStop) {
  GameQueue queue(1);
  GameRunnerOptions o;
  o.threads = 2;
  auto runner = GameRunner::Create(
      o, MakeLease(Config(9, 5), 1, {1, 2, 3, 4, 5, 6, 7, 8}), &queue);
  ASSERT_TRUE(runner.ok());
  (*runner)->Start();
  while (queue.size() < 1) absl::SleepFor(absl::Milliseconds(1));
  std::thread waiter([&] { (*runner)->WaitAllTaken(); });
  (*runner)->Stop(StopMode::kAbandon);
  waiter.join();
  ASSERT_TRUE((*runner)->Wait().ok());
  EXPECT_FALSE((*runner)->finished());
}

TEST(GameQueue, PopBatchTakesOldestFirstAndTimesOut) {
  GameQueue q(10);
  for (uint64_t i = 0; i < 5; ++i) {
    FinishedGame g;
    g.key.index = i;
    ASSERT_TRUE(q.Push(std::move(g)));
  }
  std::vector<FinishedGame> out;
  EXPECT_EQ(q.PopBatch(3, absl::ZeroDuration(), &out), 3u);
  EXPECT_EQ(out[0].key.index, 0u);
  EXPECT_EQ(out[2].key.index, 2u);
  EXPECT_EQ(q.PopBatch(10, absl::ZeroDuration(), &out), 2u);
  const absl::Time t0 = absl::Now();
  EXPECT_EQ(q.PopBatch(10, absl::Milliseconds(30), &out), 0u);
  EXPECT_GE(absl::Now() - t0, absl::Milliseconds(25));
  q.Close();
  EXPECT_FALSE(q.Push(FinishedGame{}));
}

// PopBatch with `want`: waits for that many games (or the timeout, after
// which it takes what there is), and stops waiting when `wake` is set.
TEST(GameQueue, PopBatchWaitsForWantedGamesOrAWake) {
  GameQueue q(10);
  auto push = [&q](uint64_t i) {
    FinishedGame g;
    g.key.index = i;
    ASSERT_TRUE(q.Push(std::move(g)));
  };
  std::vector<FinishedGame> out;
  std::atomic<bool> wake{false};
  std::thread producer([&] {
    for (uint64_t i = 0; i < 4; ++i) {
      absl::SleepFor(absl::Milliseconds(5));
      push(i);
    }
  });
  EXPECT_EQ(q.PopBatch(10, absl::Seconds(20), &out, 4, &wake), 4u);
  producer.join();
  // Fewer than wanted: all of them after the timeout.
  push(4);
  absl::Time t0 = absl::Now();
  EXPECT_EQ(q.PopBatch(10, absl::Milliseconds(30), &out, 3), 1u);
  EXPECT_GE(absl::Now() - t0, absl::Milliseconds(25));
  // More than the capacity is wanted as the capacity.
  for (uint64_t i = 5; i < 15; ++i) push(i);
  EXPECT_EQ(q.PopBatch(3, absl::Seconds(20), &out, 1000), 3u);
  EXPECT_EQ(q.PopBatch(10, absl::ZeroDuration(), &out), 7u);
  // A wake ends the wait early, with what there is.
  push(15);
  std::thread waker([&] {
    absl::SleepFor(absl::Milliseconds(20));
    wake.store(true);
    q.Wake();
  });
  t0 = absl::Now();
  EXPECT_EQ(q.PopBatch(10, absl::Seconds(20), &out, 5, &wake), 1u);
  EXPECT_LT(absl::Now() - t0, absl::Seconds(10));
  waker.join();
  ASSERT_EQ(out.size(), 16u);
  for (uint64_t i = 0; i < 16; ++i) EXPECT_EQ(out[i].key.index, i);
}

}  // namespace
}  // namespace qipu::worker
