#include "web/http_server.h"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <exception>
#include <thread>
#include <unordered_map>

#include "absl/base/thread_annotations.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "boost/asio/ip/tcp.hpp"
#include "boost/asio/post.hpp"
#include "boost/asio/ssl.hpp"
#include "boost/asio/steady_timer.hpp"
#include "boost/asio/strand.hpp"
#include "spdlog/spdlog.h"
#include "web/http_connection.h"

namespace qipu::web {
namespace {

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
using tcp = boost::asio::ip::tcp;
using ErrorCode = boost::system::error_code;

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A fixed set of threads running tasks in order of submission.
class WorkerPool {
 public:
  explicit WorkerPool(int threads) {
    for (int i = 0; i < threads; ++i) {
      threads_.emplace_back([this] { Work(); });
    }
  }
  ~WorkerPool() { Stop(); }

  // Queues `task`; it runs on one of the threads.
  void Submit(std::function<void()> task) {
    absl::MutexLock lock(&mu_);
    queue_.push_back(std::move(task));
  }
  // Runs what is queued, then joins the threads; idempotent.
  void Stop() {
    {
      absl::MutexLock lock(&mu_);
      stopping_ = true;
    }
    for (std::thread& t : threads_) t.join();
    threads_.clear();
  }

 private:
  void Work() {
    for (;;) {
      std::function<void()> task;
      {
        absl::MutexLock lock(&mu_);
        mu_.Await(absl::Condition(
            +[](WorkerPool* self) ABSL_EXCLUSIVE_LOCKS_REQUIRED(self->mu_) {
              return self->stopping_ || !self->queue_.empty();
            },
            this));
        if (queue_.empty()) return;
        task = std::move(queue_.front());
        queue_.pop_front();
      }
      task();
    }
  }

  absl::Mutex mu_;
  std::deque<std::function<void()>> queue_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> threads_;
};

}  // namespace

bool PercentDecode(const std::string& in, bool plus_is_space,
                   std::string* out) {
  out->clear();
  out->reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (c == '%') {
      if (i + 2 >= in.size()) return false;
      const int hi = HexValue(in[i + 1]);
      const int lo = HexValue(in[i + 2]);
      if (hi < 0 || lo < 0) return false;
      out->push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out->push_back(' ');
    } else {
      out->push_back(c);
    }
  }
  return true;
}

bool ParseQueryString(const std::string& query,
                      std::vector<std::pair<std::string, std::string>>* out) {
  out->clear();
  for (absl::string_view part : absl::StrSplit(query, '&', absl::SkipEmpty())) {
    const size_t eq = part.find('=');
    std::string name;
    std::string value;
    if (!PercentDecode(std::string(part.substr(0, eq)), true, &name)) {
      return false;
    }
    if (eq != absl::string_view::npos &&
        !PercentDecode(std::string(part.substr(eq + 1)), true, &value)) {
      return false;
    }
    out->emplace_back(std::move(name), std::move(value));
  }
  return true;
}

struct HttpServer::Impl final : ConnectionHost {
  // The asynchronous machinery; destroyed (every connection with it) by
  // Stop() once the IO threads are joined.
  struct Io {
    net::io_context ioc;
    // On a strand: Stop() closes it from another thread.
    tcp::acceptor acceptor{net::make_strand(ioc)};
    // Backs the accept loop off when the process is out of files.
    net::steady_timer retry{acceptor.get_executor()};
  };

  Impl(const HttpServerOptions& o, HttpHandler h)
      : opts(o), handler(std::move(h)), pool(std::max(1, o.threads)) {}

  // Accepts the next connection, forever (until the acceptor closes).
  void Accept() {
    io->acceptor.async_accept(
        net::make_strand(io->ioc),
        [this](const ErrorCode& ec, tcp::socket socket) {
          if (ec) {
            if (ec == net::error::operation_aborted || !io->acceptor.is_open())
              return;
            // Out of files (EMFILE, ENFILE) or memory: the pending
            // connection stays queued; try again shortly.
            spdlog::warn("http: accept: {}", ec.message());
            io->retry.expires_after(std::chrono::milliseconds(100));
            io->retry.async_wait([this](const ErrorCode& wait) {
              if (!wait && io->acceptor.is_open()) Accept();
            });
            return;
          }
          Admit(std::move(socket));
          Accept();
        });
  }

  // Starts a session on `socket`, or refuses it over a cap.
  void Admit(tcp::socket socket);

