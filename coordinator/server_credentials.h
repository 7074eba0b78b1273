// The credentials of the coordinator's gRPC port: plain text or TLS
// (optionally requiring client certificates signed by a CA: mTLS), and,
// with a TokenRegistry, the bearer-token check of every call.
//
// The token check is a gRPC auth metadata processor: it runs in gRPC's
// server auth filter, before any handler, on the call's :path and
// `authorization` metadata, and ends a refused call there -- a handler
// never runs for it. gRPC 1.51's C++ API attaches processors to TLS
// credentials only (InsecureServerCredentials() asserts), so this file
// builds the credentials through gRPC's C API, where plain-text
// credentials take a processor too: `--auth required` works with and
// without TLS (plain text only where the network is trusted).
//
// Refusals: no `authorization: Bearer <token>` metadata (read by
// base::ParseBearer(), as the HTTP API reads its header: the scheme in any
// case, exactly one entry), a token this database does not know, or a
// revoked one: UNAUTHENTICATED; a valid token whose role may not call the
// method (coordinator/access.h): PERMISSION_DENIED. Health checks need no
// token.
#ifndef QIPU_COORDINATOR_SERVER_CREDENTIALS_H_
#define QIPU_COORDINATOR_SERVER_CREDENTIALS_H_

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "engine/tokens.h"
#include "grpcpp/security/server_credentials.h"

namespace qipu::coordinator {

// TLS of the server port, PEM contents. Plain value; TLS when cert_pem is
// set.
struct ServerTls {
  // Certificate chain and private key of the server.
  std::string cert_pem;
  std::string key_pem;
  // CA of client certificates; when set, every client must present a
  // certificate signed by it (mTLS).
  std::string client_ca_pem;

  bool enabled() const { return !cert_pem.empty(); }
};

// Reads `--tls-cert`, `--tls-key` and `--tls-client-ca` (empty paths
// skipped) into `tls`. InvalidArgument naming the flag for a certificate
// without a key (or the reverse), a client CA without a certificate, or a
// file that is not PEM; the file's error when one cannot be read.
absl::Status LoadServerTls(const std::string& cert_file,
                           const std::string& key_file,
                           const std::string& client_ca_file, ServerTls* tls);

// Credentials for ServerBuilder::AddListeningPort(): TLS as `tls` says
// (plain text when !tls.enabled()); with `tokens`, every call's token is
// checked against it (shared with the credentials, which the server keeps
// until it is destroyed). Thread-safe.
std::shared_ptr<grpc::ServerCredentials> MakeServerCredentials(
    const ServerTls& tls, std::shared_ptr<const engine::TokenRegistry> tokens);

}  // namespace qipu::coordinator

#endif  // QIPU_COORDINATOR_SERVER_CREDENTIALS_H_
