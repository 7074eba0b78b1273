// Process tests of qipu-coordinator's tuning flags, each by an effect seen
// from outside the process:
//  - --no-sync: the process's fdatasync()/fsync() calls on RocksDB's
//    write-ahead logs, counted by a library preloaded into it
//    (sync_counter.cc). A job's games cost a WAL sync per group commit by
//    default, and none with --no-sync.
//  - --validate-threads N: the process runs exactly N threads named
//    qipu-validate (/proc/PID/task/*/comm); out of range is refused.
//  - --block-cache-mb M: RocksDB reports a block cache of M MiB for every
//    column family (its options dump, in the debug log), and the cache's
//    use on the metrics page stays within it.
//  - --auth off on a non-loopback --listen or --http: refused (status 2,
//    one line naming the flag and --insecure) before the database is
//    opened; with --insecure or --auth required the address is tried (an
//    address of no interface here, so nothing is served beyond loopback).
//    The start-up line: auth on or off and the database's tokens.
#include <dirent.h>
#include <signal.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "engine/tokens.h"
#include "gtest/gtest.h"
#include "store/store.h"
#include "tests/ops/process_fixture.h"
#include "tests/ops/subprocess.h"

namespace qipu::testing {
namespace {

// Counts of the preloaded library: WAL syncs and other syncs.
struct SyncCounts {
  int64_t wal = 0;
  int64_t other = 0;
};

std::optional<SyncCounts> ReadSyncCounts(const std::string& path) {
  SyncCounts c;
  bool wal = false;
  bool other = false;
  for (absl::string_view line :
       absl::StrSplit(ReadFileOrEmpty(path), '\n', absl::SkipEmpty())) {
    std::vector<absl::string_view> f =
        absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (f.size() != 2) continue;
    if (f[0] == "wal") wal = absl::SimpleAtoi(f[1], &c.wal);
    if (f[0] == "other") other = absl::SimpleAtoi(f[1], &c.other);
  }
  if (!wal || !other) return std::nullopt;
  return c;
}

// The environment that preloads the sync counter, writing to `path`. A
// sanitized coordinator insists that its runtime comes first among the
// libraries; the counter does not use it, so the check is turned off.
std::vector<std::string> SyncCounterEnv(const std::string& path) {
  std::vector<std::string> env = {
      absl::StrCat("LD_PRELOAD=", QIPU_SYNC_COUNTER),
      absl::StrCat("QIPU_SYNC_COUNT_FILE=", path)};
  if (kSanitized) {
    const char* asan = getenv("ASAN_OPTIONS");
    env.push_back(absl::StrCat("ASAN_OPTIONS=", asan != nullptr ? asan : "",
                               asan != nullptr && *asan != '\0' ? ":" : "",
                               "verify_asan_link_order=0"));
  }
  return env;
}

// WAL syncs a coordinator made while a worker process played a job of
// `games` 9x9 games (uploading at most 8 games at a time, so that there
// are many small group commits), with `flags`.
std::optional<SyncCounts> WalSyncsOfAJob(const TempDir& tmp,
                                         const std::string& name,
                                         const std::vector<std::string>& flags,
                                         uint64_t games) {
  const std::string counts = tmp.Sub(name + ".syncs");
  CoordinatorProcess coord(tmp.Sub(name + ".db"), tmp.Sub(name), flags,
                           SyncCounterEnv(counts));
  absl::Status started = coord.Start();
  EXPECT_TRUE(started.ok()) << started << coord.LogTail();
  if (!started.ok()) return std::nullopt;
  auto client = std::make_unique<Client>(coord.address());
  auto job = client->SubmitJob(games, JobConfigFor(9, 61));
  EXPECT_TRUE(job.ok()) << job.status();
  if (!job.ok()) return std::nullopt;
  const std::optional<SyncCounts> before = ReadSyncCounts(counts);
  auto worker =
      StartWorker(coord.address(), tmp.path(), name + "-w",
                  /*threads=*/2, /*lease_games=*/50, {"--upload-window", "8"});
  EXPECT_TRUE(worker.ok()) << worker.status();
  if (!worker.ok()) return std::nullopt;
  const bool done = WaitUntil(
      [&] {
        auto st = client->JobStatus(*job);
        return st.ok() && st->state() == qipu::v1::JOB_STATE_DONE;
      },
      absl::Seconds(120) * kSlowdown, absl::Milliseconds(20));
  EXPECT_TRUE(done) << coord.LogTail() << (*worker)->StderrTail();
  // Counted while the coordinator still runs: what the job's games cost,
  // nothing of the shutdown.
  std::optional<SyncCounts> after = ReadSyncCounts(counts);
  EXPECT_TRUE(after.has_value())
      << "the preloaded counter wrote nothing to " << counts;
  (*worker)->Kill(SIGTERM);
  EXPECT_EQ((*worker)->Wait(absl::Seconds(30) * kSlowdown), 0)
      << (*worker)->StderrTail();
  client.reset();
  EXPECT_EQ(coord.Stop(), 0) << coord.LogTail();
  if (!done || !after.has_value()) return std::nullopt;
  if (before.has_value()) {
    after->wal -= before->wal;
    after->other -= before->other;
  }
  return after;
}

TEST(OpsCoordinatorFlags, NoSyncDropsTheWalSyncOfEveryGroupCommit) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  constexpr uint64_t kGames = 200;
  const std::optional<SyncCounts> synced =
      WalSyncsOfAJob(tmp, "synced", {}, kGames);
  const std::optional<SyncCounts> unsynced =
      WalSyncsOfAJob(tmp, "unsynced", {"--no-sync"}, kGames);
  ASSERT_TRUE(synced.has_value());
  ASSERT_TRUE(unsynced.has_value());
  std::printf(
      "WAL syncs for %llu games: %lld by default, %lld with --no-sync\n",
      static_cast<unsigned long long>(kGames),
      static_cast<long long>(synced->wal),
      static_cast<long long>(unsynced->wal));
  // At most 8 games per upload message and in flight: at least one group
  // commit, each synced, per 8 games.
  EXPECT_GE(synced->wal, static_cast<int64_t>(kGames / 8));
  // Without: no WAL sync for the games at all.
  EXPECT_EQ(unsynced->wal, 0);
}

// Names of the threads of process `pid`.
std::vector<std::string> ThreadNames(pid_t pid) {
  std::vector<std::string> names;
  const std::string dir = absl::StrCat("/proc/", pid, "/task");
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return names;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    std::string comm = ReadFileOrEmpty(dir + "/" + e->d_name + "/comm");
    names.push_back(std::string(absl::StripTrailingAsciiWhitespace(comm)));
  }
  closedir(d);
  return names;
}

