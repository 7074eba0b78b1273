#include "base/files.h"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"

namespace qipu::base {

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int e = errno;
    const std::string why = std::strerror(e);
    if (e == ENOENT) return absl::NotFoundError(absl::StrCat(path, ": ", why));
    if (e == EACCES) {
      return absl::PermissionDeniedError(absl::StrCat(path, ": ", why));
    }
    return absl::UnavailableError(absl::StrCat(path, ": ", why));
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    return absl::UnavailableError(absl::StrCat(path, ": read error"));
  }
  return ss.str();
}

absl::StatusOr<TempDir> TempDir::Create(absl::string_view tag) {
  const char* base = getenv("TMPDIR");
  std::string tmpl =
      absl::StrCat(base != nullptr && *base != '\0' ? base : "/tmp", "/qipu-",
                   tag, "-XXXXXX");
  if (mkdtemp(tmpl.data()) == nullptr) {
    return absl::UnavailableError(
        absl::StrCat("cannot create a temporary directory ", tmpl, ": ",
                     std::strerror(errno)));
  }
  return TempDir(std::move(tmpl));
}

TempDir::~TempDir() { Remove(); }

TempDir::TempDir(TempDir&& other) noexcept
    : path_(std::exchange(other.path_, std::string())), keep_(other.keep_) {}

TempDir& TempDir::operator=(TempDir&& other) noexcept {
  if (this != &other) {
    Remove();
    path_ = std::exchange(other.path_, std::string());
    keep_ = other.keep_;
  }
  return *this;
}

std::string TempDir::Sub(absl::string_view name) const {
  return absl::StrCat(path_, "/", name);
}

void TempDir::Remove() {
  if (path_.empty() || keep_) return;
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
  path_.clear();
}

absl::StatusOr<RunDir> RunDir::Open(const std::string& dir,
                                    absl::string_view tag) {
  RunDir out;
  if (dir.empty()) {
    auto temp = TempDir::Create(tag);
    if (!temp.ok()) return temp.status();
    out.path_ = temp->path();
    out.temp_ = *std::move(temp);
    return out;
  }
  out.path_ = dir;
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  if (!ec) std::filesystem::create_directories(dir, ec);
  if (ec) {
    return absl::InvalidArgumentError(
        absl::StrCat("--dir ", dir, ": ", ec.message()));
  }
  return out;
}

std::string RunDir::Sub(absl::string_view name) const {
  return absl::StrCat(path_, "/", name);
}

}  // namespace qipu::base
