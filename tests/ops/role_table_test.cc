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
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "base/channel.h"
#include "coordinator/tokens.h"
#include "gtest/gtest.h"
#include "qipu/v1/auth.pb.h"
#include "qipu/v1/work.pb.h"
#include "store/store.h"
#include "tests/common/http_get.h"
#include "tests/ops/any_rpc.h"
#include "tests/ops/process_fixture.h"

namespace qipu::testing {
namespace {

using grpc::StatusCode;

// The five callers, in the order each row is tried.
enum Caller { kNone, kWorker, kReader, kRevoked, kOperator, kCallers };
constexpr const char* kCallerNames[kCallers] = {"no token", "worker", "reader",
                                                "revoked operator", "operator"};

// The code each caller gets, indexed by Caller.
using Codes = std::array<StatusCode, kCallers>;
constexpr StatusCode kUnauth = StatusCode::UNAUTHENTICATED;
constexpr StatusCode kDenied = StatusCode::PERMISSION_DENIED;

// A method anyone may call (health checks): `c` for every caller.
constexpr Codes Open(StatusCode c) { return {c, c, c, c, c}; }
// Readers and operators get `c`; workers are denied.
constexpr Codes Readers(StatusCode c) {
  return {kUnauth, kDenied, c, kUnauth, c};
}
// Workers and operators get `c`; readers are denied.
constexpr Codes Workers(StatusCode c) {
  return {kUnauth, c, kDenied, kUnauth, c};
}
// Only operators get `c`.
constexpr Codes Operators(StatusCode c) {
  return {kUnauth, kDenied, kDenied, kUnauth, c};
}

// One method: a minimal request (each string one message, in protobuf
// text format of the method's request type, with the placeholders of
// Fill(); none: a stream of no messages) and the code of each caller.
struct Row {
  std::string method;
  std::vector<std::string> messages;
  Codes codes;
  // The HTTP API endpoint that answers the same query ("" for none): the
  // same callers get the HTTP form of the same codes.
  std::string http;
  // For a stream that does not end by itself (health Watch): cancelled
  // after this many responses, so CANCELLED is what its callers get.
  int cancel_after = 0;
};

// The table. Order matters where one row makes what a later row uses:
// job 1 is submitted before the table (2 games), SubmitJob makes job 2,
// which CancelJob cancels; tournament 1 is created before it is
// read or changed.
const std::vector<Row>& Table() {
  static const auto* const rows = new std::vector<Row>{
      {"/grpc.health.v1.Health/Check",
       {""},
       Open(StatusCode::OK),
       "/api/v1/health"},
      {"/grpc.health.v1.Health/Watch",
       {""},
       Open(StatusCode::CANCELLED),
       "",
       /*cancel_after=*/1},
      {"/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
       {"list_services: ''"},
       Readers(StatusCode::OK)},

      {"/qipu.v1.JobService/SubmitJob",
       {"games: 2 config { $CONFIG }"},
       Operators(StatusCode::OK)},
      {"/qipu.v1.JobService/GetJobStatus", {"job: 1"}, Readers(StatusCode::OK)},
      {"/qipu.v1.JobService/CancelJob", {"job: 2"}, Operators(StatusCode::OK)},

      // Job 1 has two games: the worker leases one, the operator the other.
      {"/qipu.v1.WorkService/LeaseWork",
       {"worker: 'w' max_games: 1 job: 1"},
       Workers(StatusCode::OK)},
      {"/qipu.v1.WorkService/RenewLease",
       {"lease_id: 'no-such-lease' worker: 'w'"},
       Workers(StatusCode::NOT_FOUND)},
      {"/qipu.v1.WorkService/ReturnLease",
       {"lease_id: 'no-such-lease' worker: 'w'"},
       Workers(StatusCode::NOT_FOUND)},
      {"/qipu.v1.WorkService/UploadGames", {}, Workers(StatusCode::OK)},

      {"/qipu.v1.QueryService/Openings",
       {"filter { width: 9 height: 9 }"},
       Readers(StatusCode::OK),
       "/api/v1/openings?size=9"},
      {"/qipu.v1.QueryService/Ko", {""}, Readers(StatusCode::OK), "/api/v1/ko"},
      {"/qipu.v1.QueryService/Cycles",
       {""},
       Readers(StatusCode::OK),
       "/api/v1/cycles"},
      {"/qipu.v1.QueryService/Results",
       {""},
       Readers(StatusCode::OK),
       "/api/v1/results"},
      {"/qipu.v1.QueryService/GetGame",
       {"id: 's1-0'"},
       Readers(StatusCode::NOT_FOUND),
       "/api/v1/game/s1-0"},
      {"/qipu.v1.QueryService/Pattern",
       {"filter { width: 9 height: 9 } pattern: 'X' "
        "placement: PATTERN_PLACEMENT_ANYWHERE"},
       Readers(StatusCode::OK),
       "/api/v1/pattern?size=9&pattern=X"},

      {"/qipu.v1.CorpusService/Import",
       {"file: 'a.sgf' data: '(;GM[1]FF[4]SZ[9];B[ee];W[cc])'"},
       Operators(StatusCode::OK)},
      {"/qipu.v1.CorpusService/Export", {"limit: 1"}, Readers(StatusCode::OK)},

      {"/qipu.v1.TrainingService/Batches",
       {"batch_size: 1 max_rows: 1"},
       Readers(StatusCode::OK)},

      {"/qipu.v1.TournamentService/Create",
       {"name: 'cup' system: TOURNAMENT_SYSTEM_ROUND_ROBIN"},
       Operators(StatusCode::OK)},
      {"/qipu.v1.TournamentService/Get",
       {"tournament: '1'"},
       Readers(StatusCode::OK)},
      {"/qipu.v1.TournamentService/List", {""}, Readers(StatusCode::OK)},
      {"/qipu.v1.TournamentService/AddPlayer",
       {"tournament: '1' name: 'p1'"},
       Operators(StatusCode::OK)},
      {"/qipu.v1.TournamentService/AddWarnings",
       {"tournament: '1' name: 'p1' count: 1"},
       Operators(StatusCode::OK)},
      {"/qipu.v1.TournamentService/Withdraw",
       {"tournament: '1' name: 'p1'"},
       Operators(StatusCode::OK)},
      {"/qipu.v1.TournamentService/Pair",
       {"tournament: '1'"},
       Operators(StatusCode::FAILED_PRECONDITION)},
      {"/qipu.v1.TournamentService/SetResult",
       {"tournament: '1' round: 1 table: 1"},
       Operators(StatusCode::INVALID_ARGUMENT)},
      {"/qipu.v1.TournamentService/RecordGame",
       {"tournament: '1' round: 1 table: 1"},
       Operators(StatusCode::INVALID_ARGUMENT)},

      {"/qipu.v1.AdminService/Backup",
       {"to: '$BACKUP'"},
       Operators(StatusCode::OK)},

      {"/qipu.v1.TokenService/Create",
       {"role: ROLE_READER name: 'table'"},
       Operators(StatusCode::OK)},
      {"/qipu.v1.TokenService/List", {""}, Operators(StatusCode::OK)},
      {"/qipu.v1.TokenService/Revoke",
       {"id: $SPARE"},
       Operators(StatusCode::OK)},
  };
  return *rows;
}

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
      auto reg = coordinator::TokenRegistry::Load(store->get());
      ASSERT_TRUE(reg.ok()) << reg.status();
      auto make = [&](qipu::v1::Role role) {
        auto c = (*reg)->Create(role, "role table");
        EXPECT_TRUE(c.ok()) << c.status();
        return c.ok() ? *std::move(c) : coordinator::TokenRegistry::Created{};
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

  // `text` with the placeholders filled: $CONFIG (a 9x9 job's
  // configuration), $BACKUP (a fresh directory), $SPARE (the id of a
  // token the table revokes).
  std::string Fill(const std::string& text) const {
    return absl::StrReplaceAll(
        text, {{"$CONFIG", JobConfigFor(9, 7).ShortDebugString()},
               {"$BACKUP", tmp_.Sub("backup")},
               {"$SPARE", absl::StrCat(spare_id_)}});
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

TEST_F(OpsRoleTable, EveryRpcOfTheProtosIsInTheTable) {
  std::set<std::string> table;
  for (const Row& r : Table()) {
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
  for (const Row& r : Table()) {
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
  for (const Row& row : Table()) {
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
      if (c != kNone)
        headers.push_back({"Authorization", "Bearer " + tokens_[c]});
      auto r = test_util::HttpRequest(http_port_, row.http, headers);
      ASSERT_TRUE(r.ok()) << row.http << ": " << r.status();
      EXPECT_EQ(r->status, HttpStatusOf(row.codes[c]))
          << row.http << " by " << kCallerNames[c] << ": " << r->body;
    }
  }
  // What the refused calls did: nothing. One job was submitted by the
  // table (job 2, cancelled), one token made and one revoked, one
  // tournament made.
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
  channel_.reset();
  EXPECT_EQ(coord_->Stop(), 0) << coord_->LogTail();
}

}  // namespace
}  // namespace qipu::testing
