#include "base/quote.h"

#include "absl/strings/str_cat.h"

namespace qipu::base {
namespace {

// The longest prefix of `s` of at most `n` bytes that does not end inside
// a UTF-8 character (continuation bytes are 10xxxxxx).
absl::string_view Utf8Prefix(absl::string_view s, size_t n) {
  if (s.size() <= n) return s;
  size_t end = n;
  // Back over at most three continuation bytes to the character's start.
  for (int i = 0;
       i < 3 && end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80;
       ++i) {
    --end;
  }
  return s.substr(0, end);
}

void AppendPrintable(absl::string_view s, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      out->append("\\x");
      out->push_back(kHex[u >> 4]);
      out->push_back(kHex[u & 0xf]);
    } else {
      out->push_back(c);
    }
  }
}

}  // namespace

std::string QuoteInput(absl::string_view input, size_t max_bytes) {
  std::string out = "'";
  if (input.size() <= max_bytes) {
    AppendPrintable(input, &out);
    out.push_back('\'');
    return out;
  }
  AppendPrintable(Utf8Prefix(input, max_bytes), &out);
  absl::StrAppend(&out, "...' (", input.size(), " bytes)");
  return out;
}

std::string CapMessage(absl::string_view message, size_t max_bytes) {
  if (message.size() <= max_bytes) return std::string(message);
  const std::string tail =
      absl::StrCat(" ... (", message.size(), " bytes in all)");
  const size_t keep = max_bytes > tail.size() ? max_bytes - tail.size() : 0;
  return absl::StrCat(Utf8Prefix(message, keep), tail);
}

}  // namespace qipu::base
