#include "tests/common/http_get.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace qipu::test_util {

absl::StatusOr<HttpResult> HttpRequest(
    int port, const std::string& target,
    const std::vector<std::pair<std::string, std::string>>& headers,
    const std::string& method, absl::Duration timeout) {
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
  for (size_t sent = 0; sent < req.size();) {
    const ssize_t n =
        ::send(fd, req.data() + sent, req.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return absl::UnavailableError("send failed");
    sent += static_cast<size_t>(n);
  }
  std::string in;
  char buf[16384];
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