  // ConnectionHost:
  const HttpServerOptions& options() const override { return opts; }
  void Submit(std::function<void()> task) override {
    pool.Submit(std::move(task));
  }
  bool Stopping() const override {
    absl::MutexLock lock(&mu);
    return stopping;
  }
  void TimedOut() override { ++timed_out; }
  void Release(const std::string& address) override {
    absl::MutexLock lock(&mu);
    --open;
    auto it = per_address.find(address);
    if (it != per_address.end() && --it->second == 0) per_address.erase(it);
  }

  bool BeginRequest() override {
    absl::MutexLock lock(&mu);
    if (stopping) return false;
    ++in_flight;
    ++requests;
    return true;
  }
  void EndRequest() override {
    absl::MutexLock lock(&mu);
    --in_flight;
  }

  HttpResponse Call(const HttpRequest& req) override {
    try {
      return handler(req);
    } catch (const std::exception& e) {
      spdlog::error("http: {} {}: {}", req.method, req.path, e.what());
      HttpResponse r;
      r.status = 500;
      r.body = R"json({"error":"internal error"})json";
      return r;
    }
  }

  const HttpServerOptions opts;
  const HttpHandler handler;
  // The total cap in force (see HttpServerOptions::max_connections).
  int max_connections = 0;

  mutable absl::Mutex mu;
  // Connections open, in all and per client address (entries > 0).
  int64_t open ABSL_GUARDED_BY(mu) = 0;
  std::unordered_map<std::string, int> per_address ABSL_GUARDED_BY(mu);
  // Requests handed to the pool whose answers are not yet written.
  int64_t in_flight ABSL_GUARDED_BY(mu) = 0;
  int64_t requests ABSL_GUARDED_BY(mu) = 0;
  int64_t accepted ABSL_GUARDED_BY(mu) = 0;
  int64_t refused ABSL_GUARDED_BY(mu) = 0;
  // Set by Stop(): no new request goes to the pool.
  bool stopping ABSL_GUARDED_BY(mu) = false;
  std::atomic<int64_t> timed_out{0};

  WorkerPool pool;
  // Null for plain HTTP. Outlives `io` (the TLS streams use it).
  std::unique_ptr<ssl::context> tls;
  std::unique_ptr<Io> io;
  std::vector<std::thread> io_threads;
  bool stopped = false;
};

void HttpServer::Impl::Admit(tcp::socket socket) {
  ErrorCode ec;
  const tcp::endpoint remote = socket.remote_endpoint(ec);
  if (ec) return;  // already gone
  std::string address = remote.address().to_string();
  const char* over = nullptr;
  int64_t refused_now = 0;
  {
    absl::MutexLock lock(&mu);
    int& mine = per_address[address];
    if (open >= max_connections) {
      over = "total";
    } else if (mine >= opts.max_connections_per_address) {
      over = "per-address";
    }
    if (over != nullptr) {
      if (mine == 0) per_address.erase(address);
      refused_now = ++refused;
    } else {
      ++mine;
      ++open;
      ++accepted;
    }
  }
  if (over != nullptr) {
    // Refused at once: a short 503 for a plain-HTTP client (best effort,
    // never waiting), then closed.
    if (refused_now == 1 || refused_now % 1000 == 0) {
      spdlog::warn(
          "http: refused a connection from {} over the {} cap ({} refused "
          "so far)",
          address, over, refused_now);
    }
    if (!tls) {
      static const std::string kBusy =
          ErrorBytes(503, "too many connections; try again later");
      socket.non_blocking(true, ec);
      socket.write_some(net::buffer(kBusy), ec);
    }
    socket.shutdown(tcp::socket::shutdown_both, ec);
    socket.close(ec);
    return;
  }
  socket.set_option(tcp::no_delay(true), ec);
  ServeConnection(this, std::move(socket), tls.get(), std::move(address));
}

