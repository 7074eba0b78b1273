// Process test: every RPC of proto/qipu/v1 (and the health and reflection
// services) called by each of five callers -- no token, a worker, a
// reader and an operator token, and a revoked operator token -- against a
// real qipu-coordinator with `--auth required`, and the HTTP API of its
// `--http` the same way. One table gives, per method, a minimal request
// and the code each caller gets: UNAUTHENTICATED without a valid token,
// PERMISSION_DENIED for a role that may not call it, and for the others
// the exact code that request yields (OK, or NOT_FOUND for a game that is
// not stored, ...). The methods come from the protobuf descriptors: a
// method missing from the table fails the test, as does a row for a
// method that no longer exists. Callers run in the order no token,
// worker, reader, revoked, operator, so a refused call that did anything
// would show in the operator's answer and in the checks at the end.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/channel.h"
#include "engine/tokens.h"
#include "gtest/gtest.h"
#include "qipu/v1/auth.pb.h"
#include "qipu/v1/query.pb.h"
#include "qipu/v1/tournament_service.pb.h"
#include "qipu/v1/work.pb.h"
#include "store/store.h"
#include "tests/common/http_get.h"
#include "tests/ops/any_rpc.h"
#include "tests/ops/process_fixture.h"
#include "tests/ops/rpc_table.h"

namespace qipu::testing {
namespace {

using grpc::StatusCode;

// The HTTP status of a gRPC code, as web/api.h maps them.
int HttpStatusOf(StatusCode c) {
  switch (c) {
    case StatusCode::OK:
      return 200;
    case StatusCode::INVALID_ARGUMENT:
    case StatusCode::FAILED_PRECONDITION:
      return 400;
    case StatusCode::UNAUTHENTICATED:
      return 401;
    case StatusCode::PERMISSION_DENIED:
      return 403;
    case StatusCode::NOT_FOUND:
      return 404;
    default:
      return 500;
  }
}

class OpsRoleTable : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(tmp_.path().empty());
    // The tokens, made on the database before the coordinator opens it (as
    // `qipu token create --db` does).
    {
      auto store = store::Store::Open(tmp_.Sub("db"), {});
      ASSERT_TRUE(store.ok()) << store.status();
      auto reg = engine::TokenRegistry::Load(store->get());
      ASSERT_TRUE(reg.ok()) << reg.status();
      auto make = [&](qipu::v1::Role role) {
        auto c = (*reg)->Create(role, "role table");
        EXPECT_TRUE(c.ok()) << c.status();
        return c.ok() ? *std::move(c) : engine::TokenRegistry::Created{};
      };
      tokens_[kWorker] = make(qipu::v1::ROLE_WORKER).token;
      tokens_[kReader] = make(qipu::v1::ROLE_READER).token;
      tokens_[kOperator] = make(qipu::v1::ROLE_OPERATOR).token;
      const auto revoked = make(qipu::v1::ROLE_OPERATOR);
      tokens_[kRevoked] = revoked.token;
      ASSERT_TRUE((*reg)->Revoke(revoked.info.id()).ok());
      // Revoked by the table's TokenService.Revoke row.
      spare_id_ = make(qipu::v1::ROLE_READER).info.id();
    }
    coord_ = std::make_unique<CoordinatorProcess>(
        tmp_.Sub("db"), tmp_.Sub("coordinator"),
        std::vector<std::string>{"--auth", "required", "--http",
                                 "127.0.0.1:0"});
    ASSERT_TRUE(coord_->Start().ok()) << coord_->LogTail();
    const std::string out = coord_->process()->Stdout();
    const size_t at = out.find("http on 127.0.0.1:");
    ASSERT_NE(at, std::string::npos) << out;
    http_port_ = std::atoi(out.c_str() + at + 18);
    ASSERT_GT(http_port_, 0) << out;
    channel_ = base::Dial(coord_->address(), base::ChannelOptions{});
  }

