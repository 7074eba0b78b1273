// Files and folders the way qipu's commands need them: a whole file read
// with an error that names it, and temporary directories that remove
// themselves.
#ifndef QIPU_BASE_FILES_H_
#define QIPU_BASE_FILES_H_

#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace qipu::base {

// Reads a whole file. NotFound / PermissionDenied / Unavailable name the
// path and the reason.
absl::StatusOr<std::string> ReadFile(const std::string& path);

// A fresh directory, $TMPDIR/qipu-<tag>-XXXXXX (/tmp without TMPDIR),
// removed with everything in it when the object goes away, unless
// Keep() was called. Not thread-safe; movable, not copyable.
class TempDir {
 public:
  // Creates the directory; Unavailable names the template and the reason.
  static absl::StatusOr<TempDir> Create(absl::string_view tag);
  ~TempDir();
  TempDir(TempDir&& other) noexcept;
  TempDir& operator=(TempDir&& other) noexcept;
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // The directory.
  const std::string& path() const { return path_; }
  // path()/name (not created).
  std::string Sub(absl::string_view name) const;
  // Leaves the directory in place when the object goes away.
  void Keep() { keep_ = true; }

 private:
  explicit TempDir(std::string path) : path_(std::move(path)) {}
  void Remove();

  std::string path_;
  bool keep_ = false;
};

// Where a run keeps its files: the directory it was given (emptied first,
// and kept afterwards) or, when none was given, a fresh TempDir named
// after `tag` (removed with the object). Movable, not copyable.
class RunDir {
 public:
  // InvalidArgument naming `dir` when it cannot be emptied or created;
  // errors of TempDir::Create() otherwise.
  static absl::StatusOr<RunDir> Open(const std::string& dir,
                                     absl::string_view tag);

  // The directory.
  const std::string& path() const { return path_; }
  // path()/name (not created).
  std::string Sub(absl::string_view name) const;

 private:
  RunDir() = default;

  std::optional<TempDir> temp_;
  std::string path_;
};

}  // namespace qipu::base

#endif  // QIPU_BASE_FILES_H_
