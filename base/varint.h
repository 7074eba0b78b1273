// LEB128 varints for value codecs. Decoding never reads past the end.
#ifndef QIPU_BASE_VARINT_H_
#define QIPU_BASE_VARINT_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace qipu::base {

// Appends v to *out (1..10 bytes).
inline void PutVarint64(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

// Reads a varint from the front of *in, advancing it. False on truncated
// or over-long input (then *in is unspecified).
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

}  // namespace qipu::base

#endif  // QIPU_BASE_VARINT_H_
