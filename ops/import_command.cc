// `qipu import (--db DIR | --server ADDR) PATH...`: imports SGF files and
// folders (and qipu JSONL exports) into the game database, locally through
// an in-process Importer (coordinator/importer.h) or through a
// coordinator's CorpusService, and prints a summary.
//
// Exit status: 0 when the import ran, even if games were rejected (they
// are error rows of the summary); 1 when it could not run (a PATH that
// does not exist, a database that cannot be opened, a coordinator that
// cannot be reached or broke the stream); 2 for bad flags.
#include <cstdio>
#include <deque>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "grpcpp/client_context.h"
#include "ops/commands.h"
#include "ops/corpus_cli.h"
#include "qipu/v1/query.grpc.pb.h"

namespace qipu::ops {
namespace {

struct ImportCommandOptions {
  std::string db;
  std::string server;
  std::vector<std::string> paths;
  std::string source = "import";
  int index_depth = 60;
  int threads = 2;
  bool json = false;
  bool no_progress = false;
  double timeout_s = 3600;
  int max_file_mb = 31;
  size_t max_errors = 50;
};

// Streams the files to CorpusService.Import: a writer thread sends one
// request per file while this thread reads the responses, which come back
// in request order. Files that cannot be read are error rows made here.
absl::StatusOr<coordinator::ImportSummary> RemoteImport(
    const ImportCommandOptions& o, const coordinator::ImportSettings& settings,
    ImportProgressBar* bar) {
  const absl::Time t0 = absl::Now();
  const size_t limit = static_cast<size_t>(o.max_file_mb) << 20;
  auto stub = qipu::v1::CorpusService::NewStub(
      CoordinatorChannel(o.server, static_cast<int>(limit + (1 << 20))));
  grpc::ClientContext ctx;
  ctx.set_deadline(absl::ToChronoTime(t0 + absl::Seconds(o.timeout_s)));
  auto stream = stub->Import(&ctx);

  coordinator::ImportFileList list = coordinator::ListImportFiles(o.paths);
  const size_t n = list.files.size();
  std::vector<qipu::v1::ImportResponse> results(n);
  absl::Mutex mu;
  std::deque<size_t> sent;  // Guarded by mu: files awaiting a response.
  std::thread writer([&] {
    for (size_t i = 0; i < n; ++i) {
      auto data = coordinator::ReadImportFile(list.files[i], limit);
      if (!data.ok()) {
        qipu::v1::ImportResponse& r = results[i];
        r.set_file(list.files[i]);
        qipu::v1::ImportError* e = r.add_errors();
        e->set_file(list.files[i]);
        e->set_reason(std::string(data.status().message()));
        continue;
      }
      qipu::v1::ImportRequest req;
      req.set_file(list.files[i]);
      req.set_data(*std::move(data));
      req.set_source(settings.source);
      req.set_index_depth(static_cast<uint32_t>(settings.index_depth));
      {
        absl::MutexLock lock(&mu);
        sent.push_back(i);
      }
      if (!stream->Write(req)) break;
    }
    stream->WritesDone();
  });
  coordinator::ImportProgress progress;
  progress.files_total = n;
  qipu::v1::ImportResponse resp;
  while (stream->Read(&resp)) {
    size_t i = 0;
    {
      absl::MutexLock lock(&mu);
      if (sent.empty()) break;
      i = sent.front();
      sent.pop_front();
    }
    progress.files_done = i + 1;
    progress.games += resp.games();
    progress.imported += resp.imported();
    progress.duplicates += resp.duplicates();
    progress.rejected += resp.rejected();
    bar->Update(progress);
    results[i] = std::move(resp);
  }
  writer.join();
  const grpc::Status status = stream->Finish();
  if (!status.ok()) {
    return absl::UnavailableError(
        absl::StrCat(o.server, ": ", status.error_message(), " (",
                     static_cast<int>(status.error_code()),
                     "); files already answered are imported, re-running "
                     "the import is safe"));
  }
  coordinator::ImportSummary summary;
  summary.errors = std::move(list.errors);
  for (const auto& r : results) summary.Add(r);
  summary.seconds = absl::ToDoubleSeconds(absl::Now() - t0);
  return summary;
}

int RunImport(const ImportCommandOptions& o) {
  if (o.db.empty() == o.server.empty()) {
    PrintError("import", "flags",
               "give exactly one of --db DIR and --server ADDR");
    return 2;
  }
  coordinator::ImportSettings settings;
  settings.source = o.source;
  settings.index_depth = o.index_depth;
  if (absl::Status s = coordinator::ValidateImportSettings(settings); !s.ok()) {
    PrintError("import", "flags", std::string(s.message()));
    return 2;
  }
  for (const std::string& p : o.paths) {
    std::error_code ec;
    if (!std::filesystem::exists(p, ec)) {
      PrintError("import", p, "no such file or directory");
      return 1;
    }
  }
  coordinator::ImportSummary summary;
  {
    ImportProgressBar bar(!o.no_progress);
    if (!o.db.empty()) {
      coordinator::ImporterOptions io;
      io.threads = o.threads;
      io.max_file_bytes = static_cast<size_t>(o.max_file_mb) << 20;
      auto local = LocalCorpus::Open(o.db, /*create=*/true, io);
      if (!local.ok()) {
        PrintError("import", o.db, std::string(local.status().message()));
        return 1;
      }
      summary = (*local)->importer().ImportPaths(
          o.paths, settings,
          [&bar](const coordinator::ImportProgress& p) { bar.Update(p); });
    } else {
      auto remote = RemoteImport(o, settings, &bar);
      if (!remote.ok()) {
        PrintError("import", "server", std::string(remote.status().message()));
        return 1;
      }
      summary = *std::move(remote);
    }
  }
  if (o.json) {
    std::printf("%s\n",
                SummaryJson(summary)
                    .dump(-1, ' ', false,
                          nlohmann::ordered_json::error_handler_t::replace)
                    .c_str());
  } else {
    PrintSummary(stdout, summary, o.max_errors);
  }
  return 0;
}

}  // namespace

void AddImportCommand(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<ImportCommandOptions>();
  CLI::App* c = app.add_subcommand(
      "import",
      "Import SGF files and folders (recursively, *.sgf) and qipu .jsonl "
      "exports; games already stored count as duplicates");
  c->add_option("paths", o->paths, "Files and folders")->required();
  c->add_option("--db", o->db, "Database directory (opened in-process)");
  c->add_option("--server", o->server, "Coordinator address HOST:PORT");
  c->add_option("--source", o->source, "Source name recorded with each game")
      ->capture_default_str();
  c->add_option("--index-depth", o->index_depth, "Plies of each game indexed")
      ->check(CLI::Range(0, coordinator::kMaxIndexDepth))
      ->capture_default_str();
  c->add_option("--threads", o->threads, "Parse/replay threads (--db)")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  c->add_option("--max-file-mb", o->max_file_mb,
                "Larger files are refused (error rows)")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  c->add_option("--timeout", o->timeout_s,
                "Deadline of the whole import with --server, seconds")
      ->check(CLI::Range(1.0, 7 * 86400.0))
      ->capture_default_str();
  c->add_option("--max-errors", o->max_errors,
                "Error rows printed (text output)")
      ->capture_default_str();
  c->add_flag("--json", o->json, "Print the summary as one JSON object");
  c->add_flag("--no-progress", o->no_progress,
              "No progress bar (it is shown only when stderr is a terminal)");
  c->callback([o, exit_code] { *exit_code = RunImport(*o); });
}

}  // namespace qipu::ops
