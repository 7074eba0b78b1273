// The explorer's HTTP server (web/http_server.h) under slow and many
// clients, on 127.0.0.1 with raw sockets:
//   - 1,000 connections open at once, half idle, half trickling a request
//     header (over HTTPS: a TLS record) one byte at a time, while
//     /api/v1/health and an openings query of a real Explorer over a real
//     coordinator keep answering promptly, over plain HTTP and HTTPS;
//   - the header deadline closes a half-sent and a trickling request (and
//     a silent TLS handshake), the idle timeout a kept-alive connection;
//   - oversize header 431, oversize body 413, garbage 400;
//   - the per-address cap and the total cap refuse the next connection at
//     once without disturbing the others;
//   - a slow handler does not stop other requests;
//   - unusable TLS files are named; a TLS server does not speak HTTP.
// Small deadlines where a test waits for one; waits are on conditions.
#include "web/http_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "backend/query_args.h"
#include "coordinator/coordinator.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "report/query_report.h"
#include "tests/common/http_get.h"
#include "tests/common/temp_dir.h"
#include "tests/common/test_certs.h"
#include "web/explorer.h"

namespace qipu::web {
namespace {

// Generous: a sanitized build on a loaded 2-core machine.
constexpr absl::Duration kPatience = absl::Seconds(60);
// What "promptly" means for one request while the server is loaded.
constexpr absl::Duration kPrompt = absl::Seconds(5);

// Polls `done` every few milliseconds until it holds or `timeout` passes.
bool WaitFor(const std::function<bool()>& done,
             absl::Duration timeout = kPatience) {
  const absl::Time deadline = absl::Now() + timeout;
  while (!done()) {
    if (absl::Now() > deadline) return false;
    absl::SleepFor(absl::Milliseconds(5));
  }
  return true;
}

// A client socket connected to 127.0.0.1:port from `source` (a loopback
// address: each is a different client address to the server); closed
// when destroyed.
class Conn {
 public:
  Conn(int port, const char* source = "127.0.0.1") {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) return;
    sockaddr_in from{};
    from.sin_family = AF_INET;
    ::inet_pton(AF_INET, source, &from.sin_addr);
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(static_cast<uint16_t>(port));
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&from), sizeof(from)) != 0 ||
        ::connect(fd_, reinterpret_cast<sockaddr*>(&to), sizeof(to)) != 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  ~Conn() {
    if (fd_ >= 0) ::close(fd_);
  }
  Conn(const Conn&) = delete;
  Conn& operator=(const Conn&) = delete;

  bool ok() const { return fd_ >= 0; }
  // Sends all of `data`; false when the connection is gone.
  bool Send(const std::string& data) {
    for (size_t sent = 0; sent < data.size();) {
      const ssize_t n = ::send(fd_, data.data() + sent, data.size() - sent,
                               MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      sent += static_cast<size_t>(n);
    }
    return true;
  }
  // Reads what arrives within `wait`; false once the server closed the
  // connection (end of stream or reset), with what came before in `in`.
  bool Read(absl::Duration wait, std::string* in) {
    pollfd p{fd_, POLLIN, 0};
    const int ready =
        ::poll(&p, 1, static_cast<int>(absl::ToInt64Milliseconds(wait)));
    if (ready <= 0) return true;
    char buf[4096];
    const ssize_t n = ::recv(fd_, buf, sizeof(buf), MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return true;
    if (n <= 0) return false;
    in->append(buf, static_cast<size_t>(n));
    return true;
  }
  // Reads until the server closes (or `timeout`); true when it closed.
  bool ReadToClose(std::string* in, absl::Duration timeout = kPatience) {
    const absl::Time deadline = absl::Now() + timeout;
    while (absl::Now() < deadline) {
      if (!Read(absl::Milliseconds(50), in)) return true;
    }
    return false;
  }
  // One answer on a kept-alive connection: headers and Content-Length
  // bytes of body; "" when the connection closed first or in `timeout`.
  std::string ReadAnswer(absl::Duration timeout = kPatience) {
    std::string in;
    const absl::Time deadline = absl::Now() + timeout;
    while (absl::Now() < deadline) {
      const size_t end = in.find("\r\n\r\n");
      if (end != std::string::npos) {
        const size_t at = in.find("Content-Length: ");
        size_t length = 0;
        if (at != std::string::npos && at < end) {
          const size_t eol = in.find("\r\n", at);
          if (!absl::SimpleAtoi(in.substr(at + 16, eol - at - 16), &length)) {
            return "";
          }
        }
        if (in.size() >= end + 4 + length) return in;
      }
      if (!Read(absl::Milliseconds(50), &in)) return "";
    }
    return "";
  }

 private:
  int fd_ = -1;
};

// The status of an HTTP answer's first line (0 when none).
int StatusOf(const std::string& answer) {
  int status = 0;
  if (!absl::StartsWith(answer, "HTTP/1.1 ") ||
      !absl::SimpleAtoi(answer.substr(9, 3), &status)) {
    return 0;
  }
  return status;
}

// Raises this process's open-file limit to `want` (or the hard limit);
// returns the limit in force.
rlim_t RaiseFileLimit(rlim_t want) {
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) != 0) return 0;
  if (files.rlim_cur < want) {
    files.rlim_cur = std::min(want, files.rlim_max);
    setrlimit(RLIMIT_NOFILE, &files);
    getrlimit(RLIMIT_NOFILE, &files);
  }
  return files.rlim_cur;
}

