// Process test of the "every acknowledged game is stored" check
// (ack_check.h): a qipu-worker process with --ack-log against a
// qipu-coordinator process, without and with the coordinator's test fault
// --test-fault-drop-acked-every (engine/ingest.h), which acknowledges
// every nth ingest batch as stored and does not write it.
//   - Without the fault the check passes over every game of the job.
//   - With the fault and the job played to its end, the job still ends
//     `done` with each of its games stored exactly once -- what the older
//     "nothing lost" checks look at -- because the lost games went back to
//     the pool and were played again; the check fails, and names exactly
//     the games the coordinator's log says it dropped, as stored only
//     after their ack.
//   - With the fault and the job cancelled mid-lease, the dropped games
//     are never played again: the check names exactly them as not stored.
// Bounded: 240 light 9x9 games, and a few dozen MCTS games.
#include <signal.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/ops/ack_check.h"
#include "tests/ops/process_fixture.h"

namespace qipu::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

constexpr uint64_t kGames = 240;
constexpr int kLeaseGames = 60;
constexpr char kDropEvery[] = "3";
// Small upload messages and window: many ingest batches, so that the
// fault drops several.
const std::vector<std::string> kSmallUploads = {"--upload-batch", "4",
                                                "--upload-window", "8"};

// The ids the coordinator's log names as acknowledged and not written by
// the test fault.
std::set<std::string> DroppedIds(const std::string& log) {
  std::set<std::string> ids;
  constexpr absl::string_view kMark = "NOT written:";
  for (absl::string_view line : absl::StrSplit(log, '\n')) {
    if (line.find("TEST FAULT:") == absl::string_view::npos) continue;
    const size_t at = line.find(kMark);
    if (at == absl::string_view::npos) continue;
    for (absl::string_view id : absl::StrSplit(line.substr(at + kMark.size()),
                                               ' ', absl::SkipEmpty())) {
      ids.insert(std::string(id));
    }
  }
  return ids;
}

std::set<std::string> AsSet(const std::vector<std::string>& v) {
  return std::set<std::string>(v.begin(), v.end());
}

// Lines in the file at `path` (0 when it is missing).
size_t LineCount(const std::string& path) {
  const std::string text = ReadFileOrEmpty(path);
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

// A coordinator (with `fault` as --test-fault-drop-acked-every when not
// empty) and a job of kGames light 9x9 games played by one worker with
// --ack-log to its end; both stopped. Fills the paths and the job.
struct PlayedJob {
  std::string db;
  std::string ack_log;
  std::string coordinator_log;
  uint64_t job = 0;
  qipu::v1::JobStatus status;
};

void PlayJob(const TempDir& tmp, const std::string& fault, PlayedJob* out) {
  out->db = tmp.Sub("db");
  out->ack_log = tmp.Sub("w.acks");
  std::vector<std::string> flags = {"--lease-games", absl::StrCat(kLeaseGames)};
  if (!fault.empty()) {
    flags.insert(flags.end(), {"--test-fault-drop-acked-every", fault});
  }
  CoordinatorProcess coord(out->db, tmp.Sub("coordinator"), flags);
  ASSERT_TRUE(coord.Start().ok()) << coord.LogTail();
  Client client(coord.address());
  absl::StatusOr<uint64_t> job =
      client.SubmitJob(kGames, JobConfigFor(9, 2828));
  ASSERT_TRUE(job.ok()) << job.status();
  out->job = *job;
  std::vector<std::string> extra = kSmallUploads;
  extra.insert(extra.end(), {"--ack-log", out->ack_log});
  auto worker = StartWorker(coord.address(), tmp.path(), "w", /*threads=*/2,
                            kLeaseGames, extra);
  ASSERT_TRUE(worker.ok()) << worker.status();
  ASSERT_TRUE(WaitUntil(
      [&] {
        auto st = client.JobStatus(*job);
        return st.ok() && st->state() == qipu::v1::JOB_STATE_DONE;
      },
      absl::Seconds(120) * kSlowdown, absl::Milliseconds(50)))
      << (*worker)->StderrTail() << "\n"
      << coord.LogTail();
  absl::StatusOr<qipu::v1::JobStatus> st = client.JobStatus(*job);
  ASSERT_TRUE(st.ok()) << st.status();
  out->status = *st;
  ASSERT_TRUE((*worker)->Kill(SIGTERM));
  EXPECT_EQ((*worker)->Wait(absl::Seconds(60) * kSlowdown), 0)
      << (*worker)->StderrTail();
  EXPECT_EQ(coord.Stop(), 0) << coord.LogTail();
  out->coordinator_log = coord.process()->Stderr();
}

TEST(OpsAckedWrites, EveryAcknowledgedGameIsStoredWithoutTheFault) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  PlayedJob run;
  ASSERT_NO_FATAL_FAILURE(PlayJob(tmp, "", &run));
  EXPECT_THAT(run.coordinator_log, Not(HasSubstr("TEST FAULT")));

  absl::StatusOr<AckCheck> check =
      CheckAckedGamesStoredIn(run.db, {run.ack_log});
  ASSERT_TRUE(check.ok()) << check.status();
  EXPECT_TRUE(check->ok()) << check->Summary();
  // Every game of the job was acknowledged to the worker and is stored.
  EXPECT_EQ(check->games, kGames) << check->Summary();
  EXPECT_GE(check->acks, kGames);
  std::printf("ack check: %s\n", check->Summary().c_str());
}

