// What qipu's commands show people on a terminal: whether a stream is one,
// a progress bar on stderr, aligned tables on stdout, and errors in the
// one form every command uses, "qipu <command>: <what>: <why>".
#ifndef QIPU_BASE_CONSOLE_H_
#define QIPU_BASE_CONSOLE_H_

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace qipu::base {

// True when file descriptor `fd` is a terminal.
bool IsTerminal(int fd);

// A one-line progress bar on stderr, drawn only when stderr is a terminal
// (and `enabled`), redrawn at most 10 times a second:
//   <label> [#######.......] done/total  <rate>/s <suffix>
// Not thread-safe: call from one thread.
class ProgressBar {
 public:
  // `total` may be 0 when unknown (then only the count is shown).
  ProgressBar(std::string label, uint64_t total, bool enabled = true);
  // Finish()es.
  ~ProgressBar();

  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // Redraws with `done` of the total and a short free-form suffix.
  void Update(uint64_t done, const std::string& suffix = "");
  // Sets the total (it may become known late).
  void SetTotal(uint64_t total) { total_ = total; }
  // Draws the final state and ends the line (or, with `clear`, erases the
  // bar). Later calls do nothing.
  void Finish(bool clear = false);

 private:
  std::string label_;
  uint64_t total_;
  bool enabled_;
  bool finished_ = false;
  bool drawn_ = false;
  uint64_t last_done_ = 0;
  std::string last_suffix_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

// Rows as a left-aligned table with a header row and a rule, one line
// each ending in '\n'; widths count UTF-8 code points.
std::string FormatTable(const std::vector<std::string>& header,
                        const std::vector<std::vector<std::string>>& rows);
// FormatTable() printed to `out` (stdout by default).
void PrintTable(const std::vector<std::string>& header,
                const std::vector<std::vector<std::string>>& rows,
                std::FILE* out = stdout);

// Prints "qipu <command>: <what>" on stderr (command like "query
// openings"); a non-empty `why` is appended as ": <why>".
void PrintError(absl::string_view command, absl::string_view what,
                absl::string_view why = "");

// PrintError(command, what) and returns `exit_code`: `return Fail(...)`
// from a command (1 failure, 2 usage).
int Fail(absl::string_view command, absl::string_view what, int exit_code = 1);
// PrintError(command, what, why) and returns `exit_code`.
int Fail(absl::string_view command, absl::string_view what,
         absl::string_view why, int exit_code = 1);
// The same with a status: its message alone for InvalidArgument (a
// user's mistake, already worded for people), else code and message.
int Fail(absl::string_view command, const absl::Status& status,
         int exit_code = 1);

}  // namespace qipu::base

#endif  // QIPU_BASE_CONSOLE_H_
