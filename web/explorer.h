// Explorer: the web explorer served on one address -- an Api (api.h) over
// a query engine and, with --auth required, its token registry, behind an
// HttpServer (http_server.h). What `qipu-coordinator --http` and `qipu
// explore --http` start.
//
// HTTP is plain (civetweb in Debian 12 has no working TLS with OpenSSL
// 3): Start() warns (spdlog) when the address is not a loopback one while
// the gRPC side is protected by TLS or tokens, since bearer tokens and
// answers would then cross the network in clear.
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
  // HOST:PORT (port 0: a free port).
  std::string listen = "127.0.0.1:0";
  // Requests answered at once.
  int threads = 8;
  // Whether the gRPC port uses TLS or tokens (for the warning).
  bool grpc_protected = false;
};

// Whether `host` names this machine's loopback interface (127.0.0.0/8,
// localhost, ::1).
bool IsLoopbackHost(const std::string& host);

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
