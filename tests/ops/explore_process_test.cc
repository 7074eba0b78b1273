// The web explorer as real processes: `qipu-coordinator --http` and `qipu
// explore --db --http` on a database filled by `qipu import` with fox-pro
// games; their HTTP API read over a socket and compared with `qipu query
// --json`; a clean stop on SIGTERM; tokens with --auth required; bad
// --http addresses; HTTPS (--http-tls-cert/--http-tls-key, and the
// coordinator's --tls-cert/--tls-key by default) read by a client that
// verifies the server against the test CA (ops/tls/make-certs).
#include <csignal>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "grpcpp/security/credentials.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/common/corpus_dir.h"
#include "tests/common/http_get.h"
#include "tests/common/test_certs.h"
#include "tests/ops/process_fixture.h"

namespace qipu::testing {
namespace {

// The port printed after `marker` ("http on 127.0.0.1:", "http://...:")
// in `out`; 0 when not (yet) printed.
int ExplorePort(const std::string& out, const std::string& marker) {
  const size_t at = out.find(marker);
  if (at == std::string::npos) return 0;
  size_t p = at + marker.size();
  size_t end = p;
  while (end < out.size() && out[end] >= '0' && out[end] <= '9') ++end;
  int port = 0;
  return absl::SimpleAtoi(out.substr(p, end - p), &port) ? port : 0;
}

// Imports the first `files` files of fox-pro into tmp/db; false (skipped)
// when the corpus is absent.
bool ImportFox(const TempDir& tmp, size_t files) {
  const std::string dir = test_util::SharedCorpusDir("fox-pro");
  if (dir.empty()) return false;
  std::vector<std::string> args = {"import",   "--db", tmp.Sub("db"),
                                   "--source", "fox",  "--json"};
  const std::vector<std::string> all = test_util::SgfFilesUnder(dir);
  for (size_t i = 0; i < all.size() && i < files; ++i) args.push_back(all[i]);
  const Ran r = RunQipu(tmp.path(), "import", args);
  EXPECT_EQ(r.status, 0) << r.err;
  return true;
}

nlohmann::json HttpJson(
    int port, const std::string& target, int want_status = 200,
    const std::vector<std::pair<std::string, std::string>>& headers = {}) {
  auto r = test_util::HttpRequest(port, target, headers);
  EXPECT_TRUE(r.ok()) << r.status();
  if (!r.ok()) return nlohmann::json();
  EXPECT_EQ(r->status, want_status) << target << ": " << r->body;
  return nlohmann::json::parse(r->body, nullptr, false);
}

TEST(OpsExplore, CoordinatorHttpThenExploreDb) {
  TempDir tmp;
  if (!ImportFox(tmp, 120)) GTEST_SKIP() << "the fox-pro corpus is absent";

  // qipu-coordinator --http: the API answers what `qipu query --server`
  // prints.
  CoordinatorProcess coordinator(tmp.Sub("db"), tmp.Sub("coordinator"),
                                 {"--http", "127.0.0.1:0"});
  ASSERT_TRUE(coordinator.Start().ok()) << coordinator.LogTail();
  const int http =
      ExplorePort(coordinator.process()->Stdout(), "http on 127.0.0.1:");
  ASSERT_NE(http, 0) << coordinator.process()->Stdout();
  struct QueryCase {
    std::string target;
    std::vector<std::string> cli;
  };
  const std::vector<QueryCase> cases = {
      {"/api/v1/openings?moves=Q16&size=19",
       {"openings", "--moves", "Q16", "--size", "19"}},
      {"/api/v1/openings", {"openings"}},
      {"/api/v1/ko?source=fox", {"ko", "--source", "fox"}},
      {"/api/v1/cycles", {"cycles"}},
      {"/api/v1/results?size=19", {"results", "--size", "19"}},
  };
  std::vector<nlohmann::json> answers;
  for (const QueryCase& c : cases) {
    std::vector<std::string> args = {"query"};
    args.insert(args.end(), c.cli.begin(), c.cli.end());
    args.insert(args.end(), {"--server", coordinator.address(), "--json"});
    const Ran cli = RunQipu(tmp.path(), "query", args);
    ASSERT_EQ(cli.status, 0) << cli.err;
    const nlohmann::json got = HttpJson(http, c.target);
    EXPECT_EQ(got, LastJsonLine(cli.out)) << c.target;
    answers.push_back(got);
  }
  EXPECT_GT(answers[1]["games"].get<int>(), 50);
  auto page = test_util::HttpRequest(http, "/");
  ASSERT_TRUE(page.ok());
  EXPECT_EQ(page->status, 200);
  EXPECT_NE(page->body.find("openings.js"), std::string::npos);
  EXPECT_EQ(coordinator.Stop(), 0) << coordinator.LogTail();
  EXPECT_FALSE(test_util::HttpRequest(http, "/api/v1/health").ok());

  // qipu explore --db on the same database: the same answers.
  auto explore = Subprocess::Start(
      {kQipuBinary, "explore", "--db", tmp.Sub("db"), "--http", "127.0.0.1:0"},
      tmp.Sub("explore.out"), tmp.Sub("explore.err"));
  ASSERT_TRUE(explore.ok()) << explore.status();
  int port = 0;
  ASSERT_TRUE(WaitUntil(
      [&] {
        port = ExplorePort((*explore)->Stdout(), "http://127.0.0.1:");
        return port != 0 || !(*explore)->IsRunning();
      },
      absl::Seconds(30 * kSlowdown)))
      << (*explore)->Stderr();
  ASSERT_NE(port, 0) << (*explore)->Stderr();
  for (size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(HttpJson(port, cases[i].target), answers[i]) << cases[i].target;
  }
  const nlohmann::json bad =
      HttpJson(port, "/api/v1/openings?moves=Q16+Q16", 400);
  EXPECT_NE(bad.value("error", "").find("moves"), std::string::npos);
  ASSERT_TRUE((*explore)->Kill(SIGTERM));
  EXPECT_EQ((*explore)->Wait(absl::Seconds(20 * kSlowdown)), 0)
      << (*explore)->Stderr();
  // The database is free again.
  const Ran after = RunQipu(
      tmp.path(), "after",
      {"query", "results", "--db", tmp.Sub("db"), "--size", "19", "--json"});
  EXPECT_EQ(after.status, 0) << after.err;
  EXPECT_EQ(LastJsonLine(after.out), answers[4]);
}

TEST(OpsExplore, TokensAndBadAddresses) {
  TempDir tmp;
  if (!ImportFox(tmp, 20)) GTEST_SKIP() << "the fox-pro corpus is absent";
  const Ran token = RunQipu(tmp.path(), "token",
                            {"token", "create", "--role", "reader", "--name",
                             "web", "--db", tmp.Sub("db"), "--json"});
  ASSERT_EQ(token.status, 0) << token.err;
  const std::string reader = LastJsonLine(token.out).value("token", "");
  ASSERT_FALSE(reader.empty());

  // A malformed address: status 2, before anything is served.
  const Ran malformed =
      RunQipu(tmp.path(), "malformed",
              {"explore", "--db", tmp.Sub("db"), "--http", "nonsense"});
  EXPECT_EQ(malformed.status, 2) << malformed.err;
  EXPECT_NE(malformed.err.find("--http"), std::string::npos) << malformed.err;

  // On every interface without tokens: refused unless --insecure (issue
  // 28), as qipu-coordinator does.
  const Ran open_api =
      RunQipu(tmp.path(), "open",
              {"explore", "--db", tmp.Sub("db"), "--http", "0.0.0.0:0"});
  EXPECT_EQ(open_api.status, 2) << open_api.err;
  EXPECT_NE(open_api.err.find("--insecure"), std::string::npos) << open_api.err;

  // On every interface with tokens: served, and warned about (plain HTTP).
  auto explore =
      Subprocess::Start({kQipuBinary, "explore", "--db", tmp.Sub("db"),
                         "--http", "0.0.0.0:0", "--auth", "required"},
                        tmp.Sub("auth.out"), tmp.Sub("auth.err"));
  ASSERT_TRUE(explore.ok());
  int port = 0;
  ASSERT_TRUE(WaitUntil(
      [&] {
        port = ExplorePort((*explore)->Stdout(), "http://0.0.0.0:");
        return port != 0 || !(*explore)->IsRunning();
      },
      absl::Seconds(30 * kSlowdown)))
      << (*explore)->Stdout() << (*explore)->Stderr();
  ASSERT_NE(port, 0) << (*explore)->Stderr();
  EXPECT_NE((*explore)->Stderr().find("plain HTTP"), std::string::npos)
      << (*explore)->Stderr();
  HttpJson(port, "/api/v1/ko", 401);
  const nlohmann::json ok = HttpJson(port, "/api/v1/ko", 200,
                                     {{"Authorization", "Bearer " + reader}});
  EXPECT_GT(ok["games"].get<int>(), 0);
  EXPECT_EQ(HttpJson(port, "/api/v1/health")["auth"], true);

  // A second explorer on the port taken: status 1, the address named.
  TempDir other;
  ASSERT_TRUE(ImportFox(other, 2));
  const Ran taken = RunQipu(other.path(), "taken",
                            {"explore", "--db", other.Sub("db"), "--http",
                             absl::StrCat("127.0.0.1:", port)});
  EXPECT_EQ(taken.status, 1) << taken.err;
  EXPECT_NE(taken.err.find(absl::StrCat(port)), std::string::npos) << taken.err;

  ASSERT_TRUE((*explore)->Kill(SIGTERM));
  EXPECT_EQ((*explore)->Wait(absl::Seconds(20 * kSlowdown)), 0)
      << (*explore)->Stderr();
}

TEST(OpsExplore, HttpsWithTlsFlags) {
  TempDir tmp;
  if (!ImportFox(tmp, 20)) GTEST_SKIP() << "the fox-pro corpus is absent";
  const test_util::TestCerts certs =
      test_util::TestCerts::Make(tmp.Sub("certs"), {});
  const test_util::HttpTls trusted{certs.ca()};
  auto https = [&](int port, const std::string& target,
                   const std::vector<std::pair<std::string, std::string>>&
                       headers = {}) {
    return test_util::HttpRequest(port, target, headers, "GET",
                                  absl::Seconds(20), &trusted);
  };
  const Ran token = RunQipu(tmp.path(), "token",
                            {"token", "create", "--role", "reader", "--name",
                             "web", "--db", tmp.Sub("db"), "--json"});
  ASSERT_EQ(token.status, 0) << token.err;
  const std::string reader = LastJsonLine(token.out).value("token", "");
  ASSERT_FALSE(reader.empty());

  // Half the TLS flags: a usage error.
  const Ran half =
      RunQipu(tmp.path(), "half",
              {"explore", "--db", tmp.Sub("db"), "--http", "127.0.0.1:0",
               "--http-tls-cert", certs.server_cert()});
  EXPECT_EQ(half.status, 2) << half.err;
  EXPECT_NE(half.err.find("--http-tls-key"), std::string::npos) << half.err;
  // A key that is not the certificate's: status 2, the flag named.
  const Ran mismatch = RunQipu(
      tmp.path(), "mismatch",
      {"explore", "--db", tmp.Sub("db"), "--http", "127.0.0.1:0",
       "--http-tls-cert", certs.ca(), "--http-tls-key", certs.server_key()});
  EXPECT_EQ(mismatch.status, 2) << mismatch.err;
  EXPECT_NE(mismatch.err.find("--http-tls-key"), std::string::npos)
      << mismatch.err;

  // qipu explore on every interface with tokens over HTTPS: no warning.
  auto explore = Subprocess::Start(
      {kQipuBinary, "explore", "--db", tmp.Sub("db"), "--http", "0.0.0.0:0",
       "--auth", "required", "--http-tls-cert", certs.server_cert(),
       "--http-tls-key", certs.server_key()},
      tmp.Sub("explore.out"), tmp.Sub("explore.err"));
  ASSERT_TRUE(explore.ok()) << explore.status();
  int port = 0;
  ASSERT_TRUE(WaitUntil(
      [&] {
        port = ExplorePort((*explore)->Stdout(), "https://0.0.0.0:");
        return port != 0 || !(*explore)->IsRunning();
      },
      absl::Seconds(30 * kSlowdown)))
      << (*explore)->Stdout() << (*explore)->Stderr();
  ASSERT_NE(port, 0) << (*explore)->Stderr();
  EXPECT_EQ((*explore)->Stderr().find("plain HTTP"), std::string::npos)
      << (*explore)->Stderr();
  auto health = https(port, "/api/v1/health");
  ASSERT_TRUE(health.ok()) << health.status();
  EXPECT_EQ(health->status, 200);
  EXPECT_EQ(nlohmann::json::parse(health->body)["auth"], true);
  auto denied = https(port, "/api/v1/ko");
  ASSERT_TRUE(denied.ok()) << denied.status();
  EXPECT_EQ(denied->status, 401);
  auto ko = https(port, "/api/v1/ko", {{"Authorization", "Bearer " + reader}});
  ASSERT_TRUE(ko.ok()) << ko.status();
  EXPECT_EQ(ko->status, 200) << ko->body;
  const nlohmann::json ko_json = nlohmann::json::parse(ko->body);
  EXPECT_GT(ko_json["games"].get<int>(), 0);
  // HTTPS only: plain HTTP gets no answer.
  EXPECT_FALSE(test_util::HttpRequest(port, "/api/v1/health").ok());
  ASSERT_TRUE((*explore)->Kill(SIGTERM));
  EXPECT_EQ((*explore)->Wait(absl::Seconds(20 * kSlowdown)), 0)
      << (*explore)->Stderr();

  // qipu-coordinator with gRPC TLS: the explorer takes its certificate
  // by default and answers what `qipu query --json` prints.
  CoordinatorProcess coordinator(
      tmp.Sub("db"), tmp.Sub("coordinator"),
      {"--http", "127.0.0.1:0", "--tls-cert", certs.server_cert(), "--tls-key",
       certs.server_key()});
  grpc::SslCredentialsOptions probe;
  probe.pem_root_certs = *base::ReadFile(certs.ca());
  coordinator.set_probe_credentials(grpc::SslCredentials(probe));
  ASSERT_TRUE(coordinator.Start().ok()) << coordinator.LogTail();
  const std::string out = coordinator.process()->Stdout();
  const int http = ExplorePort(out, "http on 127.0.0.1:");
  ASSERT_NE(http, 0) << out;
  EXPECT_NE(out.find("(https)"), std::string::npos) << out;
  auto ko_again = https(http, "/api/v1/ko");
  ASSERT_TRUE(ko_again.ok()) << ko_again.status();
  EXPECT_EQ(ko_again->status, 200);
  const Ran cli = RunQipu(tmp.path(), "query",
                          {"query", "ko", "--server", coordinator.address(),
                           "--tls-ca", certs.ca(), "--json"});
  ASSERT_EQ(cli.status, 0) << cli.err;
  EXPECT_EQ(nlohmann::json::parse(ko_again->body), LastJsonLine(cli.out));
  EXPECT_EQ(nlohmann::json::parse(ko_again->body), ko_json);
  EXPECT_FALSE(test_util::HttpRequest(http, "/api/v1/health").ok());
  EXPECT_EQ(coordinator.Stop(), 0) << coordinator.LogTail();
}

}  // namespace
}  // namespace qipu::testing
