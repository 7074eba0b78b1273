#include "worker/upload_wire.h"

#include <grpc/slice.h>

#include <cassert>
#include <cstring>

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/wire_format_lite.h"
#include "grpcpp/support/slice.h"

namespace qipu::worker {
namespace {

using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedOutputStream;

// qipu.v1.GameUpload field numbers (proto/qipu/v1/work.proto).
constexpr int kLeaseIdField = 1;
constexpr int kGameField = 2;
constexpr int kSeqField = 3;
constexpr int kBatchField = 4;

// Bytes of a length-delimited field of `len` bytes (tag < 16: one byte).
size_t DelimitedBytes(size_t len) {
  return 1 + CodedOutputStream::VarintSize32(static_cast<uint32_t>(len)) + len;
}

// Writes the tag and length of a length-delimited field; returns the
// position after them.
uint8_t* WriteDelimitedHeader(int field, size_t len, uint8_t* p) {
  p = WireFormatLite::WriteTagToArray(
      field, WireFormatLite::WIRETYPE_LENGTH_DELIMITED, p);
  return CodedOutputStream::WriteVarint32ToArray(static_cast<uint32_t>(len), p);
}

uint8_t* WriteSingle(const FinishedGame& g, uint64_t seq, uint8_t* p) {
  if (!g.lease_id.empty()) {
    p = WireFormatLite::WriteBytesToArray(kLeaseIdField, g.lease_id, p);
  }
  p = WriteDelimitedHeader(kGameField, g.game.size(), p);
  if (!g.game.empty()) {
    std::memcpy(p, g.game.data(), g.game.size());
    p += g.game.size();
  }
  if (seq != 0) p = WireFormatLite::WriteUInt64ToArray(kSeqField, seq, p);
  return p;
}

}  // namespace

size_t SingleUploadBytes(const FinishedGame& g, uint64_t seq) {
  size_t n = DelimitedBytes(g.game.size());
  if (!g.lease_id.empty()) n += DelimitedBytes(g.lease_id.size());
  if (seq != 0) n += 1 + CodedOutputStream::VarintSize64(seq);
  return n;
}

grpc::ByteBuffer EncodeUpload(absl::Span<const UploadItem> items,
                              bool batched) {
  assert(batched || items.size() == 1);
  size_t total = 0;
  if (batched) {
    for (const UploadItem& item : items) {
      total += DelimitedBytes(SingleUploadBytes(*item.game, item.seq));
    }
  } else {
    total = SingleUploadBytes(*items[0].game, items[0].seq);
  }
  grpc_slice slice = grpc_slice_malloc(total);
  uint8_t* const begin = GRPC_SLICE_START_PTR(slice);
  uint8_t* p = begin;
  if (batched) {
    for (const UploadItem& item : items) {
      p = WriteDelimitedHeader(kBatchField,
                               SingleUploadBytes(*item.game, item.seq), p);
      p = WriteSingle(*item.game, item.seq, p);
    }
  } else {
    p = WriteSingle(*items[0].game, items[0].seq, p);
  }
  assert(static_cast<size_t>(p - begin) == total);
  (void)begin;
  grpc::Slice owned(slice, grpc::Slice::STEAL_REF);
  return grpc::ByteBuffer(&owned, 1);
}

}  // namespace qipu::worker
