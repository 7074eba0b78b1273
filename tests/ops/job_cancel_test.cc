// Process test: `qipu job cancel` against a qipu-coordinator process while
// a qipu-worker process plays the job. The job ends CANCELLED with no open
// lease, the worker gets no more of its games and exits when idle, the games
// stored stay stored (each once), and a restarted coordinator still has the job
// cancelled. `qipu job status` and cancel errors (unknown job, done job) are
// checked through the binary as well.
#include <signal.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/ops/process_fixture.h"

namespace qipu::testing {
namespace {

constexpr uint64_t kCancelGames = 1000000;  // far more than it plays

TEST(OpsJobCancel, CancelStopsTheWorkersGamesAndSurvivesARestart) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const std::string db = tmp.Sub("db");
  CoordinatorProcess coord(db, tmp.Sub("coordinator"),
                           {"--lease-games", "200"});
  ASSERT_TRUE(coord.Start().ok()) << coord.LogTail();
  Client client(coord.address());
  // Jobs are handed out oldest first: the small one is done first.
  auto done_job = client.SubmitJob(1, JobConfigFor(9, 4243));
  ASSERT_TRUE(done_job.ok()) << done_job.status();
  auto job = client.SubmitJob(kCancelGames, JobConfigFor(9, 4242));
  ASSERT_TRUE(job.ok()) << job.status();

  auto worker = StartWorker(coord.address(), tmp.path(), "w", /*threads=*/1,
                            /*lease_games=*/200, {"--exit-when-idle", "1"});
  ASSERT_TRUE(worker.ok()) << worker.status();
  // Playing: some games of the big job stored, a lease open; the small
  // job is done.
  ASSERT_TRUE(WaitUntil(
      [&] {
        auto st = client.JobStatus(*job);
        auto small = client.JobStatus(*done_job);
        return st.ok() && st->done() > 500 && st->open_leases() > 0 &&
               small.ok() && small->state() == qipu::v1::JOB_STATE_DONE;
      },
      absl::Seconds(60) * kSlowdown, absl::Milliseconds(10)))
      << (*worker)->StderrTail();

  const std::string id = absl::StrCat(*job);
  const Ran cancel = RunQipu(
      tmp.path(), "cancel",
      {"job", "cancel", "--server", coord.address(), "--job", id, "--json"});
  ASSERT_EQ(cancel.status, 0) << cancel.err;
  const nlohmann::json c = nlohmann::json::parse(cancel.out, nullptr, false);
  ASSERT_TRUE(c.is_object()) << cancel.out;
  EXPECT_EQ(c.value("state", ""), "cancelled") << cancel.out;
  EXPECT_EQ(c.value("open_leases", uint64_t{1}), 0u) << cancel.out;

  // The worker finishes the games in hand (its lease is gone: renewing it
  // would fail), is granted nothing more and exits after a second idle.
  EXPECT_EQ((*worker)->Wait(absl::Seconds(60) * kSlowdown), 0)
      << (*worker)->StderrTail();
  auto after = client.JobStatus(*job);
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(after->state(), qipu::v1::JOB_STATE_CANCELLED);
  EXPECT_EQ(after->open_leases(), 0u);
  EXPECT_LT(after->done(), kCancelGames);
  const uint64_t stored_count = after->done();

  // Cancelling again is harmless; an unknown job and a done one are
  // refused with the reason.
  EXPECT_EQ(RunQipu(tmp.path(), "again",
                    {"job", "cancel", "--server", coord.address(), "--job", id})
                .status,
            0);
  const Ran unknown =
      RunQipu(tmp.path(), "unknown",
              {"job", "cancel", "--server", coord.address(), "--job", "999"});
  EXPECT_EQ(unknown.status, 1);
  EXPECT_NE(unknown.err.find("job 999 does not exist"), std::string::npos)
      << unknown.err;
  const Ran done = RunQipu(tmp.path(), "done",
                           {"job", "cancel", "--server", coord.address(),
                            "--job", absl::StrCat(*done_job)});
  EXPECT_EQ(done.status, 1);
  EXPECT_NE(done.err.find("is done"), std::string::npos) << done.err;

  // After a restart the job is still cancelled; read through --db once
  // the coordinator has stopped, the database says the same, and every
  // stored game is there once.
  ASSERT_TRUE(coord.Kill().has_value());
  ASSERT_TRUE(coord.Start().ok()) << coord.LogTail();
  Client again(coord.address());
  auto restarted = again.JobStatus(*job);
  ASSERT_TRUE(restarted.ok()) << restarted.status();
  EXPECT_EQ(restarted->state(), qipu::v1::JOB_STATE_CANCELLED);
  EXPECT_EQ(restarted->open_leases(), 0u);
  ASSERT_EQ(coord.Stop(), 0) << coord.LogTail();
  const Ran status =
      RunQipu(tmp.path(), "status",
              {"job", "status", "--db", db, "--job", id, "--json"});
  ASSERT_EQ(status.status, 0) << status.err;
  const nlohmann::json s = nlohmann::json::parse(status.out, nullptr, false);
  ASSERT_TRUE(s.is_object()) << status.out;
  EXPECT_EQ(s.value("state", ""), "cancelled");
  EXPECT_GE(s.value("done", uint64_t{0}), stored_count);
  auto stored = ReadStoredGames(db, *job);
  ASSERT_TRUE(stored.ok()) << stored.status();
  EXPECT_EQ(stored->size(), s.value("done", uint64_t{0}));
}

}  // namespace
}  // namespace qipu::testing
