// Pattern searches on their own threads (coordinator/query_queue.h): the
// queue's bookkeeping on its own, and over gRPC on 127.0.0.1 with a real
// coordinator and RocksDB -- while every pattern runner is busy, a search
// waits without holding a gRPC thread (openings, ko and results are
// answered meanwhile), one more than the wait list holds is refused
// RESOURCE_EXHAUSTED at once, and the waiting search then answers exactly
// what the engine answers. Busy runners are held by the test's own jobs on
// a notification: no sleeps, no timing.
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "coordinator/query_queue.h"
#include "gmock/gmock.h"
#include "grpcpp/create_channel.h"
#include "gtest/gtest.h"
#include "qipu/v1/query.grpc.pb.h"
#include "tests/coordinator/query_fixture.h"

namespace qipu::coordinator {
namespace {

using ::testing::HasSubstr;
using testing::JobConfigFor;
using testing::PlayJob;
using testing::StartCoordinator;
using testing::TempDir;

// Waits (up to a generous deadline) until `pred` holds; false if it never
// did.
template <typename Pred>
bool WaitFor(Pred pred) {
  const absl::Time deadline = absl::Now() + absl::Seconds(60);
  while (!pred()) {
    if (absl::Now() > deadline) return false;
    absl::SleepFor(absl::Milliseconds(1));
  }
  return true;
}

TEST(QueryQueue, RunsJobsInOrderAndRefusesBeyondItsRoom) {
  absl::Notification release;
  absl::Mutex mu;
  std::vector<int> order;
  // After what its jobs use: destroyed first.
  QueryQueue q(/*threads=*/1, /*max_waiting=*/2, "test-queue");
  auto job = [&](int i) {
    return [&, i](bool cancelled) {
      EXPECT_FALSE(cancelled);
      if (i == 0) release.WaitForNotification();
      absl::MutexLock lock(&mu);
      order.push_back(i);
    };
  };
  ASSERT_TRUE(q.TrySubmit(job(0)));
  ASSERT_TRUE(WaitFor([&] { return q.running() == 1; }));
  ASSERT_TRUE(q.TrySubmit(job(1)));
  ASSERT_TRUE(q.TrySubmit(job(2)));
  EXPECT_EQ(q.waiting(), 2u);
  // One runner busy and two waiting: the room is full.
  EXPECT_FALSE(q.TrySubmit(job(3)));
  release.Notify();
  ASSERT_TRUE(WaitFor([&] {
    absl::MutexLock lock(&mu);
    return order.size() == 3;
  }));
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2}));
  // Room again once they ran.
  ASSERT_TRUE(WaitFor([&] { return q.running() == 0; }));
  EXPECT_TRUE(q.TrySubmit(job(4)));
  ASSERT_TRUE(WaitFor([&] {
    absl::MutexLock lock(&mu);
    return order.size() == 4;
  }));
}

TEST(QueryQueue, StopCancelsTheWaitingJobsAndFinishesTheRunningOne) {
  absl::Notification started;
  absl::Notification release;
  std::atomic<int> ran{0};
  std::atomic<int> cancelled{0};
  QueryQueue q(/*threads=*/1, /*max_waiting=*/4, "test-queue");
  ASSERT_TRUE(q.TrySubmit([&](bool c) {
    EXPECT_FALSE(c);
    started.Notify();
    release.WaitForNotification();
    ++ran;
  }));
  started.WaitForNotification();
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(q.TrySubmit([&](bool c) { c ? ++cancelled : ++ran; }));
  }
  std::thread stopper([&] { q.Stop(); });
  ASSERT_TRUE(WaitFor([&] { return cancelled.load() == 3; }));
  EXPECT_TRUE(q.Stopped());
  EXPECT_FALSE(q.TrySubmit([](bool) { ADD_FAILURE() << "ran after Stop"; }));
  release.Notify();
  stopper.join();
  EXPECT_EQ(ran.load(), 1);
  EXPECT_EQ(cancelled.load(), 3);
  q.Stop();  // idempotent
}

class PatternQueueServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    coord_ = StartCoordinator(dir_.path());
    ASSERT_NE(coord_, nullptr);
    PlayJob(*coord_, JobConfigFor(9, "chinese", 10, 31), 60);
    auto channel = grpc::CreateChannel(coord_->address(),
                                       grpc::InsecureChannelCredentials());
    stub_ = qipu::v1::QueryService::NewStub(channel);
    request_.mutable_filter()->set_width(9);
    request_.mutable_filter()->set_height(9);
    request_.set_pattern("X.");
    request_.set_placement(qipu::v1::PATTERN_PLACEMENT_ANYWHERE);
  }

  static void SetDeadline(grpc::ClientContext* ctx) {
    ctx->set_deadline(std::chrono::system_clock::now() +
                      std::chrono::seconds(60));
  }

  void TearDown() override {
    if (!release_.HasBeenNotified()) release_.Notify();
  }

  // Makes every pattern runner busy with a job of the test's own, held
  // until release_ is notified; returns once all of them run.
  void HoldEveryRunner() {
    QueryQueue& queue = coord_->pattern_queue();
    for (int i = 0; i < queue.threads(); ++i) {
      ASSERT_TRUE(queue.TrySubmit([this](bool) {
        ++holding_;
        release_.WaitForNotification();
      }));
    }
    ASSERT_TRUE(WaitFor([&] { return holding_.load() == queue.threads(); }));
  }

  // Before coord_: the held jobs use them until the coordinator stops.
  absl::Notification release_;
  std::atomic<int> holding_{0};
  TempDir dir_;
  std::unique_ptr<Coordinator> coord_;
  std::unique_ptr<qipu::v1::QueryService::Stub> stub_;
  qipu::v1::PatternRequest request_;
};

