// The coordinator's limits (coordinator/limits.h) against a real server
// on an ephemeral port, tried as a greedy client would: a flood of streams
// from one client address is refused with RESOURCE_EXHAUSTED beyond the
// cap while another client is served; an oversize request is refused; an
// export limit above the cap is refused, and exports that stop at the
// cap of games or time are paged to the end by the client.
#include "coordinator/limits.h"

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "backend/corpus_client.h"
#include "base/channel.h"
#include "coordinator/coordinator.h"
#include "coordinator/corpus_service.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "qipu/v1/query.grpc.pb.h"
#include "tests/coordinator/query_fixture.h"

namespace qipu::coordinator {
namespace {

using ::testing::HasSubstr;
using testing::JobConfigFor;
using testing::PlayJob;
using testing::TempDir;

constexpr char kSgf[] = "(;GM[1]FF[4]SZ[9]KM[7.5];B[ee];W[cc])";

std::unique_ptr<Coordinator> StartWith(const std::string& dir,
                                       const std::string& listen,
                                       const LimitsOptions& limits,
                                       int max_message_bytes = 32 << 20) {
  CoordinatorOptions o;
  o.db_dir = dir;
  o.listen = listen;
  o.store.block_cache_bytes = 16u << 20;
  o.store.sync = false;
  o.limits = limits;
  o.max_message_bytes = max_message_bytes;
  auto c = Coordinator::Start(o);
  if (!c.ok()) return nullptr;
  return std::move(*c);
}

using ImportStream =
    grpc::ClientReaderWriter<qipu::v1::ImportRequest, qipu::v1::ImportResponse>;

// An Import stream held open: one file sent and answered (so the server's
// handler holds its place), then nothing until Close().
struct OpenImport {
  grpc::ClientContext ctx;
  std::unique_ptr<ImportStream> stream;

