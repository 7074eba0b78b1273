#include "tests/common/http_get.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <memory>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace qipu::test_util {
namespace {

// The OpenSSL error queue as text (and emptied).
std::string SslErrors() {
  std::string out;
  while (const unsigned long e = ERR_get_error()) {
    char buf[256];
    ERR_error_string_n(e, buf, sizeof(buf));
    absl::StrAppend(&out, out.empty() ? "" : "; ", buf);
  }
  return out.empty() ? "no OpenSSL error" : out;
}

struct SslFree {
  void operator()(SSL_CTX* c) const { SSL_CTX_free(c); }
  void operator()(SSL* s) const { SSL_free(s); }
};

}  // namespace

absl::StatusOr<HttpResult> HttpRequest(
    int port, const std::string& target,
    const std::vector<std::pair<std::string, std::string>>& headers,
    const std::string& method, absl::Duration timeout, const HttpTls* tls) {
  const absl::Time deadline = absl::Now() + timeout;
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return absl::UnavailableError("socket() failed");
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    return absl::UnavailableError(
        absl::StrCat("connect to 127.0.0.1:", port, ": errno ", errno));
  }
  std::string req =
      absl::StrCat(method, " ", target, " HTTP/1.1\r\nHost: 127.0.0.1:", port,
                   "\r\nConnection: close\r\n");
  for (const auto& [name, value] : headers) {
    absl::StrAppend(&req, name, ": ", value, "\r\n");
  }
  req += "\r\n";
  std::string in;
  char buf[16384];
  if (tls != nullptr) {
    // Blocking TLS, every socket call bounded by the time left.
    const int64_t left_ms = absl::ToInt64Milliseconds(timeout);
    timeval tv{static_cast<time_t>(left_ms / 1000),
               static_cast<suseconds_t>(left_ms % 1000 * 1000)};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
    std::unique_ptr<SSL_CTX, SslFree> ctx(SSL_CTX_new(TLS_client_method()));
    if (ctx == nullptr) return absl::InternalError(SslErrors());
    if (!tls->ca_file.empty()) {
      if (SSL_CTX_load_verify_locations(ctx.get(), tls->ca_file.c_str(),
                                        nullptr) != 1) {
        return absl::InvalidArgumentError(
            absl::StrCat(tls->ca_file, ": ", SslErrors()));
      }
      SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
    }
    std::unique_ptr<SSL, SslFree> ssl(SSL_new(ctx.get()));
    X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl.get()), "127.0.0.1");
    SSL_set_fd(ssl.get(), fd);
    if (SSL_connect(ssl.get()) != 1) {
      const long verify = SSL_get_verify_result(ssl.get());
      return absl::UnavailableError(absl::StrCat(
          "TLS handshake with 127.0.0.1:", port, ": ", SslErrors(),
          verify != X509_V_OK
              ? absl::StrCat(" (", X509_verify_cert_error_string(verify), ")")
              : ""));
    }
    if (SSL_write(ssl.get(), req.data(), static_cast<int>(req.size())) !=
        static_cast<int>(req.size())) {
      return absl::UnavailableError("TLS send failed: " + SslErrors());
    }
    for (;;) {
      const int n = SSL_read(ssl.get(), buf, sizeof(buf));
      if (n > 0) {
        in.append(buf, static_cast<size_t>(n));
        continue;
      }
      const int err = SSL_get_error(ssl.get(), n);
      ERR_clear_error();
      if (err == SSL_ERROR_SYSCALL && (errno == EAGAIN || errno == EINTR) &&
          absl::Now() >= deadline) {
        return absl::DeadlineExceededError(
            absl::StrCat(method, " ", target, ": no full answer in time"));
      }
      // close_notify, or the connection closed without one.
      break;
    }
  } else {
    for (size_t sent = 0; sent < req.size();) {
      const ssize_t n =
          ::send(fd, req.data() + sent, req.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return absl::UnavailableError("send failed");
      sent += static_cast<size_t>(n);
    }
    for (;;) {
      const absl::Duration left = deadline - absl::Now();
      if (left <= absl::ZeroDuration()) {
        return absl::DeadlineExceededError(
            absl::StrCat(method, " ", target, ": no full answer in time"));
      }
      pollfd p{fd, POLLIN, 0};
      const int ready =
          ::poll(&p, 1, static_cast<int>(absl::ToInt64Milliseconds(left)) + 1);
      if (ready < 0 && errno == EINTR) continue;
      if (ready <= 0) continue;
      const ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      in.append(buf, static_cast<size_t>(n));
    }
  }
  const size_t end = in.find("\r\n\r\n");
  if (end == std::string::npos || !absl::StartsWith(in, "HTTP/1.")) {
    return absl::UnavailableError(
        absl::StrCat("not an HTTP answer: '", in.substr(0, 80), "'"));
  }
  HttpResult out;
  std::vector<std::string> lines = absl::StrSplit(in.substr(0, end), "\r\n");
  std::vector<std::string> status = absl::StrSplit(lines[0], ' ');
  if (status.size() < 2 || !absl::SimpleAtoi(status[1], &out.status)) {
    return absl::UnavailableError(absl::StrCat("bad status line: ", lines[0]));
  }
  for (size_t i = 1; i < lines.size(); ++i) {
    const size_t colon = lines[i].find(':');
    if (colon == std::string::npos) continue;
    out.headers[absl::AsciiStrToLower(lines[i].substr(0, colon))] =
        std::string(absl::StripAsciiWhitespace(lines[i].substr(colon + 1)));
  }
  out.body = in.substr(end + 4);
  return out;
}

}  // namespace qipu::test_util
