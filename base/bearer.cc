#include "base/bearer.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace qipu::base {

absl::StatusOr<absl::string_view> ParseBearer(
    const std::vector<absl::string_view>& values) {
  if (values.empty()) {
    return absl::UnauthenticatedError(
        "no token: this server requires `authorization: Bearer <token>` "
        "(qipu: --token or QIPU_TOKEN)");
  }
  if (values.size() > 1) {
    return absl::UnauthenticatedError(absl::StrCat(
        values.size(),
        " authorization headers: send exactly one, `Bearer <token>`"));
  }
  const absl::string_view value = absl::StripAsciiWhitespace(values[0]);
  const size_t blank = value.find_first_of(" \t");
  const absl::string_view scheme = value.substr(0, blank);
  if (!absl::EqualsIgnoreCase(scheme, "Bearer")) {
    // The value is not quoted: it may be a bare token.
    return absl::UnauthenticatedError(
        "authorization: the scheme must be Bearer, as in `Bearer <token>`");
  }
  const absl::string_view token =
      blank == absl::string_view::npos
          ? absl::string_view()
          : absl::StripLeadingAsciiWhitespace(value.substr(blank));
  if (token.empty()) {
    return absl::UnauthenticatedError("authorization: Bearer without a token");
  }
  if (token.find_first_of(" \t") != absl::string_view::npos) {
    return absl::UnauthenticatedError(
        "authorization: the token has blanks inside; send `Bearer <token>`");
  }
  return token;
}

}  // namespace qipu::base
