// HttpServer: an event-driven HTTP/1.1 server (Boost.Beast and Asio from
// Debian's Boost 1.74, TLS through asio::ssl on Debian's OpenSSL 3) that
// hands every request to one handler function and writes its answer.
//
// A few IO threads run every socket: accepting, the TLS handshake, reading
// requests and writing answers, all asynchronous, so a connection costs a
// socket and a timer, not a thread, and a slow or silent client holds
// nothing anybody else needs. The handler runs on a fixed pool of worker
// threads (normal stacks: a RocksDB read plus protobuf and JSON work under
// the sanitizers), so a slow query never blocks accepting or reading other
// connections; a connection has at most one request in the pool at a time.
//
// Limits, each an option: the header of a request must arrive within a
// deadline (of the accept, TLS handshake included, for the first request;
// of its first byte on a kept-alive connection), its body within another;
// an idle kept-alive connection is closed after a timeout; an answer must
// be taken by the client within a deadline; header and body sizes are
// capped (431, 413); connections are capped in total and per client
// address (one more is refused at once: a 503 over plain HTTP, closed over
// HTTPS). Why Beast and not civetweb: web/README.md.
#ifndef QIPU_WEB_HTTP_SERVER_H_
#define QIPU_WEB_HTTP_SERVER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace qipu::web {

// One request, as the handler sees it.
struct HttpRequest {
  // "GET", "HEAD", "POST", ...
  std::string method;
  // The path, percent-decoded ("/api/v1/game/s1-2").
  std::string path;
  // Query parameters in order, names and values decoded ('+' is a space).
  std::vector<std::pair<std::string, std::string>> query;
  // The Authorization header ("" when absent).
  std::string authorization;
  // How many Authorization headers the request carried (two or more are
  // refused: base/bearer.h); -1 when the transport did not count them,
  // then a non-empty `authorization` counts as one.
  int authorization_count = -1;
};

// One answer.
struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  // Extra headers (name, value), e.g. Content-Disposition.
  std::vector<std::pair<std::string, std::string>> headers;
};

// Answers a request. Called concurrently from several threads; must not
// throw (an exception anyway is a 500, logged).
using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

// Splits and decodes a query string ("a=1&b=x+y" -> (a,1), (b,"x y")).
// Returns false for malformed percent escapes.
bool ParseQueryString(const std::string& query,
                      std::vector<std::pair<std::string, std::string>>* out);
// Decodes %XX escapes (and '+' as a space when `plus_is_space`); false for
// a malformed escape.
bool PercentDecode(const std::string& in, bool plus_is_space, std::string* out);

struct HttpServerOptions {
  // HOST:PORT to bind; port 0 picks a free port (port()).
  std::string listen = "127.0.0.1:0";
  // Worker threads running the handler: requests answered at once.
  int threads = 8;
  // IO threads running the sockets (accept, TLS, reads, writes).
  int io_threads = 2;
  // TLS: the certificate chain and the private key, PEM files. Both empty:
  // plain HTTP; both given: HTTPS only (TLS 1.2 or 1.3).
  std::string tls_cert;
  std::string tls_key;
  // Time for a request's full header: from the accept for a connection's
  // first request (the TLS handshake included), from its first byte on a
  // kept-alive connection. Past it the connection is closed.
  absl::Duration header_deadline = absl::Seconds(10);
  // Time for a request's body after its header; past it, closed.
  absl::Duration body_deadline = absl::Seconds(10);
  // A kept-alive connection without a new request is closed after this.
  absl::Duration idle_timeout = absl::Seconds(30);
  // Time for the client to take an answer; past it, closed.
  absl::Duration write_deadline = absl::Seconds(30);
  // Largest request line plus header fields, bytes; beyond: 431, closed.
  size_t max_header_bytes = 16 << 10;
  // Largest request body, bytes; beyond: 413, closed.
  size_t max_body_bytes = 64 << 10;
  // Connections open at once in total; one more is refused. Lowered to
  // half the process's open-file limit (RLIMIT_NOFILE) when above it, so
  // that clients cannot take the files the database needs.
  int max_connections = 1024;
  // Connections open at once from one client address; one more is
  // refused.
  int max_connections_per_address = 64;
};

// Counters since Start(), for logs and tests.
struct HttpServerStats {
  // Connections open now (accepted, not yet closed).
  int64_t connections_open = 0;
  // Connections accepted in all.
  int64_t connections_accepted = 0;
  // Connections refused by the caps.
  int64_t connections_refused = 0;
  // Connections closed for a missed deadline or the idle timeout.
  int64_t connections_timed_out = 0;
  // Requests handed to the handler.
  int64_t requests = 0;
};

// Thread-safe. Stops (waiting for requests in progress) when destroyed.
class HttpServer {
 public:
  // Binds and serves. InvalidArgument for a malformed address or unusable
  // TLS files (named), Unavailable when the address cannot be bound.
  static absl::StatusOr<std::unique_ptr<HttpServer>> Start(
      const HttpServerOptions& options, HttpHandler handler);
  ~HttpServer();

  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // The port bound.
  int port() const { return port_; }
  // HOST:PORT bound.
  const std::string& address() const { return address_; }
  // Whether it speaks HTTPS.
  bool tls() const { return tls_; }
  // The total connection cap in force (options.max_connections, or lower:
  // see there).
  int max_connections() const { return max_connections_; }
  // A snapshot of the counters.
  HttpServerStats stats() const;
  // Stops accepting, lets the requests in progress finish and their
  // answers be written (within the write deadline), then closes every
  // connection; idempotent.
  void Stop();

  // Implementation (sockets, sessions, the worker pool), in the .cc file.
  struct Impl;

 private:
  HttpServer() = default;

  std::unique_ptr<Impl> impl_;
  int port_ = 0;
  std::string address_;
  bool tls_ = false;
  int max_connections_ = 0;
};

}  // namespace qipu::web

#endif  // QIPU_WEB_HTTP_SERVER_H_
