#include "rules/utf16.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace qipu::rules {
namespace {

// Bytes of the input that DetectUtf16() looks at beyond the byte order
// mark: enough for the root node of any real file.
constexpr size_t kProbeBytes = 4096;

// Longest CA value DetectUtf16() reads, in code units.
constexpr size_t kMaxCharsetUnits = 32;

bool IsHighSurrogate(uint32_t u) { return u >= 0xD800 && u <= 0xDBFF; }
bool IsLowSurrogate(uint32_t u) { return u >= 0xDC00 && u <= 0xDFFF; }

uint16_t UnitAt(absl::string_view s, size_t i, Utf16Order order) {
  const auto lo = static_cast<unsigned char>(
      s[order == Utf16Order::kLittleEndian ? i : i + 1]);
  const auto hi = static_cast<unsigned char>(
      s[order == Utf16Order::kLittleEndian ? i + 1 : i]);
  return static_cast<uint16_t>(hi << 8 | lo);
}

// Bytes of `cp` in UTF-8.
size_t Utf8Length(uint32_t cp) {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | cp >> 6));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | cp >> 12));
    out->push_back(static_cast<char>(0x80 | (cp >> 6 & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | cp >> 18));
    out->push_back(static_cast<char>(0x80 | (cp >> 12 & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp >> 6 & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// The UTF-16 CA property of `probe` in byte order `order` naming UTF-16:
// its value, or nullopt. The property's letters must be aligned as code
// units from the start of the input.
std::optional<std::string> FindUtf16Charset(absl::string_view probe,
                                            Utf16Order order) {
  const absl::string_view pattern = order == Utf16Order::kLittleEndian
                                        ? absl::string_view("C\0A\0[\0", 6)
                                        : absl::string_view("\0C\0A\0[", 6);
  for (size_t at = probe.find(pattern); at != absl::string_view::npos;
       at = probe.find(pattern, at + 1)) {
    if (at % 2 != 0) continue;
    std::string value;
    size_t i = at + pattern.size();
    for (; i + 1 < probe.size() && value.size() < kMaxCharsetUnits; i += 2) {
      const uint16_t u = UnitAt(probe, i, order);
      if (u == ']' || u >= 0x80) break;
      value.push_back(static_cast<char>(u));
    }
    if (i + 1 < probe.size() && UnitAt(probe, i, order) == ']' &&
        IsUtf16CharsetName(value)) {
      return value;
    }
  }
  return std::nullopt;
}

}  // namespace

const char* Utf16OrderName(Utf16Order order) {
  return order == Utf16Order::kLittleEndian ? "UTF-16LE" : "UTF-16BE";
}

std::optional<Utf16Detection> DetectUtf16(absl::string_view data) {
  if (data.size() >= 2) {
    if (data[0] == '\xFF' && data[1] == '\xFE') {
      return Utf16Detection{
          Utf16Order::kLittleEndian, Utf16Evidence::kByteOrderMark, 2, {}};
    }
    if (data[0] == '\xFE' && data[1] == '\xFF') {
      return Utf16Detection{
          Utf16Order::kBigEndian, Utf16Evidence::kByteOrderMark, 2, {}};
    }
  }
  const absl::string_view probe = data.substr(0, kProbeBytes);
  // 8-bit text: no zero byte, nothing more to look at.
  if (probe.find('\0') == absl::string_view::npos) return std::nullopt;
  for (Utf16Order order : {Utf16Order::kLittleEndian, Utf16Order::kBigEndian}) {
    if (std::optional<std::string> ca = FindUtf16Charset(probe, order)) {
      return Utf16Detection{order, Utf16Evidence::kCharset, 0, *std::move(ca)};
    }
  }
  // An ASCII character in UTF-16 has a zero high byte: at odd offsets in
  // little-endian text, at even ones in big-endian text.
  size_t zero_even = 0;
  size_t zero_odd = 0;
  const size_t units = probe.size() / 2;
  for (size_t i = 0; i < units * 2; i += 2) {
    zero_even += probe[i] == '\0';
    zero_odd += probe[i + 1] == '\0';
  }
  const auto looks_like = [units](size_t high_zero, size_t low_zero) {
    return high_zero >= 2 && high_zero * 4 >= units &&
           low_zero * 8 <= high_zero;
  };
  if (looks_like(zero_odd, zero_even)) {
    return Utf16Detection{
        Utf16Order::kLittleEndian, Utf16Evidence::kZeroBytes, 0, {}};
  }
  if (looks_like(zero_even, zero_odd)) {
    return Utf16Detection{
        Utf16Order::kBigEndian, Utf16Evidence::kZeroBytes, 0, {}};
  }
  return std::nullopt;
}

bool IsUtf16CharsetName(absl::string_view charset) {
  const std::string n =
      absl::AsciiStrToUpper(absl::StripAsciiWhitespace(charset));
  return absl::StartsWith(n, "UTF-16") || absl::StartsWith(n, "UTF16") ||
         absl::StartsWith(n, "UCS-2") || absl::StartsWith(n, "UCS2") ||
         n == "UNICODE";
}

bool IsWideCharsetName(absl::string_view charset) {
  const std::string n =
      absl::AsciiStrToUpper(absl::StripAsciiWhitespace(charset));
  return IsUtf16CharsetName(n) || absl::StartsWith(n, "UTF-32") ||
         absl::StartsWith(n, "UTF32") || absl::StartsWith(n, "UCS-4") ||
         absl::StartsWith(n, "UCS4");
}

uint16_t Utf16Text::Unit(size_t i) const { return UnitAt(input_, i, order_); }

absl::StatusOr<Utf16Text> Utf16Text::Decode(absl::string_view input,
                                            Utf16Order order, size_t bom_bytes,
                                            size_t* error_offset) {
  const char* const name = Utf16OrderName(order);
  const auto fail = [&](size_t at, std::string why) {
    if (error_offset != nullptr) *error_offset = at;
    return absl::InvalidArgumentError(std::move(why));
  };
  const size_t n = input.size();
  if (bom_bytes > n) bom_bytes = n;
  if ((n - bom_bytes) % 2 != 0) {
    return fail(
        n - 1, absl::StrCat("malformed ", name, ": an odd number of bytes (", n,
                            "); the last one, at byte ", n - 1,
                            ", is half a code unit (a truncated file?)"));
  }
  Utf16Text t(input, order);
  t.utf8_.reserve((n - bom_bytes) / 2 + 16);
  t.anchors_.reserve((n - bom_bytes) / 2 / kStride + 1);
  size_t code_points = 0;
  for (size_t i = bom_bytes; i < n;) {
    if (code_points % kStride == 0) {
      t.anchors_.push_back(Anchor{t.utf8_.size(), i});
    }
    ++code_points;
    uint32_t cp = t.Unit(i);
    size_t units = 1;
    if (IsHighSurrogate(cp)) {
      const uint32_t low = i + 3 < n ? t.Unit(i + 2) : 0;
      if (!IsLowSurrogate(low)) {
        return fail(
            i, absl::StrFormat("malformed %s: unpaired surrogate at byte %d "
                               "(U+%04X, a high surrogate not followed by a "
                               "low one)",
                               name, i, cp));
      }
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      units = 2;
    } else if (IsLowSurrogate(cp)) {
      return fail(i,
                  absl::StrFormat("malformed %s: unpaired surrogate at byte %d "
                                  "(U+%04X, a low surrogate without a high one "
                                  "before it)",
                                  name, i, cp));
    }
    AppendUtf8(cp, &t.utf8_);
    i += 2 * units;
  }
  return t;
}

size_t Utf16Text::InputOffset(size_t offset) const {
  if (offset >= utf8_.size()) return input_.size();
  // The last anchor at or before `offset` (the first is at 0).
  const auto it =
      std::upper_bound(anchors_.begin(), anchors_.end(), offset,
                       [](size_t o, const Anchor& a) { return o < a.decoded; });
  size_t decoded = std::prev(it)->decoded;
  size_t i = std::prev(it)->input;
  while (true) {
    const uint32_t u = Unit(i);
    const bool pair = IsHighSurrogate(u);
    const size_t length = pair ? 4 : Utf8Length(u);
    if (offset < decoded + length) return i;
    decoded += length;
    i += pair ? 4 : 2;
  }
}

}  // namespace qipu::rules
