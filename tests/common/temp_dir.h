// TempDir: a fresh directory for one test, removed with everything in it
// when the object goes away. The one temp-dir helper of every test suite.
#ifndef QIPU_TESTS_COMMON_TEMP_DIR_H_
#define QIPU_TESTS_COMMON_TEMP_DIR_H_

#include <stdlib.h>

#include <filesystem>
#include <string>
#include <system_error>

#include "gtest/gtest.h"

namespace qipu::test_util {

class TempDir {
 public:
  // Creates $TMPDIR/qipu-<tag>-XXXXXX (/tmp without TMPDIR). A failure is
  // a test failure; path() is empty then.
  explicit TempDir(const std::string& tag = "test") {
    const char* base = getenv("TMPDIR");
    std::string tmpl =
        std::string(base != nullptr && *base != '\0' ? base : "/tmp") +
        "/qipu-" + tag + "-XXXXXX";
    if (mkdtemp(tmpl.data()) != nullptr) {
      path_ = tmpl;
    } else {
      ADD_FAILURE() << "cannot create a temporary directory from " << tmpl;
    }
  }
  ~TempDir() {
    if (path_.empty()) return;
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // The directory.
  const std::string& path() const { return path_; }
  // path()/name (not created).
  std::string Sub(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace qipu::test_util

#endif  // QIPU_TESTS_COMMON_TEMP_DIR_H_