TEST(OpsAckedWrites, AckedWritesLostAndPlayedAgainFailTheCheckOnly) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  PlayedJob run;
  ASSERT_NO_FATAL_FAILURE(PlayJob(tmp, kDropEvery, &run));
  EXPECT_THAT(
      run.coordinator_log,
      HasSubstr("TEST FAULT ENABLED (--test-fault-drop-acked-every 3)"));
  const std::set<std::string> dropped = DroppedIds(run.coordinator_log);
  ASSERT_FALSE(dropped.empty()) << run.coordinator_log;

  // What the older checks look at holds: the job is done and each of its
  // games is stored, once.
  EXPECT_EQ(run.status.done(), kGames);
  EXPECT_EQ(run.status.requested(), kGames);
  uint64_t others = 0;
  auto stored = ReadStoredGames(run.db, run.job, &others);
  ASSERT_TRUE(stored.ok()) << stored.status();
  EXPECT_EQ(stored->size(), kGames);
  EXPECT_EQ(others, 0u);

  // The ack check does not: each dropped game was stored again later.
  absl::StatusOr<AckCheck> check =
      CheckAckedGamesStoredIn(run.db, {run.ack_log});
  ASSERT_TRUE(check.ok()) << check.status();
  EXPECT_FALSE(check->ok());
  EXPECT_THAT(check->missing, IsEmpty()) << check->Summary();
  EXPECT_EQ(AsSet(check->stored_after_ack), dropped) << check->Summary();
  EXPECT_EQ(check->games, kGames);
  const std::string summary = check->Summary();
  for (const std::string& id : dropped) {
    EXPECT_THAT(summary, HasSubstr(absl::StrCat(id, ": acked (stored) to w")));
  }
  std::printf("ack check with %zu dropped: %s\n", dropped.size(),
              summary.c_str());
}