absl::StatusOr<std::unique_ptr<HttpServer>> HttpServer::Start(
    const HttpServerOptions& options, HttpHandler handler) {
  const size_t colon = options.listen.rfind(':');
  int port = 0;
  if (colon == std::string::npos || colon == 0 ||
      !absl::SimpleAtoi(options.listen.substr(colon + 1), &port) || port < 0 ||
      port > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("--http: '", options.listen,
                     "' is not HOST:PORT (like 127.0.0.1:8080)"));
  }
  std::string host = options.listen.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (options.tls_cert.empty() != options.tls_key.empty()) {
    return absl::InvalidArgumentError(
        "--http-tls-cert and --http-tls-key: give both or neither");
  }
  auto impl = std::make_unique<Impl>(options, std::move(handler));
  if (!options.tls_cert.empty()) {
    auto ctx = std::make_unique<ssl::context>(ssl::context::tls_server);
    ErrorCode ec;
    ctx->set_options(ssl::context::default_workarounds |
                         ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                         ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 |
                         ssl::context::single_dh_use,
                     ec);
    ctx->use_certificate_chain_file(options.tls_cert, ec);
    if (ec) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--http-tls-cert: '", options.tls_cert,
          "' is not a readable PEM certificate chain: ", ec.message()));
    }
    ctx->use_private_key_file(options.tls_key, ssl::context::pem, ec);
    if (ec) {
      return absl::InvalidArgumentError(
          absl::StrCat("--http-tls-key: '", options.tls_key,
                       "' is not a readable PEM private key of the "
                       "certificate '",
                       options.tls_cert, "': ", ec.message()));
    }
    if (SSL_CTX_check_private_key(ctx->native_handle()) != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--http-tls-key: '", options.tls_key,
          "' does not belong to the certificate '", options.tls_cert, "'"));
    }
    impl->tls = std::move(ctx);
  }
  // Half the open-file limit at most: the database and gRPC need files
  // too, and a client must not be able to take them.
  impl->max_connections = std::max(1, options.max_connections);
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) == 0 &&
      files.rlim_cur != RLIM_INFINITY &&
      static_cast<rlim_t>(impl->max_connections) > files.rlim_cur / 2) {
    impl->max_connections =
        std::max<int>(1, static_cast<int>(files.rlim_cur / 2));
    spdlog::warn(
        "http: at most {} connections (half the open-file limit {}; "
        "raise it with ulimit -n or LimitNOFILE= for more)",
        impl->max_connections, files.rlim_cur);
  }

  impl->io = std::make_unique<Impl::Io>();
  Impl::Io& io = *impl->io;
  const std::string cannot =
      absl::StrCat("--http: cannot serve on ", options.listen,
                   " (address in use or not this host's)");
  ErrorCode ec;
  tcp::resolver resolver(io.ioc);
  const auto endpoints =
      resolver.resolve(host, std::to_string(port), tcp::resolver::passive, ec);
  if (ec || endpoints.empty()) {
    return absl::UnavailableError(absl::StrCat(cannot, ": ", ec.message()));
  }
  const tcp::endpoint endpoint = endpoints.begin()->endpoint();
  io.acceptor.open(endpoint.protocol(), ec);
  if (!ec) io.acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) io.acceptor.bind(endpoint, ec);
  if (!ec) io.acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) {
    return absl::UnavailableError(absl::StrCat(cannot, ": ", ec.message()));
  }
  auto server = std::unique_ptr<HttpServer>(new HttpServer());
  server->port_ = io.acceptor.local_endpoint().port();
  server->address_ =
      absl::StrCat(options.listen.substr(0, colon), ":", server->port_);
  server->tls_ = impl->tls != nullptr;
  server->max_connections_ = impl->max_connections;
  Impl* raw = impl.get();
  raw->Accept();
  for (int i = 0; i < std::max(1, options.io_threads); ++i) {
    raw->io_threads.emplace_back([raw] { raw->io->ioc.run(); });
  }
  server->impl_ = std::move(impl);
  return server;
}

HttpServerStats HttpServer::stats() const {
  HttpServerStats s;
  if (impl_ == nullptr) return s;
  absl::MutexLock lock(&impl_->mu);
  s.connections_open = impl_->open;
  s.connections_accepted = impl_->accepted;
  s.connections_refused = impl_->refused;
  s.connections_timed_out = impl_->timed_out.load();
  s.requests = impl_->requests;
  return s;
}

void HttpServer::Stop() {
  if (impl_ == nullptr || impl_->stopped) return;
  impl_->stopped = true;
  Impl* impl = impl_.get();
  {
    absl::MutexLock lock(&impl->mu);
    impl->stopping = true;
  }
  // No new connections.
  absl::Notification closed;
  net::post(impl->io->acceptor.get_executor(), [impl, &closed] {
    ErrorCode ignored;
    impl->io->acceptor.close(ignored);
    impl->io->retry.cancel();
    closed.Notify();
  });
  closed.WaitForNotification();
  // The requests in progress finish and their answers go out.
  {
    absl::MutexLock lock(&impl->mu);
    impl->mu.Await(absl::Condition(
        +[](Impl* i)
             ABSL_EXCLUSIVE_LOCKS_REQUIRED(i->mu) { return i->in_flight == 0; },
        impl));
  }
  impl->io->ioc.stop();
  for (std::thread& t : impl->io_threads) t.join();
  impl->io_threads.clear();
  impl->pool.Stop();
  // Every connection (its session and socket) goes with the io_context.
  impl->io.reset();
}

HttpServer::~HttpServer() { Stop(); }

}  // namespace qipu::web
