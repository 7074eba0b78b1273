// HttpServer: a plain-HTTP server (civetweb, Debian's libcivetweb) that
// hands every request to one handler function and writes its answer.
//
// civetweb's connection threads have small stacks (about 100 KB in
// Debian's build, fixed at compile time), too small for a RocksDB read
// plus protobuf and JSON work under the sanitizers; so each request is
// handed to one of the server's own worker threads (normal stacks) and
// the connection thread waits for the answer. Requests run concurrently,
// up to `threads` at once.
//
// Plain HTTP only: civetweb in Debian 12 crashes on TLS with OpenSSL 3
// (web/README.md); put a TLS proxy in front for remote use.
#ifndef QIPU_WEB_HTTP_SERVER_H_
#define QIPU_WEB_HTTP_SERVER_H_

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

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
// throw.
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
  // Worker threads answering requests at once (and civetweb's connection
  // threads: twice as many).
  int threads = 8;
};

// Thread-safe. Stops (waiting for requests in progress) when destroyed.
class HttpServer {
 public:
  // Binds and serves. InvalidArgument for a malformed address,
  // Unavailable when it cannot be bound.
  static absl::StatusOr<std::unique_ptr<HttpServer>> Start(
      const HttpServerOptions& options, HttpHandler handler);
  ~HttpServer();

  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // The port bound.
  int port() const { return port_; }
  // HOST:PORT bound.
  const std::string& address() const { return address_; }
  // Stops serving; idempotent.
  void Stop();

  // Implementation (civetweb's callback and the worker threads).
  struct Impl;

 private:
  HttpServer() = default;

  std::unique_ptr<Impl> impl_;
  int port_ = 0;
  std::string address_;
};

}  // namespace qipu::web

#endif  // QIPU_WEB_HTTP_SERVER_H_
