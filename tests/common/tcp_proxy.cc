#include "tests/common/tcp_proxy.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace qipu::testing {
namespace {

sockaddr_in Loopback(int port) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  return addr;
}

// The port `fd` is bound to, or 0.
int BoundPort(int fd) {
  sockaddr_in addr{};
  socklen_t len = sizeof(addr);
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return 0;
  return ntohs(addr.sin_port);
}

absl::Status Errno(const char* what) {
  return absl::ErrnoToStatus(errno, what);
}

}  // namespace

struct TcpProxy::Connection {
  int client = -1;
  int backend = -1;
  std::thread up;
  std::thread down;
  // Pump threads still running (2, then 1, then 0).
  std::atomic<int> running{2};
};

absl::StatusOr<std::unique_ptr<TcpProxy>> TcpProxy::Start() {
  // Non-blocking: a connection reset between poll() and accept() must not
  // leave the accept loop blocked (the destructor wakes it through poll).
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return Errno("socket");
  const sockaddr_in addr = Loopback(0);
  if (bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0 ||
      listen(fd, 64) != 0) {
    const absl::Status s = Errno("bind/listen 127.0.0.1:0");
    close(fd);
    return s;
  }
  int wake[2];
  if (pipe2(wake, O_CLOEXEC) != 0) {
    const absl::Status s = Errno("pipe");
    close(fd);
    return s;
  }
  return std::unique_ptr<TcpProxy>(
      new TcpProxy(fd, wake[0], wake[1], BoundPort(fd)));
}

TcpProxy::TcpProxy(int listen_fd, int wake_read, int wake_write, int port)
    : listen_fd_(listen_fd),
      wake_read_(wake_read),
      wake_write_(wake_write),
      port_(port) {
  accept_thread_ = std::thread([this] { AcceptLoop(); });
}

TcpProxy::~TcpProxy() {
  const char c = 'x';
  (void)!write(wake_write_, &c, 1);
  accept_thread_.join();
  DropConnections();
  Reap(/*all=*/true);
  close(listen_fd_);
  close(wake_read_);
  close(wake_write_);
}

std::string TcpProxy::address() const {
  return absl::StrCat("127.0.0.1:", port_);
}

void TcpProxy::SetBackend(int port) { backend_.store(port); }

void TcpProxy::DropConnections() {
  absl::MutexLock lock(&mu_);
  for (const auto& c : connections_) {
    shutdown(c->client, SHUT_RDWR);
    shutdown(c->backend, SHUT_RDWR);
  }
}

void TcpProxy::Pump(int from, int to) {
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = recv(from, buf, sizeof(buf), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    ssize_t off = 0;
    while (off < n) {
      const ssize_t w =
          send(to, buf + off, static_cast<size_t>(n - off), MSG_NOSIGNAL);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        off = -1;
        break;
      }
      off += w;
    }
    if (off < 0) break;
  }
  shutdown(from, SHUT_RDWR);
  shutdown(to, SHUT_RDWR);
}

void TcpProxy::Reap(bool all) {
  std::list<std::unique_ptr<Connection>> done;
  {
    absl::MutexLock lock(&mu_);
    for (auto it = connections_.begin(); it != connections_.end();) {
      if (all || (*it)->running.load() == 0) {
        done.push_back(std::move(*it));
        it = connections_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& c : done) {
    c->up.join();
    c->down.join();
    close(c->client);
    close(c->backend);
  }
}

void TcpProxy::AcceptLoop() {
  for (;;) {
    pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_read_, POLLIN, 0}};
    // Wakes now and then to free finished connections.
    const int n = poll(fds, 2, 200);
    if (n < 0 && errno != EINTR) return;
    if (fds[1].revents != 0) return;
    Reap(/*all=*/false);
    if (n <= 0 || (fds[0].revents & POLLIN) == 0) continue;
    const int client = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) continue;
    accepted_.fetch_add(1);
    const int port = backend_.load();
    int backend = -1;
    if (port != 0) {
      backend = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
      const sockaddr_in addr = Loopback(port);
      if (backend >= 0 &&
          connect(backend, reinterpret_cast<const sockaddr*>(&addr),
                  sizeof(addr)) != 0) {
        close(backend);
        backend = -1;
      }
    }
    if (backend < 0) {
      // No server: the connection is refused (closed at once).
      close(client);
      continue;
    }
    const int one = 1;
    setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    setsockopt(backend, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    auto c = std::make_unique<Connection>();
    c->client = client;
    c->backend = backend;
    Connection* raw = c.get();
    c->up = std::thread([raw] {
      Pump(raw->client, raw->backend);
      raw->running.fetch_sub(1);
    });
    c->down = std::thread([raw] {
      Pump(raw->backend, raw->client);
      raw->running.fetch_sub(1);
    });
    absl::MutexLock lock(&mu_);
    connections_.push_back(std::move(c));
  }
}

RefusingPort::RefusingPort() {
  fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const sockaddr_in addr = Loopback(0);
  // Bound, never listening: connections are refused. No SO_REUSEADDR or
  // SO_REUSEPORT, so that no server can bind the port meanwhile.
  if (fd_ < 0 ||
      bind(fd_, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0) {
    ADD_FAILURE() << "cannot bind 127.0.0.1:0: " << std::strerror(errno);
    return;
  }
  port_ = BoundPort(fd_);
}

RefusingPort::~RefusingPort() {
  if (fd_ >= 0) close(fd_);
}

std::string RefusingPort::address() const {
  return absl::StrCat("127.0.0.1:", port_);
}

}  // namespace qipu::testing
