// Subprocess: one child process of a test -- the real qipu-coordinator or
// qipu-worker binary -- started with fork()/execv() from an argument
// vector (no shell), its stdout and stderr written to files in the test's
// temporary directory. The child is killed (SIGKILL) and reaped when the
// object goes away, so a failing assertion never leaks a process; the
// child also gets SIGKILL from the kernel if the test process dies first
// (PR_SET_PDEATHSIG), e.g. when ctest kills it on a timeout.
//
// Not thread-safe: one thread owns each Subprocess. Start() must be called
// from a thread that outlives the child (the death signal follows the
// forking thread); the test's main thread is.
#ifndef QIPU_TESTS_OPS_SUBPROCESS_H_
#define QIPU_TESTS_OPS_SUBPROCESS_H_

#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace qipu::testing {

class Subprocess {
 public:
  // Runs argv[0] (a path, not looked up in PATH) with `argv`, stdout to
  // `stdout_path` and stderr to `stderr_path` (created or truncated), and
  // stdin from /dev/null. The environment is inherited, with `env`
  // ("NAME=value" each) added, replacing inherited variables of the same
  // names. Errors: Internal when a file cannot be opened or fork() fails;
  // a binary that cannot be executed shows up as exit status 127 (and a
  // line in the stderr file).
  static absl::StatusOr<std::unique_ptr<Subprocess>> Start(
      const std::vector<std::string>& argv, const std::string& stdout_path,
      const std::string& stderr_path, const std::vector<std::string>& env = {});

  // SIGKILL and reap when still running.
  ~Subprocess();

  Subprocess(const Subprocess&) = delete;
  Subprocess& operator=(const Subprocess&) = delete;

  // Sends `signal`; false when the child has already been reaped (or
  // kill() fails).
  bool Kill(int signal);

  // Waits up to `timeout` for the child to end and returns its status:
  // the exit code, or 128 + the signal that killed it; nullopt when it is
  // still running after `timeout`. Once it has ended, returns the same
  // status at once.
  std::optional<int> Wait(absl::Duration timeout);

  // True until the child has ended (reaps it when it has).
  bool IsRunning();

  pid_t pid() const { return pid_; }
  const std::string& stdout_path() const { return stdout_path_; }
  const std::string& stderr_path() const { return stderr_path_; }
  // The whole stdout / stderr file so far (for failure messages).
  std::string Stdout() const;
  std::string Stderr() const;
  // The last `bytes` of stderr, at a line boundary when there is one.
  std::string StderrTail(size_t bytes = 4000) const;

 private:
  Subprocess() = default;
  // waitpid() with `flags`; records the status when the child ended.
  void Reap(int flags);

  pid_t pid_ = -1;
  // Exit status (see Wait()) once reaped; nullopt while running.
  std::optional<int> status_;
  std::string stdout_path_;
  std::string stderr_path_;
};

// The contents of `path` ("" when it cannot be read).
std::string ReadFileOrEmpty(const std::string& path);

}  // namespace qipu::testing

#endif  // QIPU_TESTS_OPS_SUBPROCESS_H_
