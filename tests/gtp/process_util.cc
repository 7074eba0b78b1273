#include "tests/gtp/process_util.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace qipu::gtp {
namespace {

// The state letter and parent of `pid` from /proc/<pid>/stat, or false.
bool ReadStat(pid_t pid, char* state, pid_t* ppid) {
  std::ifstream in(absl::StrCat("/proc/", pid, "/stat"));
  std::string text((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  // "pid (comm) S ppid ...": comm may hold spaces and parentheses.
  const size_t close = text.rfind(')');
  if (close == std::string::npos) return false;
  std::istringstream rest(text.substr(close + 1));
  long long parent = 0;
  if (!(rest >> *state >> parent)) return false;
  *ppid = static_cast<pid_t>(parent);
  return true;
}

}  // namespace

std::vector<pid_t> ChildProcesses() {
  std::vector<pid_t> out;
  DIR* dir = opendir("/proc");
  if (dir == nullptr) return out;
  while (dirent* e = readdir(dir)) {
    int pid = 0;
    if (!absl::SimpleAtoi(e->d_name, &pid)) continue;
    char state = 0;
    pid_t ppid = 0;
    if (ReadStat(pid, &state, &ppid) && ppid == getpid()) out.push_back(pid);
  }
  closedir(dir);
  return out;
}

bool ProcessRunning(pid_t pid) {
  char state = 0;
  pid_t ppid = 0;
  return ReadStat(pid, &state, &ppid) && state != 'Z' && state != 'X';
}

bool PidFileProcessEnds(const std::string& pid_file) {
  std::ifstream in(pid_file);
  int pid = 0;
  if (!(in >> pid) || pid <= 0) return false;
  const absl::Time until = absl::Now() + absl::Seconds(10);
  while (ProcessRunning(pid) && absl::Now() < until) {
    absl::SleepFor(absl::Milliseconds(5));
  }
  return !ProcessRunning(pid);
}

std::string WriteScript(const std::string& dir, const std::string& name,
                        const std::string& body) {
  const std::string path = dir + "/" + name;
  {
    std::ofstream out(path, std::ios::trunc);
    out << body;
  }
  chmod(path.c_str(), 0755);
  return path;
}

std::string ScriptEngine(const std::string& genmove) {
  ScriptOptions o;
  o.genmove = genmove;
  return ScriptEngine(o);
}

std::string ScriptEngine(const ScriptOptions& o) {
  std::string list;
  for (char c : o.list_commands)
    list += c == '\n' ? std::string("\\n") : std::string(1, c);
  return absl::StrCat(
      "#!/bin/sh\n", o.prelude, "\nwhile read -r cmd rest; do\n",
      o.log.empty()
          ? ""
          : absl::StrCat("  echo \"$cmd${rest:+ $rest}\" >> '", o.log, "'\n"),
      "  case \"$cmd\" in\n"
      "    genmove)\n",
      o.genmove, "\n      ;;\n",
      o.final_status_list.empty()
          ? ""
          : absl::StrCat("    final_status_list)\n", o.final_status_list,
                         "\n      ;;\n"),
      "    list_commands) printf '= ", list,
      "\\n\\n' ;;\n"
      "    quit) printf '= \\n\\n'; exit 0 ;;\n"
      "    *) printf '= \\n\\n' ;;\n"
      "  esac\n"
      "done\n");
}

std::vector<std::string> ReadLines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

}  // namespace qipu::gtp
