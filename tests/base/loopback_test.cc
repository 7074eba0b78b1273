// base/loopback.h: loopback hosts, listen addresses and gRPC peers.
#include "base/loopback.h"

#include "gtest/gtest.h"

namespace qipu::base {
namespace {

TEST(Loopback, Hosts) {
  for (const char* h :
       {"127.0.0.1", "127.255.0.9", "localhost", "LocalHost", "::1", "[::1]",
        "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1", "[::FFFF:127.1.2.3]"}) {
    EXPECT_TRUE(IsLoopbackHost(h)) << h;
  }
  for (const char* h :
       {"0.0.0.0", "::", "[::]", "", "10.0.0.1", "128.0.0.1", "127.0.0",
        "127.0.0.256", "127.0.0.1.5", "localhost.example", "::2",
        "::ffff:10.0.0.1", "coord.example"}) {
    EXPECT_FALSE(IsLoopbackHost(h)) << h;
  }
}

TEST(Loopback, ListenAddresses) {
  for (const char* a :
       {"127.0.0.1:0", "localhost:7070", "[::1]:7070", "unix:/run/qipu.sock",
        "unix-abstract:qipu", "ipv4:127.0.0.1:1", "ipv6:[::1]:1"}) {
    EXPECT_TRUE(IsLoopbackListen(a)) << a;
  }
  for (const char* a : {"0.0.0.0:7070", "[::]:7070", ":7070", "10.1.1.1:1",
                        "host:7070", "127.0.0.1"}) {
    EXPECT_FALSE(IsLoopbackListen(a)) << a;
  }
}

TEST(Loopback, GrpcPeers) {
  for (const char* p :
       {"ipv4:127.0.0.1:5000", "ipv6:[::1]:5000", "ipv6:%5B::1%5D:5000",
        "ipv6:%5b::1%5d:1", "unix:/tmp/s", "unix:"}) {
    EXPECT_TRUE(IsLocalPeer(p)) << p;
  }
  for (const char* p :
       {"ipv4:10.0.0.2:5000", "ipv6:[2001:db8::1]:1",
        "ipv6:%5B::ffff:10.0.0.1%5D:1", "", "127.0.0.1:1", "dns:localhost:1",
        "ipv4:127.0.0.1", "unknown", "inproc"}) {
    EXPECT_FALSE(IsLocalPeer(p)) << p;
  }
}

}  // namespace
}  // namespace qipu::base
