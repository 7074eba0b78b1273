// Process test: Ctrl-C (SIGINT) on a running `qipu local`. The run stops
// cleanly -- the games in progress finish, the summary covers exactly the
// games stored, the exit status is 130 -- and the database is whole: the
// stored games read back one by one, and the next run on it works.
#include <signal.h>

#include <filesystem>
#include <optional>
#include <string>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/ops/process_fixture.h"
#include "tests/ops/subprocess.h"

namespace qipu::testing {
namespace {

constexpr char kQipuBinary[] = QIPU_BINARY_DIR "/ops/qipu";
constexpr uint64_t kRequested = 10000000;  // far more than it plays

// The last line of `out` parsed as JSON (a discarded value when it is not).
nlohmann::json LastJsonLine(const std::string& out) {
  size_t end = out.find_last_not_of('\n');
  if (end == std::string::npos) return nlohmann::json();
  const size_t begin = out.rfind('\n', end);
  const std::string line =
      out.substr(begin == std::string::npos ? 0 : begin + 1,
                 end + 1 - (begin == std::string::npos ? 0 : begin + 1));
  return nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
}

TEST(OpsLocal, SigintStopsTheRunWithASummaryOfTheGamesItStored) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const std::string db = tmp.Sub("db");
  auto local = Subprocess::Start(
      {kQipuBinary, "local", "--games", std::to_string(kRequested), "--size",
       "9", "--db", db, "--seed", "5", "--json"},
      tmp.Sub("local.out"), tmp.Sub("local.err"));
  ASSERT_TRUE(local.ok()) << local.status();
  ASSERT_TRUE(
      WaitUntil([&] { return std::filesystem::exists(db + "/CURRENT"); },
                absl::Seconds(30) * kSlowdown, absl::Milliseconds(20)))
      << (*local)->StderrTail();
  absl::SleepFor(absl::Milliseconds(500) * kSlowdown);
  ASSERT_TRUE((*local)->Kill(SIGINT));
  const std::optional<int> status =
      (*local)->Wait(absl::Seconds(60) * kSlowdown);
  ASSERT_TRUE(status.has_value())
      << "qipu local still runs; " << (*local)->StderrTail();
  EXPECT_EQ(*status, 128 + SIGINT) << (*local)->StderrTail();
  EXPECT_NE((*local)->Stderr().find("stopping"), std::string::npos)
      << (*local)->StderrTail();

  const nlohmann::json summary = LastJsonLine((*local)->Stdout());
  ASSERT_TRUE(summary.is_object()) << (*local)->Stdout();
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

  // The next run opens the same database and completes its own job.
  auto again =
      Subprocess::Start({kQipuBinary, "local", "--games", "50", "--size", "9",
                         "--db", db, "--seed", "6", "--json"},
                        tmp.Sub("again.out"), tmp.Sub("again.err"));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ((*again)->Wait(absl::Seconds(60) * kSlowdown), 0)
      << (*again)->StderrTail();
  const nlohmann::json next = LastJsonLine((*again)->Stdout());
  ASSERT_TRUE(next.is_object()) << (*again)->Stdout();
  EXPECT_EQ(next.value("games", uint64_t{0}), 50u);
  EXPECT_FALSE(next.contains("interrupted"));
  EXPECT_NE(next.value("job", uint64_t{0}), job);
}

}  // namespace
}  // namespace qipu::testing
