// What the bench/ tests check renderings with: the keys of a JSON object
// in order, and the lines of a text.
#ifndef QIPU_TESTS_BENCH_BENCH_TEST_UTIL_H_
#define QIPU_TESTS_BENCH_BENCH_TEST_UTIL_H_

#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "nlohmann/json.hpp"

namespace qipu::test_util {

// The keys of object `j`, in its iteration order (sorted for
// nlohmann::json, insertion order for ordered_json).
template <typename Json>
std::vector<std::string> Keys(const Json& j) {
  std::vector<std::string> out;
  for (auto it = j.begin(); it != j.end(); ++it) out.push_back(it.key());
  return out;
}

// The lines of `text`, which must end in a newline (the last, empty piece
// is dropped).
inline std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out = absl::StrSplit(text, '\n');
  if (!out.empty() && out.back().empty()) out.pop_back();
  return out;
}

}  // namespace qipu::test_util

#endif  // QIPU_TESTS_BENCH_BENCH_TEST_UTIL_H_
