// A minimal HTTP/1.1 client for tests: one request over a plain socket, or
// over TLS (OpenSSL) verifying the server against a test CA, to 127.0.0.1
// ("Connection: close"), the status, headers and body read back. Used by
// the web explorer's tests (tests/web/, tests/ops/).
#ifndef QIPU_TESTS_COMMON_HTTP_GET_H_
#define QIPU_TESTS_COMMON_HTTP_GET_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace qipu::test_util {

struct HttpResult {
  int status = 0;
  // Header names lower-case.
  std::map<std::string, std::string> headers;
  std::string body;
};

// HTTPS for HttpRequest().
struct HttpTls {
  // The CA (PEM) the server's certificate must chain to, for the address
  // 127.0.0.1; empty: the certificate is not checked.
  std::string ca_file;
};

// `method` `target` (path and query, sent as given) on 127.0.0.1:port
// with the extra `headers`, over TLS when `tls` is not null (not owned).
// Unavailable when the connection or the TLS handshake (the server's
// certificate) fails or the answer is not HTTP; DeadlineExceeded after
// `timeout`.
absl::StatusOr<HttpResult> HttpRequest(
    int port, const std::string& target,
    const std::vector<std::pair<std::string, std::string>>& headers = {},
    const std::string& method = "GET",
    absl::Duration timeout = absl::Seconds(20), const HttpTls* tls = nullptr);

}  // namespace qipu::test_util

#endif  // QIPU_TESTS_COMMON_HTTP_GET_H_
