// UTF-16 input for the SGF reader. SGF is 8-bit text, but real tools
// (Sabaki, some Windows editors) read and write whole files in UTF-16, so
// the reader recognises them and decodes them to UTF-8 first:
//   DetectUtf16()  -- is the file UTF-16, in which byte order, and what
//                     said so: a byte order mark, a CA property written in
//                     UTF-16 (CA[UTF-16LE]), or the zero bytes that ASCII
//                     characters (all of SGF's structure) have in UTF-16.
//   Utf16Text      -- the decoded text, with the way back from its byte
//                     offsets to the file's, so that every error and note
//                     names a place in the file as it is.
// Malformed UTF-16 (an odd number of bytes, an unpaired surrogate) is an
// error naming the byte offset; nothing is replaced.
#ifndef QIPU_RULES_UTF16_H_
#define QIPU_RULES_UTF16_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace qipu::rules {

// Byte order of UTF-16 code units.
enum class Utf16Order : uint8_t { kLittleEndian, kBigEndian };

// "UTF-16LE", "UTF-16BE".
const char* Utf16OrderName(Utf16Order order);

// What told that a file is UTF-16.
enum class Utf16Evidence : uint8_t {
  // FF FE (little-endian) or FE FF (big-endian) at byte 0.
  kByteOrderMark,
  // A CA property written in UTF-16 that names UTF-16 (or UCS-2).
  kCharset,
  // Zero bytes at every other offset, as ASCII characters have in UTF-16.
  kZeroBytes,
};

// What DetectUtf16() found. Plain value type.
struct Utf16Detection {
  Utf16Order order = Utf16Order::kLittleEndian;
  Utf16Evidence evidence = Utf16Evidence::kByteOrderMark;
  // Bytes of byte order mark at the start of the input (2, or 0).
  size_t bom_bytes = 0;
  // kCharset: the CA value as written ("UTF-16LE"), ASCII.
  std::string charset;
};

// Whether `data` is UTF-16, and how it was told: a byte order mark first;
// else a UTF-16 CA property naming UTF-16 or UCS-2 within the first 4 KiB
// (its byte order is the one it is written in); else the zero-byte pattern
// of the first 4 KiB (at least a quarter of the code units, and at least
// two, have a zero high byte in one byte order, and the other order has
// at most an eighth as many). nullopt for 8-bit text, including UTF-8
// with or without its byte order mark. Reads at most 4 KiB and allocates
// nothing for 8-bit text without NUL bytes. Thread-safe.
std::optional<Utf16Detection> DetectUtf16(absl::string_view data);

// Whether a CA value names UTF-16 (UTF-16, UTF-16LE/BE, UCS-2, "Unicode";
// case-insensitive, surrounding blanks ignored).
bool IsUtf16CharsetName(absl::string_view charset);

// Whether a CA value names a charset of 16- or 32-bit code units (UTF-16,
// UTF-16LE/BE, UTF-32, UCS-2, UCS-4, "Unicode"; case-insensitive), which
// cannot be the charset of 8-bit text.
bool IsWideCharsetName(absl::string_view charset);

// UTF-16 input decoded to UTF-8. Keeps a view of the input, which must
// outlive it, to map decoded offsets back. Immutable after Decode();
// thread-safe to read. Movable.
class Utf16Text {
 public:
  // Decodes `input` in byte order `order`, after its first `bom_bytes`
  // bytes (a byte order mark, not part of the text). Malformed input is
  // InvalidArgument naming the byte offset and why (an odd number of
  // bytes: the last one is half a code unit; a high surrogate not
  // followed by a low one; a low surrogate without a high one before it);
  // then *error_offset (when not null) is that offset in `input`.
  static absl::StatusOr<Utf16Text> Decode(absl::string_view input,
                                          Utf16Order order, size_t bom_bytes,
                                          size_t* error_offset);

  // The decoded text: valid UTF-8 (U+0000 decodes to a NUL byte).
  const std::string& utf8() const { return utf8_; }

  // The byte offset in the input of the character holding byte `offset`
  // of utf8(); offsets at or past its end map to the input's size. Costs
  // a binary search and at most kStride code units of walking.
  size_t InputOffset(size_t offset) const;

 private:
  // Code points between two anchors.
  static constexpr size_t kStride = 256;

  // The decoded offset and the input offset of the same character.
  struct Anchor {
    size_t decoded = 0;
    size_t input = 0;
  };

  Utf16Text(absl::string_view input, Utf16Order order)
      : input_(input), order_(order) {}

  // The code unit at input offset i (i + 1 < input_.size()).
  uint16_t Unit(size_t i) const;

  absl::string_view input_;
  Utf16Order order_;
  std::string utf8_;
  // One anchor every kStride code points, the first at the text's start;
  // increasing in both offsets.
  std::vector<Anchor> anchors_;
};

}  // namespace qipu::rules

#endif  // QIPU_RULES_UTF16_H_
