// Process test of `qipu backup` and `qipu restore` (ops/backup_command.cc):
// a qipu-coordinator process backs itself up (`qipu backup --server`)
// while a qipu-worker process keeps uploading games; `backup list` and
// `backup verify` read the directory; `qipu restore` brings the backup
// back into a new directory and refuses to overwrite one. The restored
// database holds only games the coordinator stored, byte for byte, at
// least those done before the backup was asked for, and its aggregates
// count each once.
#include <signal.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/ops/process_fixture.h"

namespace qipu::testing {
namespace {

TEST(OpsBackup, OnlineBackupDuringIngestRestoresAPrefixOfTheStoredGames) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const std::string db = tmp.Sub("db");
  const std::string backups = tmp.Sub("backups");
  CoordinatorProcess coord(db, tmp.Sub("coordinator"), {"--lease-games", "50"});
  ASSERT_TRUE(coord.Start().ok()) << coord.LogTail();
  Client client(coord.address());
  auto job = client.SubmitJob(1000000, JobConfigFor(9, 77));
  ASSERT_TRUE(job.ok()) << job.status();
  auto worker = StartWorker(coord.address(), tmp.path(), "w", /*threads=*/1,
                            /*lease_games=*/50);
  ASSERT_TRUE(worker.ok()) << worker.status();
  ASSERT_TRUE(WaitUntil(
      [&] {
        auto st = client.JobStatus(*job);
        return st.ok() && st->done() >= 300;
      },
      absl::Seconds(60) * kSlowdown, absl::Milliseconds(10)))
      << (*worker)->StderrTail();

  auto before = client.JobStatus(*job);
  ASSERT_TRUE(before.ok()) << before.status();
  const Ran backup = RunQipu(
      tmp.path(), "backup",
      {"backup", "--server", coord.address(), "--to", backups, "--json"});
  ASSERT_EQ(backup.status, 0) << backup.err;
  const nlohmann::json b = LastJsonLine(backup.out);
  EXPECT_EQ(b.value("id", 0), 1) << backup.out;
  // Ingest goes on after the backup.
  const uint64_t done_at_backup = before->done();
  ASSERT_TRUE(WaitUntil(
      [&] {
        auto st = client.JobStatus(*job);
        return st.ok() && st->done() >= done_at_backup + 300;
      },
      absl::Seconds(60) * kSlowdown, absl::Milliseconds(10)))
      << (*worker)->StderrTail();
  (*worker)->Kill(SIGKILL);
  (*worker)->Wait(absl::Seconds(30));
  ASSERT_EQ(coord.Stop(), 0) << coord.LogTail();

  // A relative --to with --server is refused before any call.
  EXPECT_EQ(RunQipu(tmp.path(), "relative",
                    {"backup", "--server", coord.address(), "--to", "rel"})
                .status,
            2);
  const Ran list = RunQipu(tmp.path(), "list",
                           {"backup", "list", "--to", backups, "--json"});
  ASSERT_EQ(list.status, 0) << list.err;
  const nlohmann::json l = LastJsonLine(list.out);
  ASSERT_TRUE(l.is_array() && l.size() == 1) << list.out;
  const Ran verify =
      RunQipu(tmp.path(), "verify", {"backup", "verify", "--to", backups});
  EXPECT_EQ(verify.status, 0) << verify.err;
  EXPECT_NE(verify.out.find("checksums match"), std::string::npos)
      << verify.out;

  const std::string restored = tmp.Sub("restored");
  const Ran restore =
      RunQipu(tmp.path(), "restore",
              {"restore", "--from", backups, "--db", restored, "--json"});
  ASSERT_EQ(restore.status, 0) << restore.err;
  const nlohmann::json r = LastJsonLine(restore.out);
  // Over the stopped database: refused without --force.
  const Ran over = RunQipu(tmp.path(), "over",
                           {"restore", "--from", backups, "--db", restored});
  EXPECT_EQ(over.status, 1);
  EXPECT_NE(over.err.find("--force"), std::string::npos) << over.err;

