// Test helpers for child processes: this process's children as /proc
// lists them (zombies included), whether a process still runs, and small
// executable scripts written into a test's temporary directory.
#ifndef QIPU_TESTS_GTP_PROCESS_UTIL_H_
#define QIPU_TESTS_GTP_PROCESS_UTIL_H_

#include <sys/types.h>

#include <string>
#include <vector>

namespace qipu::gtp {

// The processes whose parent is this process, zombies included (from
// /proc/<pid>/stat).
std::vector<pid_t> ChildProcesses();

// True while `pid` exists and is not a zombie.
bool ProcessRunning(pid_t pid);

// Reads the process id in `pid_file` (as a script's `echo $! > file`
// writes it) and waits up to 10 s for that process to be gone; true when
// it is (false also when the file holds no id).
bool PidFileProcessEnds(const std::string& pid_file);

// Writes `body` to dir/name, mode 0755; returns the path.
std::string WriteScript(const std::string& dir, const std::string& name,
                        const std::string& body);

// A GTP engine as a /bin/sh script: answers "= " to every command but
// `genmove`, whose handling is the shell code `genmove` (it may print a
// response, exit, hang ...), and `quit`, which it answers before exiting.
std::string ScriptEngine(const std::string& genmove);

// What a script engine does beyond ScriptEngine(genmove).
struct ScriptOptions {
  // Shell code run for `genmove` (the colour is in $rest).
  std::string genmove;
  // Shell code run once at the start (e.g. `set -- D4 E5` for moves that
  // `genmove` takes with "$1" and `shift`).
  std::string prelude;
  // Non-empty: every command read is appended to this file, one line each
  // ("name args").
  std::string log;
  // The names list_commands answers, one per line ("" answers nothing).
  std::string list_commands;
  // Non-empty: shell code run for `final_status_list` (the status asked
  // in $rest); else it answers nothing.
  std::string final_status_list;
};
std::string ScriptEngine(const ScriptOptions& options);

// The lines of a text file (none when it cannot be read).
std::vector<std::string> ReadLines(const std::string& path);

}  // namespace qipu::gtp

#endif  // QIPU_TESTS_GTP_PROCESS_UTIL_H_
