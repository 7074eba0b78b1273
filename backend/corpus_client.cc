#include "backend/corpus_client.h"

#include <deque>
#include <memory>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "base/channel.h"
#include "base/grpc_status.h"
#include "engine/engine.h"
#include "engine/exporter.h"
#include "engine/import_input.h"
#include "proto/metadata_keys.h"
#include "qipu/v1/query.grpc.pb.h"
#include "store/player_index.h"

namespace qipu::backend {
namespace {

// Streams the files to CorpusService.Import: a writer thread sends one
// request per file while this thread reads the responses, which come back
// in request order. Files that cannot be read are error rows made here.
absl::StatusOr<engine::ImportSummary> RemoteImport(
    const Target& target, const std::vector<std::string>& paths,
    const ImportOptions& o, const engine::Importer::ProgressFn& progress) {
  const std::string& server = target.server;
  const absl::Time t0 = absl::Now();
  base::ChannelOptions co = ChannelOptionsOf(target);
  co.max_message_bytes = static_cast<int>(o.max_file_bytes + (1 << 20));
  auto stub = qipu::v1::CorpusService::NewStub(base::Dial(server, co));
  grpc::ClientContext ctx;
  ctx.set_deadline(absl::ToChronoTime(t0 + o.timeout));
  auto stream = stub->Import(&ctx);

  engine::ImportFileList list = engine::ListImportFiles(paths);
  const size_t n = list.files.size();
  std::vector<qipu::v1::ImportResponse> results(n);
  absl::Mutex mu;
  std::deque<size_t> sent;  // Guarded by mu: files awaiting a response.
  std::thread writer([&] {
    for (size_t i = 0; i < n; ++i) {
      auto data = engine::ReadImportFile(list.files[i], o.max_file_bytes);
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
      req.set_source(o.settings.source);
      req.set_index_depth(static_cast<uint32_t>(o.settings.index_depth));
      req.set_strict(o.settings.strict);
      {
        absl::MutexLock lock(&mu);
        sent.push_back(i);
      }
      if (!stream->Write(req)) break;
    }
    stream->WritesDone();
  });
  engine::ImportProgress p;
  p.files_total = n;
  qipu::v1::ImportResponse resp;
  while (stream->Read(&resp)) {
    size_t i = 0;
    {
      absl::MutexLock lock(&mu);
      if (sent.empty()) break;
      i = sent.front();
      sent.pop_front();
    }
    p.files_done = i + 1;
    p.games += resp.games();
    p.imported += resp.imported();
    p.duplicates += resp.duplicates();
    p.rejected += resp.rejected();
    if (progress) progress(p);
    results[i] = std::move(resp);
  }
  writer.join();
  const grpc::Status status = stream->Finish();
  if (!status.ok()) {
    return absl::UnavailableError(absl::StrCat(
        server, ": ", base::FromGrpc(status).ToString(),
        "; files already answered are imported, re-running the import is "
        "safe"));
  }
  engine::ImportSummary summary;
  summary.errors = std::move(list.errors);
  for (const auto& r : results) summary.Add(r);
  summary.seconds = absl::ToDoubleSeconds(absl::Now() - t0);
  return summary;
}

}  // namespace

absl::StatusOr<engine::ImportSummary> Import(
    const Target& target, const std::vector<std::string>& paths,
    const ImportOptions& options,
    const engine::Importer::ProgressFn& progress) {
  if (absl::Status s = ValidateTarget(target); !s.ok()) return s;
  if (absl::Status s = engine::ValidateImportSettings(options.settings);
      !s.ok()) {
    return s;
  }
  if (!target.server.empty()) {
    return RemoteImport(target, paths, options, progress);
  }
  engine::EngineOptions lo;
  lo.create = true;
  lo.store.sync = options.sync;
  lo.importer.threads = options.threads;
  lo.importer.max_file_bytes = options.max_file_bytes;
  auto db = engine::Engine::Open(target.db, lo);
  if (!db.ok()) return db.status();
  auto importer = (*db)->importer();
  if (!importer.ok()) return importer.status();
  return (*importer)->ImportPaths(paths, options.settings, progress);
}

absl::StatusOr<qipu::v1::SetAliasesResponse> SetAliases(
    const Target& target, const std::string& text, const std::string& file,
    absl::Duration timeout) {
  if (absl::Status s = ValidateTarget(target); !s.ok()) return s;
  if (target.server.empty()) {
    auto groups = store::AliasGroups::Parse(text, file);
    if (!groups.ok()) return groups.status();
    engine::EngineOptions lo;
    lo.create = true;
    auto db = engine::Engine::Open(target.db, lo);
    if (!db.ok()) return db.status();
    if (absl::Status s = (*db)->queries().SetAliases(*groups); !s.ok()) {
      return s;
    }
    qipu::v1::SetAliasesResponse resp;
    resp.set_groups(static_cast<uint32_t>(groups->groups().size()));
    uint32_t names = 0;
    for (const auto& g : groups->groups()) {
      names += static_cast<uint32_t>(g.size());
    }
    resp.set_names(names);
    return resp;
  }
  auto stub = qipu::v1::CorpusService::NewStub(
      base::Dial(target.server, ChannelOptionsOf(target)));
  grpc::ClientContext ctx;
  ctx.set_deadline(absl::ToChronoTime(absl::Now() + timeout));
  qipu::v1::SetAliasesRequest req;
  req.set_text(text);
  req.set_file(file);
  qipu::v1::SetAliasesResponse resp;
  grpc::Status st = stub->SetAliases(&ctx, req, &resp);
  if (!st.ok()) return base::FromGrpc(st);
  return resp;
}

absl::Status Export(const Target& target, const qipu::v1::ExportRequest& req,
                    const GameSink& sink, absl::Duration timeout) {
  if (absl::Status s = ValidateTarget(target); !s.ok()) return s;
  absl::Status sink_status;
  if (!target.db.empty()) {
    auto db = engine::Engine::Open(target.db);
    if (!db.ok()) return db.status();
    engine::Exporter exporter(&(*db)->store());
    const absl::Status s =
        exporter
            .Export(req,
                    [&](const store::GameId& id, const qipu::v1::Game& g) {
                      sink_status = sink(id, g);
                      return sink_status.ok();
                    })
            .status();
    return sink_status.ok() ? s : sink_status;
  }
  auto stub = qipu::v1::CorpusService::NewStub(
      base::Dial(target.server, ChannelOptionsOf(target)));
  const absl::Time end = absl::Now() + timeout;
  const uint64_t want = req.limit();
  uint64_t got = 0;
  // Set when the server refused `want` as over its cap: calls then ask for
  // everything and this loop stops at `want`.
  bool count_here = false;
  qipu::v1::ExportRequest page = req;
  for (;;) {
    if (want != 0) page.set_limit(count_here ? 0 : want - got);
    grpc::ClientContext ctx;
    ctx.set_deadline(absl::ToChronoTime(end));
    auto reader = stub->Export(&ctx, page);
    qipu::v1::Game g;
    uint64_t this_call = 0;
    bool reached = false;
    while (reader->Read(&g)) {
      auto id = engine::GameIdOf(g);
      sink_status = id.ok() ? sink(*id, g) : id.status();
      if (!sink_status.ok()) {
        ctx.TryCancel();
        break;
      }
      ++got;
      ++this_call;
      if (want != 0 && got >= want) {
        reached = true;
        ctx.TryCancel();
        break;
      }
    }
    const grpc::Status gs = reader->Finish();
    if (!sink_status.ok()) return sink_status;
    if (reached) return absl::OkStatus();
    if (gs.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) {
      const auto& trailer = ctx.GetServerTrailingMetadata();
      auto it = trailer.find(wire::kExportResumeKey);
      if (it != trailer.end()) {
        page.set_after(std::string(it->second.data(), it->second.size()));
        continue;
      }
      if (this_call == 0 && want != 0 && !count_here) {
        count_here = true;
        continue;
      }
    }
    if (absl::Status s = base::FromGrpc(gs); !s.ok()) {
      return absl::Status(s.code(),
                          absl::StrCat(target.server, ": ", s.message()));
    }
    return absl::OkStatus();
  }
}

}  // namespace qipu::backend
