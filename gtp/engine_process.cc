#include "gtp/engine_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtp/command_line.h"

extern char** environ;

namespace qipu::gtp {
namespace {

// How long a failing engine gets to finish exiting before it is killed,
// so that the error can say how it ended.
constexpr absl::Duration kExitGrace = absl::Milliseconds(500);

int PollMillis(absl::Duration left) {
  if (left <= absl::ZeroDuration()) return 0;
  // Rounded up, so that a poll never returns just before the deadline.
  return static_cast<int>(absl::ToInt64Milliseconds(left)) + 1;
}

}  // namespace

std::string DescribeWaitStatus(int status) {
  if (WIFEXITED(status)) {
    return absl::StrCat("exited with status ", WEXITSTATUS(status));
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = strsignal(sig);
    return absl::StrCat("killed by signal ", sig, " (",
                        name != nullptr ? name : "?", ")");
  }
  return absl::StrCat("ended with wait status ", status);
}

absl::StatusOr<std::unique_ptr<EngineProcess>> EngineProcess::Start(
    const EngineProcessOptions& options) {
  if (options.argv.empty()) {
    return absl::InvalidArgumentError("engine command line is empty");
  }
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
    return absl::InternalError(absl::StrCat("socketpair: ", strerror(errno)));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  const std::string err_path =
      options.stderr_path.empty() ? "/dev/null" : options.stderr_path;
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(),
                                   O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // A process group of its own (killed as a whole), the default SIGPIPE
  // (qipu may ignore it; ignored signals survive exec) and no blocked
  // signals.
  sigset_t none;
  sigemptyset(&none);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP |
                                      POSIX_SPAWN_SETSIGMASK |
                                      POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);

  std::vector<char*> args;
  for (const std::string& a : options.argv) {
    args.push_back(const_cast<char*>(a.c_str()));
  }
  args.push_back(nullptr);
  pid_t pid = -1;
  const int rc =
      posix_spawnp(&pid, args[0], &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    return absl::FailedPreconditionError(
        absl::StrCat("cannot start engine '", JoinCommandLine(options.argv),
                     "': ", strerror(rc)));
  }
  const int flags = fcntl(fds[0], F_GETFL);
  fcntl(fds[0], F_SETFL, flags | O_NONBLOCK);
  return std::unique_ptr<EngineProcess>(
      new EngineProcess(options, pid, fds[0]));
}

EngineProcess::~EngineProcess() { Stop(); }

std::string EngineProcess::command_line() const {
  return JoinCommandLine(options_.argv);
}

absl::StatusOr<std::string> EngineProcess::Command(absl::string_view command,
                                                   absl::Duration timeout) {
  if (!alive()) {
    return absl::UnavailableError(absl::StrCat(
        "engine '", command_line(), "' is not running: ", end_reason_));
  }
  const absl::Time deadline = absl::Now() + timeout;
  if (absl::Status s = Send(absl::StrCat(command, "\n"), deadline); !s.ok()) {
    return s;
  }
  absl::StatusOr<std::string> raw = ReadResponse(deadline);
  if (!raw.ok()) return raw.status();
  // "=[id] answer" or "?[id] message".
  const char kind = (*raw)[0];
  size_t i = 1;
  while (i < raw->size() && absl::ascii_isdigit((*raw)[i])) ++i;
  std::string text(
      absl::StripAsciiWhitespace(absl::string_view(*raw).substr(i)));
  if (kind == '=') return text;
  return absl::FailedPreconditionError(absl::StrCat(
      "engine '", command_line(), "' refused '", command, "': ", text));
}

