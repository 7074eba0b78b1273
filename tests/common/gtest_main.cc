// main() of every qipu GoogleTest binary (library qipu_gtest_main, in
// place of GTest::gtest_main): GoogleTest's own, plus one listener for the
// CI machine. ctest runs each test in its own process
// (gtest_discover_tests) and reports a GTEST_SKIP as "Skipped" (the
// output's "[  SKIPPED ]"); under CI=true the listener fails a skipped
// test instead, unless its ctest name and reason match an entry of the
// list of allowed skips in tests/README.md -- the section between
// `<!-- allowed-skips: begin -->` and `<!-- allowed-skips: end -->`, each
// entry a list item starting with two code spans, a glob over test names
// (fnmatch) and a text the reason must contain (the same list and rules
// as tests/common/allowed_skips.py for the Python tests). A skip on the
// CI machine is otherwise a missing package or a broken setup, and would
// hide the test's real result.
#include <fnmatch.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace {

// The list's file; QIPU_ALLOWED_SKIPS names another (the harness's own
// test, tests/common/run_pytest_test.py).
constexpr char kReadme[] = QIPU_SOURCE_DIR "/tests/README.md";

std::string ListPath() {
  const char* other = std::getenv("QIPU_ALLOWED_SKIPS");
  return other != nullptr && *other != '\0' ? std::string(other)
                                            : std::string(kReadme);
}
constexpr char kBegin[] = "<!-- allowed-skips: begin -->";
constexpr char kEnd[] = "<!-- allowed-skips: end -->";

// (test glob, reason text) entries.
using Entries = std::vector<std::pair<std::string, std::string>>;

std::string Trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return std::string();
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// The code span starting at or after `*at` in `line` (its text), moving
// *at past it; nullopt when there is none.
std::optional<std::string> CodeSpan(const std::string& line, size_t* at) {
  const size_t open = line.find('`', *at);
  if (open == std::string::npos) return std::nullopt;
  const size_t close = line.find('`', open + 1);
  if (close == std::string::npos || close == open + 1) return std::nullopt;
  *at = close + 1;
  return line.substr(open + 1, close - open - 1);
}

// The entries of the section in `path`, or an error text.
std::string ReadEntries(const std::string& path, Entries* out) {
  std::ifstream in(path);
  if (!in) return "cannot read " + path;
  std::string line;
  bool inside = false;
  bool closed = false;
  while (std::getline(in, line)) {
    const std::string t = Trim(line);
    if (!inside) {
      inside = t == kBegin;
      continue;
    }
    if (t == kEnd) {
      closed = true;
      break;
    }
    if (t.rfind("- ", 0) != 0) continue;
    // "- `glob` `text` ...": the two code spans come first.
    size_t at = 2;
    if (Trim(t.substr(2)).rfind('`', 0) != 0) continue;
    std::optional<std::string> glob = CodeSpan(t, &at);
    if (!glob) continue;
    if (Trim(t.substr(at)).rfind('`', 0) != 0) continue;
    std::optional<std::string> text = CodeSpan(t, &at);
    if (!text) continue;
    out->emplace_back(*glob, *text);
  }
  if (!closed) {
    return path + " has no section between \"" + kBegin + "\" and \"" + kEnd +
           "\"";
  }
  return std::string();
}

// Under CI=true, fails each skipped test whose skip is not allowed.
class SkipPolicy final : public ::testing::EmptyTestEventListener {
 public:
  void OnTestEnd(const ::testing::TestInfo& info) override {
    const ::testing::TestResult& r = *info.result();
    if (!r.Skipped()) return;
    std::string reason;
    for (int i = 0; i < r.total_part_count(); ++i) {
      const ::testing::TestPartResult& p = r.GetTestPartResult(i);
      if (p.skipped()) reason += p.message();
    }
    const std::string name =
        std::string(info.test_suite_name()) + "." + info.name();
    const std::string list = ListPath();
    if (!loaded_) {
      error_ = ReadEntries(list, &entries_);
      loaded_ = true;
    }
    if (!error_.empty()) {
      ADD_FAILURE() << "CI=true: skipped (" << reason
                    << "), and the list of allowed skips cannot be read: "
                    << error_;
      return;
    }
    for (const auto& [glob, text] : entries_) {
      if (fnmatch(glob.c_str(), name.c_str(), 0) == 0 &&
          reason.find(text) != std::string::npos) {
        return;
      }
    }
    ADD_FAILURE() << "CI=true: " << name << " was skipped (" << reason
                  << "); a skip on the CI machine fails the run unless its "
                     "reason is on the list of allowed skips in "
                  << list;
  }

 private:
  bool loaded_ = false;
  std::string error_;
  Entries entries_;
};

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const char* ci = std::getenv("CI");
  if (ci != nullptr && std::string(ci) == "true") {
    // Appended after the default printer: GoogleTest calls OnTestEnd in
    // reverse order, so the printer sees the failure added here.
    ::testing::UnitTest::GetInstance()->listeners().Append(new SkipPolicy);
  }
  return RUN_ALL_TESTS();
}
