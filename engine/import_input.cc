#include "engine/import_input.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace qipu::engine {
namespace {

namespace fs = std::filesystem;

bool HasSgfExtension(const fs::path& p) {
  return absl::EqualsIgnoreCase(p.extension().string(), ".sgf");
}

}  // namespace

qipu::v1::ImportError ImportErrorRow(absl::string_view file, int game,
                                     uint64_t byte_offset, uint32_t move,
                                     absl::string_view reason) {
  qipu::v1::ImportError e;
  e.set_file(std::string(file));
  e.set_game(static_cast<uint32_t>(std::max(game, 0)));
  e.set_byte_offset(byte_offset);
  e.set_move(move);
  e.set_reason(std::string(reason));
  return e;
}

ImportFileList ListImportFiles(const std::vector<std::string>& paths) {
  ImportFileList out;
  for (const std::string& path : paths) {
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) {
      out.errors.push_back(
          ImportErrorRow(path, 0, 0, 0, "no such file or directory"));
      continue;
    }
    if (!fs::is_directory(st)) {
      out.files.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    std::vector<fs::path> dirs = {fs::path(path)};
    while (!dirs.empty()) {
      const fs::path dir = std::move(dirs.back());
      dirs.pop_back();
      fs::directory_iterator it(dir, ec);
      if (ec) {
        out.errors.push_back(
            ImportErrorRow(dir.string(), 0, 0, 0,
                           absl::StrCat("cannot list folder: ", ec.message())));
        continue;
      }
      for (; it != fs::directory_iterator(); it.increment(ec)) {
        std::error_code e2;
        if (it->is_symlink(e2)) {
          // Not followed into folders; a dangling link is an error row.
          if (HasSgfExtension(it->path())) found.push_back(it->path().string());
        } else if (it->is_directory(e2)) {
          dirs.push_back(it->path());
        } else if (HasSgfExtension(it->path())) {
          found.push_back(it->path().string());
        }
      }
      if (ec) {
        out.errors.push_back(
            ImportErrorRow(dir.string(), 0, 0, 0,
                           absl::StrCat("cannot list folder: ", ec.message())));
      }
    }
    if (found.empty()) {
      out.errors.push_back(
          ImportErrorRow(path, 0, 0, 0, "no .sgf files in this folder"));
    }
    std::sort(found.begin(), found.end());
    out.files.insert(out.files.end(), found.begin(), found.end());
  }
  return out;
}

absl::StatusOr<std::string> ReadImportFile(const std::string& path,
                                           size_t limit) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec) {
    return absl::NotFoundError(absl::StrCat("cannot read: ", ec.message()));
  }
  if (fs::is_directory(st)) {
    return absl::InvalidArgumentError("is a directory, not a file");
  }
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot open: ", std::strerror(errno)));
  }
  std::string data;
  char buf[1 << 16];
  size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
    if (data.size() + n > limit) {
      std::fclose(f);
      return absl::ResourceExhaustedError(absl::StrCat(
          "the file is larger than the import limit of ", limit, " bytes"));
    }
    data.append(buf, n);
  }
  const bool failed = std::ferror(f) != 0;
  const int err = errno;
  std::fclose(f);
  if (failed) {
    return absl::DataLossError(
        absl::StrCat("read error: ", std::strerror(err)));
  }
  return data;
}

bool IsJsonlName(absl::string_view name) {
  return absl::EndsWithIgnoreCase(name, ".jsonl");
}

}  // namespace qipu::engine
