// Process test: Ctrl-C (SIGINT) on a running `qipu local`. The run stops
// cleanly -- the games in progress finish, the summary covers exactly the
// games stored, the exit status is 130 -- and the database is whole: the
// stored games read back one by one, `qipu local --job` continues the
// interrupted job, a new run plays its own job to the end while the
// unfinished one waits, and `qipu job cancel --db` ends the unfinished one
// (which --job then refuses to continue).
#include <signal.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/ops/process_fixture.h"
#include "tests/ops/subprocess.h"

namespace qipu::testing {
namespace {

constexpr uint64_t kRequested = 10000000;  // far more than it plays

// True when the spool log in `dir` holds more than its 16-byte header:
// the worker has finished (and spooled) games since the log was rewritten.
bool SpoolGrew(const std::string& dir) {
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(dir + "/spool.log", ec);
  return !ec && size > 16;
}

// Starts `qipu local` with `args` after "local" (stdout and stderr in
// dir/<name>.out and .err) on database `db`, waits until its worker has
// played games, and interrupts it with `signal`; returns its exit status.
std::optional<int> RunAndInterrupt(const std::string& dir,
                                   const std::string& name,
                                   const std::string& db,
                                   const std::vector<std::string>& args,
                                   std::unique_ptr<Subprocess>* out,
                                   int signal = SIGINT) {
  std::vector<std::string> argv = {kQipuBinary, "local", "--db", db};
  argv.insert(argv.end(), args.begin(), args.end());
  auto p = Subprocess::Start(argv, dir + "/" + name + ".out",
                             dir + "/" + name + ".err");
  EXPECT_TRUE(p.ok()) << p.status();
  if (!p.ok()) return std::nullopt;
  *out = *std::move(p);
  // Without a terminal, qipu local says when its job has started.
  EXPECT_TRUE(WaitUntil(
      [&] { return (*out)->Stderr().find(" started: ") != std::string::npos; },
      absl::Seconds(30) * kSlowdown, absl::Milliseconds(20)))
      << (*out)->StderrTail();
  // Games played: the interrupted run has something to store.
  EXPECT_TRUE(WaitUntil([&] { return SpoolGrew(db + "/worker-spool"); },
                        absl::Seconds(60) * kSlowdown, absl::Milliseconds(5)))
      << (*out)->StderrTail();
  EXPECT_TRUE((*out)->Kill(signal));
  return (*out)->Wait(absl::Seconds(60) * kSlowdown);
}

TEST(OpsLocal, SigintStopsTheRunWithASummaryOfTheGamesItStored) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const std::string db = tmp.Sub("db");
  std::unique_ptr<Subprocess> local;
  const std::optional<int> status =
      RunAndInterrupt(tmp.path(), "local", db,
                      {"--games", std::to_string(kRequested), "--size", "9",
                       "--seed", "5", "--json"},
                      &local);
  ASSERT_NE(local, nullptr);
  ASSERT_TRUE(status.has_value())
      << "qipu local still runs; " << local->StderrTail();
  EXPECT_EQ(*status, 128 + SIGINT) << local->StderrTail();
  EXPECT_NE(local->Stderr().find("stopping"), std::string::npos)
      << local->StderrTail();

  const nlohmann::json summary = LastJsonLine(local->Stdout());
  ASSERT_TRUE(summary.is_object()) << local->Stdout();
  EXPECT_EQ(summary.value("interrupted", ""), "Interrupt") << summary.dump();
  EXPECT_EQ(summary.value("requested", uint64_t{0}), kRequested);
  const uint64_t games = summary.value("games", uint64_t{0});
  EXPECT_GT(games, 0u) << summary.dump();
  EXPECT_LT(games, kRequested);

  // What the summary counted is what the database holds, game by game.
  const uint64_t job = summary.value("job", uint64_t{0});
  uint64_t foreign = 0;
  auto stored = ReadStoredGames(db, job, &foreign);
  ASSERT_TRUE(stored.ok()) << stored.status();
  EXPECT_EQ(stored->size(), games);
  EXPECT_EQ(foreign, 0u);

