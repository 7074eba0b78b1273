// Quoting what a caller sent in an error message, bounded: an error that
// echoes a 1 MB field whole is larger than a gRPC client's metadata limit
// (8 KiB by default), which turns the intended INVALID_ARGUMENT into
// RESOURCE_EXHAUSTED and loses the message; a log line that echoes it
// floods the log. Every service error that repeats caller input goes
// through QuoteInput(); CapMessage() is the last guard on a whole message
// (the coordinator applies it to every status it sends).
#ifndef QIPU_BASE_QUOTE_H_
#define QIPU_BASE_QUOTE_H_

#include <cstddef>
#include <string>

#include "absl/strings/string_view.h"

namespace qipu::base {

// Bytes of caller input an error message quotes at most.
inline constexpr size_t kMaxQuotedBytes = 200;
// Bytes of a whole status message CapMessage() keeps.
inline constexpr size_t kMaxMessageBytes = 1024;

// `input` in single quotes. Longer than `max_bytes`: its first bytes (cut
// at a UTF-8 character boundary), "...", and the original length:
// 'abc...' (1048576 bytes). Control characters are written as \xNN, so
// that the message stays one printable line (quote marks inside are left
// as they are). Thread-safe (pure).
std::string QuoteInput(absl::string_view input,
                       size_t max_bytes = kMaxQuotedBytes);

// `message` when it is at most `max_bytes`; otherwise its first bytes (at
// a UTF-8 boundary) and " ... (N bytes in all)", within `max_bytes`.
// Thread-safe (pure).
std::string CapMessage(absl::string_view message,
                       size_t max_bytes = kMaxMessageBytes);

}  // namespace qipu::base

#endif  // QIPU_BASE_QUOTE_H_
