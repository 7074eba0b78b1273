// Dialling a qipu coordinator: the one place where qipu's clients (the
// worker, the qipu tool's commands and benchmarks) make gRPC channels, so
// that transport settings -- message size limits, reconnect backoff, TLS
// and the bearer token -- are decided once.
//
// Security: with ChannelOptions::tls.ca_pem set the channel speaks TLS and
// accepts only a server certificate signed by that CA (plus a client
// certificate of its own when the coordinator asks for one, mTLS); with a
// token, every call carries the metadata `authorization: Bearer <token>`
// (added by a client interceptor, so raw streams carry it too). A token
// over plain text can be read by anyone on the path: use TLS off loopback.
#ifndef QIPU_BASE_CHANNEL_H_
#define QIPU_BASE_CHANNEL_H_

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "grpcpp/channel.h"
#include "grpcpp/client_context.h"

namespace qipu::base {

// TLS of a client channel, PEM contents (not paths). Plain value.
struct ClientTls {
  // CA certificates the server's certificate must chain to; empty = plain
  // text (no TLS).
  std::string ca_pem;
  // This client's certificate chain and private key, for coordinators that
  // require client certificates (mTLS); both or neither.
  std::string cert_pem;
  std::string key_pem;
  // Name checked against the server certificate instead of the host of the
  // address (e.g. dialling an IP that is not among the certificate's
  // names); empty = the address's host.
  std::string server_name;
};

// How to dial. Plain value.
struct ChannelOptions {
  // Largest message sent or received, bytes (queries, exports and import
  // files can be large).
  int max_message_bytes = 64 << 20;
  // Reconnect backoff cap (the first retry waits at most 100 ms); zero
  // keeps gRPC's defaults.
  absl::Duration max_reconnect_backoff = absl::ZeroDuration();
  // >= 0: a channel of its own, never shared with another channel to the
  // same address (gRPC shares subchannels of identical arguments); for
  // benchmarks that want one connection per client thread.
  int unshared_index = -1;
  // TLS; plain text when tls.ca_pem is empty.
  ClientTls tls;
  // Bearer token sent with every call; empty = none.
  std::string token;
};

// The contents of the PEM file `path`, checked to hold a block of `kind`
// ("CERTIFICATE", "PRIVATE KEY"). Errors start with `flag` (the flag that
// named the file): the file's (path and reason), or InvalidArgument for a
// file that is not such PEM.
absl::StatusOr<std::string> ReadPemFile(const std::string& path,
                                        const std::string& flag,
                                        const std::string& kind);

// Reads the PEM files of `--tls-ca`, `--tls-cert` and `--tls-key` into
// `tls` (empty paths are skipped). InvalidArgument naming the flag when a
// certificate is given without its key (or the reverse), or a client
// certificate without a CA, or a file is not PEM; the file's error (path
// and reason) when one cannot be read.
absl::Status LoadClientTls(const std::string& ca_file,
                           const std::string& cert_file,
                           const std::string& key_file, ClientTls* tls);

// Checks a bearer token's characters (printable ASCII, no spaces: what
// HTTP/2 metadata carries); InvalidArgument naming `flag` otherwise.
absl::Status ValidateToken(const std::string& token, const std::string& flag);

// A channel to `address` ("HOST:PORT", "unix:PATH"). Never fails here;
// errors show on the first call (a TLS handshake that fails shows as
// UNAVAILABLE). Thread-safe.
std::shared_ptr<grpc::Channel> Dial(const std::string& address,
                                    const ChannelOptions& options = {});

// Sets a deadline `timeout` from now on `ctx` (every client call has one).
void SetDeadline(grpc::ClientContext* ctx, absl::Duration timeout);

}  // namespace qipu::base

#endif  // QIPU_BASE_CHANNEL_H_