  // --job continues it (its own configuration; the flags are not needed),
  // and is interrupted in turn: the job has more games, each stored once.
  std::unique_ptr<Subprocess> resumed;
  const std::optional<int> resumed_status =
      RunAndInterrupt(tmp.path(), "resumed", db,
                      {"--job", std::to_string(job), "--json"}, &resumed);
  ASSERT_NE(resumed, nullptr);
  ASSERT_TRUE(resumed_status.has_value()) << resumed->StderrTail();
  EXPECT_EQ(*resumed_status, 128 + SIGINT) << resumed->StderrTail();
  const nlohmann::json more = LastJsonLine(resumed->Stdout());
  ASSERT_TRUE(more.is_object()) << resumed->Stdout();
  EXPECT_EQ(more.value("job", uint64_t{0}), job);
  EXPECT_EQ(more.value("requested", uint64_t{0}), kRequested);
  const uint64_t games_now = more.value("games", uint64_t{0});
  EXPECT_GT(games_now, games) << more.dump();
  stored = ReadStoredGames(db, job, &foreign);
  ASSERT_TRUE(stored.ok()) << stored.status();
  EXPECT_EQ(stored->size(), games_now);
  EXPECT_EQ(foreign, 0u);

  // The next run opens the same database and completes its own job.
  auto again =
      Subprocess::Start({kQipuBinary, "local", "--games", "50", "--size", "9",
                         "--db", db, "--seed", "6", "--json"},
                        tmp.Sub("again.out"), tmp.Sub("again.err"));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ((*again)->Wait(absl::Seconds(60) * kSlowdown), 0)
      << (*again)->StderrTail();
  // It names the unfinished job and how to continue it.
  EXPECT_NE((*again)->Stderr().find("qipu local --job " + std::to_string(job) +
                                    " continues it"),
            std::string::npos)
      << (*again)->StderrTail();
  const nlohmann::json next = LastJsonLine((*again)->Stdout());
  ASSERT_TRUE(next.is_object()) << (*again)->Stdout();
  EXPECT_EQ(next.value("games", uint64_t{0}), 50u);
  EXPECT_FALSE(next.contains("interrupted"));
  EXPECT_NE(next.value("job", uint64_t{0}), job);
  // ... and how to cancel it, which `qipu job cancel --db` does: the job
  // keeps its games and can no longer be continued.
  EXPECT_NE((*again)->Stderr().find("qipu job cancel --db " + db + " --job " +
                                    std::to_string(job) + " ends it"),
            std::string::npos)
      << (*again)->StderrTail();
  auto cancel = Subprocess::Start({kQipuBinary, "job", "cancel", "--db", db,
                                   "--job", std::to_string(job), "--json"},
                                  tmp.Sub("cancel.out"), tmp.Sub("cancel.err"));
  ASSERT_TRUE(cancel.ok()) << cancel.status();
  EXPECT_EQ((*cancel)->Wait(absl::Seconds(60) * kSlowdown), 0)
      << (*cancel)->StderrTail();
  const nlohmann::json cancelled = LastJsonLine((*cancel)->Stdout());
  EXPECT_EQ(cancelled.value("state", ""), "cancelled") << (*cancel)->Stdout();
  EXPECT_EQ(cancelled.value("done", uint64_t{0}), games_now);
  auto refused = Subprocess::Start(
      {kQipuBinary, "local", "--db", db, "--job", std::to_string(job)},
      tmp.Sub("refused.out"), tmp.Sub("refused.err"));
  ASSERT_TRUE(refused.ok()) << refused.status();
  EXPECT_EQ((*refused)->Wait(absl::Seconds(60) * kSlowdown), 1);
  EXPECT_NE((*refused)->Stderr().find("was cancelled"), std::string::npos)
      << (*refused)->StderrTail();
  stored = ReadStoredGames(db, job, &foreign);
  ASSERT_TRUE(stored.ok()) << stored.status();
  EXPECT_EQ(stored->size(), games_now);
}

}  // namespace
}  // namespace qipu::testing
