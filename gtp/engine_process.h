// EngineProcess: an external Go engine that speaks GTP v2, run as a child
// process: its stdin and stdout are one end of a socket pair (sends use
// MSG_NOSIGNAL, so an engine that dies never raises SIGPIPE in qipu), its
// stderr goes to a log file or /dev/null. The child runs in a process
// group of its own, so a shell-script engine dies with everything it
// started.
//
// Every command has a deadline (poll() on the socket). What can go wrong,
// as absl error codes the caller can tell apart:
//   FailedPrecondition  the engine cannot be started (not found, not
//                       executable), or it answered "? message" (the
//                       message is in the status; the engine lives on);
//   Unavailable         the engine exited, crashed or closed its output
//                       (the status says how: exit code or signal);
//   DeadlineExceeded    no complete answer before the deadline (the
//                       engine is killed);
//   DataLoss            the answer is not GTP (no '=' or '?'), or holds
//                       something the caller cannot parse (the engine is
//                       killed).
// After Unavailable, DeadlineExceeded or DataLoss the process is gone
// (killed with SIGKILL to its group and reaped: never a zombie) and
// alive() is false; every later command fails with Unavailable.
//
// Not thread-safe: one owner thread. Start() from any thread.
#ifndef QIPU_GTP_ENGINE_PROCESS_H_
#define QIPU_GTP_ENGINE_PROCESS_H_

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace qipu::gtp {

struct EngineProcessOptions {
  // The program and its arguments; argv[0] is looked up in PATH when it
  // holds no '/'. Not empty.
  std::vector<std::string> argv;
  // Where the engine's stderr goes (appended); "" means /dev/null.
  std::string stderr_path;
  // Deadline of each command unless the call gives its own.
  absl::Duration command_timeout = absl::Seconds(30);
  // How long Stop() waits for the engine to exit after "quit".
  absl::Duration quit_timeout = absl::Seconds(2);
};

class EngineProcess {
 public:
  // Starts the engine. FailedPrecondition when it cannot be executed;
  // Internal when the socket pair cannot be made.
  static absl::StatusOr<std::unique_ptr<EngineProcess>> Start(
      const EngineProcessOptions& options);

  // Stop().
  ~EngineProcess();

  EngineProcess(const EngineProcess&) = delete;
  EngineProcess& operator=(const EngineProcess&) = delete;

  // Sends one command line (no newline; it must not contain one) and
  // returns the answer without its "=" (and id), trimmed; multi-line
  // answers keep their inner newlines. Errors as in the file comment.
  absl::StatusOr<std::string> Command(absl::string_view command,
                                      absl::Duration timeout);
  absl::StatusOr<std::string> Command(absl::string_view command) {
    return Command(command, options_.command_timeout);
  }

  // Ends the engine for a reason of the caller's (e.g. a garbage move):
  // SIGKILL to its group, reaped; later commands fail with Unavailable
  // naming `why`.
  void Kill(absl::string_view why);

  // Sends "quit", waits up to quit_timeout for the engine to exit, then
  // kills what is left of its process group and reaps it. Idempotent.
  void Stop();

  // False once the engine has gone (Stop(), Kill(), a failure).
  bool alive() const { return pid_ > 0; }
  // The engine's process id (its process group id too); -1 once gone.
  pid_t pid() const { return pid_; }
  // The command line it was started with, for messages.
  std::string command_line() const;
  // Why the engine is gone ("" while alive).
  const std::string& end_reason() const { return end_reason_; }

 private:
  EngineProcess(EngineProcessOptions options, pid_t pid, int fd)
      : options_(std::move(options)), pid_(pid), fd_(fd) {}

  // Writes all of `text` before `deadline`.
  absl::Status Send(absl::string_view text, absl::Time deadline);
  // Reads one whole response (up to its blank line) before `deadline`.
  absl::StatusOr<std::string> ReadResponse(absl::Time deadline);
  // The engine went away or misbehaved: reaps it (killing its group
  // first), remembers `status`'s message and returns it.
  absl::Status Fail(absl::Status status);
  // Waits up to `timeout` for the child to exit without reaping it; true
  // when it has exited.
  bool WaitExited(absl::Duration timeout);
  // SIGKILL to the group, reap; records how it ended in end_reason_ when
  // that is still empty. Precondition: alive().
  void KillAndReap();

  EngineProcessOptions options_;
  // The child (and its process group); -1 once reaped.
  pid_t pid_;
  // Our end of the socket pair (non-blocking); -1 once closed.
  int fd_;
  // Bytes read and not yet returned.
  std::string buffer_;
  std::string end_reason_;
};

// "exited with status 3", "killed by signal 9 (Killed)": a wait status in
// words.
std::string DescribeWaitStatus(int status);

}  // namespace qipu::gtp

#endif  // QIPU_GTP_ENGINE_PROCESS_H_
