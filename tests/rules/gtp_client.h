// GtpClient: drives a Go engine over the Go Text Protocol (GTP 2) through
// a socket pair to a child process, for cross-checking qipu against GNU Go
// in tests. Every command has a deadline; a dead or hung engine gives an
// error, never a hang or a SIGPIPE.
//
// Not thread-safe: one client per thread.
#ifndef QIPU_TESTS_RULES_GTP_CLIENT_H_
#define QIPU_TESTS_RULES_GTP_CLIENT_H_

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace qipu::rules {

class GtpClient {
 public:
  // Starts argv[0] (a path, not searched in PATH) with the given
  // arguments, its stdin and stdout connected to the client and its stderr
  // discarded. `timeout` bounds each command. FailedPrecondition when the
  // binary is not executable; Internal when the process cannot be started.
  static absl::StatusOr<std::unique_ptr<GtpClient>> Start(
      const std::vector<std::string>& argv, absl::Duration timeout);

  // Sends "quit", then waits for the child (killing it if it lingers).
  ~GtpClient();

  GtpClient(const GtpClient&) = delete;
  GtpClient& operator=(const GtpClient&) = delete;

  // Sends one command line (no newline) and returns the engine's answer
  // without the leading "= " and the terminating blank line. A failure
  // answer ("? message") gives InvalidArgument with the message;
  // DeadlineExceeded when the engine does not answer in time; Unavailable
  // when it has gone away.
  absl::StatusOr<std::string> Command(absl::string_view command);

  // Sends several commands at once (pipelined: one round trip) and
  // returns one result per command, in order, as Command() would. The
  // outer status fails only when the connection does (deadline, engine
  // gone).
  absl::StatusOr<std::vector<absl::StatusOr<std::string>>> Batch(
      const std::vector<std::string>& commands);

  // Command(), for commands whose failure the caller does not expect:
  // returns the answer, or "ERROR: <status>" so that a test comparing the
  // answer fails with a readable message.
  std::string Must(absl::string_view command);

 private:
  GtpClient(pid_t pid, int fd, absl::Duration timeout)
      : pid_(pid), fd_(fd), timeout_(timeout) {}

  // Writes `text` completely.
  absl::Status Send(absl::string_view text);
  // Reads until a full response (ending in "\n\n") is buffered.
  absl::StatusOr<std::string> ReadResponse();
  // A raw response as Command() returns it, for `command`.
  static absl::StatusOr<std::string> Parse(absl::string_view command,
                                           const std::string& response);

  pid_t pid_;
  // Our end of the socket pair; -1 once closed.
  int fd_;
  absl::Duration timeout_;
  // Bytes read but not yet returned.
  std::string buffer_;
};

}  // namespace qipu::rules

#endif  // QIPU_TESTS_RULES_GTP_CLIENT_H_