// An echo server: 200 with "METHOD PATH" as the body.
HttpHandler Echo() {
  return [](const HttpRequest& req) {
    HttpResponse r;
    r.content_type = "text/plain";
    r.body = req.method + " " + req.path;
    return r;
  };
}

// Two hand-made 19x19 games (a short opening each) in dir/sgf.
std::vector<std::string> WriteGames(const std::string& dir) {
  std::filesystem::create_directories(dir);
  const std::vector<std::string> games = {
      "(;GM[1]FF[4]SZ[19]KM[7.5]RU[Chinese]RE[B+R];B[pd];W[dp];B[pp];W[dd]"
      ";B[fq];W[cn])",
      "(;GM[1]FF[4]SZ[19]KM[7.5]RU[Chinese]RE[W+R];B[pd];W[dd];B[pq];W[dp]"
      ";B[qk])",
  };
  std::vector<std::string> paths;
  for (size_t i = 0; i < games.size(); ++i) {
    paths.push_back(absl::StrCat(dir, "/", i, ".sgf"));
    std::ofstream(paths.back()) << games[i];
  }
  return paths;
}

// The parameter: whether the server speaks HTTPS.
class HttpServerLoad : public ::testing::TestWithParam<bool> {};

INSTANTIATE_TEST_SUITE_P(Plain, HttpServerLoad, ::testing::Values(false));
INSTANTIATE_TEST_SUITE_P(Https, HttpServerLoad, ::testing::Values(true));

