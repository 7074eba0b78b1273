#include "train/npz_writer.h"

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "base/status_macros.h"

namespace qipu::train {
namespace {

// Arrays are written as they lie in memory, and .npy says little-endian.
static_assert(std::endian::native == std::endian::little);

// Zip record signatures and fields (PKWARE APPNOTE 6.3).
constexpr uint32_t kLocalHeaderSig = 0x04034b50;
constexpr uint32_t kCentralHeaderSig = 0x02014b50;
constexpr uint32_t kEndOfCentralSig = 0x06054b50;
constexpr uint16_t kVersionNeeded = 20;  // 2.0: deflate
constexpr uint16_t kMethodStored = 0;
constexpr uint16_t kMethodDeflate = 8;
// A fixed modification time (1980-01-01 00:00): the same rows give the
// same bytes.
constexpr uint16_t kDosTime = 0;
constexpr uint16_t kDosDate = (0 << 9) | (1 << 5) | 1;
// Offset of the CRC-32 field in a local file header.
constexpr long kLocalCrcOffset = 14;
// Largest size without zip64 records.
constexpr uint64_t kMaxZipSize = 0xFFFFFFFFull;
// Bytes handed to zlib per call (its lengths are 32-bit).
constexpr size_t kChunk = size_t{1} << 20;

void Put16(std::string& out, uint16_t v) {
  out.push_back(static_cast<char>(v & 0xFF));
  out.push_back(static_cast<char>(v >> 8));
}
void Put32(std::string& out, uint32_t v) {
  Put16(out, static_cast<uint16_t>(v & 0xFFFF));
  Put16(out, static_cast<uint16_t>(v >> 16));
}

// Element size of a numpy type string ("<f4" -> 4), or 0 if unknown.
int ElementSize(const std::string& descr) {
  if (descr.size() != 3) return 0;
  const char c = descr[2];
  return c >= '1' && c <= '8' ? c - '0' : 0;
}

// What the central directory needs of a written member.
struct MemberEntry {
  std::string name;
  uint16_t method = kMethodStored;
  uint32_t crc = 0;
  uint32_t compressed = 0;
  uint32_t uncompressed = 0;
  uint32_t offset = 0;
};

struct FileCloser {
  void operator()(std::FILE* f) const {
    if (f != nullptr) std::fclose(f);
  }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

// Writes the bytes of one member through deflate or as stored.
class MemberWriter {
 public:
  MemberWriter(std::FILE* f, NpzCompression compression)
      : f_(f), deflate_(compression != NpzCompression::kStored) {
    if (deflate_) {
      std::memset(&zs_, 0, sizeof(zs_));
      const int level = compression == NpzCompression::kDeflateFast
                            ? Z_BEST_SPEED
                            : Z_DEFAULT_COMPRESSION;
      ok_ = deflateInit2(&zs_, level, Z_DEFLATED, -MAX_WBITS, 8,
                         Z_DEFAULT_STRATEGY) == Z_OK;
      zs_live_ = ok_;
    }
  }
  ~MemberWriter() {
    if (zs_live_) deflateEnd(&zs_);
  }

  // Appends bytes to the member; false on a write or zlib error.
  bool Write(const uint8_t* data, size_t size) {
    while (ok_ && size > 0) {
      const size_t n = std::min(size, kChunk);
      crc_ = crc32(crc_, data, static_cast<uInt>(n));
      uncompressed_ += n;
      if (deflate_) {
        ok_ = Deflate(data, n, Z_NO_FLUSH);
      } else {
        ok_ = std::fwrite(data, 1, n, f_) == n;
        written_ += n;
      }
      data += n;
      size -= n;
    }
    return ok_;
  }
  // Ends the member; false on a write or zlib error.
  bool Finish() {
    if (ok_ && deflate_) ok_ = Deflate(nullptr, 0, Z_FINISH);
    return ok_;
  }
  uint32_t crc() const { return static_cast<uint32_t>(crc_); }
  uint64_t written() const { return written_; }
  uint64_t uncompressed() const { return uncompressed_; }

