// A typed bidirectional server stream whose messages the service parses
// itself, from raw bytes (base/raw_stream.h), so that a message that is
// not the request type ends the call with INVALID_ARGUMENT. A generated
// sync stream cannot: its Read() returns false both at the end of the
// stream and for bytes that do not parse, and the handler, taking the
// failure for the end, returns OK -- the client's later messages silently
// dropped. Used by CorpusService.Import (coordinator/corpus_service.h).
//
// A service's constructor installs it in place of the generated handler:
//   MarkMethodStreamed(kImportMethod, base::NewParsedBidiHandler<
//       ImportResponse, ImportRequest>([this](auto* ctx, auto* stream) {
//         return Import(ctx, stream); }));
// and its handler takes grpc::ServerReaderWriterInterface<W, R>*.
#ifndef QIPU_BASE_PARSED_STREAM_H_
#define QIPU_BASE_PARSED_STREAM_H_

#include <cstdint>
#include <functional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/raw_stream.h"
#include "grpcpp/impl/codegen/proto_utils.h"
#include "grpcpp/support/sync_stream.h"

namespace qipu::base {

// The typed view of one raw stream. Thread-compatible like the stream it
// wraps: one reader thread and one writer thread at most.
template <class W, class R>
class ParsedServerStream final
    : public grpc::ServerReaderWriterInterface<W, R> {
 public:
  // `raw` is not owned; it must outlive this object.
  explicit ParsedServerStream(RawServerStream* raw) : raw_(raw) {}

  void SendInitialMetadata() override { raw_->SendInitialMetadata(); }
  bool NextMessageSize(uint32_t* sz) override {
    return raw_->NextMessageSize(sz);
  }
  // The next message; false at the end of the stream and, for good, after
  // a message that does not parse (Finish() then says which).
  bool Read(R* msg) override {
    if (bad_message_ != 0) return false;
    grpc::ByteBuffer buffer;
    if (!raw_->Read(&buffer)) return false;
    ++read_;
    const size_t bytes = buffer.Length();
    if (!grpc::SerializationTraits<R>::Deserialize(&buffer, msg).ok()) {
      bad_message_ = read_;
      bad_bytes_ = bytes;
      return false;
    }
    return true;
  }
  bool Write(const W& msg, grpc::WriteOptions options) override {
    grpc::ByteBuffer buffer;
    bool own = false;
    if (!grpc::SerializationTraits<W>::Serialize(msg, &buffer, &own).ok()) {
      return false;
    }
    return raw_->Write(buffer, options);
  }

  // The call's status: `handler`'s, unless a message did not parse, then
  // INVALID_ARGUMENT naming it (`what` names the stream's messages,
  // "import message").
  grpc::Status Finish(grpc::Status handler, const std::string& what) const {
    if (bad_message_ == 0) return handler;
    return grpc::Status(
        grpc::StatusCode::INVALID_ARGUMENT,
        absl::StrCat(what, " ", bad_message_, " of the stream (", bad_bytes_,
                     " bytes) is not a valid ", R::descriptor()->full_name(),
                     " (it does not parse); the messages before it were "
                     "answered, it and the rest were not read"));
  }

 private:
  RawServerStream* const raw_;
  // Messages read so far, and the number (1-based) and size of the one
  // that did not parse (0: none).
  uint64_t read_ = 0;
  uint64_t bad_message_ = 0;
  size_t bad_bytes_ = 0;
};

// What serves a parsed stream: called once per call on a gRPC thread.
template <class W, class R>
using ParsedBidiHandler = std::function<grpc::Status(
    grpc::ServerContext*, grpc::ServerReaderWriterInterface<W, R>*)>;

// A method handler for grpc::Service::MarkMethodStreamed() (which takes
// ownership) that serves `handler` over a ParsedServerStream; `what`
// names one message of the stream in the error ("import message").
template <class W, class R>
grpc::internal::MethodHandler* NewParsedBidiHandler(
    ParsedBidiHandler<W, R> handler, std::string what) {
  return NewRawBidiHandler([h = std::move(handler), what = std::move(what)](
                               grpc::ServerContext* ctx, RawServerStream* raw) {
    ParsedServerStream<W, R> stream(raw);
    const grpc::Status status = h(ctx, &stream);
    return stream.Finish(status, what);
  });
}

}  // namespace qipu::base

#endif  // QIPU_BASE_PARSED_STREAM_H_
