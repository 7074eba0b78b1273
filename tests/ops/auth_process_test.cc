// Process test: the real qipu, qipu-coordinator and qipu-worker binaries
// over TLS with client certificates (mTLS, certificates from
// ops/tls/make-certs) and tokens with roles (`--auth required`): the first
// operator token made with `qipu token create --db` before the coordinator
// starts, further tokens and revocation through `--server`, a job
// submitted, played by a worker and read back; and the refusals a user
// meets -- a reader token submitting, a worker with a reader token, a
// revoked token, no --tls-ca against the TLS port.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "grpcpp/security/credentials.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/common/test_certs.h"
#include "tests/ops/process_fixture.h"

namespace qipu::testing {
namespace {

// `qipu token create --db` (the database no process holds): the token and
// its id.
std::pair<std::string, uint64_t> CreateToken(const TempDir& tmp,
                                             const std::string& role) {
  const Ran r =
      RunQipu(tmp.path(), "token-" + role,
              {"token", "create", "--role", role, "--name",
               role + " of the test", "--db", tmp.Sub("db"), "--json"});
  EXPECT_EQ(r.status, 0) << r.err;
  const nlohmann::json j = LastJsonLine(r.out);
  EXPECT_EQ(j.value("role", ""), role) << r.out;
  return {j.value("token", ""), j.value("id", uint64_t{0})};
}

TEST(OpsAuth, TlsAndTokensEndToEnd) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const test_util::TestCerts certs =
      test_util::TestCerts::Make(tmp.Sub("certs"), {"worker", "ops"});
  const auto [op, op_id] = CreateToken(tmp, "operator");
  const auto [worker_token, worker_id] = CreateToken(tmp, "worker");
  const auto [reader, reader_id] = CreateToken(tmp, "reader");
  ASSERT_FALSE(op.empty());
  EXPECT_NE(op, reader);

  CoordinatorProcess coord(
      tmp.Sub("db"), tmp.Sub("coordinator"),
      {"--tls-cert", certs.server_cert(), "--tls-key", certs.server_key(),
       "--tls-client-ca", certs.ca(), "--auth", "required"});
  grpc::SslCredentialsOptions probe;
  probe.pem_root_certs = *base::ReadFile(certs.ca());
  probe.pem_cert_chain = *base::ReadFile(certs.client_cert("ops"));
  probe.pem_private_key = *base::ReadFile(certs.client_key("ops"));
  coord.set_probe_credentials(grpc::SslCredentials(probe));
  ASSERT_TRUE(coord.Start().ok()) << coord.LogTail();
  const std::string server = coord.address();
  // The client flags of the tool's operator: mTLS and a token.
  auto tls = [&](const std::string& client) {
    return std::vector<std::string>{"--tls-ca",   certs.ca(),
                                    "--tls-cert", certs.client_cert(client),
                                    "--tls-key",  certs.client_key(client)};
  };
  auto with = [](std::vector<std::string> a,
                 const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };

  // An operator submits; a reader may not.
  Ran submit =
      RunQipu(tmp.path(), "submit",
              with({"job", "submit", "--server", server, "--games", "12",
                    "--size", "9", "--seed", "5", "--json", "--token", op},
                   tls("ops")));
  ASSERT_EQ(submit.status, 0) << submit.err;
  const uint64_t job = LastJsonLine(submit.out).value("job", uint64_t{0});
  ASSERT_GT(job, 0u) << submit.out;
  Ran denied = RunQipu(tmp.path(), "submit-reader",
                       with({"job", "submit", "--server", server, "--games",
                             "1", "--token", reader},
                            tls("ops")));
  EXPECT_EQ(denied.status, 1);
  EXPECT_NE(denied.err.find("a reader token"), std::string::npos) << denied.err;
  // Without the CA the TLS port is not reached at all.
  Ran plain = RunQipu(
      tmp.path(), "status-plain",
      {"job", "status", "--server", server, "--token", op, "--timeout", "2"});
  EXPECT_EQ(plain.status, 1) << plain.out;

  // A worker with a reader token gives up at its first lease.
  auto wrong = StartWorker(
      server, tmp.path(), "wrong", 1, 4,
      with({"--token", reader, "--exit-when-idle", "5"}, tls("worker")));
  ASSERT_TRUE(wrong.ok()) << wrong.status();
  EXPECT_EQ((*wrong)->Wait(absl::Seconds(30) * kSlowdown), 1)
      << (*wrong)->StderrTail();
  EXPECT_NE((*wrong)->StderrTail().find("PERMISSION_DENIED"), std::string::npos)
      << (*wrong)->StderrTail();

  // The real worker plays the job to its end and exits when idle.
  auto w = StartWorker(server, tmp.path(), "w", 2, 6,
                       with({"--token", worker_token, "--job",
                             absl::StrCat(job), "--exit-when-idle", "1"},
                            tls("worker")));
  ASSERT_TRUE(w.ok()) << w.status();
  EXPECT_EQ((*w)->Wait(absl::Seconds(120) * kSlowdown), 0)
      << (*w)->StderrTail();

  // A reader reads the job's status and games.
  Ran status = RunQipu(tmp.path(), "status",
                       with({"job", "status", "--server", server, "--job",
                             absl::StrCat(job), "--json", "--token", reader},
                            tls("ops")));
  ASSERT_EQ(status.status, 0) << status.err;
  EXPECT_EQ(LastJsonLine(status.out).value("done", uint64_t{0}), 12u)
      << status.out;
  Ran results = RunQipu(tmp.path(), "results",
                        with({"query", "results", "--server", server, "--size",
                              "9", "--json", "--token", reader},
                             tls("ops")));
  ASSERT_EQ(results.status, 0) << results.err;

