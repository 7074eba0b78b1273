// Test helper: UTF-8 text encoded as UTF-16, to make the UTF-16 files the
// reader must accept (utf16_test.cc, sgf_input_test.cc).
#ifndef QIPU_TESTS_RULES_UTF16_UTIL_H_
#define QIPU_TESTS_RULES_UTF16_UTIL_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "rules/utf16.h"

namespace qipu::rules {

// `utf8` (well-formed) as UTF-16 in byte order `order`, after a byte order
// mark when `bom`.
inline std::string ToUtf16(absl::string_view utf8, Utf16Order order, bool bom) {
  std::string out;
  const auto unit = [&](uint32_t u) {
    const char hi = static_cast<char>(u >> 8);
    const char lo = static_cast<char>(u & 0xFF);
    out += order == Utf16Order::kLittleEndian ? lo : hi;
    out += order == Utf16Order::kLittleEndian ? hi : lo;
  };
  if (bom) unit(0xFEFF);
  for (size_t i = 0; i < utf8.size();) {
    const auto c = static_cast<unsigned char>(utf8[i]);
    const size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    uint32_t cp = n == 1 ? c : c & (0x7F >> n);
    for (size_t k = 1; k < n; ++k) {
      cp = cp << 6 | (static_cast<unsigned char>(utf8[i + k]) & 0x3F);
    }
    i += n;
    if (cp >= 0x10000) {
      unit(0xD800 + ((cp - 0x10000) >> 10));
      unit(0xDC00 + ((cp - 0x10000) & 0x3FF));
    } else {
      unit(cp);
    }
  }
  return out;
}

}  // namespace qipu::rules

#endif  // QIPU_TESTS_RULES_UTF16_UTIL_H_