int CountNamed(const std::vector<std::string>& names, const std::string& n) {
  int count = 0;
  for (const std::string& name : names) count += name == n;
  return count;
}

TEST(OpsCoordinatorFlags, ValidateThreadsStartsThatManyValidationThreads) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  for (int n : {0, 3}) {
    CoordinatorProcess coord(tmp.Sub(absl::StrCat("db", n)),
                             tmp.Sub(absl::StrCat("coordinator", n)),
                             {"--validate-threads", absl::StrCat(n)});
    ASSERT_TRUE(coord.Start().ok()) << coord.LogTail();
    const std::vector<std::string> names = ThreadNames(coord.process()->pid());
    ASSERT_FALSE(names.empty());
    EXPECT_EQ(CountNamed(names, "qipu-validate"), n)
        << absl::StrJoin(names, ", ");
    // The threads help upload streams: a job's games are stored either
    // way.
    Client client(coord.address());
    auto job = client.SubmitJob(60, JobConfigFor(9, 62));
    ASSERT_TRUE(job.ok()) << job.status();
    auto worker = StartWorker(coord.address(), tmp.path(), absl::StrCat("v", n),
                              /*threads=*/2,
                              /*lease_games=*/30, {"--exit-when-idle", "1"});
    ASSERT_TRUE(worker.ok()) << worker.status();
    EXPECT_EQ((*worker)->Wait(absl::Seconds(120) * kSlowdown), 0)
        << (*worker)->StderrTail();
    auto st = client.JobStatus(*job);
    ASSERT_TRUE(st.ok()) << st.status();
    EXPECT_EQ(st->done(), 60u);
    EXPECT_EQ(st->rejected(), 0u);
    ASSERT_TRUE(coord.Kill().has_value());
  }
  // Out of range: refused before anything starts, naming the flag.
  auto bad = Subprocess::Start(
      {kCoordinatorBinary, "--db", tmp.Sub("bad"), "--validate-threads", "300"},
      tmp.Sub("bad.out"), tmp.Sub("bad.err"));
  ASSERT_TRUE(bad.ok()) << bad.status();
  EXPECT_NE((*bad)->Wait(absl::Seconds(30) * kSlowdown), 0);
  EXPECT_NE((*bad)->Stderr().find("--validate-threads"), std::string::npos)
      << (*bad)->Stderr();
}

