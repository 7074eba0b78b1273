#include "worker/crc32c.h"

#include <array>
#include <cstddef>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace qipu::worker {
namespace {

// Reflected Castagnoli polynomial.
constexpr uint32_t kPolynomial = 0x82F63B78u;

// Slicing-by-8 tables: kTables[0] is the classic byte table; kTables[k][b]
// is the CRC contribution of byte b followed by k zero bytes, so that one
// step folds 8 bytes with 8 independent lookups.
using Tables = std::array<std::array<uint32_t, 256>, 8>;

constexpr Tables MakeTables() {
  Tables t{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ kPolynomial : c >> 1;
    t[0][i] = c;
  }
  for (size_t k = 1; k < 8; ++k) {
    for (size_t i = 0; i < 256; ++i) {
      t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xFF];
    }
  }
  return t;
}

constexpr Tables kTables = MakeTables();

// The 8 bytes at p as a little-endian integer (one load on x86-64).
inline uint64_t LoadLittle64(const unsigned char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

}  // namespace

namespace crc32c_internal {

uint32_t Portable(absl::string_view data, uint32_t crc) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(data.data());
  size_t n = data.size();
  uint32_t c = ~crc;
  while (n >= 8) {
    const uint64_t w = LoadLittle64(p) ^ c;
    c = kTables[7][w & 0xFF] ^ kTables[6][(w >> 8) & 0xFF] ^
        kTables[5][(w >> 16) & 0xFF] ^ kTables[4][(w >> 24) & 0xFF] ^
        kTables[3][(w >> 32) & 0xFF] ^ kTables[2][(w >> 40) & 0xFF] ^
        kTables[1][(w >> 48) & 0xFF] ^ kTables[0][w >> 56];
    p += 8;
    n -= 8;
  }
  for (; n > 0; --n, ++p) c = kTables[0][(c ^ *p) & 0xFF] ^ (c >> 8);
  return ~c;
}

#if defined(__x86_64__)

bool HardwareAvailable() {
  // Evaluated once; __builtin_cpu_init() makes the query safe however
  // early the first call comes.
  static const bool available = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2") != 0;
  }();
  return available;
}

__attribute__((target("sse4.2"))) uint32_t Hardware(absl::string_view data,
                                                    uint32_t crc) {
  const char* p = data.data();
  size_t n = data.size();
  uint64_t c = ~crc;
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, sizeof(w));
    c = _mm_crc32_u64(c, w);
    p += 8;
    n -= 8;
  }
  uint32_t c32 = static_cast<uint32_t>(c);
  if (n >= 4) {
    uint32_t w;
    std::memcpy(&w, p, sizeof(w));
    c32 = _mm_crc32_u32(c32, w);
    p += 4;
    n -= 4;
  }
  for (; n > 0; --n, ++p) {
    c32 = _mm_crc32_u8(c32, static_cast<unsigned char>(*p));
  }
  return ~c32;
}

#else  // !defined(__x86_64__)

bool HardwareAvailable() { return false; }

uint32_t Hardware(absl::string_view data, uint32_t crc) {
  return Portable(data, crc);
}

#endif

}  // namespace crc32c_internal

uint32_t Crc32c(absl::string_view data, uint32_t crc) {
  return crc32c_internal::HardwareAvailable()
             ? crc32c_internal::Hardware(data, crc)
             : crc32c_internal::Portable(data, crc);
}

}  // namespace qipu::worker