 private:
  bool Deflate(const uint8_t* data, size_t n, int flush) {
    zs_.next_in = const_cast<Bytef*>(data);
    zs_.avail_in = static_cast<uInt>(n);
    int rc;
    do {
      zs_.next_out = out_;
      zs_.avail_out = sizeof(out_);
      rc = deflate(&zs_, flush);
      if (rc == Z_STREAM_ERROR) return false;
      const size_t have = sizeof(out_) - zs_.avail_out;
      if (have > 0 && std::fwrite(out_, 1, have, f_) != have) return false;
      written_ += have;
    } while (zs_.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
    return true;
  }

  std::FILE* f_;
  bool deflate_;
  bool ok_ = true;
  bool zs_live_ = false;
  z_stream zs_;
  uLong crc_ = crc32(0L, Z_NULL, 0);
  uint64_t written_ = 0;
  uint64_t uncompressed_ = 0;
  Bytef out_[1 << 16];
};

absl::Status IoError(const std::string& path, const char* what) {
  return absl::UnavailableError(
      absl::StrCat(what, " ", path, ": ", std::strerror(errno)));
}

}  // namespace

std::string NpyHeader(const NpyArray& array) {
  std::string shape = "(";
  for (size_t i = 0; i < array.shape.size(); ++i) {
    absl::StrAppend(&shape, array.shape[i], array.shape.size() == 1 ? "," : "",
                    i + 1 < array.shape.size() ? ", " : "");
  }
  shape += ")";
  std::string dict =
      absl::StrCat("{'descr': '", array.descr,
                   "', 'fortran_order': False, 'shape': ", shape, ", }");
  // Magic (6), version (2), header length (2), dict, spaces, '\n': a
  // multiple of 64 in all.
  const size_t unpadded = 10 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict.push_back('\n');
  std::string out("\x93NUMPY\x01\x00", 8);
  Put16(out, static_cast<uint16_t>(dict.size()));
  out += dict;
  return out;
}

namespace {

// Writes the zip of `arrays` to the new file `tmp` (opened as `f`);
// `path` is the final name, for messages.
absl::Status WriteZip(File f, const std::string& tmp, const std::string& path,
                      absl::Span<const NpyArray> arrays,
                      NpzCompression compression) {
  std::vector<MemberEntry> entries;
  uint64_t offset = 0;
  for (const NpyArray& a : arrays) {
    MemberEntry e;
    e.name = a.name + ".npy";
    e.method =
        compression != NpzCompression::kStored ? kMethodDeflate : kMethodStored;
    e.offset = static_cast<uint32_t>(offset);
    std::string local;
    Put32(local, kLocalHeaderSig);
    Put16(local, kVersionNeeded);
    Put16(local, 0);  // flags
    Put16(local, e.method);
    Put16(local, kDosTime);
    Put16(local, kDosDate);
    Put32(local, 0);  // CRC-32, sizes: patched below
    Put32(local, 0);
    Put32(local, 0);
    Put16(local, static_cast<uint16_t>(e.name.size()));
    Put16(local, 0);  // extra field length
    local += e.name;
    if (std::fwrite(local.data(), 1, local.size(), f.get()) != local.size()) {
      return IoError(tmp, "cannot write");
    }
    const std::string header = NpyHeader(a);
    MemberWriter writer(f.get(), compression);
    if (!writer.Write(reinterpret_cast<const uint8_t*>(header.data()),
                      header.size()) ||
        !writer.Write(a.data.data(), a.data.size()) || !writer.Finish()) {
      return IoError(tmp, "cannot write");
    }
    if (writer.written() >= kMaxZipSize ||
        offset + local.size() + writer.written() >= kMaxZipSize) {
      return absl::InvalidArgumentError(absl::StrCat(
          path, ": .npz files of 4 GiB or more are not supported"));
    }
    e.crc = writer.crc();
    e.compressed = static_cast<uint32_t>(writer.written());
    e.uncompressed = static_cast<uint32_t>(writer.uncompressed());
    std::string sizes;
    Put32(sizes, e.crc);
    Put32(sizes, e.compressed);
    Put32(sizes, e.uncompressed);
    offset += local.size() + writer.written();
    if (std::fseek(f.get(), static_cast<long>(e.offset) + kLocalCrcOffset,
                   SEEK_SET) != 0 ||
        std::fwrite(sizes.data(), 1, sizes.size(), f.get()) != sizes.size() ||
        std::fseek(f.get(), static_cast<long>(offset), SEEK_SET) != 0) {
      return IoError(tmp, "cannot write");
    }
    entries.push_back(std::move(e));
  }
  std::string central;
  for (const MemberEntry& e : entries) {
    Put32(central, kCentralHeaderSig);
    Put16(central, kVersionNeeded);  // version made by: MS-DOS, 2.0
    Put16(central, kVersionNeeded);
    Put16(central, 0);  // flags
    Put16(central, e.method);
    Put16(central, kDosTime);
    Put16(central, kDosDate);
    Put32(central, e.crc);
    Put32(central, e.compressed);
    Put32(central, e.uncompressed);
    Put16(central, static_cast<uint16_t>(e.name.size()));
    Put16(central, 0);  // extra field length
    Put16(central, 0);  // comment length
    Put16(central, 0);  // disk number
    Put16(central, 0);  // internal attributes
    Put32(central, 0);  // external attributes
    Put32(central, e.offset);
    central += e.name;
  }
  if (offset + central.size() + 22 >= kMaxZipSize) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": .npz files of 4 GiB or more are not supported"));
  }
  // The central directory's size excludes the end record.
  const uint32_t cd_size = static_cast<uint32_t>(central.size());
  Put32(central, kEndOfCentralSig);
  Put16(central, 0);  // this disk
  Put16(central, 0);  // disk of the central directory
  Put16(central, static_cast<uint16_t>(entries.size()));
  Put16(central, static_cast<uint16_t>(entries.size()));
  Put32(central, cd_size);
  Put32(central, static_cast<uint32_t>(offset));
  Put16(central, 0);  // comment length
  if (std::fwrite(central.data(), 1, central.size(), f.get()) !=
          central.size() ||
      std::fflush(f.get()) != 0 || ::fsync(fileno(f.get())) != 0) {
    return IoError(tmp, "cannot write");
  }
  if (std::fclose(f.release()) != 0) return IoError(tmp, "cannot close");
  return absl::OkStatus();
}

}  // namespace

