// Process tests of `qipu local` beyond Ctrl-C (local_interrupt_test.cc):
//  - --transport tcp: the embedded worker reaches the embedded coordinator
//    over 127.0.0.1 -- the process holds loopback TCP connections to
//    itself, which the default in-process transport never opens -- and a
//    job played that way ends with every game stored once and a summary
//    that says so;
//  - SIGTERM (a service manager's stop): the run stops cleanly like
//    Ctrl-C, exit status 128 + 15, the summary counting exactly the games
//    stored.
#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/ops/process_fixture.h"
#include "tests/ops/subprocess.h"

namespace qipu::testing {
namespace {

// True for 127.0.0.1 in /proc/net/tcp's notation (hex, network order
// read as a little-endian word), also as an IPv4-mapped IPv6 address (gRPC
// opens dual-stack sockets) in /proc/net/tcp6's.
bool IsLoopback(absl::string_view address) {
  const absl::string_view host = address.substr(0, address.find(':'));
  return host == "0100007F" || host == "0000000000000000FFFF00000100007F";
}

// Established TCP connections between two 127.0.0.1 endpoints that
// process `pid` holds a socket of (/proc/PID/fd against /proc/PID/net/tcp
// and tcp6).
int LoopbackConnections(pid_t pid) {
  std::set<std::string> inodes;
  const std::string fds = absl::StrCat("/proc/", pid, "/fd");
  if (DIR* d = opendir(fds.c_str())) {
    while (dirent* e = readdir(d)) {
      char target[256];
      const std::string link = fds + "/" + e->d_name;
      const ssize_t n = readlink(link.c_str(), target, sizeof(target) - 1);
      if (n <= 0) continue;
      const std::string t(target, static_cast<size_t>(n));
      // "socket:[12345]"
      if (t.rfind("socket:[", 0) == 0) inodes.insert(t.substr(8, t.size() - 9));
    }
    closedir(d);
  }
  int count = 0;
  for (const char* table : {"tcp", "tcp6"}) {
    const std::string text =
        ReadFileOrEmpty(absl::StrCat("/proc/", pid, "/net/", table));
    for (absl::string_view line : absl::StrSplit(text, '\n')) {
      std::vector<absl::string_view> f =
          absl::StrSplit(line, ' ', absl::SkipEmpty());
      // sl local rem st tx:rx tr:when retrnsmt uid timeout inode
      if (f.size() < 10 || f[3] != "01") continue;
      if (!IsLoopback(f[1]) || !IsLoopback(f[2])) continue;
      count += inodes.contains(std::string(f[9]));
    }
  }
  return count;
}

// True when the spool log in `dir` holds more than its 16-byte header.
bool SpoolGrew(const std::string& dir) {
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(dir + "/spool.log", ec);
  return !ec && size > 16;
}

TEST(OpsLocal, TcpTransportPlaysTheJobOverLoopback) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const std::string db = tmp.Sub("db");
  const Ran r = RunQipu(tmp.path(), "tcp",
                        {"local", "--games", "150", "--size", "9", "--seed",
                         "31", "--db", db, "--transport", "tcp", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json summary = LastJsonLine(r.out);
  ASSERT_TRUE(summary.is_object()) << r.out;
  EXPECT_EQ(summary.value("games", uint64_t{0}), 150u) << summary.dump();
  EXPECT_FALSE(summary.contains("interrupted"));
  EXPECT_EQ(summary.value("black_wins", uint64_t{0}) +
                summary.value("white_wins", uint64_t{0}) +
                summary.value("draws", uint64_t{0}) +
                summary.value("void", uint64_t{0}),
            150u);
  const uint64_t job = summary.value("job", uint64_t{0});
  uint64_t foreign = 0;
  auto stored = ReadStoredGames(db, job, &foreign);
  ASSERT_TRUE(stored.ok()) << stored.status();
  EXPECT_EQ(stored->size(), 150u);
  EXPECT_EQ(foreign, 0u);
  for (const auto& [index, g] : *stored) {
    EXPECT_EQ(g.provenance().worker(), "local");
  }
}

// Starts `qipu local` on a job far larger than it will play with
// `transport`, waits until its worker has played games, and returns the
// process (stdout and stderr in dir/<name>.out and .err).
std::unique_ptr<Subprocess> StartLongRun(const TempDir& tmp,
                                         const std::string& name,
                                         const std::string& transport) {
  const std::string db = tmp.Sub(name + ".db");
  auto p = Subprocess::Start(
      {kQipuBinary, "local", "--games", "10000000", "--size", "9", "--seed",
       "32", "--db", db, "--transport", transport, "--json"},
      tmp.Sub(name + ".out"), tmp.Sub(name + ".err"));
  EXPECT_TRUE(p.ok()) << p.status();
  if (!p.ok()) return nullptr;
  EXPECT_TRUE(WaitUntil(
      [&] {
        return (*p)->Stderr().find(" started: ") != std::string::npos &&
               SpoolGrew(db + "/worker-spool");
      },
      absl::Seconds(60) * kSlowdown, absl::Milliseconds(5)))
      << (*p)->StderrTail();
  return *std::move(p);
}

TEST(OpsLocal, SigtermStopsTheRunCleanlyAndTheTransportIsTheOneAskedFor) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  for (const std::string transport : {"tcp", "inproc"}) {
    SCOPED_TRACE(transport);
    std::unique_ptr<Subprocess> local = StartLongRun(tmp, transport, transport);
    ASSERT_NE(local, nullptr);
    // The worker's connection (both of its ends are this process's).
    const int connections = LoopbackConnections(local->pid());
    if (transport == "tcp") {
      EXPECT_GE(connections, 2);
    } else {
      EXPECT_EQ(connections, 0);
    }
    ASSERT_TRUE(local->Kill(SIGTERM));
    const std::optional<int> status =
        local->Wait(absl::Seconds(60) * kSlowdown);
    ASSERT_TRUE(status.has_value()) << local->StderrTail();
    EXPECT_EQ(*status, 128 + SIGTERM) << local->StderrTail();
    EXPECT_NE(local->Stderr().find("Terminated: stopping"), std::string::npos)
        << local->StderrTail();
    const nlohmann::json summary = LastJsonLine(local->Stdout());
    ASSERT_TRUE(summary.is_object()) << local->Stdout();
    EXPECT_EQ(summary.value("interrupted", ""), "Terminated");
    const uint64_t games = summary.value("games", uint64_t{0});
    EXPECT_GT(games, 0u);
    auto stored = ReadStoredGames(tmp.Sub(transport + ".db"),
                                  summary.value("job", uint64_t{0}));
    ASSERT_TRUE(stored.ok()) << stored.status();
    EXPECT_EQ(stored->size(), games);
  }
}

}  // namespace
}  // namespace qipu::testing
