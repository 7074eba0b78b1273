// Process tests: the database directory of a running qipu disappears (an
// operator's mistake, a lost volume). RocksDB's next file creation fails,
// and RocksDB does not resume writes after that; the processes must say so
// and stop instead of retrying forever:
//  - `qipu local` exits 1 with the storage error and the number of games
//    stored before it;
//  - qipu-coordinator exits 3 with the storage error (for its supervisor
//    to restart it), while its worker keeps the games it has not had
//    acknowledged: killed, it leaves them in its spool (read back, each a
//    game of the job).
// (A full disk, and the recovery afterwards, are tested in-process with a
// fault-injecting file system: tests/store/store_test.cc and
// tests/worker/worker_test.cc.)
#include <signal.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "qipu/v1/game.pb.h"
#include "tests/ops/process_fixture.h"
#include "tests/ops/subprocess.h"
#include "worker/spool.h"

namespace qipu::testing {
namespace {

// True when the spool log in `dir` holds more than its 16-byte header:
// the worker has spooled at least one game.
bool SpoolHasGames(const std::string& dir) {
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(dir + "/spool.log", ec);
  return !ec && size > 16;
}

// True when `dir` holds a RocksDB SST file (the memtable was flushed once).
bool HasSst(const std::string& dir) {
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    if (e.path().extension() == ".sst") return true;
  }
  return false;
}

TEST(OpsStorageFailure, QipuLocalStopsWithTheErrorWhenItsDatabaseIsDeleted) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const std::string db = tmp.Sub("db");
  // Far more games than it plays before the directory goes.
  auto local = Subprocess::Start({kQipuBinary, "local", "--games", "10000000",
                                  "--size", "9", "--db", db, "--seed", "5"},
                                 tmp.Sub("local.out"), tmp.Sub("local.err"));
  ASSERT_TRUE(local.ok()) << local.status();
  // Once its worker has spooled games, the run is storing them.
  ASSERT_TRUE(WaitUntil([&] { return SpoolHasGames(db + "/worker-spool"); },
                        absl::Seconds(60) * kSlowdown, absl::Milliseconds(20)))
      << (*local)->StderrTail();
  std::filesystem::remove_all(db);
  const std::optional<int> status =
      (*local)->Wait(absl::Seconds(90) * kSlowdown);
  ASSERT_TRUE(status.has_value())
      << "qipu local still runs; " << (*local)->StderrTail();
  EXPECT_EQ(*status, 1) << (*local)->StderrTail();
  const std::string err = (*local)->StderrTail(4096);
  EXPECT_NE(err.find("qipu local: stopped: the database no longer takes "
                     "writes"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find(db), std::string::npos) << err;
  EXPECT_NE(err.find("were stored and acknowledged before the failure"),
            std::string::npos)
      << err;
}

TEST(OpsStorageFailure, CoordinatorExitsWithTheErrorWhenItsDatabaseIsDeleted) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const std::string db = tmp.Sub("db");
  // Small memtables: RocksDB creates files (SSTs, WALs) early and often.
  CoordinatorProcess coord(db, tmp.Sub("coordinator"),
                           {"--memtable-mb", "8", "--lease-games", "200"});
  ASSERT_TRUE(coord.Start().ok()) << coord.LogTail();
  Client client(coord.address());
  auto job = client.SubmitJob(10000000, JobConfigFor(9, 99, /*depth=*/30));
  ASSERT_TRUE(job.ok()) << job.status();
  auto worker = StartWorker(coord.address(), tmp.path(), "w", /*threads=*/2,
                            /*lease_games=*/200);
  ASSERT_TRUE(worker.ok()) << worker.status();
  ASSERT_TRUE(WaitUntil([&] { return HasSst(db); },
                        absl::Seconds(60) * kSlowdown, absl::Milliseconds(20)))
      << coord.LogTail();
  std::filesystem::remove_all(db);
  const std::optional<int> status =
      coord.process()->Wait(absl::Seconds(90) * kSlowdown);
  ASSERT_TRUE(status.has_value())
      << "the coordinator still runs; " << coord.LogTail();
  EXPECT_EQ(*status, 3) << coord.LogTail();
  const std::string err = coord.LogTail();
  EXPECT_NE(err.find("qipu-coordinator: storage failed"), std::string::npos)
      << err;
  EXPECT_NE(err.find(db), std::string::npos) << err;
  // The worker is unharmed: it still runs, playing its leases, and keeps
  // every game it has not had acknowledged in its spool -- there even
  // when it is killed -- for its next run.
  ASSERT_TRUE((*worker)->Kill(SIGKILL))
      << "the worker had exited; " << (*worker)->StderrTail();
  EXPECT_EQ((*worker)->Wait(absl::Seconds(30) * kSlowdown), 128 + SIGKILL)
      << (*worker)->StderrTail();
  worker::SpoolOptions so;
  so.dir = tmp.Sub("w.spool");
  auto spool = worker::Spool::Open(so);
  ASSERT_TRUE(spool.ok()) << spool.status();
  EXPECT_GT((*spool)->pending(), 0u);
  for (const worker::SpooledGame& g : (*spool)->Pending()) {
    EXPECT_EQ(g->key.job, *job);
    qipu::v1::Game parsed;
    ASSERT_TRUE(parsed.ParseFromString(g->game)) << g->key.ToString();
    EXPECT_EQ(parsed.provenance().job(), *job);
    EXPECT_EQ(parsed.provenance().game_index(), g->key.index);
    EXPECT_EQ(parsed.provenance().worker(), "w");
  }
}

}  // namespace
}  // namespace qipu::testing
