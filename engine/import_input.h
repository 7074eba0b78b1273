// Import inputs: which files a list of paths names, reading one file's
// bytes within a size limit, telling the two import formats apart, and
// the error rows (qipu.v1.ImportError) that stand for inputs that cannot
// be read. Used by the Importer (importer.h) and by `qipu import
// --server`, which reads files on the client. Pure functions over the
// file system; thread-safe.
#ifndef QIPU_ENGINE_IMPORT_INPUT_H_
#define QIPU_ENGINE_IMPORT_INPUT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "qipu/v1/query.pb.h"

namespace qipu::engine {

// One error row: `game` 0 means the whole file.
qipu::v1::ImportError ImportErrorRow(absl::string_view file, int game,
                                     uint64_t byte_offset, uint32_t move,
                                     absl::string_view reason);

// The files named by `paths`: a file is taken whatever its name; a folder
// contributes every *.sgf file below it (case-insensitive extension,
// recursively, symlinks named *.sgf taken but never followed into
// folders), sorted by path. A path that does not exist, a folder that
// cannot be listed and a folder without SGF files each give one error row
// (game 0) instead.
struct ImportFileList {
  std::vector<std::string> files;
  std::vector<qipu::v1::ImportError> errors;
};
ImportFileList ListImportFiles(const std::vector<std::string>& paths);

// The bytes of the file at `path`: NotFound when it cannot be examined,
// InvalidArgument for a folder, PermissionDenied when it cannot be
// opened, ResourceExhausted when it is larger than `limit` bytes, DataLoss
// for a read error. The message is the error row's reason.
absl::StatusOr<std::string> ReadImportFile(const std::string& path,
                                           size_t limit);

// Whether a file of this name holds qipu JSON Lines (*.jsonl) rather than
// SGF.
bool IsJsonlName(absl::string_view name);

}  // namespace qipu::engine

#endif  // QIPU_ENGINE_IMPORT_INPUT_H_
