// TcpProxy: a port on 127.0.0.1 that a test owns for its whole life, in
// front of a server that comes and goes. Each connection accepted is
// forwarded, bytes both ways, to the backend set at that moment
// (SetBackend); while there is none, a connection is closed at once, as a
// stopped server's port refuses it. A connection ends, on both sides, when
// either side closes or resets it -- so a client sees its server go away
// when the server's process dies.
//
// Why: a test that stops a server and starts it again must not hand the
// new server the port the old one freed -- another test running in
// parallel may have taken it meanwhile. The restarted server listens on
// a fresh ephemeral port, and the clients, which know only the proxy's
// address, reach it through SetBackend().
//
// One thread accepts; each connection has two (one per direction). All
// are joined by the destructor. Thread-safe.
#ifndef QIPU_TESTS_COMMON_TCP_PROXY_H_
#define QIPU_TESTS_COMMON_TCP_PROXY_H_

#include <atomic>
#include <list>
#include <memory>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"

namespace qipu::testing {

class TcpProxy {
 public:
  // Listens on 127.0.0.1 on a port the kernel picks, with no backend.
  static absl::StatusOr<std::unique_ptr<TcpProxy>> Start();
  // Closes the port and every connection, and joins the threads.
  ~TcpProxy();

  TcpProxy(const TcpProxy&) = delete;
  TcpProxy& operator=(const TcpProxy&) = delete;

  // The proxy's own port, and "127.0.0.1:<port>".
  int port() const { return port_; }
  std::string address() const;

  // New connections go to 127.0.0.1:`port` from now on; 0 = nowhere (they
  // are closed at once). Connections already forwarded keep their backend
  // (they end when it goes away).
  void SetBackend(int port);
  // Ends every connection now (both sides see it closed).
  void DropConnections();
  // Connections accepted so far (forwarded or refused).
  int accepted() const { return accepted_.load(); }

 private:
  struct Connection;

  TcpProxy(int listen_fd, int wake_read, int wake_write, int port);
  void AcceptLoop();
  // Copies bytes from `from` to `to` until either fails or closes, then
  // shuts both sockets down (which ends the other direction too).
  static void Pump(int from, int to);
  // Joins and frees the connections whose two threads have ended.
  void Reap(bool all);

  const int listen_fd_;
  // A pipe that wakes the accept loop for the destructor.
  const int wake_read_;
  const int wake_write_;
  const int port_;
  std::atomic<int> backend_{0};
  std::atomic<int> accepted_{0};
  std::thread accept_thread_;
  absl::Mutex mu_;
  std::list<std::unique_ptr<Connection>> connections_ ABSL_GUARDED_BY(mu_);
};

// A TCP port on 127.0.0.1 that nothing listens on, owned (bound) for the
// object's life: connections to it are refused, and no other test can
// start a server there meanwhile. For "the server is unreachable" tests.
class RefusingPort {
 public:
  RefusingPort();
  ~RefusingPort();
  RefusingPort(const RefusingPort&) = delete;
  RefusingPort& operator=(const RefusingPort&) = delete;

  // 0 when no port could be bound (a test failure is recorded).
  int port() const { return port_; }
  std::string address() const;

 private:
  int fd_ = -1;
  int port_ = 0;
};

}  // namespace qipu::testing

#endif  // QIPU_TESTS_COMMON_TCP_PROXY_H_
