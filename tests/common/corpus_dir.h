// Where the shared corpora are: `<source>/../shared/corpora/<name>` (a
// checkout next to the shared folder) or `/work/shared/corpora/<name>` (a
// git worktree elsewhere). Tests that need a corpus skip, saying so, when
// neither exists.
#ifndef QIPU_TESTS_COMMON_CORPUS_DIR_H_
#define QIPU_TESTS_COMMON_CORPUS_DIR_H_

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

namespace qipu::test_util {

// The directory of shared corpus `name` ("fox-pro"), or "" when absent.
// QIPU_SOURCE_DIR is defined for every test binary (tests/CMakeLists.txt).
inline std::string SharedCorpusDir(const std::string& name) {
  for (const std::string& root : {std::string(QIPU_SOURCE_DIR) + "/../shared",
                                  std::string("/work/shared")}) {
    const std::string dir = root + "/corpora/" + name;
    std::error_code ec;
    if (std::filesystem::is_directory(dir, ec)) return dir;
  }
  return std::string();
}

// The SGF files under `dir`, recursively, sorted by path.
inline std::vector<std::string> SgfFilesUnder(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_regular_file() && it->path().extension() == ".sgf") {
      files.push_back(it->path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The bytes of the file at `path` ("" when it cannot be read).
inline std::string ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>());
}

}  // namespace qipu::test_util

#endif  // QIPU_TESTS_COMMON_CORPUS_DIR_H_
