#include "bench/import_bench.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "base/files.h"
#include "base/status_macros.h"
#include "engine/engine.h"
#include "engine/import_input.h"

namespace qipu::bench {

int SgfSquareSize(const std::string& sgf) {
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

std::string SgfUnderSymmetry(const std::string& sgf, int t, int n) {
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

absl::StatusOr<ImportBenchResult> RunImportBench(const ImportBenchOptions& o) {
  engine::ImportFileList list = engine::ListImportFiles(o.paths);
  if (list.files.empty()) {
    return absl::InvalidArgumentError("paths: no SGF files found");
  }
  std::vector<std::pair<std::string, std::string>> inputs;
  for (const std::string& f : list.files) {
    auto data = engine::ReadImportFile(f, 64u << 20);
    if (!data.ok()) continue;
    const int n = SgfSquareSize(*data);
    for (int t = 0; t < (n > 0 ? o.symmetries : 1); ++t) {
      inputs.emplace_back(absl::StrCat(f, "#", t),
                          t == 0 ? *data : SgfUnderSymmetry(*data, t, n));
    }
  }
  engine::ImportSettings settings;
  settings.source = "bench";
  settings.index_depth = o.index_depth;
  ImportBenchResult r;
  r.files = list.files.size();
  r.symmetries = o.symmetries;
  r.loops = o.loops;
  r.threads = o.threads;
  r.index_depth = o.index_depth;
  engine::ImportSummary& total = r.total;
  for (int loop = 0; loop < o.loops; ++loop) {
    QIPU_ASSIGN_OR_RETURN(const base::TempDir dir,
                          base::TempDir::Create("bench-import"));
    engine::EngineOptions lo;
    lo.create = true;
    lo.store.sync = o.sync;
    lo.importer.threads = o.threads;
    auto local = engine::Engine::Open(dir.path(), lo);
    if (!local.ok()) {
      return absl::Status(
          local.status().code(),
          absl::StrCat(dir.path(), ": ", local.status().message()));
    }
    QIPU_ASSIGN_OR_RETURN(engine::Importer* const importer,
                          (*local)->importer());
    // The importer's own threads parse and replay; this thread hands the
    // files over and waits for the last answer.
    absl::Mutex mu;
    size_t done = 0;
    std::vector<qipu::v1::ImportResponse> results(inputs.size());
    const absl::Time t0 = absl::Now();
    for (size_t i = 0; i < inputs.size(); ++i) {
      importer->ImportBytes(inputs[i].first, inputs[i].second, settings,
                            [&, i](qipu::v1::ImportResponse res) {
                              absl::MutexLock lock(&mu);
                              results[i] = std::move(res);
                              ++done;
                            });
    }
    {
      absl::MutexLock lock(&mu);
      auto all = [&]() { return done == inputs.size(); };
      mu.Await(absl::Condition(&all));
    }
    total.seconds += absl::ToDoubleSeconds(absl::Now() - t0);
    for (const auto& res : results) total.Add(res);
    // The database closes before its directory goes.
    local->reset();
  }
  r.games_per_sec = total.seconds > 0 ? total.games / total.seconds : 0;
  return r;
}

nlohmann::ordered_json ImportBenchJson(const ImportBenchResult& r) {
  return {{"files", r.files},
          {"symmetries", r.symmetries},
          {"loops", r.loops},
          {"threads", r.threads},
          {"index_depth", r.index_depth},
          {"games", r.total.games},
          {"imported", r.total.imported},
          {"duplicates", r.total.duplicates},
          {"rejected", r.total.rejected},
          {"seconds", r.total.seconds},
          {"games_per_sec", r.games_per_sec}};
}

std::string ImportBenchText(const ImportBenchResult& r) {
  return absl::StrFormat(
      "%zu files x %d symmetries x %d loops, %d thread(s), depth %d\n"
      "  games        %12llu (imported %llu, duplicates %llu, rejected "
      "%llu)\n  seconds      %12.3f\n  games/s      %12.0f\n",
      r.files, r.symmetries, r.loops, r.threads, r.index_depth,
      static_cast<unsigned long long>(r.total.games),
      static_cast<unsigned long long>(r.total.imported),
      static_cast<unsigned long long>(r.total.duplicates),
      static_cast<unsigned long long>(r.total.rejected), r.total.seconds,
      r.games_per_sec);
}

}  // namespace qipu::bench
