#include "base/loopback.h"

#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"

namespace qipu::base {
namespace {

// Whether `host` is a dotted IPv4 address in 127.0.0.0/8.
bool IsLoopbackV4(absl::string_view host) {
  std::vector<absl::string_view> parts = absl::StrSplit(host, '.');
  if (parts.size() != 4) return false;
  for (absl::string_view p : parts) {
    int v = 0;
    if (p.empty() || p.size() > 3 || !absl::SimpleAtoi(p, &v) || v < 0 ||
        v > 255) {
      return false;
    }
  }
  return parts[0] == "127";
}

// The host of "HOST:PORT" or "[V6]:PORT" ("" when there is no port).
absl::string_view HostOf(absl::string_view address) {
  if (absl::StartsWith(address, "[")) {
    const size_t close = address.find(']');
    if (close == absl::string_view::npos) return "";
    return address.substr(0, close + 1);
  }
  const size_t colon = address.rfind(':');
  if (colon == absl::string_view::npos) return "";
  return address.substr(0, colon);
}

}  // namespace

bool IsLoopbackHost(absl::string_view host) {
  if (absl::StartsWith(host, "[") && absl::EndsWith(host, "]")) {
    host = host.substr(1, host.size() - 2);
  }
  if (absl::EqualsIgnoreCase(host, "localhost")) return true;
  if (IsLoopbackV4(host)) return true;
  const std::string lower = absl::AsciiStrToLower(host);
  if (lower == "::1" || lower == "0:0:0:0:0:0:0:1") return true;
  // An IPv4-mapped IPv6 address of 127.0.0.0/8.
  for (absl::string_view prefix : {"::ffff:", "0:0:0:0:0:ffff:"}) {
    if (absl::StartsWith(lower, prefix)) {
      return IsLoopbackV4(absl::string_view(lower).substr(prefix.size()));
    }
  }
  return false;
}

bool IsLoopbackListen(absl::string_view address) {
  if (absl::StartsWith(address, "unix:") ||
      absl::StartsWith(address, "unix-abstract:")) {
    return true;
  }
  // gRPC also takes "ipv4:HOST:PORT" and "ipv6:[HOST]:PORT".
  for (absl::string_view scheme : {"ipv4:", "ipv6:", "dns:"}) {
    if (absl::StartsWith(address, scheme)) {
      address.remove_prefix(scheme.size());
      break;
    }
  }
  return IsLoopbackHost(HostOf(address));
}

bool IsLocalPeer(absl::string_view peer) {
  if (absl::StartsWith(peer, "unix:") ||
      absl::StartsWith(peer, "unix-abstract:")) {
    return true;
  }
  // gRPC writes an IPv6 peer's brackets %-escaped: "ipv6:%5B::1%5D:5000".
  const std::string unescaped = absl::StrReplaceAll(
      peer, {{"%5B", "["}, {"%5b", "["}, {"%5D", "]"}, {"%5d", "]"}});
  for (absl::string_view scheme : {"ipv4:", "ipv6:"}) {
    if (absl::StartsWith(unescaped, scheme)) {
      return IsLoopbackHost(
          HostOf(absl::string_view(unescaped).substr(scheme.size())));
    }
  }
  return false;
}

}  // namespace qipu::base
