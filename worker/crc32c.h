// CRC-32C (Castagnoli), the checksum of spool records. Software, table
// driven (the spool checksums a few megabytes a second at most, so no
// hardware path is needed). Part of the spool's on-disk format: the
// polynomial, the initial value and the masking below never change.
#ifndef QIPU_WORKER_CRC32C_H_
#define QIPU_WORKER_CRC32C_H_

#include <cstdint>

#include "absl/strings/string_view.h"

namespace qipu::worker {

// CRC-32C of `data` continuing from `crc` (the CRC of the bytes before),
// so that Crc32c(a + b) == Crc32c(b, Crc32c(a)). Crc32c("123456789") is
// 0xE3069283. Thread-safe.
uint32_t Crc32c(absl::string_view data, uint32_t crc = 0);

// The stored form of a CRC (LevelDB's masking): rotated and offset so that
// the CRC of data that itself contains CRCs is not degenerate.
inline uint32_t MaskCrc(uint32_t crc) {
  return ((crc >> 15) | (crc << 17)) + 0xA282EAD8u;
}

}  // namespace qipu::worker

#endif  // QIPU_WORKER_CRC32C_H_
