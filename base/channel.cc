#include "base/channel.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "grpcpp/support/channel_arguments.h"
#include "grpcpp/support/client_interceptor.h"

namespace qipu::base {
namespace {

// Adds `authorization: Bearer <token>` to the initial metadata of its
// call. One per call; the token is shared with its factory.
class BearerInterceptor final : public grpc::experimental::Interceptor {
 public:
  explicit BearerInterceptor(const std::string* header) : header_(header) {}

  void Intercept(grpc::experimental::InterceptorBatchMethods* m) override {
    if (m->QueryInterceptionHookPoint(
            grpc::experimental::InterceptionHookPoints::
                PRE_SEND_INITIAL_METADATA)) {
      m->GetSendInitialMetadata()->emplace("authorization", *header_);
    }
    m->Proceed();
  }

 private:
  // "Bearer <token>"; owned by the factory, which outlives the channel's
  // calls.
  const std::string* const header_;
};

class BearerFactory final
    : public grpc::experimental::ClientInterceptorFactoryInterface {
 public:
  explicit BearerFactory(const std::string& token)
      : header_(absl::StrCat("Bearer ", token)) {}

  grpc::experimental::Interceptor* CreateClientInterceptor(
      grpc::experimental::ClientRpcInfo* info) override {
    return new BearerInterceptor(&header_);
  }

 private:
  const std::string header_;
};

}  // namespace

absl::StatusOr<std::string> ReadPemFile(const std::string& path,
                                        const std::string& flag,
                                        const std::string& kind) {
  absl::StatusOr<std::string> pem = ReadFile(path);
  if (!pem.ok()) {
    return absl::Status(pem.status().code(),
                        absl::StrCat(flag, ": ", pem.status().message()));
  }
  if (!absl::StrContains(*pem, "-----BEGIN ") ||
      !absl::StrContains(*pem, kind)) {
    return absl::InvalidArgumentError(
        absl::StrCat(flag, ": ", path, " is not a PEM file holding a ", kind));
  }
  return pem;
}

absl::Status LoadClientTls(const std::string& ca_file,
                           const std::string& cert_file,
                           const std::string& key_file, ClientTls* tls) {
  if (cert_file.empty() != key_file.empty()) {
    return absl::InvalidArgumentError(
        "--tls-cert and --tls-key: give both (the client certificate and "
        "its private key) or neither");
  }
  if (!cert_file.empty() && ca_file.empty()) {
    return absl::InvalidArgumentError(
        "--tls-cert: a client certificate needs --tls-ca (the CA of the "
        "server's certificate)");
  }
  if (!ca_file.empty()) {
    absl::StatusOr<std::string> ca =
        ReadPemFile(ca_file, "--tls-ca", "CERTIFICATE");
    if (!ca.ok()) return ca.status();
    tls->ca_pem = *std::move(ca);
  }
  if (!cert_file.empty()) {
    absl::StatusOr<std::string> cert =
        ReadPemFile(cert_file, "--tls-cert", "CERTIFICATE");
    if (!cert.ok()) return cert.status();
    absl::StatusOr<std::string> key =
        ReadPemFile(key_file, "--tls-key", "PRIVATE KEY");
    if (!key.ok()) return key.status();
    tls->cert_pem = *std::move(cert);
    tls->key_pem = *std::move(key);
  }
  return absl::OkStatus();
}

absl::Status ValidateToken(const std::string& token, const std::string& flag) {
  for (const char c : token) {
    if (c <= ' ' || c > '~') {
      return absl::InvalidArgumentError(absl::StrCat(
          flag,
          ": a token is printable ASCII without spaces (as printed by "
          "`qipu token create`)"));
    }
  }
  return absl::OkStatus();
}

std::shared_ptr<grpc::Channel> Dial(const std::string& address,
                                    const ChannelOptions& options) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(options.max_message_bytes);
  args.SetMaxSendMessageSize(options.max_message_bytes);
  if (options.max_reconnect_backoff > absl::ZeroDuration()) {
    const int max_ms = static_cast<int>(
        absl::ToInt64Milliseconds(options.max_reconnect_backoff));
    args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, std::min(100, max_ms));
    args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, max_ms);
  }
  if (options.unshared_index >= 0) {
    args.SetInt("qipu.unshared_channel", options.unshared_index);
  }
  std::shared_ptr<grpc::ChannelCredentials> creds;
  if (options.tls.ca_pem.empty()) {
    creds = grpc::InsecureChannelCredentials();
  } else {
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = options.tls.ca_pem;
    ssl.pem_cert_chain = options.tls.cert_pem;
    ssl.pem_private_key = options.tls.key_pem;
    creds = grpc::SslCredentials(ssl);
    if (!options.tls.server_name.empty()) {
      args.SetSslTargetNameOverride(options.tls.server_name);
    }
  }
  if (options.token.empty()) {
    return grpc::CreateCustomChannel(address, creds, args);
  }
  std::vector<
      std::unique_ptr<grpc::experimental::ClientInterceptorFactoryInterface>>
      interceptors;
  interceptors.push_back(std::make_unique<BearerFactory>(options.token));
  return grpc::experimental::CreateCustomChannelWithInterceptors(
      address, creds, args, std::move(interceptors));
}

void SetDeadline(grpc::ClientContext* ctx, absl::Duration timeout) {
  ctx->set_deadline(absl::ToChronoTime(absl::Now() + timeout));
}

}  // namespace qipu::base
