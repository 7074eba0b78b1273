// Restores that cannot make things worse (store/restore.h): a failure
// injected after each step leaves the target exactly as it was (every
// file's bytes compared) and nothing beside it; a restore killed with
// SIGKILL after each step (a child process) leaves the target holding the
// old database or the new one, never neither, and the next restore
// finishes the job; damaged backups of each kind (a truncated table file,
// a flipped byte, a missing file, garbage metadata) are refused before the
// target is touched; --force takes a failed restore's leftovers; two
// restores beside one target exclude each other.
//
// The databases: `src` holds 260 games (the "old" database every target
// starts as); backup 1 of it holds 200, backup 2 (the latest, the "new"
// database) 230.
#include "store/restore.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "coordinator/coordinator.h"
#include "gtest/gtest.h"
#include "store/backup.h"
#include "store/store.h"
#include "tests/coordinator/query_fixture.h"

namespace qipu::coordinator {
namespace {

namespace fs = std::filesystem;
using store::RestoreStep;
using testing::TempDir;

constexpr uint64_t kOldGames = 260;
constexpr uint64_t kBackup1Games = 200;
constexpr uint64_t kNewGames = 230;

const std::vector<RestoreStep>& AllSteps() {
  static const std::vector<RestoreStep> steps = {
      RestoreStep::kTargetChecked,   RestoreStep::kBackupVerified,
      RestoreStep::kStaged,          RestoreStep::kStagingReadBack,
      RestoreStep::kStagingRenamed,  RestoreStep::kSwapped,
      RestoreStep::kReadBackInPlace, RestoreStep::kFinished};
  return steps;
}

// Every regular file under `dir`, path relative to it -> bytes.
std::map<std::string, std::string> Snapshot(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    out[fs::relative(e.path(), dir).string()] = bytes.str();
  }
  return out;
}

// What lies beside `dir` in its parent (names starting with its name and
// a dot).
std::vector<std::string> Beside(const std::string& dir) {
  const fs::path p(dir);
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(p.parent_path())) {
    const std::string name = e.path().filename().string();
    if (absl::StartsWith(name, p.filename().string() + ".")) {
      out.push_back(name);
    }
  }
  return out;
}

// Games in the database in `dir`, or -1 when it does not open.
int64_t GamesIn(const std::string& dir) {
  store::StoreOptions o;
  o.create_if_missing = false;
  o.block_cache_bytes = 8u << 20;
  auto s = store::Store::Open(dir, o);
  if (!s.ok()) return -1;
  int64_t n = 0;
  store::Cursor it = (*s)->Scan(store::Records::kGames);
  for (it.SeekToFirst(); it.Valid(); it.Next()) ++n;
  return it.status().ok() ? n : -1;
}

class Restore : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir("restore");
    auto coord = testing::StartCoordinator(Src());
    ASSERT_NE(coord, nullptr);
    const qipu::v1::JobConfig config =
        testing::JobConfigFor(9, "chinese", 8, 5);
    testing::PlayJob(*coord, config, kBackup1Games);
    ASSERT_TRUE(coord->store().Backup(Backups()).ok());
    testing::PlayJob(*coord, config, kNewGames - kBackup1Games);
    ASSERT_TRUE(coord->store().Backup(Backups()).ok());
    testing::PlayJob(*coord, config, kOldGames - kNewGames);
    coord->Shutdown();
    coord.reset();
    ASSERT_EQ(GamesIn(Src()), static_cast<int64_t>(kOldGames));
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  static std::string Src() { return dir_->Sub("src"); }
  static std::string Backups() { return dir_->Sub("backups"); }

  // A fresh copy of the old database at `dir`.
  static void CopyOld(const std::string& dir) {
    fs::copy(Src(), dir, fs::copy_options::recursive);
  }

  static TempDir* dir_;
};

TempDir* Restore::dir_ = nullptr;

store::RestoreOptions FailAt(RestoreStep step) {
  store::RestoreOptions o;
  o.force = true;
  o.after_step = [step](RestoreStep s) {
    return s == step ? absl::AbortedError(absl::StrCat(
                           "injected after ", store::RestoreStepName(s)))
                     : absl::OkStatus();
  };
  return o;
}

