#include "tests/ops/subprocess.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"

namespace qipu::testing {
namespace {

// Writes `text` to fd 2 with nothing but async-signal-safe calls (used in
// the child between fork() and exec()).
void ChildWrite(const char* text) {
  size_t n = strlen(text);
  while (n > 0) {
    const ssize_t w = write(STDERR_FILENO, text, n);
    if (w <= 0) return;
    text += w;
    n -= static_cast<size_t>(w);
  }
}

int OpenForWrite(const std::string& path) {
  return open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

}  // namespace

absl::StatusOr<std::unique_ptr<Subprocess>> Subprocess::Start(
    const std::vector<std::string>& argv, const std::string& stdout_path,
    const std::string& stderr_path, const std::vector<std::string>& env) {
  if (argv.empty()) return absl::InvalidArgumentError("argv is empty");
  // Everything the child needs is prepared before fork(): after it, a
  // multithreaded parent's child may only make async-signal-safe calls.
  std::vector<std::string> args = argv;
  std::vector<char*> cargv;
  cargv.reserve(args.size() + 1);
  for (std::string& a : args) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  // The environment: ours, minus the names `env` sets, plus `env`.
  std::vector<std::string> vars;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string var = *e;
    const std::string name = var.substr(0, var.find('='));
    bool replaced = false;
    for (const std::string& x : env) {
      replaced = replaced || x.substr(0, x.find('=')) == name;
    }
    if (!replaced) vars.push_back(var);
  }
  vars.insert(vars.end(), env.begin(), env.end());
  std::vector<char*> cenv;
  cenv.reserve(vars.size() + 1);
  for (std::string& v : vars) cenv.push_back(v.data());
  cenv.push_back(nullptr);
  const int in_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  const int out_fd = OpenForWrite(stdout_path);
  const int err_fd = OpenForWrite(stderr_path);
  auto close_all = [&] {
    for (int fd : {in_fd, out_fd, err_fd}) {
      if (fd >= 0) close(fd);
    }
  };
  if (in_fd < 0 || out_fd < 0 || err_fd < 0) {
    const int err = errno;
    close_all();
    return absl::InternalError(absl::StrCat("opening ", stdout_path, " or ",
                                            stderr_path, ": ", strerror(err)));
  }
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    const int err = errno;
    close_all();
    return absl::InternalError(absl::StrCat("fork: ", strerror(err)));
  }
  if (pid == 0) {
    // Child. dup2() clears FD_CLOEXEC on the copies.
    if (dup2(in_fd, STDIN_FILENO) < 0 || dup2(out_fd, STDOUT_FILENO) < 0 ||
        dup2(err_fd, STDERR_FILENO) < 0) {
      _exit(127);
    }
    // Die with the test (a crashed or timed-out test leaks nothing); if the
    // parent already died before prctl(), exit now.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    // Signal dispositions are reset by exec, but the mask is inherited:
    // start with nothing blocked.
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    execve(cargv[0], cargv.data(), cenv.data());
    ChildWrite("subprocess: cannot execute ");
    ChildWrite(cargv[0]);
    ChildWrite(": ");
    ChildWrite(strerror(errno));
    ChildWrite("\n");
    _exit(127);
  }
  close_all();
  std::unique_ptr<Subprocess> p(new Subprocess());
  p->pid_ = pid;
  p->stdout_path_ = stdout_path;
  p->stderr_path_ = stderr_path;
  return p;
}

Subprocess::~Subprocess() {
  if (pid_ > 0 && !status_.has_value()) {
    kill(pid_, SIGKILL);
    Reap(0);
  }
}

bool Subprocess::Kill(int signal) {
  if (pid_ <= 0 || status_.has_value()) return false;
  return kill(pid_, signal) == 0;
}

void Subprocess::Reap(int flags) {
  if (pid_ <= 0 || status_.has_value()) return;
  int st = 0;
  pid_t r;
  do {
    r = waitpid(pid_, &st, flags);
  } while (r < 0 && errno == EINTR);
  if (r == pid_) {
    status_ = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  } else if (r < 0) {
    // ECHILD: reaped elsewhere; nothing is left to wait for.
    status_ = -1;
  }
}

std::optional<int> Subprocess::Wait(absl::Duration timeout) {
  const absl::Time until = absl::Now() + timeout;
  Reap(WNOHANG);
  while (!status_.has_value() && absl::Now() < until) {
    absl::SleepFor(absl::Milliseconds(5));
    Reap(WNOHANG);
  }
  return status_;
}

bool Subprocess::IsRunning() {
  Reap(WNOHANG);
  return pid_ > 0 && !status_.has_value();
}

std::string Subprocess::Stdout() const { return ReadFileOrEmpty(stdout_path_); }
std::string Subprocess::Stderr() const { return ReadFileOrEmpty(stderr_path_); }

std::string Subprocess::StderrTail(size_t bytes) const {
  const std::string all = Stderr();
  if (all.size() <= bytes) return all;
  const size_t from = all.size() - bytes;
  const size_t line = all.find('\n', from);
  return all.substr(line == std::string::npos ? from : line + 1);
}

std::string ReadFileOrEmpty(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>());
}

}  // namespace qipu::testing
