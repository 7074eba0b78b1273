// .npz files: a zip archive of .npy arrays, as numpy.savez (stored) and
// numpy.savez_compressed (deflate) write them, readable by numpy.load.
// Written to a temporary name in the same directory and renamed into
// place, so a reader never sees half a file.
//
// Format notes: each member is "<name>.npy", an .npy version 1.0 header
// (magic, a Python dict literal with descr, fortran_order False and shape,
// space-padded so the data starts at a multiple of 64 bytes) followed by
// the C-order little-endian data. The zip has no zip64 records: a member
// or the whole file of 4 GiB or more is refused.
#ifndef QIPU_TRAIN_NPZ_WRITER_H_
#define QIPU_TRAIN_NPZ_WRITER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "train/row_batch.h"

namespace qipu::train {

// One array of an .npz file. Does not own its data.
struct NpyArray {
  // Member name without ".npy".
  std::string name;
  // numpy type string: "|u1", "|i1", "<i2", "<f4", "<u8", ...
  std::string descr;
  std::vector<int64_t> shape;
  // C-order element bytes: exactly product(shape) * element size.
  absl::Span<const uint8_t> data;
};

// How members are stored in the zip: stored (numpy.savez), deflated at
// zlib's default level (numpy.savez_compressed), or deflated at level 1
// (about half the time, about 1.7x the bytes of training rows).
enum class NpzCompression : uint8_t { kStored = 0, kDeflate, kDeflateFast };

// The .npy bytes before an array's data: magic, version 1.0, header
// length and the padded header dict.
std::string NpyHeader(const NpyArray& array);

// Writes `arrays` to `path` (via "<path>.tmp", then rename). Errors name the
// path and the system's reason (Unavailable for I/O, InvalidArgument for an
// array whose data does not match its shape or that is too large).
absl::Status WriteNpz(const std::string& path,
                      absl::Span<const NpyArray> arrays,
                      NpzCompression compression);

// The members of a batch, KataGo's names and dtypes first:
// binaryInputNCHWPacked |u1 (N, 22, ceil(L*L/8)), globalInputNC <f4
// (N, 19), policyTargetsNCMove <i2 (N, 2, L*L+1), globalTargetsNC <f4
// (N, 80), scoreDistrN |i1 (N, 2*L*L+120), valueTargetsNCHW |i1
// (N, 5, L, L); then qipu's: qipuGlobalInputNC <f4 (N, 6), qipuRowIdNC <u8
// (N, 5). The arrays point into `batch`, which must outlive them.
std::vector<NpyArray> BatchArrays(const RowBatch& batch);

// WriteNpz() of BatchArrays(batch).
absl::Status WriteBatchNpz(const RowBatch& batch, const std::string& path,
                           NpzCompression compression);

}  // namespace qipu::train

#endif  // QIPU_TRAIN_NPZ_WRITER_H_
