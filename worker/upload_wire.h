// The bytes of the upload stream's messages, assembled without protobuf
// objects. A spooled game is already a serialized qipu.v1.Game, and the
// wire encoding of an embedded message field is that of a `bytes` field
// (tag, length, the message's bytes), so a qipu.v1.GameUpload is written
// around the game's bytes directly: no parse of the game on the way out
// and no second serialization. The result is byte for byte what
// protobuf's own serializer makes of the equivalent message (fields in
// number order, proto3 defaults omitted), which the tests check.
//
//   GameUpload single form:  1: lease_id (omitted when empty)
//                            2: game     (always present, maybe empty)
//                            3: seq      (omitted when 0)
//   GameUpload batched form: 4: batch, one single-form entry per game
//
// The field numbers are those of proto/qipu/v1/work.proto; a change there
// must change this file (the tests compare with the generated code).
#ifndef QIPU_WORKER_UPLOAD_WIRE_H_
#define QIPU_WORKER_UPLOAD_WIRE_H_

#include <cstddef>
#include <cstdint>

#include "absl/types/span.h"
#include "grpcpp/support/byte_buffer.h"
#include "worker/game_queue.h"
#include "worker/spool.h"

namespace qipu::worker {

// A game on the upload stream: the spooled game and the seq it is sent
// under (echoed in its ack). Cheap to copy (a shared pointer).
struct UploadItem {
  uint64_t seq = 0;
  SpooledGame game;
};

// Bytes of the single-form GameUpload of `game` sent as `seq`.
size_t SingleUploadBytes(const FinishedGame& game, uint64_t seq);

// The GameUpload message of `items` (each with a non-null game) as one
// contiguous slice: with `batched`, the batched form holding every item in
// order; without, the single form of items[0] (precondition: exactly one
// item). Thread-safe (reads the games only).
grpc::ByteBuffer EncodeUpload(absl::Span<const UploadItem> items, bool batched);

}  // namespace qipu::worker

#endif  // QIPU_WORKER_UPLOAD_WIRE_H_