  // Opens the stream on `stub` and imports one file through it; false
  // when the server ended the stream instead (its status in *status).
  bool Open(qipu::v1::CorpusService::Stub& stub, grpc::Status* status) {
    base::SetDeadline(&ctx, absl::Seconds(60));
    stream = stub.Import(&ctx);
    qipu::v1::ImportRequest req;
    req.set_file("one.sgf");
    req.set_data(kSgf);
    stream->Write(req);
    qipu::v1::ImportResponse resp;
    if (stream->Read(&resp)) return true;
    *status = stream->Finish();
    return false;
  }
  grpc::Status Close() {
    stream->WritesDone();
    qipu::v1::ImportResponse resp;
    while (stream->Read(&resp)) {
    }
    return stream->Finish();
  }
};

// One export call; the games' count, the status and the resume trailer.
struct ExportCall {
  grpc::Status status;
  uint64_t games = 0;
  std::string resume;
};
ExportCall ExportOnce(qipu::v1::CorpusService::Stub& stub,
                      const qipu::v1::ExportRequest& req) {
  grpc::ClientContext ctx;
  base::SetDeadline(&ctx, absl::Seconds(60));
  auto reader = stub.Export(&ctx, req);
  ExportCall out;
  qipu::v1::Game g;
  while (reader->Read(&g)) ++out.games;
  out.status = reader->Finish();
  const auto& trailer = ctx.GetServerTrailingMetadata();
  auto it = trailer.find(wire::kExportResumeKey);
  if (it != trailer.end()) {
    out.resume = std::string(it->second.data(), it->second.size());
  }
  return out;
}

TEST(Limits, ClientOfPeerDropsThePort) {
  EXPECT_EQ(ClientOfPeer("ipv4:10.0.0.7:5123"), "ipv4:10.0.0.7");
  EXPECT_EQ(ClientOfPeer("ipv6:[::1]:5123"), "ipv6:[::1]");
  EXPECT_EQ(ClientOfPeer("ipv6:%5B::1%5D:5123"), "ipv6:%5B::1%5D");
  EXPECT_EQ(ClientOfPeer("unix:/run/qipu.sock"), "unix:/run/qipu.sock");
  EXPECT_EQ(ClientOfPeer("inproc"), "inproc");
}

TEST(Limits, StreamFloodFromOneClientIsRefusedWhileAnotherIsServed) {
  TempDir dir("limits-streams");
  LimitsOptions limits;
  limits.max_streams_per_client = 4;
  // Dual-stack: one client over IPv4, the other over IPv6 loopback -- two
  // client addresses on one machine.
  auto coord = StartWith(dir.Sub("db"), "[::]:0", limits);
  if (coord == nullptr) GTEST_SKIP() << "no IPv6 listener on this machine";
  const std::string v4 = absl::StrCat("127.0.0.1:", coord->port());
  const std::string v6 = absl::StrCat("[::1]:", coord->port());
  auto greedy = qipu::v1::CorpusService::NewStub(base::Dial(v4));
  auto other = qipu::v1::CorpusService::NewStub(base::Dial(v6));

  std::vector<std::unique_ptr<OpenImport>> open;
  for (int i = 0; i < 4; ++i) {
    open.push_back(std::make_unique<OpenImport>());
    grpc::Status s;
    ASSERT_TRUE(open.back()->Open(*greedy, &s))
        << "stream " << i << ": " << s.error_message();
  }
  // The flood: every further stream of the greedy client is refused, each
  // kind of stream alike, naming the limit.
  for (int i = 0; i < 8; ++i) {
    OpenImport extra;
    grpc::Status s;
    ASSERT_FALSE(extra.Open(*greedy, &s));
    EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
    EXPECT_THAT(s.error_message(),
                HasSubstr("at most 4 concurrent streams per client"));
  }
  ExportCall refused = ExportOnce(*greedy, {});
  EXPECT_EQ(refused.status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(refused.status.error_message(), HasSubstr("export: at most 4"));

  // Another client is served meanwhile: streams and queries.
  OpenImport theirs;
  grpc::Status s;
  ASSERT_TRUE(theirs.Open(*other, &s)) << s.error_message();
  ExportCall served = ExportOnce(*other, {});
  EXPECT_TRUE(served.status.ok()) << served.status.error_message();
  EXPECT_EQ(served.games, 1u);  // the one game all the imports stored
  EXPECT_TRUE(theirs.Close().ok());
  auto queries = qipu::v1::QueryService::NewStub(base::Dial(v4));
  grpc::ClientContext qctx;
  base::SetDeadline(&qctx, absl::Seconds(30));
  qipu::v1::ResultsResponse results;
  EXPECT_TRUE(queries->Results(&qctx, {}, &results).ok());

  // A stream that ends gives its place back.
  EXPECT_TRUE(open.back()->Close().ok());
  open.pop_back();
  OpenImport again;
  EXPECT_TRUE(again.Open(*greedy, &s)) << s.error_message();
  EXPECT_TRUE(again.Close().ok());
  for (auto& o : open) EXPECT_TRUE(o->Close().ok());
}

TEST(Limits, OversizeRequestIsRefusedAndTheServerGoesOn) {
  TempDir dir("limits-size");
  auto coord = StartWith(dir.Sub("db"), "127.0.0.1:0", {}, 1 << 20);
  ASSERT_NE(coord, nullptr);
  auto stub = qipu::v1::CorpusService::NewStub(base::Dial(coord->address()));
  {
    grpc::ClientContext ctx;
    base::SetDeadline(&ctx, absl::Seconds(30));
    auto stream = stub->Import(&ctx);
    qipu::v1::ImportRequest req;
    req.set_file("huge.sgf");
    req.set_data(std::string(2 << 20, ' '));
    stream->Write(req);
    stream->WritesDone();
    qipu::v1::ImportResponse resp;
    while (stream->Read(&resp)) {
    }
    const grpc::Status s = stream->Finish();
    EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
    // gRPC names both sizes: "... larger than max (2097166 vs. 1048576)".
    EXPECT_THAT(s.error_message(), HasSubstr("1048576"));
  }
  OpenImport small;
  grpc::Status s;
  ASSERT_TRUE(small.Open(*stub, &s)) << s.error_message();
  EXPECT_TRUE(small.Close().ok());
}

TEST(Limits, ExportCapsRefuseOverCapPagesAndThePagesCoverEverything) {
  TempDir dir("limits-export");
  LimitsOptions limits;
  limits.max_export_games = 10;
  auto coord = StartWith(dir.Sub("db"), "127.0.0.1:0", limits);
  ASSERT_NE(coord, nullptr);
  PlayJob(*coord, JobConfigFor(9, "chinese", 4, 11), 25);
  auto stub = qipu::v1::CorpusService::NewStub(base::Dial(coord->address()));

  qipu::v1::ExportRequest over;
  over.set_limit(50000);
  ExportCall c = ExportOnce(*stub, over);
  EXPECT_EQ(c.status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(c.status.error_message(),
            "export: at most 10 games per call (asked 50000); page with "
            "ExportRequest.after");
  EXPECT_EQ(c.games, 0u);

  // limit 0: ten games, then the resume point; the next call goes on.
  c = ExportOnce(*stub, {});
  EXPECT_EQ(c.status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(c.games, 10u);
  EXPECT_EQ(c.resume, "s1-9");
  EXPECT_THAT(c.status.error_message(), HasSubstr("resume after s1-9"));
  qipu::v1::ExportRequest next;
  next.set_after(c.resume);
  c = ExportOnce(*stub, next);
  EXPECT_EQ(c.games, 10u);
  EXPECT_EQ(c.resume, "s1-19");
  next.set_after(c.resume);
  c = ExportOnce(*stub, next);
  EXPECT_TRUE(c.status.ok()) << c.status.error_message();
  EXPECT_EQ(c.games, 5u);
  next.set_after("not-an-id");
  EXPECT_EQ(ExportOnce(*stub, next).status.error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);

  // The client pages by itself: every game once, in order; and a limit
  // above the server's cap is counted by the client.
  backend::Target target;
  target.server = coord->address();
  for (uint64_t limit : {0, 15, 7}) {
    qipu::v1::ExportRequest req;
    req.set_limit(limit);
    std::vector<store::GameId> ids;
    absl::Status st = backend::Export(
        target, req,
        [&](const store::GameId& id, const qipu::v1::Game&) {
          ids.push_back(id);
          return absl::OkStatus();
        },
        absl::Seconds(60));
    ASSERT_TRUE(st.ok()) << st;
    ASSERT_EQ(ids.size(), limit == 0 ? 25u : limit);
    for (size_t i = 0; i < ids.size(); ++i) {
      EXPECT_EQ(ids[i], store::GameId::SelfPlay(1, i));
    }
  }
}

TEST(Limits, ExportOutOfTimeResumesWhereItStopped) {
  TempDir dir("limits-export-time");
  LimitsOptions limits;
  limits.max_export_games = 0;
  // Out of time at the first clock check (every 256 games read).
  limits.max_export_time = absl::Nanoseconds(1);
  auto coord = StartWith(dir.Sub("db"), "127.0.0.1:0", limits);
  ASSERT_NE(coord, nullptr);
  PlayJob(*coord, JobConfigFor(9, "chinese", 2, 12), 600);
  auto stub = qipu::v1::CorpusService::NewStub(base::Dial(coord->address()));
  ExportCall c = ExportOnce(*stub, {});
  EXPECT_EQ(c.status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(c.status.error_message(), HasSubstr("per call"));
  EXPECT_EQ(c.games, 255u);
  EXPECT_EQ(c.resume, "s1-254");

  backend::Target target;
  target.server = coord->address();
  std::set<store::GameId> ids;
  absl::Status st = backend::Export(
      target, {},
      [&](const store::GameId& id, const qipu::v1::Game&) {
        EXPECT_TRUE(ids.insert(id).second) << store::GameIdText(id);
        return absl::OkStatus();
      },
      absl::Seconds(60));
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(ids.size(), 600u);
}

}  // namespace
}  // namespace qipu::coordinator
