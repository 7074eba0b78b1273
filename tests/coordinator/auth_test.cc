// Tokens with roles and TLS on a real Coordinator on 127.0.0.1, tried as an
// attacker would: no token, garbage, a token of another database, the wrong
// role, a revoked token; plain text against a TLS port, a server
// certificate of another CA, client certificates missing or of another CA
// under mTLS. Certificates come from ops/tls/make-certs at test time.
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/channel.h"
#include "coordinator/access.h"
#include "coordinator/coordinator.h"
#include "coordinator/server_credentials.h"
#include "engine/tokens.h"
#include "google/protobuf/descriptor.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "gtest/gtest.h"
#include "qipu/v1/auth.grpc.pb.h"
#include "qipu/v1/query.grpc.pb.h"
#include "qipu/v1/work.grpc.pb.h"
#include "store/keys.h"
#include "tests/common/job_config.h"
#include "tests/common/temp_dir.h"
#include "tests/common/test_certs.h"

namespace qipu::coordinator {
namespace {

using qipu::v1::Role;

// --- the access table ---------------------------------------------------

TEST(AccessTable, PlacesEveryRpcOfEveryProto) {
  // Every `rpc` of every service in proto/qipu/v1/*.proto (read from the
  // generated descriptors of each file of the folder) has an explicit
  // entry, so that a new RPC is placed deliberately (not left to the
  // operator-only default by accident).
  std::set<std::string> table;
  for (const MethodAccess& m : AccessTable()) table.insert(m.method);
  int rpcs = 0;
  for (const auto& e : std::filesystem::directory_iterator(
           std::string(QIPU_SOURCE_DIR) + "/proto/qipu/v1")) {
    if (e.path().extension() != ".proto") continue;
    const std::string name = "qipu/v1/" + e.path().filename().string();
    const google::protobuf::FileDescriptor* f =
        google::protobuf::DescriptorPool::generated_pool()->FindFileByName(
            name);
    ASSERT_NE(f, nullptr) << name << " is not linked into the coordinator";
    for (int i = 0; i < f->service_count(); ++i) {
      const google::protobuf::ServiceDescriptor* svc = f->service(i);
      for (int j = 0; j < svc->method_count(); ++j) {
        ++rpcs;
        const std::string method =
            absl::StrCat("/", svc->full_name(), "/", svc->method(j)->name());
        EXPECT_TRUE(table.count(method))
            << method << " (" << name << ") is not in AccessTable()";
      }
    }
  }
  EXPECT_GE(rpcs, 28);
}

TEST(AccessTable, RolesAllowWhatTheyShould) {
  EXPECT_EQ(RequiredAccess("/grpc.health.v1.Health/Check"), Access::kOpen);
  EXPECT_EQ(RequiredAccess("/qipu.v1.WorkService/UploadGames"),
            Access::kWorker);
  EXPECT_EQ(RequiredAccess("/qipu.v1.JobService/SubmitJob"), Access::kOperator);
  EXPECT_EQ(RequiredAccess("/qipu.v1.QueryService/Openings"), Access::kReader);
  // Unknown methods need the strongest role.
  EXPECT_EQ(RequiredAccess("/qipu.v1.NewService/Anything"), Access::kOperator);
  EXPECT_EQ(RequiredAccess(""), Access::kOperator);
  for (Access a :
       {Access::kOpen, Access::kReader, Access::kWorker, Access::kOperator}) {
    EXPECT_TRUE(Allows(qipu::v1::ROLE_OPERATOR, a));
    EXPECT_FALSE(Allows(qipu::v1::ROLE_UNSPECIFIED, a) && a != Access::kOpen);
  }
  EXPECT_TRUE(Allows(qipu::v1::ROLE_READER, Access::kReader));
  EXPECT_FALSE(Allows(qipu::v1::ROLE_READER, Access::kWorker));
  EXPECT_FALSE(Allows(qipu::v1::ROLE_READER, Access::kOperator));
  EXPECT_TRUE(Allows(qipu::v1::ROLE_WORKER, Access::kWorker));
  EXPECT_FALSE(Allows(qipu::v1::ROLE_WORKER, Access::kReader));
  EXPECT_FALSE(Allows(qipu::v1::ROLE_WORKER, Access::kOperator));
  EXPECT_EQ(*ParseRole("worker"), qipu::v1::ROLE_WORKER);
  EXPECT_FALSE(ParseRole("admin").ok());
}

TEST(AccessTable, AuthOffTakesTokenAndAdminCallsFromThisHostOnly) {
  for (const char* peer :
       {"ipv4:127.0.0.1:5000", "ipv4:127.1.2.3:1", "ipv6:[::1]:5000",
        "ipv6:%5B::1%5D:5000", "ipv6:[::ffff:127.0.0.1]:80", "unix:/tmp/s"}) {
    EXPECT_TRUE(CheckLocalCaller(peer, "TokenService.Create").ok()) << peer;
  }
  for (const char* peer :
       {"ipv4:10.0.0.5:4242", "ipv6:[2001:db8::1]:1", "ipv4:0.0.0.0:1",
        "ipv6:[::ffff:10.0.0.1]:80", "ipv4:128.0.0.1:5", "", "something"}) {
    const absl::Status s = CheckLocalCaller(peer, "TokenService.Create");
    EXPECT_EQ(s.code(), absl::StatusCode::kPermissionDenied) << peer;
    // What, from where, why and what to do.
    for (const char* w :
         {"TokenService.Create", "--auth off", "loopback", "--auth required"}) {
      EXPECT_NE(s.message().find(w), std::string::npos) << s.message();
    }
  }
}

TEST(Exposure, NonLoopbackNeedsAuthOrInsecure) {
  for (const char* a : {"127.0.0.1:7070", "localhost:0", "[::1]:7070",
                        "127.9.9.9:1", "unix:/tmp/qipu.sock"}) {
    EXPECT_TRUE(CheckExposure("--listen", a, false, false).ok()) << a;
  }
  for (const char* a : {"0.0.0.0:7070", "[::]:7070", "10.0.0.5:7070",
                        "coord.example:7070", ":7070", "[::ffff:10.1.1.1]:1"}) {
    const absl::Status s = CheckExposure("--listen", a, false, false);
    EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << a;
    EXPECT_NE(s.message().find("--insecure"), std::string::npos);
    EXPECT_NE(s.message().find("--auth required"), std::string::npos);
    EXPECT_EQ(s.message().find('\n'), std::string::npos);
    EXPECT_TRUE(CheckExposure("--listen", a, true, false).ok()) << a;
    EXPECT_TRUE(CheckExposure("--listen", a, false, true).ok()) << a;
  }
  EXPECT_NE(CheckExposure("--http", "0.0.0.0:80", false, false)
                .message()
                .find("--http '0.0.0.0:80'"),
            std::string::npos);
  // Client certificates guard the gRPC port as tokens do.
  CoordinatorOptions o;
  EXPECT_FALSE(GrpcGuarded(o));
  o.tls.client_ca_pem = "-----BEGIN CERTIFICATE-----";
  EXPECT_TRUE(GrpcGuarded(o));
  o.tls.client_ca_pem.clear();
  o.auth_required = true;
  EXPECT_TRUE(GrpcGuarded(o));
}

// --- the registry -------------------------------------------------------

TEST(TokenRegistry, StoresOnlyTheHashAndSurvivesReopen) {
  test_util::TempDir dir("tokens");
  std::string token;
  uint64_t id = 0;
  {
    auto store = store::Store::Open(dir.Sub("db"), {});
    ASSERT_TRUE(store.ok()) << store.status();
    auto reg = engine::TokenRegistry::Load(store->get());
    ASSERT_TRUE(reg.ok()) << reg.status();
    auto c = (*reg)->Create(qipu::v1::ROLE_WORKER, "fleet");
    ASSERT_TRUE(c.ok()) << c.status();
    token = c->token;
    id = c->info.id();
    EXPECT_EQ(token.rfind("qipu_", 0), 0u);
    EXPECT_EQ(token.size(), 5u + 43u);
    auto other = (*reg)->Create(qipu::v1::ROLE_WORKER, "fleet");
    ASSERT_TRUE(other.ok());
    EXPECT_NE(other->token, token);
    EXPECT_FALSE((*reg)->Create(qipu::v1::ROLE_UNSPECIFIED, "x").ok());
    EXPECT_FALSE(
        (*reg)->Create(qipu::v1::ROLE_READER, std::string(201, 'n')).ok());
    // Nothing stored holds the token's text.
    store::Cursor it = (*store)->Scan(store::Records::kTokens);
    int records = 0;
    for (it.SeekToFirst(); it.Valid(); it.Next()) {
      ++records;
      EXPECT_EQ(std::string(it.value()).find(token.substr(5)),
                std::string::npos);
    }
    EXPECT_EQ(records, 2);
  }
  auto store = store::Store::Open(dir.Sub("db"), {});
  ASSERT_TRUE(store.ok()) << store.status();
  auto reg = engine::TokenRegistry::Load(store->get());
  ASSERT_TRUE(reg.ok()) << reg.status();
  auto g = (*reg)->Find(token);
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->id, id);
  EXPECT_EQ(g->role, qipu::v1::ROLE_WORKER);
  EXPECT_FALSE(g->revoked);
  EXPECT_FALSE((*reg)->Find(token + "x").has_value());
  EXPECT_FALSE((*reg)->Find("").has_value());
  ASSERT_TRUE((*reg)->Revoke(id).ok());
  EXPECT_TRUE((*reg)->Find(token)->revoked);
  EXPECT_EQ((*reg)->Revoke(999).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ((*reg)->List().size(), 2u);
  EXPECT_EQ((*reg)->ActiveCount(qipu::v1::ROLE_WORKER), 1);
}

// --- a coordinator with --auth required ---------------------------------

class AuthServer : public ::testing::Test {
 protected:
  void Start(const ServerTls& tls, bool auth) {
    CoordinatorOptions o;
    o.db_dir = dir_.Sub("db");
    o.listen = "127.0.0.1:0";
    o.tls = tls;
    o.auth_required = auth;
    // Tokens first, as an operator would (qipu token create --db).
    if (auth) {
      auto store = store::Store::Open(o.db_dir, {});
      ASSERT_TRUE(store.ok()) << store.status();
      auto reg = engine::TokenRegistry::Load(store->get());
      ASSERT_TRUE(reg.ok());
      for (Role r : {qipu::v1::ROLE_READER, qipu::v1::ROLE_WORKER,
                     qipu::v1::ROLE_OPERATOR}) {
        auto c = (*reg)->Create(r, "test");
        ASSERT_TRUE(c.ok());
        tokens_[r] = c->token;
      }
    }
    auto c = Coordinator::Start(o);
    ASSERT_TRUE(c.ok()) << c.status();
    coord_ = *std::move(c);
  }