TEST_P(HttpServerLoad, ThousandSlowConnectionsDoNotStallHealthOrQueries) {
  constexpr int kIdle = 500;
  constexpr int kTrickling = 500;
  constexpr int kRounds = 10;
  // Both ends of every connection live in this process, and the server
  // takes at most half the limit.
  if (RaiseFileLimit(8192) < 5000) {
    GTEST_SKIP() << "the open-file limit cannot be raised to 5000";
  }
  const bool tls = GetParam();
  test_util::TempDir tmp;
  coordinator::CoordinatorOptions co;
  co.db_dir = tmp.Sub("db");
  co.store.sync = false;
  auto c = coordinator::Coordinator::Start(co);
  ASSERT_TRUE(c.ok()) << c.status();
  const engine::ImportSummary imported =
      (*c)->importer().ImportPaths(WriteGames(tmp.Sub("sgf")), {"hand", 60});
  ASSERT_EQ(imported.imported, 2u);

  const test_util::TestCerts certs =
      tls ? test_util::TestCerts::Make(tmp.Sub("certs"), {})
          : test_util::TestCerts{};
  ExplorerOptions o;
  o.http.threads = 2;
  o.http.max_connections = 2 * (kIdle + kTrickling);
  o.http.max_connections_per_address = 2 * (kIdle + kTrickling);
  // Long enough that no slow connection is cut during the test: the
  // server must serve others while holding all of them.
  o.http.header_deadline = absl::Minutes(10);
  if (tls) {
    o.http.tls_cert = certs.server_cert();
    o.http.tls_key = certs.server_key();
  }
  auto explorer = Explorer::Start(o, &(*c)->queries(), nullptr);
  ASSERT_TRUE(explorer.ok()) << explorer.status();
  const HttpServer& server = (*explorer)->server();
  ASSERT_EQ(server.max_connections(), o.http.max_connections);
  const int port = (*explorer)->port();
  const test_util::HttpTls client_tls{certs.ca()};
  auto get = [&](const std::string& target) {
    return test_util::HttpRequest(port, target, {}, "GET", kPatience,
                                  tls ? &client_tls : nullptr);
  };

  std::vector<std::unique_ptr<Conn>> idle;
  std::vector<std::unique_ptr<Conn>> trickling;
  for (int i = 0; i < kIdle; ++i) {
    idle.push_back(std::make_unique<Conn>(port));
    ASSERT_TRUE(idle.back()->ok()) << "connection " << i << ": errno " << errno;
  }
  // Over HTTP a request header that never ends; over HTTPS a handshake
  // record announcing 16 KiB that never arrive.
  const std::string slow =
      tls ? std::string("\x16\x03\x01\x40\x00", 5) + std::string(200, '\0')
          : "GET /api/v1/health HTTP/1.1\r\nX-Slow: " + std::string(200, 'a');
  size_t sent = 0;
  for (int i = 0; i < kTrickling; ++i) {
    trickling.push_back(std::make_unique<Conn>(port));
    ASSERT_TRUE(trickling.back()->ok()) << "connection " << i;
    ASSERT_TRUE(trickling.back()->Send(slow.substr(0, 1)));
  }
  ++sent;
  ASSERT_TRUE(WaitFor([&] {
    return server.stats().connections_open >= kIdle + kTrickling;
  })) << server.stats().connections_open;

  const std::string query = "moves=Q16";
  auto want = (*c)->queries().Openings(
      *backend::OpeningsFromArgs(backend::QueryArgs{{"moves", "Q16"}}, ""));
  ASSERT_TRUE(want.ok()) << want.status();
  ASSERT_EQ(want->reached().games(), 2u);
  absl::Duration slowest;
  for (int round = 0; round < kRounds; ++round) {
    for (auto& t : trickling) {
      ASSERT_TRUE(t->Send(slow.substr(sent, 1))) << "round " << round;
    }
    ++sent;
    absl::Time start = absl::Now();
    auto health = get("/api/v1/health");
    const absl::Duration health_took = absl::Now() - start;
    ASSERT_TRUE(health.ok()) << health.status();
    EXPECT_EQ(health->status, 200);
    EXPECT_EQ(nlohmann::json::parse(health->body)["status"], "ok");
    start = absl::Now();
    auto openings = get("/api/v1/openings?" + query);
    const absl::Duration query_took = absl::Now() - start;
    ASSERT_TRUE(openings.ok()) << openings.status();
    EXPECT_EQ(openings->status, 200);
    EXPECT_EQ(nlohmann::json::parse(openings->body),
              report::OpeningsJson(*want));
    EXPECT_LT(health_took, kPrompt) << "round " << round;
    EXPECT_LT(query_took, kPrompt) << "round " << round;
    slowest = std::max({slowest, health_took, query_took});
  }
  // Every slow connection is still held: served around, not dropped.
  const HttpServerStats during = server.stats();
  EXPECT_GE(during.connections_open, kIdle + kTrickling);
  EXPECT_EQ(during.connections_refused, 0);
  EXPECT_EQ(during.connections_timed_out, 0);
  std::printf("%s: %d connections open, slowest health/query answer %s\n",
              tls ? "https" : "http", static_cast<int>(during.connections_open),
              absl::FormatDuration(slowest).c_str());
  idle.clear();
  trickling.clear();
  EXPECT_TRUE(WaitFor([&] { return server.stats().connections_open == 0; }))
      << server.stats().connections_open;
  (*explorer)->Stop();
  (*c)->Shutdown();
}

