// Tests of base/console.h: tables aligned by code points, errors in the
// one "qipu <command>: <what>: <why>" form, Fail()'s exit codes, and a
// progress bar that stays silent off a terminal.
#include "base/console.h"

#include <cstdio>
#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"

namespace qipu::base {
namespace {

// What `print` writes to a temporary FILE*.
template <typename Fn>
std::string Captured(Fn print) {
  std::FILE* f = std::tmpfile();
  EXPECT_NE(f, nullptr);
  print(f);
  std::fflush(f);
  std::rewind(f);
  std::string out;
  char buf[256];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  std::fclose(f);
  return out;
}

TEST(PrintTable, AlignsColumnsByCodePoints) {
  const std::string out = Captured([](std::FILE* f) {
    PrintTable({"move", "games"}, {{"D4", "12"}, {"天元", "3"}}, f);
  });
  EXPECT_EQ(out,
            "move  games\n"
            "-----------\n"
            "D4    12\n"
            "天元    3\n");  // two code points, padded to four
}

TEST(PrintError, NamesCommandWhatAndWhy) {
  ::testing::internal::CaptureStderr();
  PrintError("query openings", "--moves Z99", "off the board");
  PrintError("local", "stopped");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "qipu query openings: --moves Z99: off the board\n"
            "qipu local: stopped\n");
}

TEST(Fail, PrintsAndReturnsTheExitCode) {
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(Fail("job submit", "--games must be positive", 2), 2);
  EXPECT_EQ(Fail("import", absl::InvalidArgumentError("bad SGF at byte 3")), 1);
  EXPECT_EQ(Fail("query ko", absl::UnavailableError("connection refused")), 1);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "qipu job submit: --games must be positive\n"
            "qipu import: bad SGF at byte 3\n"
            "qipu query ko: UNAVAILABLE: connection refused\n");
}

TEST(ProgressBar, DrawsNothingWhenStderrIsNoTerminal) {
  if (IsTerminal(2)) GTEST_SKIP() << "stderr is a terminal here";
  ::testing::internal::CaptureStderr();
  {
    ProgressBar bar("job 1", 100);
    bar.Update(50, "rejected 0");
    bar.Update(100);
    bar.Finish();
    bar.Finish();
  }
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

}  // namespace
}  // namespace qipu::base
