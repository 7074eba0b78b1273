// The gRPC metadata keys of the qipu.v1 services beside their messages: a
// wire contract between the coordinator's services (coordinator/) and
// their clients (backend/, worker/), kept here so that neither side
// includes the other.
#ifndef QIPU_PROTO_METADATA_KEYS_H_
#define QIPU_PROTO_METADATA_KEYS_H_

namespace qipu::wire {

// Trailing metadata of CorpusService.Export when a call stopped at a limit
// (games or time): the id of the last game sent; the client asks again
// with `after` set to it.
inline constexpr char kExportResumeKey[] = "qipu-export-after";

// Request metadata of TournamentService calls without tokens: the user
// name the client runs as, recorded (marked unverified) in a tournament's
// history.
inline constexpr char kCallerUserKey[] = "qipu-user";

}  // namespace qipu::wire

#endif  // QIPU_PROTO_METADATA_KEYS_H_
