// The one conversion from rocksdb::Status to absl::Status.
#ifndef QIPU_STORE_STATUS_H_
#define QIPU_STORE_STATUS_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "rocksdb/status.h"

namespace qipu::store {

// Maps a RocksDB status to the absl code that tells the caller whether to
// retry (busy/timed-out/try-again -> Unavailable; corruption -> DataLoss;
// not-found -> NotFound; invalid argument / not supported ->
// InvalidArgument / Unimplemented; I/O errors -> Unavailable, except
// no-space -> ResourceExhausted). `context` prefixes the message.
absl::Status FromRocks(const rocksdb::Status& s, absl::string_view context);

}  // namespace qipu::store

#endif  // QIPU_STORE_STATUS_H_
