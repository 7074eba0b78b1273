// `qipu bench import PATH...`: import throughput -- games per second from
// SGF bytes in memory to durable, indexed games -- into a fresh temporary
// database per loop. The files are read once before timing. A small corpus
// can be enlarged without repeating games: --symmetries K imports each
// file under K of the 8 board symmetries (a text rewrite of the B, W, AB,
// AW and AE points of square boards), so every copy is a distinct game
// with the same parsing and replay cost; --loops N repeats the whole
// import into N fresh databases and reports the total.
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "base/console.h"
#include "client/database.h"
#include "nlohmann/json.hpp"
#include "ops/commands.h"

namespace qipu::ops {
namespace {

struct BenchImportOptions {
  std::vector<std::string> paths;
  int loops = 1;
  int symmetries = 1;
  int threads = 2;
  int index_depth = 60;
  bool no_sync = false;
  bool json = false;
};

// The board size of an SGF text (first SZ[n], else 19); 0 when not square.
int SquareSize(const std::string& sgf) {
  const size_t at = sgf.find("SZ[");
  if (at == std::string::npos) return 19;
  const size_t end = sgf.find(']', at);
  int n = 0;
  if (end == std::string::npos ||
      !absl::SimpleAtoi(sgf.substr(at + 3, end - at - 3), &n)) {
    return 0;
  }
  return n;
}

// `sgf` with every point of B, W, AB, AW and AE values mapped by symmetry
// t (bit 2: transpose, bit 0: mirror x, bit 1: mirror y) on an n x n
// board. Passes ("", "tt") and other properties are left alone.
std::string Transform(const std::string& sgf, int t, int n) {
  std::string out = sgf;
  std::string id;
  bool in_name = false;
  auto map = [&](size_t i) {
    int x = out[i] - 'a';
    int y = out[i + 1] - 'a';
    if (x < 0 || x >= n || y < 0 || y >= n) return;
    if (t & 4) std::swap(x, y);
    if (t & 1) x = n - 1 - x;
    if (t & 2) y = n - 1 - y;
    out[i] = static_cast<char>('a' + x);
    out[i + 1] = static_cast<char>('a' + y);
  };
  for (size_t i = 0; i < out.size(); ++i) {
    const char c = out[i];
    if (absl::ascii_isupper(static_cast<unsigned char>(c))) {
      if (!in_name) id.clear();
      in_name = true;
      id += c;
    } else if (c == '[') {
      in_name = false;
      size_t end = i + 1;
      while (end < out.size() && out[end] != ']') {
        end += out[end] == '\\' ? 2 : 1;
      }
      if (end >= out.size()) break;
      if (id == "B" || id == "W" || id == "AB" || id == "AW" || id == "AE") {
        const size_t len = end - i - 1;
        if (len == 2 || len == 5) map(i + 1);
        if (len == 5 && out[i + 3] == ':') map(i + 4);
      }
      i = end;
    } else if (!absl::ascii_isspace(static_cast<unsigned char>(c)) &&
               !absl::ascii_islower(static_cast<unsigned char>(c))) {
      id.clear();
      in_name = false;
    }
  }
  return out;
}

int RunBenchImport(const BenchImportOptions& o) {
  coordinator::ImportFileList list = coordinator::ListImportFiles(o.paths);
  if (list.files.empty()) {
    base::PrintError("bench import", "paths", "no SGF files found");
    return 1;
  }
  std::vector<std::pair<std::string, std::string>> inputs;
  for (const std::string& f : list.files) {
    auto data = coordinator::ReadImportFile(f, 64u << 20);
    if (!data.ok()) continue;
    const int n = SquareSize(*data);
    for (int t = 0; t < (n > 0 ? o.symmetries : 1); ++t) {
      inputs.emplace_back(absl::StrCat(f, "#", t),
                          t == 0 ? *data : Transform(*data, t, n));
    }
  }
  coordinator::ImportSettings settings;
  settings.source = "bench";
  settings.index_depth = o.index_depth;
  coordinator::ImportSummary total;
  for (int loop = 0; loop < o.loops; ++loop) {
    const char* base = getenv("TMPDIR");
    std::string dir = absl::StrCat(base != nullptr ? base : "/tmp",
                                   "/qipu-bench-import-XXXXXX");
    if (mkdtemp(dir.data()) == nullptr) {
      base::PrintError("bench import", dir, "cannot create a temporary folder");
      return 1;
    }
    coordinator::ImporterOptions io;
    io.threads = o.threads;
    {
      client::LocalDatabaseOptions lo;
      lo.create = true;
      lo.sync = !o.no_sync;
      lo.importer = io;
      auto local = client::LocalDatabase::Open(dir, lo);
      if (!local.ok()) {
        base::PrintError("bench import", dir,
                         std::string(local.status().message()));
        return 1;
      }
      absl::Mutex mu;
      size_t done = 0;
      std::vector<qipu::v1::ImportResponse> results(inputs.size());
      const absl::Time t0 = absl::Now();
      for (size_t i = 0; i < inputs.size(); ++i) {
        (*local)->importer().ImportBytes(inputs[i].first, inputs[i].second,
                                         settings,
                                         [&, i](qipu::v1::ImportResponse r) {
                                           absl::MutexLock lock(&mu);
                                           results[i] = std::move(r);
                                           ++done;
                                         });
      }
      {
        absl::MutexLock lock(&mu);
        auto all = [&]() { return done == inputs.size(); };
        mu.Await(absl::Condition(&all));
      }
      total.seconds += absl::ToDoubleSeconds(absl::Now() - t0);
      for (const auto& r : results) total.Add(r);
    }
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  const double gps = total.seconds > 0 ? total.games / total.seconds : 0;
  if (o.json) {
    nlohmann::ordered_json j = {{"files", list.files.size()},
                                {"symmetries", o.symmetries},
                                {"loops", o.loops},
                                {"threads", o.threads},
                                {"index_depth", o.index_depth},
                                {"games", total.games},
                                {"imported", total.imported},
                                {"duplicates", total.duplicates},
                                {"rejected", total.rejected},
                                {"seconds", total.seconds},
                                {"games_per_sec", gps}};
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf(
        "%zu files x %d symmetries x %d loops, %d thread(s), depth %d\n"
        "  games        %12llu (imported %llu, duplicates %llu, rejected "
        "%llu)\n  seconds      %12.3f\n  games/s      %12.0f\n",
        list.files.size(), o.symmetries, o.loops, o.threads, o.index_depth,
        static_cast<unsigned long long>(total.games),
        static_cast<unsigned long long>(total.imported),
        static_cast<unsigned long long>(total.duplicates),
        static_cast<unsigned long long>(total.rejected), total.seconds, gps);
  }
  return 0;
}

}  // namespace

void AddBenchImportCommand(CLI::App& bench, int* exit_code) {
  auto o = std::make_shared<BenchImportOptions>();
  CLI::App* c = bench.add_subcommand(
      "import", "SGF import throughput into a fresh temporary database");
  c->add_option("paths", o->paths, "SGF files and folders")->required();
  c->add_option("--loops", o->loops, "Fresh databases to import into")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  c->add_option("--symmetries", o->symmetries,
                "Board symmetries each game is imported under (distinct "
                "games)")
      ->check(CLI::Range(1, 8))
      ->capture_default_str();
  c->add_option("--threads", o->threads, "Parse/replay threads")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  c->add_option("--index-depth", o->index_depth, "Plies indexed per game")
      ->check(CLI::Range(0, coordinator::kMaxIndexDepth))
      ->capture_default_str();
  c->add_flag("--no-sync", o->no_sync, "Do not fsync the WAL per batch");
  c->add_flag("--json", o->json, "Print one JSON object");
  c->callback([o, exit_code] { *exit_code = RunBenchImport(*o); });
}

}  // namespace qipu::ops
