// Target: where a qipu command's requests go -- a running coordinator
// (--server HOST:PORT, over gRPC) or a database opened by this process
// (--db DIR) -- how long each call may take, and the TLS and token of
// calls to a server. The query, job and
// corpus clients of this folder take one.
#ifndef QIPU_BACKEND_TARGET_H_
#define QIPU_BACKEND_TARGET_H_

#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "base/channel.h"

namespace qipu::backend {

// Plain value.
struct Target {
  // Coordinator address HOST:PORT; empty for a database.
  std::string server;
  // Database directory; empty for a server.
  std::string db;
  // Deadline of each call to the server.
  absl::Duration timeout = absl::Seconds(30);
  // How to dial the server: TLS and the bearer token (the clients keep
  // their own message limits).
  base::ClientTls tls;
  std::string token;
};

// The channel options of `t` (TLS, token) over gRPC's defaults of `base`.
base::ChannelOptions ChannelOptionsOf(const Target& t,
                                      base::ChannelOptions base = {});

// OK when exactly one of server and db is given; InvalidArgument naming
// the two flags otherwise.
absl::Status ValidateTarget(const Target& t);

// `s` from a call to `server`: UNAVAILABLE gets a hint that the
// coordinator may not be running there. Other codes pass unchanged.
absl::Status WithServerHint(absl::Status s, const std::string& server);

}  // namespace qipu::backend

#endif  // QIPU_BACKEND_TARGET_H_
