#include "tests/rules/gtp_client.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"

namespace qipu::rules {

absl::StatusOr<std::unique_ptr<GtpClient>> GtpClient::Start(
    const std::vector<std::string>& argv, absl::Duration timeout) {
  if (argv.empty() || access(argv[0].c_str(), X_OK) != 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "engine '", argv.empty() ? "" : argv[0], "' is not executable"));
  }
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
    return absl::InternalError(absl::StrCat("socketpair: ", strerror(errno)));
  }
  // Build argv before forking: the child only calls async-signal-safe
  // functions.
  std::vector<char*> args;
  for (const std::string& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return absl::InternalError(absl::StrCat("fork: ", strerror(errno)));
  }
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(fds[1], STDIN_FILENO);
    dup2(fds[1], STDOUT_FILENO);
    if (null >= 0) dup2(null, STDERR_FILENO);
    execv(args[0], args.data());
    _exit(127);
  }
  close(fds[1]);
  return std::unique_ptr<GtpClient>(new GtpClient(pid, fds[0], timeout));
}

GtpClient::~GtpClient() {
  if (fd_ >= 0) {
    // Best effort: a polite quit, then close our end.
    Command("quit").IgnoreError();
    close(fd_);
  }
  // Give the engine a moment to exit on its own, then make sure.
  for (int i = 0; i < 50; ++i) {
    if (waitpid(pid_, nullptr, WNOHANG) == pid_) return;
    usleep(10000);
  }
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
}

absl::Status GtpClient::Send(absl::string_view text) {
  if (fd_ < 0) return absl::UnavailableError("engine connection is closed");
  size_t sent = 0;
  while (sent < text.size()) {
    const ssize_t n =
        send(fd_, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return absl::UnavailableError(
          absl::StrCat("engine went away (send: ", strerror(errno), ")"));
    }
    sent += static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> GtpClient::Parse(absl::string_view command,
                                             const std::string& response) {
  // "= answer" or "? message"; GTP ids are not used.
  std::string text = absl::StrReplaceAll(response, {{"\r", ""}});
  const bool ok = !text.empty() && text[0] == '=';
  text = std::string(absl::StripAsciiWhitespace(
      absl::string_view(text).substr(text.empty() ? 0 : 1)));
  if (!ok) {
    return absl::InvalidArgumentError(absl::StrCat("'", command, "': ", text));
  }
  return text;
}

absl::StatusOr<std::string> GtpClient::Command(absl::string_view command) {
  if (absl::Status s = Send(absl::StrCat(command, "\n")); !s.ok()) return s;
  absl::StatusOr<std::string> response = ReadResponse();
  if (!response.ok()) return response.status();
  return Parse(command, *response);
}

absl::StatusOr<std::vector<absl::StatusOr<std::string>>> GtpClient::Batch(
    const std::vector<std::string>& commands) {
  std::string text;
  for (const std::string& c : commands) absl::StrAppend(&text, c, "\n");
  if (absl::Status s = Send(text); !s.ok()) return s;
  std::vector<absl::StatusOr<std::string>> out;
  for (const std::string& c : commands) {
    absl::StatusOr<std::string> response = ReadResponse();
    if (!response.ok()) return response.status();
    out.push_back(Parse(c, *response));
  }
  return out;
}

std::string GtpClient::Must(absl::string_view command) {
  absl::StatusOr<std::string> r = Command(command);
  return r.ok() ? *r : absl::StrCat("ERROR: ", r.status().ToString());
}

absl::StatusOr<std::string> GtpClient::ReadResponse() {
  const absl::Time deadline = absl::Now() + timeout_;
  while (true) {
    const size_t end = buffer_.find("\n\n");
    if (end != std::string::npos) {
      std::string response = buffer_.substr(0, end);
      buffer_.erase(0, end + 2);
      return response;
    }
    const absl::Duration left = deadline - absl::Now();
    if (left <= absl::ZeroDuration()) {
      return absl::DeadlineExceededError(absl::StrCat(
          "engine did not answer within ", absl::FormatDuration(timeout_)));
    }
    pollfd pfd{fd_, POLLIN, 0};
    const int ready =
        poll(&pfd, 1, static_cast<int>(absl::ToInt64Milliseconds(left)) + 1);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;  // the deadline check above decides
    char chunk[4096];
    const ssize_t n = read(fd_, chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      close(fd_);
      fd_ = -1;
      return absl::UnavailableError("engine closed its output");
    }
    buffer_.append(chunk, static_cast<size_t>(n));
  }
}

}  // namespace qipu::rules
