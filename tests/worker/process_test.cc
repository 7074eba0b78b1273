// Tests of the qipu-worker binary as real processes against an in-process
// Coordinator: SIGTERM mid-lease (clean exit, lease returned, nothing
// lost, resident memory), SIGKILL then a restart on the same spool (the
// job still ends with every game stored once), and usage errors.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/worker/coordinator_fixture.h"
#include "tests/worker/test_util.h"
#include "worker/spool.h"

extern char** environ;

namespace qipu::worker {
namespace {

using testing::Config;
using testing::CoordinatorSetup;
using testing::JobStatusOf;
using testing::StartCoordinator;
using testing::SubmitJob;
using testing::TempDir;
using testing::WaitFor;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

// A qipu-worker child process; killed (SIGKILL) if still running at the
// end of the test.
class WorkerProcess {
 public:
  WorkerProcess(const std::vector<std::string>& args, const std::string& log) {
    std::vector<std::string> argv = {QIPU_BINARY_DIR "/worker/qipu-worker"};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> cargv;
    for (std::string& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 2, log.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    EXPECT_EQ(
        posix_spawn(&pid_, cargv[0], &actions, nullptr, cargv.data(), environ),
        0);
    posix_spawn_file_actions_destroy(&actions);
  }
  ~WorkerProcess() {
    if (pid_ > 0 && status_ < 0) {
      kill(pid_, SIGKILL);
      Wait(absl::Seconds(10) * testing::kSlowdown);
    }
  }

  void Signal(int sig) { kill(pid_, sig); }

  // The exit status (WEXITSTATUS, or 128 + signal), or -1 after `timeout`
  // (a deadline for a failing test, not a speed claim: callers scale it by
  // kSlowdown).
  int Wait(absl::Duration timeout) {
    const absl::Time until = absl::Now() + timeout;
    while (status_ < 0 && absl::Now() < until) {
      int st = 0;
      if (waitpid(pid_, &st, WNOHANG) == pid_) {
        status_ = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        break;
      }
      absl::SleepFor(absl::Milliseconds(10));
    }
    return status_;
  }

  // Resident memory from /proc/PID/status, KiB (0 if unreadable).
  int64_t VmRssKib() const {
    std::ifstream in(absl::StrCat("/proc/", pid_, "/status"));
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("VmRSS:", 0) != 0) continue;
      int64_t kib = 0;
      std::string digits;
      for (char ch : line) {
        if (ch >= '0' && ch <= '9') digits.push_back(ch);
      }
      if (absl::SimpleAtoi(digits, &kib)) return kib;
    }
    return 0;
  }

 private:
  pid_t pid_ = -1;
  int status_ = -1;
};

TEST(WorkerProcess, SigtermMidLeaseExitsCleanlyAndReturnsTheLease) {
  TempDir tmp;
  CoordinatorSetup setup;
  setup.lease_games = 5000;
  auto c = StartCoordinator(tmp.Sub("db"), setup);
  ASSERT_NE(c, nullptr);
  const uint64_t job = SubmitJob(*c, 5000, Config(19, 21));
  const std::string spool = tmp.Sub("spool");
  WorkerProcess w({"--coordinator", c->address(), "--threads", "2", "--spool",
                   spool, "--name", "proc-term", "--log-level", "debug"},
                  tmp.Sub("worker.log"));
  ASSERT_TRUE(WaitFor([&] { return JobStatusOf(*c, job).done() >= 100; }))
      << testing::ReadAll(tmp.Sub("worker.log"));
  const int64_t rss = w.VmRssKib();
  RecordProperty("vmrss_kib", static_cast<int>(rss));
  std::printf("qipu-worker, 2 threads, 19x19: VmRSS %lld KiB\n",
              static_cast<long long>(rss));
  EXPECT_GT(rss, 0);
  if (!kSanitized) {
    EXPECT_LT(rss, 200 * 1024);
  }
  w.Signal(SIGTERM);
  EXPECT_EQ(w.Wait(absl::Seconds(10) * testing::kSlowdown), 0)
      << testing::ReadAll(tmp.Sub("worker.log"));
  const qipu::v1::JobStatus st = JobStatusOf(*c, job);
  EXPECT_EQ(st.open_leases(), 0u);
  EXPECT_LT(st.done(), 5000u);
  // Everything it played was uploaded during the drain.
  auto s = Spool::Open(SpoolOptions{spool});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ((*s)->pending(), 0u);
}

TEST(WorkerProcess, KilledWorkerRestartsAndTheJobEndsExactlyOnce) {
  TempDir tmp;
  CoordinatorSetup setup;
  setup.lease_games = 50;
  // Short, so that the killed worker's lease comes back soon (before the
  // second worker gives up, idle); scaled, so that the second worker's
  // renewals (every third of it) keep up on a slow machine.
  setup.lease_ttl = absl::Seconds(1) * testing::kSlowdown;
  auto c = StartCoordinator(tmp.Sub("db"), setup);
  ASSERT_NE(c, nullptr);
  const uint64_t job = SubmitJob(*c, 600, Config(9, 22));
  const std::string spool = tmp.Sub("spool");
  const std::vector<std::string> args = {
      "--coordinator",    c->address(),
      "--threads",        "2",
      "--spool",          spool,
      "--exit-when-idle", absl::StrCat(2 * testing::kSlowdown)};
  {
    WorkerProcess first(args, tmp.Sub("first.log"));
    ASSERT_TRUE(WaitFor([&] { return JobStatusOf(*c, job).done() >= 100; }));
    first.Signal(SIGKILL);
    EXPECT_EQ(first.Wait(absl::Seconds(10) * testing::kSlowdown),
              128 + SIGKILL);
  }
  WorkerProcess second(args, tmp.Sub("second.log"));
  EXPECT_EQ(second.Wait(absl::Seconds(30) * testing::kSlowdown), 0)
      << testing::ReadAll(tmp.Sub("second.log"));
  const qipu::v1::JobStatus st = JobStatusOf(*c, job);
  EXPECT_EQ(st.done(), 600u);
  EXPECT_EQ(st.rejected(), 0u);
  EXPECT_EQ(st.state(), qipu::v1::JOB_STATE_DONE);
  EXPECT_EQ(st.open_leases(), 0u);
}

TEST(WorkerProcess, UsageErrorsExitWithTwo) {
  TempDir tmp;
  WorkerProcess none({"--threads", "2"}, tmp.Sub("a.log"));
  EXPECT_EQ(none.Wait(absl::Seconds(10) * testing::kSlowdown), 2);
  WorkerProcess range({"--coordinator", "127.0.0.1:1", "--threads", "0"},
                      tmp.Sub("b.log"));
  EXPECT_EQ(range.Wait(absl::Seconds(10) * testing::kSlowdown), 2);
  WorkerProcess help({"--help"}, tmp.Sub("c.log"));
  EXPECT_EQ(help.Wait(absl::Seconds(10) * testing::kSlowdown), 0);
}

}  // namespace
}  // namespace qipu::worker