absl::Status WriteNpz(const std::string& path,
                      absl::Span<const NpyArray> arrays,
                      NpzCompression compression) {
  for (const NpyArray& a : arrays) {
    const int element = ElementSize(a.descr);
    uint64_t count = 1;
    for (int64_t d : a.shape) {
      if (d < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("array ", a.name, " has a negative dimension"));
      }
      count *= static_cast<uint64_t>(d);
    }
    if (element == 0 || a.shape.empty() || count * element != a.data.size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "array ", a.name, ": ", a.data.size(), " bytes do not make shape (",
          absl::StrJoin(a.shape, ", "), ") of ", a.descr));
    }
    if (a.data.size() >= kMaxZipSize) {
      return absl::InvalidArgumentError(absl::StrCat(
          "array ", a.name, " has ", a.data.size(),
          " bytes: .npz members of 4 GiB or more are not supported"));
    }
  }
  const std::string tmp = path + ".tmp";
  File f(std::fopen(tmp.c_str(), "wb"));
  if (f == nullptr) return IoError(tmp, "cannot create");
  if (absl::Status s = WriteZip(std::move(f), tmp, path, arrays, compression);
      !s.ok()) {
    std::remove(tmp.c_str());
    return s;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    return IoError(path, "cannot rename the temporary file to");
  }
  return absl::OkStatus();
}

namespace {

template <typename T>
absl::Span<const uint8_t> Bytes(const std::vector<T>& v) {
  return absl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(v.data()),
                                   v.size() * sizeof(T));
}

}  // namespace

std::vector<NpyArray> KataGoArrays(const RowBatch& batch) {
  const RowShape& s = batch.shape();
  const int64_t n = batch.rows();
  std::vector<NpyArray> out;
  out.push_back({"binaryInputNCHWPacked",
                 "|u1",
                 {n, kNumBinaryChannels, s.packed_channel_bytes()},
                 Bytes(batch.packed_inputs())});
  out.push_back({"globalInputNC",
                 "<f4",
                 {n, kNumGlobalInputs},
                 Bytes(batch.global_inputs())});
  out.push_back({"policyTargetsNCMove",
                 "<i2",
                 {n, kNumPolicyChannels, s.policy_size()},
                 Bytes(batch.policy_targets())});
  out.push_back({"globalTargetsNC",
                 "<f4",
                 {n, kNumGlobalTargets},
                 Bytes(batch.global_targets())});
  out.push_back({"scoreDistrN",
                 "|i1",
                 {n, s.score_bins()},
                 Bytes(batch.score_distribution())});
  out.push_back({"valueTargetsNCHW",
                 "|i1",
                 {n, kNumValueChannels, s.pos_len, s.pos_len},
                 Bytes(batch.value_targets())});
  out.push_back({"qValueTargetsNCMove",
                 "<i2",
                 {n, kNumQValueChannels, s.policy_size()},
                 Bytes(batch.q_value_targets())});
  return out;
}

std::vector<NpyArray> ExtraArrays(const RowBatch& batch) {
  const int64_t n = batch.rows();
  std::vector<NpyArray> out;
  out.push_back({"qipuGlobalInputNC",
                 "<f4",
                 {n, kNumQipuGlobalInputs},
                 Bytes(batch.qipu_inputs())});
  out.push_back(
      {"qipuRowIdNC", "<u8", {n, kNumRowIdColumns}, Bytes(batch.row_ids())});
  return out;
}

std::vector<NpyArray> BatchArrays(const RowBatch& batch) {
  std::vector<NpyArray> out = KataGoArrays(batch);
  for (NpyArray& a : ExtraArrays(batch)) out.push_back(std::move(a));
  return out;
}

std::string SidecarPath(const std::string& npz_path) {
  constexpr absl::string_view kNpz = ".npz";
  absl::string_view stem = npz_path;
  if (absl::EndsWith(stem, kNpz)) stem.remove_suffix(kNpz.size());
  return absl::StrCat(stem, ".qipu.zip");
}

absl::Status WriteBatchNpz(const RowBatch& batch, const std::string& path,
                           NpzCompression compression, NpzMembers members) {
  switch (members) {
    case NpzMembers::kKataGo:
      return WriteNpz(path, KataGoArrays(batch), compression);
    case NpzMembers::kKataGoAndSidecar:
      QIPU_RETURN_IF_ERROR(
          WriteNpz(SidecarPath(path), ExtraArrays(batch), compression));
      return WriteNpz(path, KataGoArrays(batch), compression);
    case NpzMembers::kAll:
      return WriteNpz(path, BatchArrays(batch), compression);
  }
  return absl::InvalidArgumentError("unknown .npz member set");
}

}  // namespace qipu::train
