// A graceful Coordinator::Shutdown() waits for the calls in progress and
// for nothing else: a client connection that carries no call (a TCP probe,
// a client that connected and sent nothing) no longer holds the stop for
// the whole grace period; CallTracker counts calls in and out.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <thread>

#include "absl/time/clock.h"
#include "base/channel.h"
#include "coordinator/coordinator.h"
#include "grpcpp/health_check_service_interface.h"
#include "gtest/gtest.h"
#include "qipu/v1/work.grpc.pb.h"
#include "tests/common/temp_dir.h"

namespace qipu::coordinator {
namespace {

// A TCP connection to 127.0.0.1:`port` that sends nothing; closed when
// destroyed.
class IdleConnection {
 public:
  explicit IdleConnection(int port) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  }
  ~IdleConnection() {
    if (fd_ >= 0) close(fd_);
  }
  bool connected() const { return connected_; }

 private:
  int fd_ = -1;
  bool connected_ = false;
};

int PortOf(const std::string& address) {
  return std::stoi(address.substr(address.rfind(':') + 1));
}

TEST(CoordinatorShutdown, IdleConnectionDoesNotHoldTheStop) {
  test_util::TempDir dir("shutdown");
  CoordinatorOptions o;
  o.db_dir = dir.Sub("db");
  o.listen = "127.0.0.1:0";
  auto c = Coordinator::Start(o);
  ASSERT_TRUE(c.ok()) << c.status();
  // A real call first, so that the server is past its start-up.
  auto stub = qipu::v1::JobService::NewStub(base::Dial((*c)->address()));
  grpc::ClientContext ctx;
  base::SetDeadline(&ctx, absl::Seconds(30));
  qipu::v1::GetJobStatusResponse resp;
  ASSERT_TRUE(stub->GetJobStatus(&ctx, {}, &resp).ok());
  IdleConnection idle(PortOf((*c)->address()));
  ASSERT_TRUE(idle.connected());
  // The grace period is a minute: a stop that waited for the idle
  // connection would take all of it.
  const absl::Time t0 = absl::Now();
  (*c)->Shutdown(absl::Seconds(60));
  EXPECT_LT(absl::Now() - t0, absl::Seconds(30));
}

TEST(CallTracker, CountsCallsInAndOutAndWaitsForIdle) {
  CallTracker tracker;
  EXPECT_EQ(tracker.active(), 0);
  EXPECT_TRUE(tracker.WaitIdle(absl::Now()));
  tracker.Begin();
  tracker.Begin();
  EXPECT_EQ(tracker.active(), 2);
  EXPECT_FALSE(tracker.WaitIdle(absl::Now() + absl::Milliseconds(10)));
  tracker.End();
  std::thread ender([&] { tracker.End(); });
  EXPECT_TRUE(tracker.WaitIdle(absl::Now() + absl::Seconds(60)));
  ender.join();
  EXPECT_EQ(tracker.active(), 0);
}

}  // namespace
}  // namespace qipu::coordinator