  // A channel with `token` (none when empty), TLS when `ca` is set.
  std::shared_ptr<grpc::Channel> Channel(const std::string& token,
                                         base::ClientTls tls = {}) {
    base::ChannelOptions o;
    o.token = token;
    o.tls = std::move(tls);
    // A fresh connection per channel (no sharing across credentials).
    o.unshared_index = next_channel_++;
    return base::Dial(coord_->address(), o);
  }

  static grpc::StatusCode Status(const std::shared_ptr<grpc::Channel>& ch) {
    auto stub = qipu::v1::JobService::NewStub(ch);
    grpc::ClientContext ctx;
    base::SetDeadline(&ctx, absl::Seconds(5));
    qipu::v1::GetJobStatusResponse resp;
    return stub->GetJobStatus(&ctx, {}, &resp).error_code();
  }
  static grpc::Status Submit(const std::shared_ptr<grpc::Channel>& ch) {
    auto stub = qipu::v1::JobService::NewStub(ch);
    grpc::ClientContext ctx;
    base::SetDeadline(&ctx, absl::Seconds(5));
    qipu::v1::SubmitJobRequest req;
    req.set_games(4);
    *req.mutable_config() = test_util::SelfPlayConfig(9, /*seed=*/1);
    qipu::v1::SubmitJobResponse resp;
    return stub->SubmitJob(&ctx, req, &resp);
  }
  static grpc::StatusCode Lease(const std::shared_ptr<grpc::Channel>& ch) {
    auto stub = qipu::v1::WorkService::NewStub(ch);
    grpc::ClientContext ctx;
    base::SetDeadline(&ctx, absl::Seconds(5));
    qipu::v1::LeaseWorkRequest req;
    req.set_worker("w");
    req.set_max_games(1);
    qipu::v1::LeaseWorkResponse resp;
    return stub->LeaseWork(&ctx, req, &resp).error_code();
  }
  static grpc::StatusCode Health(const std::shared_ptr<grpc::Channel>& ch) {
    auto stub = grpc::health::v1::Health::NewStub(ch);
    grpc::ClientContext ctx;
    base::SetDeadline(&ctx, absl::Seconds(5));
    grpc::health::v1::HealthCheckResponse resp;
    return stub->Check(&ctx, {}, &resp).error_code();
  }

