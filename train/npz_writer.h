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

// KataGo's members, exactly those its trainingwrite.cpp writes (without
// metadataInputNC) in its order, names and dtypes: binaryInputNCHWPacked
// |u1 (N, 22, ceil(L*L/8)), globalInputNC <f4 (N, 19), policyTargetsNCMove
// <i2 (N, 2, L*L+1), globalTargetsNC <f4 (N, 80), scoreDistrN |i1
// (N, 2*L*L+120), valueTargetsNCHW |i1 (N, 5, L, L), qValueTargetsNCMove
// <i2 (N, 3, L*L+1). KataGo's shuffle.py checks that a file holds exactly
// these. The arrays point into `batch`, which must outlive them.
std::vector<NpyArray> KataGoArrays(const RowBatch& batch);

// qipu's own members: qipuGlobalInputNC <f4 (N, 6), qipuRowIdNC <u8
// (N, 5). Point into `batch`.
std::vector<NpyArray> ExtraArrays(const RowBatch& batch);

// Every column of a batch: KataGoArrays() then ExtraArrays(). Point into
// `batch`.
std::vector<NpyArray> BatchArrays(const RowBatch& batch);

// Which members a written file holds.
enum class NpzMembers : uint8_t {
  // KataGo's only (what KataGo's shuffle.py and loader accept).
  kKataGo = 0,
  // KataGo's in the file, qipu's in SidecarPath(file) beside it.
  kKataGoAndSidecar,
  // KataGo's and qipu's in one file (qipu's own readers; KataGo's
  // shuffle.py refuses it).
  kAll,
};

// The sidecar of "<stem>.npz": "<stem>.qipu.zip", an .npz archive (np.load
// reads it) whose name KataGo's shuffle.py skips (it takes *.npz only).
std::string SidecarPath(const std::string& npz_path);

// WriteNpz() of the batch's `members` (a sidecar first, so the .npz is the
// last file to appear).
absl::Status WriteBatchNpz(const RowBatch& batch, const std::string& path,
                           NpzCompression compression,
                           NpzMembers members = NpzMembers::kKataGo);

}  // namespace qipu::train

#endif  // QIPU_TRAIN_NPZ_WRITER_H_