  // Token administration through the server: list (no secrets), revoke.
  Ran list = RunQipu(
      tmp.path(), "list",
      with({"token", "list", "--server", server, "--json", "--token", op},
           tls("ops")));
  ASSERT_EQ(list.status, 0) << list.err;
  const nlohmann::json tokens = LastJsonLine(list.out)["tokens"];
  ASSERT_EQ(tokens.size(), 3u) << list.out;
  EXPECT_EQ(tokens[2].value("role", ""), "reader");
  EXPECT_EQ(list.out.find(reader), std::string::npos);
  EXPECT_EQ(list.out.find(op), std::string::npos);
  Ran list_as_reader =
      RunQipu(tmp.path(), "list-reader",
              with({"token", "list", "--server", server, "--token", reader},
                   tls("ops")));
  EXPECT_EQ(list_as_reader.status, 1);
  Ran revoke = RunQipu(tmp.path(), "revoke",
                       with({"token", "revoke", "--id", absl::StrCat(reader_id),
                             "--server", server, "--token", op},
                            tls("ops")));
  ASSERT_EQ(revoke.status, 0) << revoke.err;
  Ran revoked =
      RunQipu(tmp.path(), "status-revoked",
              with({"job", "status", "--server", server, "--token", reader},
                   tls("ops")));
  EXPECT_EQ(revoked.status, 1);
  EXPECT_NE(revoked.err.find("revoked"), std::string::npos) << revoked.err;
  EXPECT_EQ(coord.Stop(), 0);

  // The stored list says the same, read with --db.
  Ran db_list =
      RunQipu(tmp.path(), "list-db", {"token", "list", "--db", tmp.Sub("db")});
  ASSERT_EQ(db_list.status, 0) << db_list.err;
  EXPECT_NE(db_list.out.find("yes"), std::string::npos) << db_list.out;
}

TEST(OpsAuth, TokenCommandRefusesBadFlags) {
  TempDir tmp;
  Ran r =
      RunQipu(tmp.path(), "bad-role",
              {"token", "create", "--role", "admin", "--db", tmp.Sub("db")});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--role"), std::string::npos) << r.err;
  r = RunQipu(tmp.path(), "no-target", {"token", "list"});
  EXPECT_EQ(r.status, 2);
  r = RunQipu(tmp.path(), "bad-ca",
              {"token", "list", "--server", "127.0.0.1:1", "--tls-ca",
               tmp.Sub("missing.pem")});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("--tls-ca"), std::string::npos) << r.err;
  r = RunQipu(tmp.path(), "cert-no-key",
              {"query", "results", "--server", "127.0.0.1:1", "--tls-ca",
               tmp.Sub("x.pem"), "--tls-cert", tmp.Sub("c.pem")});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--tls-key"), std::string::npos) << r.err;
  // A database that is not there is a bad --db; an unknown id in one that
  // is, a failure.
  r = RunQipu(tmp.path(), "revoke-no-db",
              {"token", "revoke", "--id", "9", "--db", tmp.Sub("db")});
  EXPECT_EQ(r.status, 2);
  CreateToken(tmp, "reader");
  r = RunQipu(tmp.path(), "revoke-unknown",
              {"token", "revoke", "--id", "9", "--db", tmp.Sub("db")});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("no token with id 9"), std::string::npos) << r.err;
}

TEST(OpsAuth, AuthOffTakesTokenCallsFromThisHostAndTheyLastPastIt) {
  // With --auth off a caller on the coordinator's host (127.0.0.1) may
  // make tokens -- which is why only such a caller may: the token still
  // works once the coordinator restarts with --auth required.
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  CoordinatorProcess coord(tmp.Sub("db"), tmp.Sub("coordinator"));
  ASSERT_TRUE(coord.Start().ok()) << coord.LogTail();
  const Ran made =
      RunQipu(tmp.path(), "create-off",
              {"token", "create", "--role", "reader", "--name",
               "made with auth off", "--server", coord.address(), "--json"});
  ASSERT_EQ(made.status, 0) << made.err;
  const std::string reader = LastJsonLine(made.out).value("token", "");
  ASSERT_FALSE(reader.empty()) << made.out;
  const Ran backup =
      RunQipu(tmp.path(), "backup-off",
              {"backup", "--server", coord.address(), "--to", tmp.Sub("bk")});
  EXPECT_EQ(backup.status, 0) << backup.err;
  ASSERT_EQ(coord.Stop(), 0);
  EXPECT_NE(ReadFileOrEmpty(tmp.Sub("coordinator.1.log"))
                .find("created token 1 (reader, 'made with auth off') for "
                      "ipv4:127.0.0.1:"),
            std::string::npos)
      << coord.LogTail();

  CoordinatorProcess strict(tmp.Sub("db"), tmp.Sub("strict"),
                            {"--auth", "required"});
  ASSERT_TRUE(strict.Start().ok()) << strict.LogTail();
  const Ran query = RunQipu(tmp.path(), "query-required",
                            {"query", "results", "--server", strict.address(),
                             "--token", reader, "--json"});
  EXPECT_EQ(query.status, 0) << query.err;
  const Ran anonymous =
      RunQipu(tmp.path(), "query-anonymous",
              {"query", "results", "--server", strict.address(), "--json"});
  EXPECT_EQ(anonymous.status, 1) << anonymous.err;
  EXPECT_EQ(strict.Stop(), 0);
}

}  // namespace
}  // namespace qipu::testing
