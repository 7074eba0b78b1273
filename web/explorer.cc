#include "web/explorer.h"

#include "absl/strings/str_cat.h"
#include "base/loopback.h"
#include "spdlog/spdlog.h"

namespace qipu::web {

std::string Explorer::url() const {
  return absl::StrCat(server_->tls() ? "https://" : "http://", address());
}

absl::StatusOr<std::unique_ptr<Explorer>> Explorer::Start(
    const ExplorerOptions& options, const engine::QueryEngine* engine,
    const engine::TokenRegistry* tokens) {
  auto explorer = std::unique_ptr<Explorer>(new Explorer(engine, tokens));
  const Api* api = &explorer->api_;
  auto server = HttpServer::Start(
      options.http, [api](const HttpRequest& req) { return api->Handle(req); });
  if (!server.ok()) return server.status();
  explorer->server_ = *std::move(server);
  const std::string& address = explorer->server_->address();
  const std::string host = address.substr(0, address.rfind(':'));
  if (!explorer->server_->tls() && !base::IsLoopbackHost(host) &&
      (options.grpc_protected || tokens != nullptr)) {
    spdlog::warn(
        "http: the explorer on {} is plain HTTP while tokens or TLS protect "
        "qipu: bearer tokens and answers cross the network in clear; give "
        "--http-tls-cert and --http-tls-key (HTTPS) or bind --http to "
        "127.0.0.1 (web/README.md)",
        address);
  }
  spdlog::info("http: explorer on {}/ ({})", explorer->url(),
               tokens != nullptr ? "tokens required" : "no tokens");
  return explorer;
}

}  // namespace qipu::web
