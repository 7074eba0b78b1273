// The one reading of a request's `authorization` headers, shared by the
// coordinator's gRPC token check (coordinator/server_credentials.cc) and
// the HTTP API (web/api.cc), so that a token accepted by one is accepted
// by the other: exactly one header, the scheme `Bearer` in any case
// (RFC 9110 section 11.1: auth schemes are case-insensitive), then the
// token, surrounding blanks ignored.
#ifndef QIPU_BASE_BEARER_H_
#define QIPU_BASE_BEARER_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace qipu::base {

// The token of a request whose `authorization` header values are
// `values` (every one the request carried, in order). Unauthenticated,
// saying what to send, for: no header; more than one (a proxy that
// appends its own would otherwise decide which token counts); another
// scheme than Bearer (nothing of the value is quoted: it may be a bare
// token); no token after it; a token with blanks inside. The view points into
// values[0]. Thread-safe (pure).
absl::StatusOr<absl::string_view> ParseBearer(
    const std::vector<absl::string_view>& values);

}  // namespace qipu::base

#endif  // QIPU_BASE_BEARER_H_
