// LEB128 varints for value codecs: seven bits a byte, least significant
// first, the high bit set on every byte but the last. The one varint coder of
// qipu's own formats (protobuf's wire format is protobuf's). Decoding never
// reads past the end. Everything is inline: the indexer and the packed move
// lists call it per entry and per move.
#ifndef QIPU_BASE_VARINT_H_
#define QIPU_BASE_VARINT_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace qipu::base {

// Most bytes of a 64-bit varint.
inline constexpr size_t kMaxVarint64Bytes = 10;

// Passes the bytes of v (1..kMaxVarint64Bytes) to put(char), in order: the
// one encoder loop, behind every writer below and the value codecs' own.
template <typename PutByte>
inline void EmitVarint64(uint64_t v, PutByte put) {
  while (v >= 0x80) {
    put(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  put(static_cast<char>(v));
}

// Writes v at out (1..kMaxVarint64Bytes bytes); returns the end of the
// varint. Precondition: out has room for them.
inline char* EncodeVarint64(char* out, uint64_t v) {
  EmitVarint64(v, [&out](char c) { *out++ = c; });
  return out;
}

// Appends v to *out (1..kMaxVarint64Bytes bytes).
inline void PutVarint64(std::string* out, uint64_t v) {
  EmitVarint64(v, [out](char c) { out->push_back(c); });
}

// Reads a varint from the front of *in, advancing it. False on truncated
// or over-long input (then *in has advanced past the bytes read).
inline bool GetVarint64(absl::string_view* in, uint64_t* v) {
  uint64_t result = 0;
  for (int shift = 0; shift <= 63 && !in->empty(); shift += 7) {
    const uint8_t byte = static_cast<uint8_t>((*in)[0]);
    in->remove_prefix(1);
    result |= static_cast<uint64_t>(byte & 0x7F) << shift;
    if (!(byte & 0x80)) {
      *v = result;
      return true;
    }
  }
  return false;
}

// --- one- and two-byte varints without a branch on their length ----------
// Packed point lists (a point's dense index + 1 is below 2^14) are a random
// mix of one- and two-byte varints on boards above 11x11: a branch on the
// length would be mispredicted about every other point. The bytes are the
// same as EncodeVarint64()'s.

// Writes v (< 2^14) as a varint of one or two bytes at out; returns its
// end. Always writes out[0] and out[1]. Precondition: v < 2^14 and out has
// room for two bytes.
inline char* EncodeVarint14(char* out, uint32_t v) {
  const uint32_t two = v >= 0x80 ? 1 : 0;
  out[0] = static_cast<char>(v | (two << 7));
  out[1] = static_cast<char>(v >> 7);
  return out + 1 + two;
}

// Reads the varint of one or two bytes at data[pos] (pos < size) into *v;
// returns the bytes it took (1 or 2), or 0 when the varint is longer than
// two bytes or truncated (decode it with GetVarint64() for its error).
// Reads data[pos + 1] only when it is before `size`.
inline size_t DecodeVarint14(const char* data, size_t size, size_t pos,
                             uint32_t* v) {
  const uint32_t b0 = static_cast<uint8_t>(data[pos]);
  const uint32_t b1 =
      pos + 1 < size ? static_cast<uint8_t>(data[pos + 1]) : 0x80;
  const uint32_t two = b0 >> 7;
  if ((two & (b1 >> 7)) != 0) [[unlikely]] {
    return 0;
  }
  *v = (b0 & 0x7F) | ((b1 << 7) & (0u - two));
  return 1 + two;
}

// The number of varints in `data`: each ends at a byte without the high
// bit (a truncated last one does not count).
inline size_t CountVarints(absl::string_view data) {
  size_t n = 0;
  for (char c : data) n += (static_cast<uint8_t>(c) & 0x80) == 0;
  return n;
}

}  // namespace qipu::base

#endif  // QIPU_BASE_VARINT_H_