TEST_F(Restore, FailureAfterEachStepLeavesTheTargetAsItWas) {
  for (RestoreStep step : AllSteps()) {
    if (step == RestoreStep::kFinished) continue;  // done: cannot fail
    for (const char* kind : {"database", "missing", "empty"}) {
      SCOPED_TRACE(absl::StrCat(store::RestoreStepName(step), ", ", kind));
      TempDir t("restore-fail");
      const std::string target = t.Sub("db");
      const std::string k = kind;
      // A missing or empty target is replaced by one rename.
      if (step == RestoreStep::kStagingRenamed && k != "database") continue;
      if (k == "database") CopyOld(target);
      if (k == "empty") fs::create_directory(target);
      const auto before = k == "database"
                              ? Snapshot(target)
                              : std::map<std::string, std::string>{};

      auto r = store::RestoreBackup(Backups(), target, FailAt(step));
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.status().code(), absl::StatusCode::kAborted) << r.status();
      EXPECT_TRUE(absl::StrContains(r.status().message(), "injected"))
          << r.status();
      if (k == "database") {
        EXPECT_TRUE(Snapshot(target) == before) << "the database changed";
      } else if (k == "missing") {
        EXPECT_FALSE(fs::exists(target));
      } else {
        EXPECT_TRUE(fs::is_directory(target) && fs::is_empty(target));
      }
      EXPECT_TRUE(Beside(target).empty()) << Beside(target)[0];

      // Nothing left in the way: the same restore goes through.
      auto again = store::RestoreBackup(Backups(), 0, target, true);
      ASSERT_TRUE(again.ok()) << again.status();
      EXPECT_EQ(again->games, kNewGames);
      EXPECT_TRUE(again->recovered.empty());
      EXPECT_EQ(again->replaced, k == "database");
      EXPECT_EQ(GamesIn(target), static_cast<int64_t>(kNewGames));
      EXPECT_FALSE(fs::exists(fs::path(target) / store::kStagingMarker));
      EXPECT_TRUE(Beside(target).empty());
    }
  }
}

// Runs restore_kill_child on `target`, killed after `step`; its wait status.
int RunKilledAt(const std::string& backups, const std::string& target,
                RestoreStep step) {
  const std::string child = QIPU_RESTORE_KILL_CHILD;
  const std::string step_name = store::RestoreStepName(step);
  const pid_t pid = fork();
  if (pid == 0) {
    execl(child.c_str(), child.c_str(), backups.c_str(), target.c_str(),
          step_name.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

TEST_F(Restore, KilledAfterEachStepLeavesTheOldOrTheNewDatabase) {
  for (RestoreStep step : AllSteps()) {
    SCOPED_TRACE(store::RestoreStepName(step));
    TempDir t("restore-kill");
    const std::string target = t.Sub("db");
    CopyOld(target);
    const auto before = Snapshot(target);
    const int status = RunKilledAt(Backups(), target, step);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
        << "wait status " << status;

    const bool swapped = step >= RestoreStep::kSwapped;
    if (!swapped) {
      EXPECT_TRUE(Snapshot(target) == before) << "the old database changed";
    }
    EXPECT_EQ(GamesIn(target),
              static_cast<int64_t>(swapped ? kNewGames : kOldGames));

    // The next restore (backup 1 this time) finishes what the killed one
    // left: unused copies deleted, a displaced old database kept.
    auto next = store::RestoreBackup(Backups(), 1, target, true);
    ASSERT_TRUE(next.ok()) << next.status();
    EXPECT_EQ(next->games, kBackup1Games);
    EXPECT_EQ(GamesIn(target), static_cast<int64_t>(kBackup1Games));
    const bool left_something =
        step >= RestoreStep::kStaged && step <= RestoreStep::kReadBackInPlace;
    EXPECT_EQ(next->recovered.empty(), !left_something);
    const std::vector<std::string> beside = Beside(target);
    if (step == RestoreStep::kSwapped ||
        step == RestoreStep::kReadBackInPlace) {
      // The old database was displaced but not yet deleted: kept.
      ASSERT_EQ(beside.size(), 1u);
      EXPECT_TRUE(absl::StrContains(beside[0], ".before-restore-"))
          << beside[0];
      EXPECT_EQ(GamesIn(t.Sub(beside[0])), static_cast<int64_t>(kOldGames));
    } else {
      EXPECT_TRUE(beside.empty()) << beside[0];
    }
  }
}

// Damages a copy of the backups; returns the copy.
enum class Damage { kTruncatedSst, kFlippedByte, kMissingFile, kGarbageMeta };

std::string LargestSharedFile(const std::string& backups) {
  std::string victim;
  uintmax_t size = 0;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(backups) /
                                                        "shared_checksum")) {
    if (e.is_regular_file() && absl::EndsWith(e.path().string(), ".sst") &&
        e.file_size() > size) {
      size = e.file_size();
      victim = e.path().string();
    }
  }
  return victim;
}

TEST_F(Restore, DamagedBackupsLeaveTheTargetUntouched) {
  for (Damage d : {Damage::kTruncatedSst, Damage::kFlippedByte,
                   Damage::kMissingFile, Damage::kGarbageMeta}) {
    SCOPED_TRACE(static_cast<int>(d));
    TempDir t("restore-damaged");
    const std::string backups = t.Sub("backups");
    fs::copy(Backups(), backups, fs::copy_options::recursive);
    const std::string victim = LargestSharedFile(backups);
    ASSERT_FALSE(victim.empty());
    switch (d) {
      case Damage::kTruncatedSst:
        fs::resize_file(victim, fs::file_size(victim) / 2);
        break;
      case Damage::kFlippedByte: {
        std::fstream f(victim, std::ios::in | std::ios::out | std::ios::binary);
        f.seekg(100);
        const char byte = static_cast<char>(f.get());
        f.seekp(100);
        f.put(static_cast<char>(~byte));
        break;
      }
      case Damage::kMissingFile:
        fs::remove(victim);
        break;
      case Damage::kGarbageMeta:
        std::ofstream(fs::path(backups) / "meta" / "2", std::ios::trunc)
            << "this is not a backup's metadata\n\x01\x02";
        break;
    }
    const std::string target = t.Sub("db");
    CopyOld(target);
    const auto before = Snapshot(target);
    auto r = store::RestoreBackup(backups, 0, target, true);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), absl::StatusCode::kDataLoss) << r.status();
    EXPECT_TRUE(absl::StrContains(r.status().message(), "damaged"))
        << r.status();
    if (d == Damage::kGarbageMeta) {
      // Not silently replaced by the older good backup: named instead.
      EXPECT_TRUE(absl::StrContains(r.status().message(), "--id 1"))
          << r.status();
    }
    EXPECT_TRUE(Snapshot(target) == before) << "the database changed";
    EXPECT_TRUE(Beside(target).empty()) << Beside(target)[0];
    EXPECT_FALSE(store::VerifyBackup(backups, 0).ok());
  }
}