TEST(HttpServerLimits, DeadlinesCloseHalfSentTricklingAndIdleConnections) {
  HttpServerOptions o;
  o.header_deadline = absl::Seconds(1);
  o.idle_timeout = absl::Seconds(1);
  auto server = HttpServer::Start(o, Echo());
  ASSERT_TRUE(server.ok()) << server.status();
  const int port = (*server)->port();

  // Half a request, then nothing: closed at the header deadline.
  Conn half(port);
  ASSERT_TRUE(half.ok());
  absl::Time start = absl::Now();
  ASSERT_TRUE(half.Send("GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: "));
  std::string in;
  EXPECT_TRUE(half.ReadToClose(&in));
  EXPECT_GE(absl::Now() - start, absl::Milliseconds(900));
  EXPECT_EQ(in, "");  // no answer: the request never was one

  // A byte every 50 ms: still closed at the deadline of the whole header.
  Conn trickle(port);
  ASSERT_TRUE(trickle.ok());
  start = absl::Now();
  const std::string header =
      "GET /x HTTP/1.1\r\nX-Slow: " + std::string(1000, 'a');
  bool closed = false;
  for (size_t i = 0; i < header.size() && !closed; ++i) {
    if (!trickle.Send(header.substr(i, 1))) break;
    // Waits 50 ms for the server to close it; the pace of the trickle.
    closed = !trickle.Read(absl::Milliseconds(50), &in);
  }
  if (!closed) closed = trickle.ReadToClose(&in);
  EXPECT_TRUE(closed);
  const absl::Duration trickled = absl::Now() - start;
  EXPECT_GE(trickled, absl::Milliseconds(900));
  EXPECT_LT(trickled, absl::Seconds(30));

  // Kept alive: two requests answered on one connection, then closed
  // after the idle timeout.
  Conn kept(port);
  ASSERT_TRUE(kept.ok());
  for (const std::string path : {"/one", "/two"}) {
    ASSERT_TRUE(kept.Send("GET " + path + " HTTP/1.1\r\nHost: a\r\n\r\n"));
    const std::string answer = kept.ReadAnswer();
    EXPECT_EQ(StatusOf(answer), 200) << answer;
    EXPECT_TRUE(absl::EndsWith(answer, "GET " + path)) << answer;
    EXPECT_EQ(answer.find("Connection: close"), std::string::npos);
  }
  start = absl::Now();
  in.clear();
  EXPECT_TRUE(kept.ReadToClose(&in));
  EXPECT_GE(absl::Now() - start, absl::Milliseconds(900));
  EXPECT_EQ(in, "");
  EXPECT_TRUE(WaitFor([&] {
    const HttpServerStats s = (*server)->stats();
    return s.connections_open == 0 && s.connections_timed_out == 3;
  })) << (*server)->stats().connections_timed_out;
  EXPECT_EQ((*server)->stats().requests, 2);

  // HTTPS: a connection that never says hello is closed at the deadline.
  test_util::TempDir tmp;
  const auto certs = test_util::TestCerts::Make(tmp.Sub("certs"), {});
  o.tls_cert = certs.server_cert();
  o.tls_key = certs.server_key();
  auto secure = HttpServer::Start(o, Echo());
  ASSERT_TRUE(secure.ok()) << secure.status();
  Conn silent((*secure)->port());
  ASSERT_TRUE(silent.ok());
  in.clear();
  EXPECT_TRUE(silent.ReadToClose(&in));
  EXPECT_TRUE(
      WaitFor([&] { return (*secure)->stats().connections_timed_out == 1; }));
}

