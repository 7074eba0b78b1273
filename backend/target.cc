#include "backend/target.h"

#include "absl/strings/str_cat.h"

namespace qipu::backend {

absl::Status ValidateTarget(const Target& t) {
  if (t.server.empty() == t.db.empty()) {
    return absl::InvalidArgumentError(
        "give exactly one of --server HOST:PORT and --db DIR");
  }
  return absl::OkStatus();
}

base::ChannelOptions ChannelOptionsOf(const Target& t,
                                      base::ChannelOptions base) {
  base.tls = t.tls;
  base.token = t.token;
  return base;
}

absl::Status WithServerHint(absl::Status s, const std::string& server) {
  if (!absl::IsUnavailable(s)) return s;
  return absl::UnavailableError(
      absl::StrCat(server, ": ", s.message(),
                   " (is the coordinator running at that address?)"));
}

}  // namespace qipu::backend
