// CRC-32C (Castagnoli), the checksum of spool records. Part of the spool's
// on-disk format: the polynomial, the initial value and the masking below
// never change.
//
// Two implementations give the same values: the SSE4.2 `crc32`
// instruction (8 bytes per instruction), chosen at run time on x86-64
// CPUs that have it, and a portable slicing-by-8 table (8 bytes per step)
// everywhere else. The spool checksums every record it writes and reads,
// so on a fast worker this is on the per-game path.
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

namespace crc32c_internal {

// The portable implementation (slicing-by-8), same contract as Crc32c().
// Exposed so that tests can compare both paths on any machine.
uint32_t Portable(absl::string_view data, uint32_t crc);

// True when this CPU has SSE4.2 and Crc32c() uses the instruction.
bool HardwareAvailable();

// The SSE4.2 implementation, same contract as Crc32c(). Precondition:
// HardwareAvailable() (it executes `crc32`, an illegal instruction
// elsewhere).
uint32_t Hardware(absl::string_view data, uint32_t crc);

}  // namespace crc32c_internal
}  // namespace qipu::worker

#endif  // QIPU_WORKER_CRC32C_H_
