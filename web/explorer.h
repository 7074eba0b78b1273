// Explorer: the web explorer served on one address -- an Api (api.h) over
// a query engine and, with --auth required, its token registry, behind an
// HttpServer (http_server.h). What `qipu-coordinator --http` and `qipu
// explore --http` start.
//
// HTTPS when given a certificate and key (--http-tls-cert/--http-tls-key,
// or the gRPC ones); plain HTTP otherwise, and then Start() warns (spdlog)
// when the address is not a loopback one while the gRPC side is protected
// by TLS or tokens, since bearer tokens and answers would cross the
// network in clear.
#ifndef QIPU_WEB_EXPLORER_H_
#define QIPU_WEB_EXPLORER_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "engine/queries.h"
#include "engine/tokens.h"
#include "web/api.h"
#include "web/http_server.h"

namespace qipu::web {

struct ExplorerOptions {
  // The server: address (port 0: a free port), TLS files (both empty:
  // plain HTTP), threads, deadlines and connection caps.
  HttpServerOptions http;
  // Whether the gRPC port uses TLS or tokens (for the warning).
  bool grpc_protected = false;
};

// Thread-safe. Stops serving when destroyed.
class Explorer {
 public:
  // `engine` (and `tokens`, null for no token checks) are not owned and
  // must outlive the explorer. Errors of HttpServer::Start().
  static absl::StatusOr<std::unique_ptr<Explorer>> Start(
      const ExplorerOptions& options, const engine::QueryEngine* engine,
      const engine::TokenRegistry* tokens);

  // HOST:PORT bound, and its port.
  const std::string& address() const { return server_->address(); }
  int port() const { return server_->port(); }
  // "https://HOST:PORT" or "http://HOST:PORT".
  std::string url() const;
  // The server (its counters, whether it speaks TLS).
  const HttpServer& server() const { return *server_; }
  // Stops serving (requests in progress finish first); idempotent.
  void Stop() { server_->Stop(); }

 private:
  Explorer(const engine::QueryEngine* engine,
           const engine::TokenRegistry* tokens)
      : api_(engine, tokens) {}

  Api api_;
  std::unique_ptr<HttpServer> server_;
};

}  // namespace qipu::web

#endif  // QIPU_WEB_EXPLORER_H_