TEST(OpsCoordinatorFlags, BlockCacheMbSizesRocksDbsBlockCache) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  constexpr int kMb = 24;
  CoordinatorProcess coord(
      tmp.Sub("db"), tmp.Sub("coordinator"),
      {"--block-cache-mb", absl::StrCat(kMb), "--log-level", "debug",
       "--metrics", "127.0.0.1:0"});
  ASSERT_TRUE(coord.Start().ok()) << coord.LogTail();
  // RocksDB's options dump (at open, in the debug log): one shared cache
  // of kMb MiB behind every column family.
  const std::string log = coord.process()->Stderr();
  int capacities = 0;
  for (absl::string_view line : absl::StrSplit(log, '\n')) {
    const size_t at = line.find("capacity : ");
    if (at == absl::string_view::npos) continue;
    ++capacities;
    EXPECT_EQ(absl::StripAsciiWhitespace(line.substr(at + 11)),
              absl::StrCat(int64_t{kMb} << 20))
        << line;
  }
  // default, games, positions, aggregates, jobs, patterns, players.
  EXPECT_EQ(capacities, 7) << "one block cache line per column family";
  // A job through it: the cache's use stays within its size.
  Client client(coord.address());
  auto job = client.SubmitJob(100, JobConfigFor(9, 63));
  ASSERT_TRUE(job.ok()) << job.status();
  auto worker = StartWorker(coord.address(), tmp.path(), "w", /*threads=*/2,
                            /*lease_games=*/50, {"--exit-when-idle", "1"});
  ASSERT_TRUE(worker.ok()) << worker.status();
  EXPECT_EQ((*worker)->Wait(absl::Seconds(120) * kSlowdown), 0)
      << (*worker)->StderrTail();
  qipu::v1::Filter nine;
  nine.set_width(9);
  nine.set_height(9);
  auto openings = client.RootOpenings(nine);
  ASSERT_TRUE(openings.ok()) << openings.status();
  auto page = ScrapeMetrics(coord.metrics_port());
  ASSERT_TRUE(page.ok()) << page.status();
  const std::optional<double> used =
      MetricValue(*page, "qipu_rocksdb_block_cache_bytes");
  ASSERT_TRUE(used.has_value()) << *page;
  EXPECT_LE(*used, static_cast<double>(int64_t{kMb} << 20));
  ASSERT_TRUE(coord.Kill().has_value());
}

// Runs qipu-coordinator with `flags` to its end; its status and stderr.
std::pair<std::optional<int>, std::string> RunCoordinator(
    const TempDir& tmp, const std::string& name,
    std::vector<std::string> flags) {
  flags.insert(flags.begin(), kCoordinatorBinary);
  auto p =
      Subprocess::Start(flags, tmp.Sub(name + ".out"), tmp.Sub(name + ".err"));
  EXPECT_TRUE(p.ok()) << p.status();
  if (!p.ok()) return {std::nullopt, ""};
  const std::optional<int> status = (*p)->Wait(absl::Seconds(60) * kSlowdown);
  return {status, (*p)->Stderr()};
}