TEST(HttpServerLimits, OversizeHeaderBodyAndGarbageAreRefused) {
  HttpServerOptions o;
  o.max_header_bytes = 16 << 10;
  o.max_body_bytes = 1 << 10;
  auto server = HttpServer::Start(o, Echo());
  ASSERT_TRUE(server.ok()) << server.status();
  const int port = (*server)->port();
  struct Case {
    std::string request;
    int status;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"GET /x HTTP/1.1\r\nX-Big: " + std::string(20 << 10, 'a') + "\r\n\r\n",
       431, "request header over 16384 bytes"},
      {"GET /" + std::string(20 << 10, 'a') + " HTTP/1.1\r\n\r\n", 431,
       "request header over"},
      {"POST /x HTTP/1.1\r\nContent-Length: 5000\r\n\r\n" +
           std::string(5000, 'b'),
       413, "request body over 1024 bytes"},
      {"NONSENSE\r\n\r\n", 400, "malformed HTTP request"},
      {"GET /a%zz HTTP/1.1\r\n\r\n", 400, "malformed path"},
  };
  for (const Case& c : cases) {
    Conn conn(port);
    ASSERT_TRUE(conn.ok());
    ASSERT_TRUE(conn.Send(c.request));
    std::string in;
    EXPECT_TRUE(conn.ReadToClose(&in));
    EXPECT_EQ(StatusOf(in), c.status) << in.substr(0, 200);
    EXPECT_NE(in.find(c.error), std::string::npos) << in;
    EXPECT_NE(in.find("Connection: close"), std::string::npos) << in;
  }
  // A header just under the limit, and a small body, are served.
  auto ok = test_util::HttpRequest(port, "/fine",
                                   {{"X-Big", std::string(15 << 10, 'a')}});
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(ok->status, 200);
  EXPECT_EQ((*server)->stats().requests, 1);
}

TEST(HttpServerLimits, CapsRefuseTheNextConnectionAtOnce) {
  HttpServerOptions o;
  o.max_connections = 6;
  o.max_connections_per_address = 4;
  auto server = HttpServer::Start(o, Echo());
  ASSERT_TRUE(server.ok()) << server.status();
  const int port = (*server)->port();
  auto open = [&] { return (*server)->stats().connections_open; };

  std::vector<std::unique_ptr<Conn>> first;
  for (int i = 0; i < 4; ++i) {
    first.push_back(std::make_unique<Conn>(port, "127.0.0.1"));
    ASSERT_TRUE(first.back()->ok());
  }
  ASSERT_TRUE(WaitFor([&] { return open() == 4; })) << open();
  // A fifth from the same address: a 503 and closed, at once.
  Conn fifth(port, "127.0.0.1");
  ASSERT_TRUE(fifth.ok());
  std::string in;
  absl::Time start = absl::Now();
  EXPECT_TRUE(fifth.ReadToClose(&in));
  EXPECT_LT(absl::Now() - start, kPrompt);
  EXPECT_EQ(StatusOf(in), 503) << in;
  EXPECT_NE(in.find("too many connections"), std::string::npos) << in;
  EXPECT_EQ((*server)->stats().connections_refused, 1);
  // The four are untouched: each still answers.
  for (auto& conn : first) {
    ASSERT_TRUE(conn->Send("GET /still HTTP/1.1\r\n\r\n"));
    EXPECT_EQ(StatusOf(conn->ReadAnswer()), 200);
  }

  // Two more from another address fill the total cap of 6.
  std::vector<std::unique_ptr<Conn>> second;
  for (int i = 0; i < 2; ++i) {
    second.push_back(std::make_unique<Conn>(port, "127.0.0.2"));
    ASSERT_TRUE(second.back()->ok()) << "127.0.0.2 is not usable here";
  }
  ASSERT_TRUE(WaitFor([&] { return open() == 6; })) << open();
  // A third address is under its own cap but over the total.
  Conn third(port, "127.0.0.3");
  ASSERT_TRUE(third.ok());
  in.clear();
  start = absl::Now();
  EXPECT_TRUE(third.ReadToClose(&in));
  EXPECT_LT(absl::Now() - start, kPrompt);
  EXPECT_EQ(StatusOf(in), 503) << in;
  EXPECT_EQ((*server)->stats().connections_refused, 2);
  EXPECT_EQ(open(), 6);

  // One closed: a new connection is served again.
  first.pop_back();
  ASSERT_TRUE(WaitFor([&] { return open() == 5; })) << open();
  auto again = test_util::HttpRequest(port, "/again");
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->status, 200);
  EXPECT_EQ(again->body, "GET /again");
}

