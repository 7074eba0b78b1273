// Files and folders the way qipu's commands need them: a whole file read
// with an error that names it, and temporary directories that remove
// themselves.
#ifndef QIPU_BASE_FILES_H_
#define QIPU_BASE_FILES_H_

#include <memory>
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

}  // namespace qipu::base

#endif  // QIPU_BASE_FILES_H_