  auto all = ReadStoredGames(db, *job);
  ASSERT_TRUE(all.ok()) << all.status();
  uint64_t others = 0;
  auto back = ReadStoredGames(restored, *job, &others);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(others, 0u);
  EXPECT_EQ(r.value("games", uint64_t{0}), back->size()) << restore.out;
  EXPECT_GE(back->size(), done_at_backup);
  EXPECT_LT(back->size(), all->size());
  for (const auto& [index, game] : *back) {
    auto it = all->find(index);
    ASSERT_NE(it, all->end()) << "game " << index << " was never stored";
    EXPECT_EQ(it->second.SerializeAsString(), game.SerializeAsString())
        << "game " << index;
  }
  // Indexed and counted: the aggregates and the position index of the
  // restored database count every game once.
  CoordinatorProcess again(restored, tmp.Sub("again"));
  ASSERT_TRUE(again.Start().ok()) << again.LogTail();
  Client c2(again.address());
  auto results = c2.Results({});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_EQ(results->outcomes().games(), back->size());
  qipu::v1::Filter nine;
  nine.set_width(9);
  nine.set_height(9);
  auto root = c2.RootOpenings(nine);
  ASSERT_TRUE(root.ok()) << root.status();
  EXPECT_EQ(root->reached().games(), back->size());
  auto st = c2.JobStatus(*job);
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_EQ(st->done(), back->size());
  EXPECT_EQ(again.Stop(), 0) << again.LogTail();
}

// The data loss of issue 28: `qipu restore --force` over a 3,000-game
// database from a backup with one table file truncated. The restore is
// refused with the damage named, and the database is exactly as it was
// (every file's bytes) and still opens with its 3,000 games; the restore
// from the intact backup then replaces it.
TEST(OpsBackup, ForcedRestoreOfADamagedBackupKeepsTheDatabase) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const std::string db = tmp.Sub("db");
  const std::string backups = tmp.Sub("backups");
  const Ran first = RunQipu(tmp.path(), "first",
                            {"local", "--games", "2000", "--size", "9",
                             "--seed", "5", "--db", db, "--json"},
                            absl::Seconds(300));
  ASSERT_EQ(first.status, 0) << first.err;
  const Ran backup = RunQipu(tmp.path(), "backup",
                             {"backup", "--db", db, "--to", backups, "--json"});
  ASSERT_EQ(backup.status, 0) << backup.err;
  const Ran more = RunQipu(tmp.path(), "more",
                           {"local", "--games", "1000", "--size", "9", "--seed",
                            "6", "--db", db, "--json"},
                           absl::Seconds(300));
  ASSERT_EQ(more.status, 0) << more.err;
  auto games_in = [&](const std::string& dir) -> uint64_t {
    const Ran q = RunQipu(tmp.path(), "results",
                          {"query", "results", "--db", dir, "--json"});
    EXPECT_EQ(q.status, 0) << q.err;
    return LastJsonLine(q.out).value("games", uint64_t{0});
  };
  ASSERT_EQ(games_in(db), 3000u);

  // A copy of the backup with its largest table file cut in half.
  const std::string damaged = tmp.Sub("damaged");
  std::filesystem::copy(backups, damaged,
                        std::filesystem::copy_options::recursive);
  std::string victim;
  uintmax_t size = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(damaged)) {
    if (e.is_regular_file() && e.path().extension() == ".sst" &&
        e.file_size() > size) {
      size = e.file_size();
      victim = e.path().string();
    }
  }
  ASSERT_FALSE(victim.empty());
  std::filesystem::resize_file(victim, size / 2);

  auto snapshot = [](const std::string& dir) {
    std::map<std::string, std::string> files;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
      if (!e.is_regular_file()) continue;
      std::ifstream in(e.path(), std::ios::binary);
      files[e.path().string()] = std::string(std::istreambuf_iterator<char>(in),
                                             std::istreambuf_iterator<char>());
    }
    return files;
  };
  const auto before = snapshot(db);
  const Ran refused =
      RunQipu(tmp.path(), "refused",
              {"restore", "--from", damaged, "--db", db, "--force"});
  EXPECT_EQ(refused.status, 1) << refused.out;
  EXPECT_NE(refused.err.find("damaged"), std::string::npos) << refused.err;
  EXPECT_TRUE(snapshot(db) == before) << "the database changed";
  EXPECT_EQ(games_in(db), 3000u);

  const Ran restored =
      RunQipu(tmp.path(), "restored",
              {"restore", "--from", backups, "--db", db, "--force", "--json"});
  ASSERT_EQ(restored.status, 0) << restored.err;
  const nlohmann::json r = LastJsonLine(restored.out);
  EXPECT_EQ(r.value("games", uint64_t{0}), 2000u) << restored.out;
  EXPECT_TRUE(r.value("replaced", false)) << restored.out;
  EXPECT_EQ(games_in(db), 2000u);
  for (const auto& e : std::filesystem::directory_iterator(tmp.path())) {
    EXPECT_EQ(e.path().filename().string().rfind("db.", 0), std::string::npos)
        << "left beside the database: " << e.path();
  }
}

}  // namespace
}  // namespace qipu::testing