TEST(OpsAckedWrites, AckedWritesLostForGoodAreNamedAsNotStored) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const std::string db = tmp.Sub("db");
  const std::string ack_log = tmp.Sub("w.acks");
  // Renewals every half second (a third of the TTL): the cancel reaches
  // the worker soon.
  CoordinatorProcess coord(db, tmp.Sub("coordinator"),
                           {"--lease-ttl-ms", absl::StrCat(1500 * kSlowdown),
                            "--test-fault-drop-acked-every", kDropEvery});
  ASSERT_TRUE(coord.Start().ok()) << coord.LogTail();
  Client client(coord.address());
  // Far more games than it plays, in one lease: no game returns to the
  // pool before the cancel, and after it none is handed out again. MCTS
  // games take long enough that the worker plays a few dozen.
  qipu::v1::JobConfig config = JobConfigFor(9, 2929);
  config.set_policy("mcts:playouts=16");
  absl::StatusOr<uint64_t> job = client.SubmitJob(100000, config);
  ASSERT_TRUE(job.ok()) << job.status();
  std::vector<std::string> extra = kSmallUploads;
  extra.insert(extra.end(), {"--ack-log", ack_log});
  auto worker = StartWorker(coord.address(), tmp.path(), "w", /*threads=*/1,
                            /*lease_games=*/100000, extra);
  ASSERT_TRUE(worker.ok()) << worker.status();
  // Until a batch was dropped and a few more games acknowledged.
  ASSERT_TRUE(WaitUntil(
      [&] {
        return !DroppedIds(coord.process()->Stderr()).empty() &&
               LineCount(ack_log) >= 12;
      },
      absl::Seconds(120) * kSlowdown, absl::Milliseconds(20)))
      << (*worker)->StderrTail() << "\n"
      << coord.LogTail();
  const Ran cancelled = RunQipu(tmp.path(), "cancel",
                                {"job", "cancel", "--server", coord.address(),
                                 "--job", absl::StrCat(*job), "--json"});
  ASSERT_EQ(cancelled.status, 0) << cancelled.err;
  // The worker learns of it at its next renewal and stops the lease's
  // games; then it is stopped and uploads what it finished.
  ASSERT_TRUE(WaitUntil(
      [&] {
        return (*worker)->Stderr().find("stopping its games") !=
               std::string::npos;
      },
      absl::Seconds(60) * kSlowdown, absl::Milliseconds(20)))
      << (*worker)->StderrTail();
  ASSERT_TRUE((*worker)->Kill(SIGTERM));
  EXPECT_EQ((*worker)->Wait(absl::Seconds(60) * kSlowdown), 0)
      << (*worker)->StderrTail();
  EXPECT_EQ(coord.Stop(), 0) << coord.LogTail();
  const std::set<std::string> dropped = DroppedIds(coord.process()->Stderr());
  ASSERT_FALSE(dropped.empty());

  absl::StatusOr<AckCheck> check = CheckAckedGamesStoredIn(db, {ack_log});
  ASSERT_TRUE(check.ok()) << check.status();
  EXPECT_FALSE(check->ok());
  EXPECT_EQ(AsSet(check->missing), dropped) << check->Summary();
  EXPECT_THAT(check->stored_after_ack, IsEmpty()) << check->Summary();
  EXPECT_GT(check->games, dropped.size());
  const std::string summary = check->Summary();
  for (const std::string& id : dropped) {
    EXPECT_THAT(summary, HasSubstr(absl::StrCat(id, ": acked (stored) to w")));
  }
  std::printf("ack check with %zu dropped: %s\n", dropped.size(),
              summary.c_str());
}

TEST(OpsAckedWrites, AnAckLogThatCannotBeOpenedStopsTheWorkerAtStart) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const std::string bad = tmp.Sub("no-such-dir/w.acks");
  // No coordinator is needed: the ack log is opened before any call.
  auto worker = StartWorker("127.0.0.1:1", tmp.path(), "w", /*threads=*/1,
                            kLeaseGames, {"--ack-log", bad});
  ASSERT_TRUE(worker.ok()) << worker.status();
  EXPECT_EQ((*worker)->Wait(absl::Seconds(30) * kSlowdown), 1);
  EXPECT_THAT((*worker)->Stderr(),
              HasSubstr(absl::StrCat("--ack-log ", bad,
                                     ": cannot open for appending: No such "
                                     "file or directory")));
}

}  // namespace
}  // namespace qipu::testing