absl::Status EngineProcess::Send(absl::string_view text, absl::Time deadline) {
  size_t sent = 0;
  while (sent < text.size()) {
    const ssize_t n =
        send(fd_, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      const absl::Duration left = deadline - absl::Now();
      if (left <= absl::ZeroDuration()) {
        return Fail(absl::DeadlineExceededError(
            absl::StrCat("engine '", command_line(),
                         "' did not read its input before the deadline")));
      }
      pollfd pfd{fd_, POLLOUT, 0};
      poll(&pfd, 1, PollMillis(left));
      continue;
    }
    return Fail(absl::UnavailableError(
        absl::StrCat("engine '", command_line(),
                     "' went away (send: ", strerror(errno), ")")));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> EngineProcess::ReadResponse(absl::Time deadline) {
  while (true) {
    // Blank lines before a response are skipped; CRs are dropped.
    buffer_ = absl::StrReplaceAll(buffer_, {{"\r", ""}});
    size_t start = 0;
    while (start < buffer_.size() && buffer_[start] == '\n') ++start;
    buffer_.erase(0, start);
    if (!buffer_.empty() && buffer_[0] != '=' && buffer_[0] != '?') {
      const size_t eol = buffer_.find('\n');
      if (eol != std::string::npos || buffer_.size() > 4096) {
        const std::string line = buffer_.substr(0, std::min<size_t>(eol, 200));
        return Fail(absl::DataLossError(
            absl::StrCat("engine '", command_line(),
                         "' answered something that is not GTP: '",
                         absl::CHexEscape(line), "'")));
      }
    }
    const size_t end = buffer_.find("\n\n");
    if (end != std::string::npos) {
      std::string response = buffer_.substr(0, end);
      buffer_.erase(0, end + 2);
      return response;
    }
    if (buffer_.size() > (size_t{1} << 20)) {
      return Fail(absl::DataLossError(
          absl::StrCat("engine '", command_line(),
                       "' sent over 1 MiB without ending its answer")));
    }
    const absl::Duration left = deadline - absl::Now();
    if (left <= absl::ZeroDuration()) {
      return Fail(absl::DeadlineExceededError(absl::StrCat(
          "engine '", command_line(), "' did not answer before the deadline")));
    }
    pollfd pfd{fd_, POLLIN, 0};
    const int ready = poll(&pfd, 1, PollMillis(left));
    if (ready <= 0) continue;  // EINTR or timeout: the checks above decide
    char chunk[4096];
    const ssize_t n = read(fd_, chunk, sizeof(chunk));
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) {
      // The engine closed its output: most likely it is exiting.
      WaitExited(kExitGrace);
      return Fail(absl::UnavailableError(
          absl::StrCat("engine '", command_line(), "' closed its output")));
    }
    buffer_.append(chunk, static_cast<size_t>(n));
  }
}

bool EngineProcess::WaitExited(absl::Duration timeout) {
  const absl::Time deadline = absl::Now() + timeout;
  absl::Duration pause = absl::Milliseconds(1);
  while (true) {
    siginfo_t info;
    info.si_pid = 0;
    const int rc = waitid(P_PID, static_cast<id_t>(pid_), &info,
                          WEXITED | WNOHANG | WNOWAIT);
    if (rc == 0 && info.si_pid == pid_) return true;
    if (rc != 0 && errno != EINTR) return true;  // nothing to wait for
    if (absl::Now() >= deadline) return false;
    absl::SleepFor(pause);
    pause = std::min(pause * 2, absl::Milliseconds(20));
  }
}

void EngineProcess::KillAndReap() {
  // The leader is at worst a zombie here, which keeps the group id
  // reserved: the signal cannot reach anyone else.
  kill(-pid_, SIGKILL);
  kill(pid_, SIGKILL);
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  if (end_reason_.empty()) end_reason_ = DescribeWaitStatus(status);
  pid_ = -1;
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  buffer_.clear();
}

absl::Status EngineProcess::Fail(absl::Status status) {
  if (!alive()) return status;
  // A process that has already exited says how; anything else is killed.
  const bool exited = WaitExited(absl::ZeroDuration());
  KillAndReap();
  std::string how = end_reason_;
  if (!exited) how = absl::StrCat("killed (", status.message(), ")");
  end_reason_ = how;
  return absl::Status(
      status.code(),
      exited ? absl::StrCat(
                   status.message(),
                   absl::StartsWith(how, "killed") ? "; it was " : "; it ", how)
             : std::string(status.message()));
}

void EngineProcess::Kill(absl::string_view why) {
  if (!alive()) return;
  end_reason_ = absl::StrCat("killed: ", why);
  KillAndReap();
}

void EngineProcess::Stop() {
  if (!alive()) return;
  const absl::Time deadline = absl::Now() + options_.quit_timeout;
  if (Send("quit\n", deadline).ok()) {
    // The answer to quit is optional: some engines exit at once.
    pollfd pfd{fd_, POLLIN, 0};
    poll(&pfd, 1, PollMillis(deadline - absl::Now()));
  }
  if (!alive()) return;  // Send() failed and reaped it
  WaitExited(deadline - absl::Now());
  end_reason_ = "stopped";
  KillAndReap();
}

}  // namespace qipu::gtp
