// Text decoding for SGF: property values are bytes in the charset that the
// root's CA property names (UTF-8 when absent). TextDecoder turns them into
// UTF-8, replacing what cannot be decoded with U+FFFD and saying so, so that
// every string a GameRecord holds is valid UTF-8.
//
// UTF-8 input is checked here (no iconv); every other charset goes through
// glibc iconv. Legacy labels are widened to the superset that real files
// actually use, as the WHATWG Encoding Standard does: GB2312 and GBK read as
// GB18030, Shift_JIS as CP932, EUC-KR as CP949, ISO-8859-1 as Windows-1252,
// US-ASCII as UTF-8. Every character of the narrower charset decodes the
// same way.
#ifndef QIPU_RULES_CHARSET_H_
#define QIPU_RULES_CHARSET_H_

#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace qipu::rules {

// The Unicode replacement character U+FFFD in UTF-8.
inline constexpr absl::string_view kReplacementCharacter = "\xEF\xBF\xBD";

// True when `text` is well-formed UTF-8 (no overlong forms, no surrogates,
// nothing above U+10FFFF).
bool IsValidUtf8(absl::string_view text);

// Returns `text` with each ill-formed UTF-8 sequence (each maximal subpart,
// as Unicode recommends) replaced by U+FFFD. Sets *lossy (when not null) to
// whether anything was replaced. Valid input is returned unchanged.
std::string Utf8WithReplacement(absl::string_view text, bool* lossy);

// Converts text in one charset to UTF-8. Move-only: it owns an iconv
// descriptor, which is closed by the destructor. Not thread-safe (iconv
// descriptors carry state); use one decoder per thread.
class TextDecoder {
 public:
  // A decoder for the charset named by an SGF CA value ("UTF-8", "GB2312",
  // "Big5", "Shift_JIS", "EUC-KR", "ISO-8859-1", ...; case-insensitive,
  // surrounding blanks ignored). Empty means UTF-8. Returns
  // INVALID_ARGUMENT naming the charset when iconv does not know it.
  static absl::StatusOr<TextDecoder> Open(absl::string_view charset);

  // A decoder for UTF-8 (never fails).
  TextDecoder() = default;
  TextDecoder(TextDecoder&& other) noexcept;
  TextDecoder& operator=(TextDecoder&& other) noexcept;
  TextDecoder(const TextDecoder&) = delete;
  TextDecoder& operator=(const TextDecoder&) = delete;
  ~TextDecoder();

  // Decodes `text` to UTF-8. Bytes that are not valid in the charset
  // become U+FFFD (one per bad sequence) and set *lossy (when not null);
  // otherwise *lossy is set to false. The result is always valid UTF-8.
  std::string Decode(absl::string_view text, bool* lossy);

  // The charset actually used, as iconv knows it ("UTF-8", "GB18030", ...).
  const std::string& charset() const { return charset_; }
  // True when decoding goes through iconv (any charset other than UTF-8).
  bool uses_iconv() const { return cd_ != kNoDescriptor; }

 private:
  // iconv_t is a pointer type; kept as void* so that <iconv.h> stays out of
  // this header.
  static constexpr void* kNoDescriptor = nullptr;

  TextDecoder(void* cd, std::string charset)
      : cd_(cd), charset_(std::move(charset)) {}

  // The iconv descriptor converting from charset_ to UTF-8, or
  // kNoDescriptor for UTF-8 (checked without iconv).
  void* cd_ = kNoDescriptor;
  std::string charset_ = "UTF-8";
};

}  // namespace qipu::rules

#endif  // QIPU_RULES_CHARSET_H_
