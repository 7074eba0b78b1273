// gRPC edge of corpus import and export: CorpusService of
// qipu/v1/query.proto. Converts requests to Importer / Exporter calls and
// absl::Status to gRPC codes; the work is in importer.h and exporter.h.
#ifndef QIPU_COORDINATOR_CORPUS_SERVICE_H_
#define QIPU_COORDINATOR_CORPUS_SERVICE_H_

#include "coordinator/limits.h"
#include "engine/exporter.h"
#include "engine/importer.h"
#include "proto/metadata_keys.h"
#include "qipu/v1/query.grpc.pb.h"
#include "store/store.h"

namespace qipu::coordinator {

struct CorpusServiceOptions {
  // Files of one Import stream being imported at once; the service stops
  // reading the stream beyond (flow control on top of HTTP/2's).
  int import_window = 64;
  // Caps each client's concurrent streams (an import or an export counts
  // one); null: no cap. Not owned; must outlive the service.
  StreamLimiter* streams = nullptr;
  // Games one Export call returns (0: no cap), and how long it may run.
  uint64_t max_export_games = 0;
  absl::Duration max_export_time = absl::InfiniteDuration();
};

// CorpusService. Thread-safe; does not own its collaborators, which must
// outlive it.
class CorpusServiceImpl final : public qipu::v1::CorpusService::Service {
 public:
  // Serves Import over base::NewParsedBidiHandler (base/parsed_stream.h):
  // a message that is not an ImportRequest ends the stream with
  // INVALID_ARGUMENT after the files before it are answered.
  CorpusServiceImpl(engine::Importer* importer, store::Store* store,
                    const CorpusServiceOptions& options);

  // Reads one file per request on the handler thread and queues it with
  // the Importer; a second thread writes one ImportResponse per file, in
  // request order, as each file's games become durable. A request whose
  // source or index depth is invalid gets a response with one error row
  // (nothing of it is imported); the stream goes on. Defaults: source
  // "import", index depth 60 (when 0).
  grpc::Status Import(
      grpc::ServerContext* ctx,
      grpc::ServerReaderWriterInterface<qipu::v1::ImportResponse,
                                        qipu::v1::ImportRequest>* stream);
  // The generated sync handler's entry; not called (the constructor
  // serves Import through the parsed stream), forwards to Import().
  grpc::Status Import(
      grpc::ServerContext* ctx,
      grpc::ServerReaderWriter<qipu::v1::ImportResponse,
                               qipu::v1::ImportRequest>* stream) override;

  // Streams the matching games (Exporter::Export). INVALID_ARGUMENT for a
  // bad filter or `after`, CANCELLED when the client goes away,
  // UNAVAILABLE / DATA_LOSS when the store fails part-way.
  // RESOURCE_EXHAUSTED for a limit above max_export_games (nothing is
  // sent), and when a call stops at max_export_games games or after
  // max_export_time with more to read: the trailing metadata's
  // wire::kExportResumeKey then names the game to resume after.
  grpc::Status Export(grpc::ServerContext* ctx,
                      const qipu::v1::ExportRequest* req,
                      grpc::ServerWriter<qipu::v1::Game>* writer) override;

  // Parses the alias file (store::AliasGroups::Parse; INVALID_ARGUMENT
  // "FILE:LINE: ...") and stores its groups in place of the database's.
  grpc::Status SetAliases(grpc::ServerContext* ctx,
                          const qipu::v1::SetAliasesRequest* req,
                          qipu::v1::SetAliasesResponse* resp) override;

 private:
  engine::Importer* importer_;
  store::Store* store_;
  const engine::Exporter exporter_;
  const CorpusServiceOptions options_;
};

}  // namespace qipu::coordinator

#endif  // QIPU_COORDINATOR_CORPUS_SERVICE_H_