TEST(HttpServerLimits, SlowHandlerDoesNotStopOtherRequests) {
  absl::Notification entered;
  absl::Notification release;
  HttpServerOptions o;
  o.threads = 2;
  auto server = HttpServer::Start(o, [&](const HttpRequest& req) {
    HttpResponse r;
    r.content_type = "text/plain";
    if (req.path == "/slow") {
      entered.Notify();
      release.WaitForNotification();
    }
    r.body = req.path;
    return r;
  });
  ASSERT_TRUE(server.ok()) << server.status();
  const int port = (*server)->port();
  absl::StatusOr<test_util::HttpResult> slow;
  std::thread slow_client(
      [&] { slow = test_util::HttpRequest(port, "/slow"); });
  ASSERT_TRUE(entered.WaitForNotificationWithTimeout(kPatience));
  for (int i = 0; i < 5; ++i) {
    const absl::Time start = absl::Now();
    auto fast = test_util::HttpRequest(port, "/fast");
    ASSERT_TRUE(fast.ok()) << fast.status();
    EXPECT_EQ(fast->body, "/fast");
    EXPECT_LT(absl::Now() - start, kPrompt);
  }
  EXPECT_FALSE(release.HasBeenNotified());
  release.Notify();
  slow_client.join();
  ASSERT_TRUE(slow.ok()) << slow.status();
  EXPECT_EQ(slow->body, "/slow");
}

TEST(HttpServerLimits, TlsFilesAreCheckedAndHttpsIsOnlyHttps) {
  test_util::TempDir tmp;
  const auto certs = test_util::TestCerts::Make(tmp.Sub("certs"), {});
  struct Bad {
    std::string cert;
    std::string key;
    std::string message;
  };
  const std::vector<Bad> bad = {
      {tmp.Sub("absent.pem"), certs.server_key(), "--http-tls-cert"},
      {certs.server_cert(), tmp.Sub("absent.key"), "--http-tls-key"},
      {certs.server_cert(), certs.server_cert(), "--http-tls-key"},
      {certs.ca(), certs.server_key(), "key values mismatch"},
      {certs.server_cert(), "", "give both"},
  };
  for (const Bad& b : bad) {
    HttpServerOptions o;
    o.tls_cert = b.cert;
    o.tls_key = b.key;
    auto s = HttpServer::Start(o, Echo());
    ASSERT_FALSE(s.ok()) << b.cert << " " << b.key;
    EXPECT_TRUE(absl::IsInvalidArgument(s.status())) << s.status();
    EXPECT_NE(s.status().message().find(b.message), std::string::npos)
        << s.status();
  }
  HttpServerOptions o;
  o.tls_cert = certs.server_cert();
  o.tls_key = certs.server_key();
  auto server = HttpServer::Start(o, Echo());
  ASSERT_TRUE(server.ok()) << server.status();
  EXPECT_TRUE((*server)->tls());
  const int port = (*server)->port();
  const test_util::HttpTls trusted{certs.ca()};
  auto https =
      test_util::HttpRequest(port, "/x", {}, "GET", kPatience, &trusted);
  ASSERT_TRUE(https.ok()) << https.status();
  EXPECT_EQ(https->body, "GET /x");
  // Plain HTTP to it gets no HTTP answer.
  auto plain = test_util::HttpRequest(port, "/x");
  EXPECT_FALSE(plain.ok());
  // A client trusting another CA refuses the server.
  const auto other = test_util::TestCerts::Make(tmp.Sub("other"), {});
  const test_util::HttpTls wrong{other.ca()};
  auto refused =
      test_util::HttpRequest(port, "/x", {}, "GET", kPatience, &wrong);
  EXPECT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("certificate"), std::string::npos)
      << refused.status();
}

}  // namespace
}  // namespace qipu::web
