#include "web/explorer.h"

#include "absl/strings/match.h"
#include "spdlog/spdlog.h"

namespace qipu::web {

bool IsLoopbackHost(const std::string& host) {
  return absl::StartsWith(host, "127.") || host == "localhost" ||
         host == "::1" || host == "[::1]";
}

absl::StatusOr<std::unique_ptr<Explorer>> Explorer::Start(
    const ExplorerOptions& options, const engine::QueryEngine* engine,
    const engine::TokenRegistry* tokens) {
  auto explorer = std::unique_ptr<Explorer>(new Explorer(engine, tokens));
  HttpServerOptions http;
  http.listen = options.listen;
  http.threads = options.threads;
  const Api* api = &explorer->api_;
  auto server = HttpServer::Start(
      http, [api](const HttpRequest& req) { return api->Handle(req); });
  if (!server.ok()) return server.status();
  explorer->server_ = *std::move(server);
  const std::string& address = explorer->server_->address();
  const std::string host = address.substr(0, address.rfind(':'));
  if (!IsLoopbackHost(host) && (options.grpc_protected || tokens != nullptr)) {
    spdlog::warn(
        "http: the explorer on {} is plain HTTP (civetweb in Debian 12 has "
        "no working TLS) while tokens or TLS protect qipu: bearer tokens and "
        "answers cross the network in clear; bind --http to 127.0.0.1 and "
        "put a TLS proxy in front (web/README.md)",
        address);
  }
  spdlog::info("http: explorer on http://{}/ ({})", address,
               tokens != nullptr ? "tokens required" : "no tokens");
  return explorer;
}

}  // namespace qipu::web
