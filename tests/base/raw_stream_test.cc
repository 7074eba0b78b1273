// Tests of base/raw_stream.h on a real gRPC server on 127.0.0.1: a service
// method served as a raw stream talks to the generated typed client, and a
// raw client talks to it; bytes pass unchanged both ways.
#include "base/raw_stream.h"

#include <memory>
#include <string>

#include "base/channel.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "qipu/v1/work.grpc.pb.h"

namespace qipu::base {
namespace {

// Position of UploadGames among WorkService's methods in work.proto.
constexpr int kUploadGames = 3;

// Answers each upload message with an ack whose reason is the number of
// bytes received and whose game id echoes the bytes.
class EchoService final : public qipu::v1::WorkService::Service {
 public:
  EchoService() {
    MarkMethodStreamed(
        kUploadGames,
        NewRawBidiHandler([](grpc::ServerContext*, RawServerStream* stream) {
          grpc::ByteBuffer in;
          while (stream->Read(&in)) {
            grpc::Slice slice;
            EXPECT_TRUE(in.TrySingleSlice(&slice).ok() ||
                        in.DumpToSingleSlice(&slice).ok());
            const std::string bytes(
                reinterpret_cast<const char*>(slice.begin()), slice.size());
            qipu::v1::GameAck ack;
            ack.set_game_id(bytes);
            ack.set_reason(std::to_string(bytes.size()));
            const std::string out = ack.SerializeAsString();
            grpc::Slice s(out);
            grpc::ByteBuffer reply(&s, 1);
            if (!stream->Write(reply)) break;
          }
          return grpc::Status::OK;
        }));
  }
};

class RawStreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    grpc::ServerBuilder b;
    b.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                       &port_);
    b.RegisterService(&service_);
    server_ = b.BuildAndStart();
    ASSERT_NE(server_, nullptr);
    ASSERT_GT(port_, 0);
    channel_ = Dial("127.0.0.1:" + std::to_string(port_));
  }
  void TearDown() override {
    if (server_) server_->Shutdown();
  }

  EchoService service_;
  int port_ = 0;
  std::unique_ptr<grpc::Server> server_;
  std::shared_ptr<grpc::Channel> channel_;
};

TEST_F(RawStreamTest, ServesTheGeneratedTypedClient) {
  auto stub = qipu::v1::WorkService::NewStub(channel_);
  grpc::ClientContext ctx;
  SetDeadline(&ctx, absl::Seconds(30));
  auto stream = stub->UploadGames(&ctx);
  qipu::v1::GameUpload up;
  up.set_seq(42);
  ASSERT_TRUE(stream->Write(up));
  qipu::v1::GameAck ack;
  ASSERT_TRUE(stream->Read(&ack));
  EXPECT_EQ(ack.game_id(), up.SerializeAsString());
  stream->WritesDone();
  EXPECT_TRUE(stream->Finish().ok());
}

TEST_F(RawStreamTest, RawClientSendsBytesUnchanged) {
  RawBidiMethod method(channel_, "/qipu.v1.WorkService/UploadGames");
  grpc::ClientContext ctx;
  SetDeadline(&ctx, absl::Seconds(30));
  auto stream = method.Open(&ctx);
  for (const std::string& bytes :
       {std::string("\x08\x01", 2), std::string(100000, 'x'), std::string()}) {
    grpc::Slice s(bytes);
    ASSERT_TRUE(stream->Write(grpc::ByteBuffer(&s, 1)));
    grpc::ByteBuffer in;
    ASSERT_TRUE(stream->Read(&in));
    grpc::Slice slice;
    ASSERT_TRUE(in.DumpToSingleSlice(&slice).ok());
    qipu::v1::GameAck ack;
    ASSERT_TRUE(ack.ParseFromArray(slice.begin(), slice.size()));
    EXPECT_EQ(ack.game_id(), bytes);
    EXPECT_EQ(ack.reason(), std::to_string(bytes.size()));
  }
  stream->WritesDone();
  EXPECT_TRUE(stream->Finish().ok());
}

TEST_F(RawStreamTest, AFailedCallShowsInTheStream) {
  server_->Shutdown();
  server_.reset();
  RawBidiMethod method(channel_, "/qipu.v1.WorkService/UploadGames");
  grpc::ClientContext ctx;
  SetDeadline(&ctx, absl::Seconds(5));
  auto stream = method.Open(&ctx);
  ASSERT_NE(stream, nullptr);
  grpc::ByteBuffer in;
  EXPECT_FALSE(stream->Read(&in));
  EXPECT_FALSE(stream->Finish().ok());
}

}  // namespace
}  // namespace qipu::base
