// sgf_fuzz_driver: runs the libFuzzer target of sgf_fuzz.cc without
// libFuzzer (any compiler), for ctest: every seed file, then a fixed number
// of deterministic mutations of each (byte flips, truncations, insertions
// of SGF punctuation, deletions, duplicated slices, splices of two seeds)
// and a few generated inputs (deep nesting, long runs). Same seed, same
// inputs, so a failure reproduces.
//
//   sgf_fuzz_driver [--mutations N] [--seed S] FILE_OR_DIR...
//
// Exit status 0 when every input passed; a failing input abort()s inside
// the target, and the driver saves it to sgf_fuzz_crash.sgf first.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

// xorshift64*: small, fast and the same everywhere.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed | 1) {}
  uint64_t Next() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return state_ * 2685821657736338717ull;
  }
  // Uniform in [0, n). Precondition: n > 0.
  size_t Below(size_t n) { return static_cast<size_t>(Next() % n); }

 private:
  uint64_t state_;
};

// The input being run, for the SIGABRT handler.
const std::string* g_current = nullptr;

// Saves the failing input to sgf_fuzz_crash.sgf (async-signal-safe calls
// only), then lets the abort proceed.
void SaveInputOnAbort(int sig) {
  if (g_current != nullptr) {
    const int fd =
        open("sgf_fuzz_crash.sgf", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      const char* p = g_current->data();
      size_t left = g_current->size();
      while (left > 0) {
        const ssize_t n = write(fd, p, left);
        if (n <= 0) break;
        p += n;
        left -= static_cast<size_t>(n);
      }
      close(fd);
    }
    static constexpr char kMessage[] =
        "sgf_fuzz_driver: failing input saved to sgf_fuzz_crash.sgf\n";
    (void)!write(2, kMessage, sizeof(kMessage) - 1);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

void Run(const std::string& input) {
  g_current = &input;
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(input.data()),
                         input.size());
  g_current = nullptr;
}

std::string Mutate(const std::string& seed, const std::string& other,
                   Rng& rng) {
  static constexpr char kPunctuation[] = "()[];\\:";
  std::string s = seed;
  const int steps = 1 + static_cast<int>(rng.Below(4));
  for (int k = 0; k < steps; ++k) {
    const size_t n = s.size();
    switch (rng.Below(7)) {
      case 0:  // Flip one bit.
        if (n > 0) s[rng.Below(n)] ^= static_cast<char>(1 << rng.Below(8));
        break;
      case 1:  // Truncate.
        s.resize(n == 0 ? 0 : rng.Below(n));
        break;
      case 2:  // Insert SGF punctuation.
        s.insert(s.begin() + static_cast<std::ptrdiff_t>(rng.Below(n + 1)),
                 kPunctuation[rng.Below(sizeof(kPunctuation) - 1)]);
        break;
      case 3:  // Replace a byte with any byte.
        if (n > 0) s[rng.Below(n)] = static_cast<char>(rng.Below(256));
        break;
      case 4: {  // Delete a range.
        if (n == 0) break;
        const size_t at = rng.Below(n);
        s.erase(at, 1 + rng.Below(std::min<size_t>(16, n - at)));
        break;
      }
      case 5: {  // Duplicate a slice.
        if (n == 0) break;
        const size_t at = rng.Below(n);
        const std::string slice = s.substr(at, 1 + rng.Below(32));
        s.insert(rng.Below(s.size() + 1), slice);
        break;
      }
      default: {  // Splice: a prefix of this seed, a suffix of another.
        const size_t cut = rng.Below(n + 1);
        const size_t from = rng.Below(other.size() + 1);
        s = s.substr(0, cut) + other.substr(from);
        break;
      }
    }
  }
  return s;
}

std::vector<std::string> Generated() {
  std::vector<std::string> inputs;
  inputs.push_back(std::string(200000, '('));
  inputs.push_back("(;" + std::string(50000, '(') + ";B[aa]" +
                   std::string(50000, ')'));
  std::string deep = "(;SZ[19]";
  for (int i = 0; i < 50000; ++i) deep += "(;B[aa]";
  inputs.push_back(deep + std::string(50001, ')'));
  inputs.push_back("(;PB[" + std::string(100000, '\\') + "])");
  std::string rectangles = "(;AB";
  for (int i = 0; i < 2000; ++i) rectangles += "[aa:ss]";
  inputs.push_back(rectangles + ")");
  std::string many;
  for (int i = 0; i < 20000; ++i) many += "(;B[aa])x";
  inputs.push_back(many);
  std::string props = "(;";
  for (int i = 0; i < 20000; ++i) props += "AP[x]";
  inputs.push_back(props + ")");
  return inputs;
}

}  // namespace

int main(int argc, char** argv) {
  long mutations = 200;
  uint64_t seed = 20240601;
  std::vector<std::string> seeds;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--mutations" && i + 1 < argc) {
      mutations = std::strtol(argv[++i], nullptr, 10);
    } else if (arg == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else {
      std::vector<std::filesystem::path> files;
      if (std::filesystem::is_directory(arg)) {
        for (const auto& e :
             std::filesystem::recursive_directory_iterator(arg)) {
          if (e.is_regular_file()) files.push_back(e.path());
        }
      } else {
        files.emplace_back(arg);
      }
      std::sort(files.begin(), files.end());
      for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        if (!in) {
          std::fprintf(stderr, "sgf_fuzz_driver: cannot read %s\n", f.c_str());
          return 2;
        }
        seeds.emplace_back(std::istreambuf_iterator<char>(in),
                           std::istreambuf_iterator<char>());
      }
    }
  }
  if (seeds.empty()) {
    std::fprintf(stderr,
                 "usage: sgf_fuzz_driver [--mutations N] [--seed S] "
                 "FILE_OR_DIR...\n");
    return 2;
  }
  std::signal(SIGABRT, SaveInputOnAbort);
  const auto start = std::chrono::steady_clock::now();
  long runs = 0;
  for (const std::string& s : seeds) {
    Run(s);
    ++runs;
  }
  for (const std::string& g : Generated()) {
    Run(g);
    ++runs;
  }
  Rng rng(seed);
  for (size_t i = 0; i < seeds.size(); ++i) {
    for (long m = 0; m < mutations; ++m) {
      Run(Mutate(seeds[i], seeds[rng.Below(seeds.size())], rng));
      ++runs;
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::printf(
      "sgf_fuzz_driver: %ld inputs (%zu seeds, %ld mutations each) "
      "passed in %.1f s\n",
      runs, seeds.size(), mutations, seconds);
  return 0;
}