TEST(OpsCoordinatorFlags, AuthOffServesLoopbackOnlyUnlessInsecure) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  // Every interface, or another host's address, with auth off: refused in
  // one line naming the flag and both ways out, before the database is
  // made.
  for (const auto& [flag, address] :
       std::vector<std::pair<std::string, std::string>>{
           {"--listen", "0.0.0.0:0"},
           {"--listen", "[::]:0"},
           {"--listen", "192.0.2.1:7070"},
           {"--http", "0.0.0.0:0"}}) {
    const auto [status, err] = RunCoordinator(
        tmp, "refused", {"--db", tmp.Sub("refused-db"), flag, address});
    EXPECT_EQ(status, 2) << flag << " " << address << ": " << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    for (const std::string& w :
         {flag, std::string("not a loopback address"),
          std::string("--auth required"), std::string("--insecure")}) {
      EXPECT_NE(err.find(w), std::string::npos) << w << " not in: " << err;
    }
    EXPECT_FALSE(std::filesystem::exists(tmp.Sub("refused-db")));
  }
  // With --insecure, or with tokens, the address is tried: 192.0.2.1
  // (TEST-NET-1) is on no interface here, so the bind fails (status 1)
  // -- past the check, and nothing served anywhere but here.
  for (const std::string& way : {"--insecure", "--auth=required"}) {
    const auto [status, err] = RunCoordinator(
        tmp, "tried",
        {"--db", tmp.Sub("tried-db"), "--listen", "192.0.2.1:0", way});
    EXPECT_EQ(status, 1) << way << ": " << err;
    EXPECT_NE(err.find("cannot listen on 192.0.2.1:0"), std::string::npos)
        << way << ": " << err;
  }
}

TEST(OpsCoordinatorFlags, StartUpLineSaysAuthAndTokens) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  {
    auto store = store::Store::Open(tmp.Sub("db"), {});
    ASSERT_TRUE(store.ok()) << store.status();
    auto reg = engine::TokenRegistry::Load(store->get());
    ASSERT_TRUE(reg.ok()) << reg.status();
    ASSERT_TRUE((*reg)->Create(qipu::v1::ROLE_OPERATOR, "a").ok());
    ASSERT_TRUE((*reg)->Create(qipu::v1::ROLE_WORKER, "b").ok());
    auto c = (*reg)->Create(qipu::v1::ROLE_READER, "c");
    ASSERT_TRUE(c.ok());
    ASSERT_TRUE((*reg)->Revoke(c->info.id()).ok());
  }
  {
    CoordinatorProcess coord(tmp.Sub("db"), tmp.Sub("off"));
    ASSERT_TRUE(coord.Start().ok()) << coord.LogTail();
    ASSERT_EQ(coord.Stop(), 0);
    const std::string log = ReadFileOrEmpty(tmp.Sub("off.1.log"));
    EXPECT_NE(log.find("auth off; the database holds 3 tokens (2 active, 1 "
                       "revoked)"),
              std::string::npos)
        << log;
    // Tokens exist but nobody checks them: said.
    EXPECT_NE(log.find("2 active tokens are not checked"), std::string::npos)
        << log;
  }
  {
    CoordinatorProcess coord(tmp.Sub("db"), tmp.Sub("required"),
                             {"--auth", "required"});
    ASSERT_TRUE(coord.Start().ok()) << coord.LogTail();
    ASSERT_EQ(coord.Stop(), 0);
    const std::string log = ReadFileOrEmpty(tmp.Sub("required.1.log"));
    EXPECT_NE(log.find("auth required; the database holds 3 tokens (2 "
                       "active, 1 revoked)"),
              std::string::npos)
        << log;
    EXPECT_EQ(log.find("are not checked"), std::string::npos) << log;
  }
}

}  // namespace
}  // namespace qipu::testing
