#include "rules/charset.h"

#include <errno.h>
#include <iconv.h>

#include <cstddef>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "base/quote.h"

namespace qipu::rules {
namespace {

// iconv_open's failure value.
const iconv_t kIconvFailed = reinterpret_cast<iconv_t>(-1);

// Length of the well-formed UTF-8 sequence starting at s[i], or 0 when the
// bytes there are ill-formed; then *bad is the length (>= 1) of the maximal
// subpart to replace by one U+FFFD. Precondition: i < s.size().
size_t Utf8SequenceLength(absl::string_view s, size_t i, size_t* bad) {
  const unsigned char lead = static_cast<unsigned char>(s[i]);
  if (lead < 0x80) return 1;
  size_t trail = 0;
  // Allowed range of the first trail byte (narrower after E0, ED, F0, F4 so
  // that overlong forms, surrogates and values above U+10FFFF are out).
  unsigned char lo = 0x80;
  unsigned char hi = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    trail = 1;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    trail = 2;
    if (lead == 0xE0) lo = 0xA0;
    if (lead == 0xED) hi = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    trail = 3;
    if (lead == 0xF0) lo = 0x90;
    if (lead == 0xF4) hi = 0x8F;
  } else {
    *bad = 1;
    return 0;
  }
  for (size_t k = 1; k <= trail; ++k) {
    if (i + k >= s.size()) {
      *bad = k;
      return 0;
    }
    const unsigned char c = static_cast<unsigned char>(s[i + k]);
    const unsigned char min = k == 1 ? lo : 0x80;
    const unsigned char max = k == 1 ? hi : 0xBF;
    if (c < min || c > max) {
      *bad = k;
      return 0;
    }
  }
  return trail + 1;
}

// The iconv name to use for an SGF CA value, "" for UTF-8 (decoded without
// iconv). Legacy labels are widened to the superset real files use.
std::string IconvName(absl::string_view charset) {
  std::string name = absl::AsciiStrToUpper(absl::StripAsciiWhitespace(charset));
  if (name.empty() || name == "UTF-8" || name == "UTF8" || name == "US-ASCII" ||
      name == "ASCII") {
    return "";
  }
  if (name == "GB2312" || name == "GBK" || name == "CP936" ||
      name == "EUC-CN" || name == "GB18030") {
    return "GB18030";
  }
  if (name == "SHIFT_JIS" || name == "SHIFT-JIS" || name == "SJIS" ||
      name == "MS_KANJI" || name == "CP932" || name == "WINDOWS-31J") {
    return "CP932";
  }
  if (name == "EUC-KR" || name == "EUCKR" || name == "KS_C_5601-1987" ||
      name == "CP949" || name == "UHC") {
    return "CP949";
  }
  if (name == "ISO-8859-1" || name == "ISO8859-1" || name == "ISO_8859-1" ||
      name == "LATIN1" || name == "LATIN-1" || name == "WINDOWS-1252" ||
      name == "CP1252") {
    return "CP1252";
  }
  if (name == "BIG-5") return "BIG5";
  return name;
}

}  // namespace

bool IsValidUtf8(absl::string_view text) {
  size_t i = 0;
  size_t bad = 0;
  while (i < text.size()) {
    const size_t n = Utf8SequenceLength(text, i, &bad);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string Utf8WithReplacement(absl::string_view text, bool* lossy) {
  if (lossy != nullptr) *lossy = false;
  if (IsValidUtf8(text)) return std::string(text);
  if (lossy != nullptr) *lossy = true;
  std::string out;
  out.reserve(text.size() + 16);
  size_t i = 0;
  while (i < text.size()) {
    size_t bad = 0;
    const size_t n = Utf8SequenceLength(text, i, &bad);
    if (n > 0) {
      out.append(text.data() + i, n);
      i += n;
    } else {
      out.append(kReplacementCharacter.data(), kReplacementCharacter.size());
      i += bad;
    }
  }
  return out;
}

absl::StatusOr<TextDecoder> TextDecoder::Open(absl::string_view charset) {
  std::string name = IconvName(charset);
  if (name.empty()) return TextDecoder();
  const iconv_t cd = iconv_open("UTF-8", name.c_str());
  if (cd == kIconvFailed) {
    return absl::InvalidArgumentError(absl::StrCat(
        "charset ", base::QuoteInput(charset), " is not known to iconv"));
  }
  return TextDecoder(static_cast<void*>(cd), std::move(name));
}

TextDecoder::TextDecoder(TextDecoder&& other) noexcept
    : cd_(std::exchange(other.cd_, kNoDescriptor)),
      charset_(std::exchange(other.charset_, "UTF-8")) {}

TextDecoder& TextDecoder::operator=(TextDecoder&& other) noexcept {
  if (this != &other) {
    if (cd_ != kNoDescriptor) iconv_close(static_cast<iconv_t>(cd_));
    cd_ = std::exchange(other.cd_, kNoDescriptor);
    charset_ = std::exchange(other.charset_, "UTF-8");
  }
  return *this;
}

TextDecoder::~TextDecoder() {
  if (cd_ != kNoDescriptor) iconv_close(static_cast<iconv_t>(cd_));
}

std::string TextDecoder::Decode(absl::string_view text, bool* lossy) {
  if (cd_ == kNoDescriptor) return Utf8WithReplacement(text, lossy);
  const iconv_t cd = static_cast<iconv_t>(cd_);
  bool replaced = false;
  std::string out;
  out.reserve(text.size() * 3 / 2 + 16);
  iconv(cd, nullptr, nullptr, nullptr, nullptr);  // Initial shift state.
  char buffer[1024];
  // iconv's interface takes char** for the input but does not write to it.
  char* in = const_cast<char*>(text.data());
  size_t in_left = text.size();
  while (in_left > 0) {
    char* o = buffer;
    size_t o_left = sizeof(buffer);
    const size_t r = iconv(cd, &in, &in_left, &o, &o_left);
    const bool progress = o != buffer;
    out.append(buffer, static_cast<size_t>(o - buffer));
    if (r != static_cast<size_t>(-1)) continue;
    if (errno == E2BIG && progress) continue;
    // EILSEQ (a byte sequence invalid in the charset) or EINVAL (a sequence
    // cut off by the end of the value): replace one byte and go on from a
    // clean state.
    out.append(kReplacementCharacter.data(), kReplacementCharacter.size());
    replaced = true;
    ++in;
    --in_left;
    iconv(cd, nullptr, nullptr, nullptr, nullptr);
  }
  char* o = buffer;
  size_t o_left = sizeof(buffer);
  iconv(cd, nullptr, nullptr, &o, &o_left);  // Flush a pending shift.
  out.append(buffer, static_cast<size_t>(o - buffer));
  // iconv writes well-formed UTF-8; checked anyway because callers rely on
  // the result being valid.
  if (!IsValidUtf8(out)) out = Utf8WithReplacement(out, nullptr);
  if (lossy != nullptr) *lossy = replaced;
  return out;
}

}  // namespace qipu::rules