TEST_F(Restore, ForceTakesAFailedRestoresLeftoversOnly) {
  TempDir t("restore-leftovers");
  const std::string target = t.Sub("db");
  // What an interrupted copy of RocksDB files leaves: tables, a manifest
  // and options, no CURRENT.
  fs::create_directory(target);
  for (const auto& e : fs::directory_iterator(Src())) {
    const std::string name = e.path().filename().string();
    if (absl::EndsWith(name, ".sst") || absl::StartsWith(name, "MANIFEST-") ||
        absl::StartsWith(name, "OPTIONS-")) {
      fs::copy(e.path(), fs::path(target) / name);
    }
  }
  ASSERT_FALSE(fs::is_empty(target));
  auto plain = store::RestoreBackup(Backups(), 0, target, false);
  EXPECT_EQ(plain.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(absl::StrContains(plain.status().message(), "leftovers"))
      << plain.status();
  auto forced = store::RestoreBackup(Backups(), 0, target, true);
  ASSERT_TRUE(forced.ok()) << forced.status();
  EXPECT_TRUE(forced->replaced);
  EXPECT_EQ(GamesIn(target), static_cast<int64_t>(kNewGames));
  EXPECT_TRUE(Beside(target).empty());

  // A directory with anything else in it is not a restore's leftovers.
  const std::string other = t.Sub("other");
  fs::create_directory(other);
  std::ofstream(fs::path(other) / "000001.sst") << "x";
  std::ofstream(fs::path(other) / "notes.txt") << "keep me";
  auto refused = store::RestoreBackup(Backups(), 0, other, true);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(fs::exists(fs::path(other) / "notes.txt"));
  EXPECT_TRUE(fs::exists(fs::path(other) / "000001.sst"));
}

TEST_F(Restore, OneRestoreAtATimeBesideATarget) {
  TempDir t("restore-lock");
  const std::string target = t.Sub("db");
  const int fd = open(t.path().c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(flock(fd, LOCK_EX | LOCK_NB), 0);
  auto busy = store::RestoreBackup(Backups(), 0, target, false);
  EXPECT_EQ(busy.status().code(), absl::StatusCode::kUnavailable)
      << busy.status();
  EXPECT_TRUE(absl::StrContains(busy.status().message(), "another restore"))
      << busy.status();
  EXPECT_FALSE(fs::exists(target));
  close(fd);
  auto ok = store::RestoreBackup(Backups(), 0, target, false);
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_FALSE(ok->replaced);
  EXPECT_EQ(ok->games, kNewGames);
}

}  // namespace
}  // namespace qipu::coordinator