TEST_F(PatternQueueServiceTest, ASearchWaitsOffTheGrpcThreadsAndIsBounded) {
  QueryQueue& queue = coord_->pattern_queue();
  ASSERT_NO_FATAL_FAILURE(HoldEveryRunner());

  // Fill the wait list with real searches, sent asynchronously.
  const int waiting = queue.max_waiting();
  ASSERT_GT(waiting, 0);
  grpc::CompletionQueue cq;
  std::vector<std::unique_ptr<grpc::ClientContext>> ctxs;
  std::vector<qipu::v1::PatternResponse> responses(waiting);
  std::vector<grpc::Status> statuses(waiting);
  for (int i = 0; i < waiting; ++i) {
    ctxs.push_back(std::make_unique<grpc::ClientContext>());
    SetDeadline(ctxs.back().get());
    auto call = stub_->AsyncPattern(ctxs.back().get(), request_, &cq);
    call->Finish(&responses[i], &statuses[i], reinterpret_cast<void*>(i + 1));
  }
  ASSERT_TRUE(WaitFor([&] {
    return queue.waiting() == static_cast<size_t>(waiting);
  })) << queue.waiting()
      << " of " << waiting << " searches queued";

  // The next search is refused at once, saying why.
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    qipu::v1::PatternResponse resp;
    grpc::Status s = stub_->Pattern(&ctx, request_, &resp);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
    EXPECT_THAT(s.error_message(), HasSubstr("pattern searches are running"));
    EXPECT_THAT(s.error_message(), HasSubstr("--pattern-queue"));
  }
  // The fast queries are answered while the searches wait.
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    qipu::v1::OpeningsRequest req;
    req.mutable_filter()->set_width(9);
    req.mutable_filter()->set_height(9);
    qipu::v1::OpeningsResponse resp;
    grpc::Status s = stub_->Openings(&ctx, req, &resp);
    ASSERT_TRUE(s.ok()) << s.error_message();
    EXPECT_EQ(resp.reached().games(), 60u);
  }
  {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    qipu::v1::ResultsRequest req;
    req.mutable_filter()->set_width(9);
    req.mutable_filter()->set_height(9);
    qipu::v1::ResultsResponse resp;
    grpc::Status s = stub_->Results(&ctx, req, &resp);
    ASSERT_TRUE(s.ok()) << s.error_message();
    EXPECT_EQ(resp.outcomes().games(), 60u);
  }
  EXPECT_EQ(queue.waiting(), static_cast<size_t>(waiting));

  // Released, every waiting search answers what the engine answers.
  release_.Notify();
  absl::StatusOr<qipu::v1::PatternResponse> expected =
      coord_->queries().Pattern(request_);
  ASSERT_TRUE(expected.ok()) << expected.status();
  EXPECT_GT(expected->matched().games(), 0u);
  for (int i = 0; i < waiting; ++i) {
    void* tag = nullptr;
    bool ok = false;
    ASSERT_TRUE(cq.Next(&tag, &ok));
    ASSERT_TRUE(ok);
    const size_t k = reinterpret_cast<size_t>(tag) - 1;
    ASSERT_LT(k, responses.size());
    ASSERT_TRUE(statuses[k].ok()) << statuses[k].error_message();
    EXPECT_EQ(responses[k].matched().games(), expected->matched().games());
    EXPECT_EQ(responses[k].matches_size(), expected->matches_size());
  }
  cq.Shutdown();
}

TEST_F(PatternQueueServiceTest, SearchesStillWaitingAtShutdownAreUnavailable) {
  QueryQueue& queue = coord_->pattern_queue();
  ASSERT_NO_FATAL_FAILURE(HoldEveryRunner());
  grpc::CompletionQueue cq;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  qipu::v1::PatternResponse resp;
  grpc::Status status;
  auto call = stub_->AsyncPattern(&ctx, request_, &cq);
  call->Finish(&resp, &status, reinterpret_cast<void*>(1));
  ASSERT_TRUE(WaitFor([&] { return queue.waiting() == 1; }));
  // Shutdown waits for the calls in progress for its grace period; the
  // runners are released once it has begun.
  std::thread stopper([&] { coord_->Shutdown(absl::Milliseconds(200)); });
  void* tag = nullptr;
  bool ok = false;
  ASSERT_TRUE(cq.Next(&tag, &ok));
  release_.Notify();
  stopper.join();
  // The queue stops before gRPC's server does: the waiting search is told
  // to come back, not cancelled.
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE)
      << status.error_message();
  EXPECT_THAT(status.error_message(), HasSubstr("shutting down"));
  cq.Shutdown();
}

}  // namespace
}  // namespace qipu::coordinator
