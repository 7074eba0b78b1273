// Process test: a qipu-worker process killed with SIGKILL while it holds a
// lease. The coordinator process (short lease TTL) lets the lease expire,
// counts it in qipu_leases{state="expired"}, and hands its unfinished
// games to a second worker process, which finishes the job: exactly the
// requested games, each once, the lost ones played by the second worker.
// (tests/worker/process_test.cc covers the same worker restarting on its
// own spool; here a different worker takes over.)
#include <signal.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/ops/process_fixture.h"

namespace qipu::testing {
namespace {

constexpr uint64_t kExpiryJobGames = 600;
constexpr int kLeaseGames = 100;
// Short, so that the test does not wait long for the expiry; scaled, so
// that the rescuer's renewals (every third of it) keep up on a slow machine.
constexpr int kLeaseTtlMs = 1500 * kSlowdown;
constexpr char kExpired[] = "qipu_leases{state=\"expired\"}";

TEST(OpsLeaseExpiry, KilledWorkersLeaseExpiresAndAnotherWorkerFinishesIt) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const std::string db = tmp.Sub("db");
  // Port 0: the coordinator binds a free port and prints it.
  CoordinatorProcess coord(
      db, tmp.Sub("coordinator"),
      {"--lease-games", absl::StrCat(kLeaseGames), "--lease-ttl-ms",
       absl::StrCat(kLeaseTtlMs), "--metrics", "127.0.0.1:0"});
  ASSERT_TRUE(coord.Start().ok()) << coord.LogTail();
  const int metrics_port = coord.metrics_port();
  ASSERT_GT(metrics_port, 0) << coord.process()->Stdout();
  auto client_owner = std::make_unique<Client>(coord.address());
  Client& client = *client_owner;
  auto job = client.SubmitJob(kExpiryJobGames, JobConfigFor(9, 777));
  ASSERT_TRUE(job.ok()) << job.status();

  // The doomed worker plays on one thread and uploads one game at a time,
  // so that its first lease stays open well beyond the moment the test
  // sees it granted.
  auto doomed =
      StartWorker(coord.address(), tmp.path(), "doomed",
                  /*threads=*/1, kLeaseGames, {"--upload-window", "1"});
  ASSERT_TRUE(doomed.ok()) << doomed.status();
  ASSERT_TRUE(WaitUntil(
      [&] {
        auto st = client.JobStatus(*job);
        return st.ok() && st->open_leases() > 0;
      },
      absl::Seconds(30) * kSlowdown, absl::Milliseconds(1)))
      << (*doomed)->StderrTail();
  ASSERT_TRUE((*doomed)->Kill(SIGKILL));
  EXPECT_EQ((*doomed)->Wait(absl::Seconds(10) * kSlowdown), 128 + SIGKILL);

  auto killed = client.JobStatus(*job);
  ASSERT_TRUE(killed.ok()) << killed.status();
  ASSERT_LT(killed->done(), kExpiryJobGames) << "the kill came too late";
  ASSERT_GE(killed->open_leases(), 1u) << "the lease ended before the kill";
  EXPECT_EQ(killed->state(), qipu::v1::JOB_STATE_RUNNING);

  // Nobody renews the lease: it expires after the TTL (plus a tick).
  ASSERT_TRUE(WaitUntil(
      [&] {
        auto st = client.JobStatus(*job);
        return st.ok() && st->open_leases() == 0;
      },
      absl::Milliseconds(kLeaseTtlMs) + absl::Seconds(5) * kSlowdown,
      absl::Milliseconds(20)))
      << coord.LogTail();
  std::optional<double> expired;
  EXPECT_TRUE(WaitUntil(
      [&] {
        auto page = ScrapeMetrics(metrics_port);
        if (page.ok()) expired = MetricValue(*page, kExpired);
        return expired.has_value() && *expired >= 1;
      },
      absl::Seconds(5) * kSlowdown, absl::Milliseconds(50)))
      << "qipu_leases{state=\"expired\"} = "
      << (expired.has_value() ? absl::StrCat(*expired) : "absent") << "\n"
      << coord.LogTail();
  // The opening index's buffer and flushes are on the page too.
  auto page = ScrapeMetrics(metrics_port);
  ASSERT_TRUE(page.ok()) << page.status() << "\n" << coord.LogTail();
  EXPECT_TRUE(
      MetricValue(*page, "qipu_position_index_buffered_entries").has_value())
      << *page;
  EXPECT_TRUE(
      MetricValue(*page, "qipu_position_index_flushes{outcome=\"failed\"}")
          .has_value());
  auto before = client.JobStatus(*job);
  ASSERT_TRUE(before.ok()) << before.status();
  const uint64_t done_by_doomed = before->done();
  EXPECT_LT(done_by_doomed, kExpiryJobGames);

  auto rescuer = StartWorker(coord.address(), tmp.path(), "rescuer",
                             /*threads=*/2, kLeaseGames);
  ASSERT_TRUE(rescuer.ok()) << rescuer.status();
  ASSERT_TRUE(WaitUntil(
      [&] {
        auto st = client.JobStatus(*job);
        return st.ok() && st->state() == qipu::v1::JOB_STATE_DONE;
      },
      absl::Seconds(60) * kSlowdown, absl::Milliseconds(20)))
      << coord.LogTail() << (*rescuer)->StderrTail();
  auto st = client.JobStatus(*job);
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_EQ(st->done(), kExpiryJobGames);
  EXPECT_EQ(st->rejected(), 0u);

  (*rescuer)->Kill(SIGTERM);
  EXPECT_EQ((*rescuer)->Wait(absl::Seconds(30) * kSlowdown), 0)
      << (*rescuer)->StderrTail();
  // An open connection, even idle, holds a graceful shutdown up for the
  // whole grace period: close ours first.
  client_owner.reset();
  EXPECT_EQ(coord.Stop(), 0) << coord.LogTail();

  uint64_t foreign = 0;
  auto games = ReadStoredGames(db, *job, &foreign);
  ASSERT_TRUE(games.ok()) << games.status();
  EXPECT_EQ(foreign, 0u);
  ASSERT_EQ(games->size(), kExpiryJobGames);
  EXPECT_EQ(games->begin()->first, 0u);
  EXPECT_EQ(games->rbegin()->first, kExpiryJobGames - 1);
  std::map<std::string, uint64_t> by_worker;
  uint64_t first_lease_rescued = 0;
  for (const auto& [index, g] : *games) {
    ++by_worker[g.provenance().worker()];
    // The doomed worker's first lease was indices 0..kLeaseGames-1.
    if (index < kLeaseGames && g.provenance().worker() == "rescuer") {
      ++first_lease_rescued;
    }
  }
  // What was stored before the rescuer started is the doomed worker's.
  EXPECT_EQ(by_worker["doomed"], done_by_doomed);
  EXPECT_EQ(by_worker["rescuer"], kExpiryJobGames - done_by_doomed);
  std::printf(
      "killed worker stored %llu games; the other played %llu of "
      "its first lease\n",
      static_cast<unsigned long long>(done_by_doomed),
      static_cast<unsigned long long>(first_lease_rescued));
  EXPECT_GT(first_lease_rescued, 0u)
      << "no game of the expired lease was played by the second worker";
}

}  // namespace
}  // namespace qipu::testing
