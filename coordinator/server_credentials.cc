#include "coordinator/server_credentials.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/bearer.h"
#include "base/channel.h"
#include "base/quote.h"
#include "coordinator/access.h"
#include "grpc/grpc_security.h"
#include "spdlog/spdlog.h"

namespace qipu::coordinator {
namespace {

absl::string_view View(const grpc_slice& s) {
  return absl::string_view(
      reinterpret_cast<const char*>(GRPC_SLICE_START_PTR(s)),
      GRPC_SLICE_LENGTH(s));
}

// The processor's state: the registry, shared with the coordinator.
struct TokenCheck {
  std::shared_ptr<const engine::TokenRegistry> tokens;
};

// Names the caller of an allowed call in its auth context, for the
// handlers that keep who did what (a tournament's history):
// qipu_token_id, qipu_token_name, qipu_role.
void RecordCaller(grpc_auth_context* context,
                  const engine::TokenRegistry::Grant& grant) {
  if (context == nullptr) return;
  grpc_auth_context_add_cstring_property(context, "qipu_token_id",
                                         absl::StrCat(grant.id).c_str());
  grpc_auth_context_add_cstring_property(context, "qipu_token_name",
                                         grant.name.c_str());
  grpc_auth_context_add_cstring_property(context, "qipu_role",
                                         RoleName(grant.role).c_str());
}

// Decides one call (see the header); `done` with the verdict. The
// `authorization` entries are consumed: handlers never see the token,
// only its id, name and role (RecordCaller).
void ProcessCall(void* state, grpc_auth_context* context,
                 const grpc_metadata* md, size_t num_md,
                 grpc_process_auth_metadata_done_cb done, void* user_data) {
  const auto* check = static_cast<const TokenCheck*>(state);
  absl::string_view path;
  // Every `authorization` entry (a second one is refused, not ignored).
  std::vector<grpc_metadata> auth;
  std::vector<absl::string_view> values;
  for (size_t i = 0; i < num_md; ++i) {
    const absl::string_view key = View(md[i].key);
    if (key == ":path") {
      path = View(md[i].value);
    } else if (key == "authorization") {
      auth.push_back(md[i]);
      values.push_back(View(md[i].value));
    }
  }
  const Access access = RequiredAccess(path);
  auto refuse = [&](grpc_status_code code, const std::string& why) {
    spdlog::debug("auth: {} refused: {}", base::QuoteInput(path), why);
    done(user_data, nullptr, 0, nullptr, 0, code, why.c_str());
  };
  if (access == Access::kOpen) {
    done(user_data, auth.data(), auth.size(), nullptr, 0, GRPC_STATUS_OK,
         nullptr);
    return;
  }
  const absl::StatusOr<absl::string_view> token = base::ParseBearer(values);
  if (!token.ok()) {
    refuse(GRPC_STATUS_UNAUTHENTICATED, std::string(token.status().message()));
    return;
  }
  const std::optional<engine::TokenRegistry::Grant> grant =
      check->tokens->Find(*token);
  if (!grant.has_value()) {
    refuse(GRPC_STATUS_UNAUTHENTICATED,
           "unknown token (not one of this coordinator's database)");
    return;
  }
  if (grant->revoked) {
    refuse(GRPC_STATUS_UNAUTHENTICATED,
           absl::StrCat("token ", grant->id, " has been revoked"));
    return;
  }
  if (!Allows(grant->role, access)) {
    refuse(GRPC_STATUS_PERMISSION_DENIED,
           absl::StrCat("a ", RoleName(grant->role), " token (id ", grant->id,
                        ") may not call ", base::QuoteInput(path),
                        ": it needs a ", AccessName(access), " token"));
    return;
  }
  RecordCaller(context, *grant);
  done(user_data, auth.data(), auth.size(), nullptr, 0, GRPC_STATUS_OK,
       nullptr);
}

void DestroyCheck(void* state) { delete static_cast<TokenCheck*>(state); }

// Server credentials made through gRPC's C API (see the header): TLS or
// plain text, with or without the token check.
class QipuServerCredentials final : public grpc::ServerCredentials {
 public:
  QipuServerCredentials(ServerTls tls,
                        std::shared_ptr<const engine::TokenRegistry> tokens)
      : tls_(std::move(tls)), tokens_(std::move(tokens)) {}

  void SetAuthMetadataProcessor(
      const std::shared_ptr<grpc::AuthMetadataProcessor>& /*processor*/)
      override {
    // qipu sets its own processor (the token check) in AddPortToServer.
  }

 private:
  int AddPortToServer(const std::string& addr, grpc_server* server) override {
    grpc_server_credentials* creds = nullptr;
    if (tls_.enabled()) {
      grpc_ssl_pem_key_cert_pair pair{tls_.key_pem.c_str(),
                                      tls_.cert_pem.c_str()};
      creds = grpc_ssl_server_credentials_create_ex(
          tls_.client_ca_pem.empty() ? nullptr : tls_.client_ca_pem.c_str(),
          &pair, 1,
          tls_.client_ca_pem.empty()
              ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
              : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY,
          nullptr);
    } else {
      creds = grpc_insecure_server_credentials_create();
    }
    if (creds == nullptr) return 0;
    if (tokens_ != nullptr) {
      grpc_server_credentials_set_auth_metadata_processor(
          creds, {ProcessCall, DestroyCheck, new TokenCheck{tokens_}});
    }
    const int port = grpc_server_add_http2_port(server, addr.c_str(), creds);
    grpc_server_credentials_release(creds);
    return port;
  }

  const ServerTls tls_;
  const std::shared_ptr<const engine::TokenRegistry> tokens_;
};

}  // namespace

absl::Status LoadServerTls(const std::string& cert_file,
                           const std::string& key_file,
                           const std::string& client_ca_file, ServerTls* tls) {
  if (cert_file.empty() != key_file.empty()) {
    return absl::InvalidArgumentError(
        "--tls-cert and --tls-key: give both (the server's certificate and "
        "its private key) or neither");
  }
  if (!client_ca_file.empty() && cert_file.empty()) {
    return absl::InvalidArgumentError(
        "--tls-client-ca: client certificates need TLS (--tls-cert and "
        "--tls-key)");
  }
  if (cert_file.empty()) return absl::OkStatus();
  absl::StatusOr<std::string> cert =
      base::ReadPemFile(cert_file, "--tls-cert", "CERTIFICATE");
  if (!cert.ok()) return cert.status();
  absl::StatusOr<std::string> key =
      base::ReadPemFile(key_file, "--tls-key", "PRIVATE KEY");
  if (!key.ok()) return key.status();
  if (!client_ca_file.empty()) {
    absl::StatusOr<std::string> ca =
        base::ReadPemFile(client_ca_file, "--tls-client-ca", "CERTIFICATE");
    if (!ca.ok()) return ca.status();
    tls->client_ca_pem = *std::move(ca);
  }
  tls->cert_pem = *std::move(cert);
  tls->key_pem = *std::move(key);
  return absl::OkStatus();
}

std::shared_ptr<grpc::ServerCredentials> MakeServerCredentials(
    const ServerTls& tls, std::shared_ptr<const engine::TokenRegistry> tokens) {
  if (!tls.enabled() && tokens == nullptr) {
    return grpc::InsecureServerCredentials();
  }
  return std::make_shared<QipuServerCredentials>(tls, std::move(tokens));
}

}  // namespace qipu::coordinator