  // `text` with the table's placeholders filled.
  std::string Fill(const std::string& text) const {
    return FillRequest(text, {tmp_.Sub("backup"), spare_id_});
  }

  // The authorization metadata of `caller`.
  std::vector<std::pair<std::string, std::string>> Auth(Caller caller) const {
    if (caller == kNone) return {};
    return {{"authorization", "Bearer " + tokens_[caller]}};
  }

  TempDir tmp_;
  std::string tokens_[kCallers];
  uint64_t spare_id_ = 0;
  std::unique_ptr<CoordinatorProcess> coord_;
  int http_port_ = 0;
  std::shared_ptr<grpc::Channel> channel_;
};

TEST(OpsRpcTable, HasEveryRpcOfTheProtosAndNoOther) {
  std::set<std::string> table;
  for (const Row& r : RpcTable()) {
    EXPECT_TRUE(table.insert(r.method).second) << r.method << " twice";
  }
  std::set<std::string> methods;
  for (const auto* m : QipuMethods()) {
    methods.insert(MethodPath(m));
    EXPECT_TRUE(table.count(MethodPath(m)))
        << MethodPath(m) << " (" << m->file()->name()
        << ") is not in the role table";
  }
  EXPECT_GE(methods.size(), 28u);
  for (const Row& r : RpcTable()) {
    if (r.method.rfind("/qipu.", 0) == 0) {
      EXPECT_TRUE(methods.count(r.method))
          << r.method << " is in the table but in no proto";
    }
  }
}

TEST_F(OpsRoleTable, EachCallerGetsTheTablesCodeOverGrpcAndHttp) {
  // Job 1, with two games to lease.
  {
    Client op(coord_->address());
    auto ctx = op.Context();
    ctx->AddMetadata("authorization", "Bearer " + tokens_[kOperator]);
    qipu::v1::SubmitJobRequest req;
    req.set_games(2);
    *req.mutable_config() = JobConfigFor(9, 7);
    qipu::v1::SubmitJobResponse resp;
    auto stub = qipu::v1::JobService::NewStub(op.channel());
    ASSERT_TRUE(stub->SubmitJob(ctx.get(), req, &resp).ok());
    ASSERT_EQ(resp.job(), 1u);
  }
  const auto* pool = google::protobuf::DescriptorPool::generated_pool();
  for (const Row& row : RpcTable()) {
    std::string dotted = row.method.substr(1);
    std::replace(dotted.begin(), dotted.end(), '/', '.');
    const google::protobuf::MethodDescriptor* m =
        pool->FindMethodByName(dotted);
    ASSERT_NE(m, nullptr) << row.method;
    std::vector<std::string> frames;
    for (const std::string& text : row.messages) {
      auto bytes = RequestBytes(m->input_type(), Fill(text));
      ASSERT_TRUE(bytes.ok()) << row.method << ": " << bytes.status();
      frames.push_back(*bytes);
    }
    for (Caller c : {kNone, kWorker, kReader, kRevoked, kOperator}) {
      const RawCallResult r =
          CallRaw(channel_, row.method, frames, Auth(c),
                  absl::Seconds(30) * kSlowdown, row.cancel_after);
      EXPECT_EQ(r.status.error_code(), row.codes[c])
          << row.method << " by " << kCallerNames[c] << ": "
          << r.status.error_message();
      if (row.codes[c] == kUnauth || row.codes[c] == kDenied) {
        EXPECT_TRUE(r.responses.empty()) << row.method;
      }
    }
    if (row.http.empty()) continue;
    for (Caller c : {kNone, kWorker, kReader, kRevoked, kOperator}) {
      std::vector<std::pair<std::string, std::string>> headers;
      if (c != kNone) {
        headers.push_back({"Authorization", "Bearer " + tokens_[c]});
      }
      auto r = test_util::HttpRequest(http_port_, row.http, headers);
      ASSERT_TRUE(r.ok()) << row.http << ": " << r.status();
      EXPECT_EQ(r->status, HttpStatusOf(row.codes[c]))
          << row.http << " by " << kCallerNames[c] << ": " << r->body;
    }
  }
  // What the refused calls did: nothing. One job was submitted by the
  // table (job 2, cancelled), one token made and one revoked, one
  // tournament made, one backup written.
  {
    const RawCallResult jobs = CallRaw(
        channel_, "/qipu.v1.JobService/GetJobStatus",
        {*RequestBytes(qipu::v1::GetJobStatusRequest::descriptor(), "")},
        Auth(kOperator));
    ASSERT_TRUE(jobs.status.ok()) << jobs.status.error_message();
    qipu::v1::GetJobStatusResponse resp;
    ASSERT_TRUE(resp.ParseFromString(jobs.responses.at(0)));
    ASSERT_EQ(resp.jobs_size(), 2);
    EXPECT_EQ(resp.jobs(1).state(), qipu::v1::JOB_STATE_CANCELLED);
  }
  {
    const RawCallResult list =
        CallRaw(channel_, "/qipu.v1.TokenService/List", {""}, Auth(kOperator));
    ASSERT_TRUE(list.status.ok()) << list.status.error_message();
    qipu::v1::ListTokensResponse resp;
    ASSERT_TRUE(resp.ParseFromString(list.responses.at(0)));
    // Five made before the start, one by the table.
    ASSERT_EQ(resp.tokens_size(), 6);
    int revoked = 0;
    for (const auto& t : resp.tokens()) revoked += t.revoked() ? 1 : 0;
    EXPECT_EQ(revoked, 2);
  }
  {
    const RawCallResult list = CallRaw(
        channel_, "/qipu.v1.TournamentService/List", {""}, Auth(kOperator));
    ASSERT_TRUE(list.status.ok()) << list.status.error_message();
    qipu::v1::ListTournamentsResponse resp;
    ASSERT_TRUE(resp.ParseFromString(list.responses.at(0)));
    EXPECT_EQ(resp.tournaments_size(), 1);
  }
  // The operator's backup is there.
  EXPECT_TRUE(std::filesystem::is_directory(tmp_.Sub("backup")));
  channel_.reset();
  EXPECT_EQ(coord_->Stop(), 0) << coord_->LogTail();
}

