// Which addresses stay on this host: the coordinator refuses to serve a
// non-loopback address with --auth off unless told --insecure, and with
// --auth off takes token and admin calls only from callers on this host.
// Loopback: 127.0.0.0/8, ::1 (also as ::ffff:127.x.y.z), `localhost` and
// Unix domain sockets. 0.0.0.0 and [::] are every interface: not
// loopback.
#ifndef QIPU_BASE_LOOPBACK_H_
#define QIPU_BASE_LOOPBACK_H_

#include "absl/strings/string_view.h"

namespace qipu::base {

// Whether `host` (an IP address, `[::1]` bracketed or not, or a name) is
// a loopback address. Names other than `localhost` are not resolved: they
// count as not loopback. Thread-safe (pure).
bool IsLoopbackHost(absl::string_view host);

// Whether a listen address ("HOST:PORT", "[V6]:PORT", "unix:PATH",
// "unix-abstract:NAME") is reachable only from this host. Thread-safe
// (pure).
bool IsLoopbackListen(absl::string_view address);

// Whether a gRPC peer (grpc::ServerContext::peer(): "ipv4:127.0.0.1:5000",
// "ipv6:[::1]:5000", its brackets maybe %-escaped, "unix:/path",
// "inproc") is on this host. Anything
// else, an unknown form included, is not. Thread-safe (pure).
bool IsLocalPeer(absl::string_view peer);

}  // namespace qipu::base

#endif  // QIPU_BASE_LOOPBACK_H_
