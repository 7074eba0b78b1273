// Quoting what a caller sent in an error message, bounded: an error that
// echoes a 1 MB field whole is larger than a gRPC client's metadata limit
// (8 KiB by default), which turns the intended INVALID_ARGUMENT into
// RESOURCE_EXHAUSTED and loses the message; a log line that echoes it
// floods the log. Every service error that repeats caller input goes
// through QuoteInput(); CapMessage() is the last guard on a whole message
// (the coordinator applies it to every status it sends).
//
// Header-only and on Abseil alone, so that the libraries below qipu_base
// (rules/, policy/, tournament/) quote input the same way.
#ifndef QIPU_BASE_QUOTE_H_
#define QIPU_BASE_QUOTE_H_

#include <cstddef>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace qipu::base {

// Bytes of caller input an error message quotes at most.
inline constexpr size_t kMaxQuotedBytes = 200;
// Bytes of a whole status message CapMessage() keeps.
inline constexpr size_t kMaxMessageBytes = 1024;

// `input` in single quotes (or `quote`). Longer than `max_bytes`: its
// first bytes (cut at a UTF-8 character boundary), "...", and the
// original length: 'abc...' (1048576 bytes). Control characters are
// written as \xNN, so that the message stays one printable line (quote
// marks inside are left as they are). Thread-safe (pure).
inline std::string QuoteInput(absl::string_view input,
                              size_t max_bytes = kMaxQuotedBytes,
                              char quote = '\'');

// `message` when it is at most `max_bytes`; otherwise its first bytes (at
// a UTF-8 boundary) and " ... (N bytes in all)", within `max_bytes`.
// Thread-safe (pure).
inline std::string CapMessage(absl::string_view message,
                              size_t max_bytes = kMaxMessageBytes);

// --- implementation ---

namespace quote_internal {

// The longest prefix of `s` of at most `n` bytes that does not end inside
// a UTF-8 character (continuation bytes are 10xxxxxx).
inline absl::string_view Utf8Prefix(absl::string_view s, size_t n) {
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

inline void AppendPrintable(absl::string_view s, std::string* out) {
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

}  // namespace quote_internal

inline std::string QuoteInput(absl::string_view input, size_t max_bytes,
                              char quote) {
  std::string out(1, quote);
  if (input.size() <= max_bytes) {
    quote_internal::AppendPrintable(input, &out);
    out.push_back(quote);
    return out;
  }
  quote_internal::AppendPrintable(quote_internal::Utf8Prefix(input, max_bytes),
                                  &out);
  out.append("...");
  out.push_back(quote);
  absl::StrAppend(&out, " (", input.size(), " bytes)");
  return out;
}

inline std::string CapMessage(absl::string_view message, size_t max_bytes) {
  if (message.size() <= max_bytes) return std::string(message);
  const std::string tail =
      absl::StrCat(" ... (", message.size(), " bytes in all)");
  const size_t keep = max_bytes > tail.size() ? max_bytes - tail.size() : 0;
  return absl::StrCat(quote_internal::Utf8Prefix(message, keep), tail);
}

}  // namespace qipu::base

#endif  // QIPU_BASE_QUOTE_H_