  test_util::TempDir dir_{"auth"};
  std::unique_ptr<Coordinator> coord_;
  std::map<Role, std::string> tokens_;
  int next_channel_ = 0;
};

TEST_F(AuthServer, RefusesCallsWithoutAValidToken) {
  Start({}, /*auth=*/true);
  // Health checks stay open.
  EXPECT_EQ(Health(Channel("")), grpc::StatusCode::OK);
  // No token, garbage, a near miss of a real one.
  EXPECT_EQ(Status(Channel("")), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Lease(Channel("")), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Status(Channel("qipu_nope")), grpc::StatusCode::UNAUTHENTICATED);
  std::string near = tokens_[qipu::v1::ROLE_OPERATOR];
  near.back() = near.back() == 'A' ? 'B' : 'A';
  EXPECT_EQ(Status(Channel(near)), grpc::StatusCode::UNAUTHENTICATED);
  // Metadata without the Bearer scheme.
  {
    auto stub = qipu::v1::JobService::NewStub(Channel(""));
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", tokens_[qipu::v1::ROLE_OPERATOR]);
    base::SetDeadline(&ctx, absl::Seconds(5));
    qipu::v1::GetJobStatusResponse resp;
    EXPECT_EQ(stub->GetJobStatus(&ctx, {}, &resp).error_code(),
              grpc::StatusCode::UNAUTHENTICATED);
  }
  // A refused submit did nothing.
  const grpc::Status s = Submit(Channel(""));
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_NE(s.error_message().find("token"), std::string::npos);
  EXPECT_TRUE(coord_->jobs().Status(0)->empty());
}

TEST_F(AuthServer, ChecksRolesPerMethod) {
  Start({}, /*auth=*/true);
  auto reader = Channel(tokens_[qipu::v1::ROLE_READER]);
  auto worker = Channel(tokens_[qipu::v1::ROLE_WORKER]);
  auto op = Channel(tokens_[qipu::v1::ROLE_OPERATOR]);
  // Readers read, and nothing else.
  EXPECT_EQ(Status(reader), grpc::StatusCode::OK);
  const grpc::Status rs = Submit(reader);
  EXPECT_EQ(rs.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_NE(rs.error_message().find("reader"), std::string::npos)
      << rs.error_message();
  EXPECT_EQ(Lease(reader), grpc::StatusCode::PERMISSION_DENIED);
  // Workers lease, and neither read nor submit.
  EXPECT_EQ(Lease(worker), grpc::StatusCode::OK);
  EXPECT_EQ(Status(worker), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Submit(worker).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  // Operators do everything.
  const grpc::Status os = Submit(op);
  EXPECT_TRUE(os.ok()) << os.error_message();
  EXPECT_EQ(Status(op), grpc::StatusCode::OK);
  EXPECT_EQ(Lease(op), grpc::StatusCode::OK);
  EXPECT_EQ(coord_->jobs().Status(0)->size(), 1u);
  // Token administration is for operators only.
  for (auto& [ch, code] :
       {std::pair{reader, grpc::StatusCode::PERMISSION_DENIED},
        std::pair{worker, grpc::StatusCode::PERMISSION_DENIED},
        std::pair{op, grpc::StatusCode::OK}}) {
    auto stub = qipu::v1::TokenService::NewStub(ch);
    grpc::ClientContext ctx;
    base::SetDeadline(&ctx, absl::Seconds(5));
    qipu::v1::ListTokensResponse resp;
    EXPECT_EQ(stub->List(&ctx, {}, &resp).error_code(), code);
  }
}

TEST_F(AuthServer, RevokedTokensAndTokensOfAnotherDatabaseAreRefused) {
  Start({}, /*auth=*/true);
  auto op = qipu::v1::TokenService::NewStub(
      Channel(tokens_[qipu::v1::ROLE_OPERATOR]));
  qipu::v1::CreateTokenRequest creq;
  creq.set_role(qipu::v1::ROLE_READER);
  creq.set_name("dashboard");
  qipu::v1::CreateTokenResponse created;
  {
    grpc::ClientContext ctx;
    base::SetDeadline(&ctx, absl::Seconds(5));
    ASSERT_TRUE(op->Create(&ctx, creq, &created).ok());
  }
  auto reader = Channel(created.token());
  EXPECT_EQ(Status(reader), grpc::StatusCode::OK);
  {
    grpc::ClientContext ctx;
    base::SetDeadline(&ctx, absl::Seconds(5));
    qipu::v1::RevokeTokenRequest req;
    req.set_id(created.info().id());
    qipu::v1::RevokeTokenResponse resp;
    ASSERT_TRUE(op->Revoke(&ctx, req, &resp).ok());
    EXPECT_TRUE(resp.info().revoked());
  }
  // At once, on the same channel.
  EXPECT_EQ(Status(reader), grpc::StatusCode::UNAUTHENTICATED);
  {
    grpc::ClientContext ctx;
    base::SetDeadline(&ctx, absl::Seconds(5));
    qipu::v1::ListTokensResponse resp;
    ASSERT_TRUE(op->List(&ctx, {}, &resp).ok());
    EXPECT_EQ(resp.tokens_size(), 4);
    EXPECT_EQ(resp.DebugString().find(created.token()), std::string::npos);
  }
  // An operator token of another database.
  test_util::TempDir other("auth-other");
  auto store = store::Store::Open(other.Sub("db"), {});
  ASSERT_TRUE(store.ok());
  auto reg = engine::TokenRegistry::Load(store->get());
  ASSERT_TRUE(reg.ok());
  auto foreign = (*reg)->Create(qipu::v1::ROLE_OPERATOR, "elsewhere");
  ASSERT_TRUE(foreign.ok());
  EXPECT_EQ(Status(Channel(foreign->token)), grpc::StatusCode::UNAUTHENTICATED);
}

TEST_F(AuthServer, AuthOffNeedsNoToken) {
  Start({}, /*auth=*/false);
  EXPECT_EQ(Status(Channel("")), grpc::StatusCode::OK);
  EXPECT_EQ(Status(Channel("qipu_whatever")), grpc::StatusCode::OK);
}

TEST_F(AuthServer, AuthorizationIsReadOneWay) {
  Start({}, /*auth=*/true);
  const std::string reader = tokens_[qipu::v1::ROLE_READER];
  // `authorization` metadata as given (no base::Dial token): the code.
  auto call = [&](const std::vector<std::string>& values) {
    auto stub = qipu::v1::JobService::NewStub(Channel(""));
    grpc::ClientContext ctx;
    for (const std::string& v : values) ctx.AddMetadata("authorization", v);
    base::SetDeadline(&ctx, absl::Seconds(5));
    qipu::v1::GetJobStatusResponse resp;
    return stub->GetJobStatus(&ctx, {}, &resp);
  };
  // The scheme in any case, blanks around the token.
  for (const std::string& v :
       {"Bearer " + reader, "bearer " + reader, "BEARER   " + reader + " "}) {
    const grpc::Status s = call({v});
    EXPECT_TRUE(s.ok()) << v << ": " << s.error_message();
  }
  // Another scheme, no scheme, no token, blanks inside.
  for (const std::string& v : {"Basic " + reader, reader, std::string("Bearer"),
                               "Bearer " + reader + " x"}) {
    EXPECT_EQ(call({v}).error_code(), grpc::StatusCode::UNAUTHENTICATED) << v;
  }
  // Two headers, even the same valid token twice.
  const grpc::Status two = call({"Bearer " + reader, "Bearer " + reader});
  EXPECT_EQ(two.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_NE(two.error_message().find("2 authorization headers"),
            std::string::npos)
      << two.error_message();
  // A bare token is never echoed back.
  EXPECT_EQ(call({reader}).error_message().find(reader.substr(5, 10)),
            std::string::npos);
}

TEST_F(AuthServer, AuthOffServesTokensToThisHostOnly) {
  Start({}, /*auth=*/false);
  auto create = [](const std::shared_ptr<grpc::Channel>& ch) {
    auto stub = qipu::v1::TokenService::NewStub(ch);
    grpc::ClientContext ctx;
    base::SetDeadline(&ctx, absl::Seconds(5));
    qipu::v1::CreateTokenRequest req;
    req.set_role(qipu::v1::ROLE_READER);
    qipu::v1::CreateTokenResponse resp;
    return stub->Create(&ctx, req, &resp);
  };
  // 127.0.0.1 is this host.
  const grpc::Status local = create(Channel(""));
  EXPECT_TRUE(local.ok()) << local.error_message();
  // The in-process transport names no peer ("unknown" in gRPC 1.51): the
  // rule fails closed. (`qipu local` uses it for its worker only.)
  const grpc::Status inproc = create(coord_->InProcessChannel());
  EXPECT_EQ(inproc.error_code(), grpc::StatusCode::PERMISSION_DENIED)
      << inproc.error_message();
  EXPECT_NE(inproc.error_message().find("--auth off"), std::string::npos);
  EXPECT_EQ(coord_->tokens().Count().active, 1);
}

TEST(CoordinatorStart, RefusesANonLoopbackAddressWithAuthOff) {
  test_util::TempDir dir("exposure");
  CoordinatorOptions o;
  o.db_dir = dir.Sub("db");
  o.listen = "0.0.0.0:0";
  auto c = Coordinator::Start(o);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(c.status().message().find("--listen '0.0.0.0:0'"),
            std::string::npos)
      << c.status();
  // Refused before anything was opened.
  EXPECT_FALSE(std::filesystem::exists(o.db_dir));
  // --insecure (or auth required) passes the check: 192.0.2.1 (TEST-NET-1,
  // on no interface here) then fails to bind, which shows it got that far
  // without serving on any real interface.
  o.insecure = true;
  o.listen = "192.0.2.1:0";
  c = Coordinator::Start(o);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), absl::StatusCode::kUnavailable) << c.status();
}

// --- TLS ------------------------------------------------------------------

class TlsServer : public AuthServer {
 protected:
  static void SetUpTestSuite() {
    certs_dir_ = new test_util::TempDir("certs");
    ours_ = new test_util::TestCerts(
        test_util::TestCerts::Make(certs_dir_->Sub("ours"), {"worker"}));
    theirs_ = new test_util::TestCerts(
        test_util::TestCerts::Make(certs_dir_->Sub("theirs"), {"worker"}));
  }
  static void TearDownTestSuite() {
    delete ours_;
    delete theirs_;
    delete certs_dir_;
  }

  static ServerTls Tls(bool mtls) {
    ServerTls t;
    EXPECT_TRUE(LoadServerTls(ours_->server_cert(), ours_->server_key(),
                              mtls ? ours_->ca() : "", &t)
                    .ok());
    return t;
  }
  // The client side: trusting `ca`'s CA, with `client`'s certificate.
  static base::ClientTls Client(const test_util::TestCerts* ca,
                                const test_util::TestCerts* client = nullptr) {
    base::ClientTls t;
    EXPECT_TRUE(base::LoadClientTls(
                    ca->ca(), client ? client->client_cert("worker") : "",
                    client ? client->client_key("worker") : "", &t)
                    .ok());
    return t;
  }

  static test_util::TempDir* certs_dir_;
  static test_util::TestCerts* ours_;
  static test_util::TestCerts* theirs_;
};
test_util::TempDir* TlsServer::certs_dir_ = nullptr;
test_util::TestCerts* TlsServer::ours_ = nullptr;
test_util::TestCerts* TlsServer::theirs_ = nullptr;

TEST_F(TlsServer, ServesTlsAndRefusesPlainTextAndOtherCas) {
  Start(Tls(/*mtls=*/false), /*auth=*/false);
  EXPECT_EQ(Status(Channel("", Client(ours_))), grpc::StatusCode::OK);
  // Plain text against the TLS port: no HTTP/2 connection at all.
  EXPECT_EQ(Status(Channel("")), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(Health(Channel("")), grpc::StatusCode::UNAVAILABLE);
  // A client that trusts another CA does not accept this server.
  EXPECT_EQ(Status(Channel("", Client(theirs_))),
            grpc::StatusCode::UNAVAILABLE);
  // The certificate names 127.0.0.1 and localhost, nothing else.
  base::ClientTls wrong_name = Client(ours_);
  wrong_name.server_name = "coordinator.example";
  EXPECT_EQ(Status(Channel("", wrong_name)), grpc::StatusCode::UNAVAILABLE);
}

TEST_F(TlsServer, MutualTlsWantsAClientCertificateOfItsCa) {
  Start(Tls(/*mtls=*/true), /*auth=*/false);
  EXPECT_EQ(Status(Channel("", Client(ours_, ours_))), grpc::StatusCode::OK);
  // No client certificate, or one signed by another CA.
  EXPECT_EQ(Status(Channel("", Client(ours_))), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(Status(Channel("", Client(ours_, theirs_))),
            grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(Status(Channel("")), grpc::StatusCode::UNAVAILABLE);
}

TEST_F(TlsServer, TlsWithTokens) {
  Start(Tls(/*mtls=*/true), /*auth=*/true);
  EXPECT_EQ(Health(Channel("", Client(ours_, ours_))), grpc::StatusCode::OK);
  EXPECT_EQ(Status(Channel("", Client(ours_, ours_))),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(
      Status(Channel(tokens_[qipu::v1::ROLE_READER], Client(ours_, ours_))),
      grpc::StatusCode::OK);
  EXPECT_EQ(
      Lease(Channel(tokens_[qipu::v1::ROLE_READER], Client(ours_, ours_))),
      grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(
      Lease(Channel(tokens_[qipu::v1::ROLE_WORKER], Client(ours_, ours_))),
      grpc::StatusCode::OK);
}

TEST(ServerTlsFiles, BadFlagsAreNamed) {
  ServerTls t;
  auto s = LoadServerTls("a.pem", "", "", &t);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("--tls-key"), std::string::npos);
  s = LoadServerTls("", "", "ca.pem", &t);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  s = LoadServerTls("/nonexistent/cert.pem", "/nonexistent/key.pem", "", &t);
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_NE(s.message().find("--tls-cert: /nonexistent/cert.pem"),
            std::string::npos)
      << s;
  test_util::TempDir dir("tls-files");
  std::ofstream(dir.Sub("x.pem")) << "not a certificate\n";
  s = LoadServerTls(dir.Sub("x.pem"), dir.Sub("x.pem"), "", &t);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  base::ClientTls c;
  s = base::LoadClientTls("", "c.pem", "k.pem", &c);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(base::ValidateToken("has space", "--token").ok());
  EXPECT_TRUE(base::ValidateToken("qipu_abc-_", "--token").ok());
}

}  // namespace
}  // namespace qipu::coordinator