TEST_F(OpsRoleTable, AuthorizationIsReadTheSameOverGrpcAndHttp) {
  const std::string t = tokens_[kReader];
  const std::string results =
      *RequestBytes(qipu::v1::ResultsRequest::descriptor(), "");
  struct Case {
    std::string value;
    bool accepted;
  };
  for (const Case& c : std::vector<Case>{{"Bearer " + t, true},
                                         {"bearer " + t, true},
                                         {"BEARER   " + t + " ", true},
                                         {"Basic " + t, false},
                                         {t, false},
                                         {"Bearer", false},
                                         {"Bearer " + t + "x", false}}) {
    const RawCallResult g = CallRaw(channel_, "/qipu.v1.QueryService/Results",
                                    {results}, {{"authorization", c.value}});
    EXPECT_EQ(g.status.error_code(), c.accepted ? StatusCode::OK : kUnauth)
        << c.value << ": " << g.status.error_message();
    auto h = test_util::HttpRequest(http_port_, "/api/v1/results",
                                    {{"Authorization", c.value}});
    ASSERT_TRUE(h.ok()) << h.status();
    EXPECT_EQ(h->status, c.accepted ? 200 : 401) << c.value << ": " << h->body;
  }
  // Two headers: refused over gRPC even when both are the same valid
  // token. (Over HTTP the transport counts them: web_api_test.)
  const RawCallResult two = CallRaw(
      channel_, "/qipu.v1.QueryService/Results", {results},
      {{"authorization", "Bearer " + t}, {"authorization", "Bearer " + t}});
  EXPECT_EQ(two.status.error_code(), kUnauth) << two.status.error_message();
}

}  // namespace
}  // namespace qipu::testing
