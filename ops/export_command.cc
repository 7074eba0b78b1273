// `qipu export (--db DIR | --server ADDR) [filters] --format sgf|jsonl
// --out PATH`: streams stored games out (coordinator/exporter.h) as SGF or
// JSON Lines (coordinator/game_format.h). With --format sgf, --out names
// one collection file, or an existing folder that receives one <id>.sgf
// per game; "-" is standard output. Every exported game re-imports as the
// same game.
//
// Exit status: 0 when the export ran to the end, 1 when it could not run
// or stopped part-way (the output then holds the games before the
// failure), 2 for bad flags.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "coordinator/exporter.h"
#include "coordinator/game_format.h"
#include "grpcpp/client_context.h"
#include "nlohmann/json.hpp"
#include "ops/commands.h"
#include "ops/corpus_cli.h"
#include "qipu/v1/query.grpc.pb.h"
#include "store/game_id.h"

namespace qipu::ops {
namespace {

struct ExportCommandOptions {
  std::string db;
  std::string server;
  std::string size;
  std::string rules;
  double komi = 0;
  bool has_komi = false;
  int handicap = -1;
  std::string source;
  std::string policy;
  uint32_t from = 0;
  uint32_t to = 0;
  uint64_t limit = 0;
  std::string format = "sgf";
  std::string out;
  bool json = false;
  double timeout_s = 3600;
};

// Where exported games go.
class GameOutput {
 public:
  // Opens `path` ("-" = stdout; an existing folder with sgf = one file per
  // game).
  absl::Status Open(const std::string& path, bool sgf) {
    sgf_ = sgf;
    if (path == "-") {
      file_ = stdout;
      return absl::OkStatus();
    }
    std::error_code ec;
    if (sgf && std::filesystem::is_directory(path, ec)) {
      dir_ = path;
      return absl::OkStatus();
    }
    file_ = std::fopen(path.c_str(), "wb");
    owned_ = true;
    if (file_ == nullptr) {
      return absl::PermissionDeniedError(absl::StrCat("cannot create ", path));
    }
    return absl::OkStatus();
  }

  // Writes one game.
  absl::Status Write(const store::GameId& id, const qipu::v1::Game& game) {
    const std::string text = store::GameIdText(id);
    auto body = sgf_ ? coordinator::GameToSgf(game)
                     : coordinator::GameToJsonLine(game, text);
    if (!body.ok()) {
      return absl::DataLossError(
          absl::StrCat(text, ": ", body.status().message()));
    }
    if (!sgf_) *body += '\n';
    std::FILE* f = file_;
    if (!dir_.empty()) {
      const std::string path =
          (std::filesystem::path(dir_) / (text + ".sgf")).string();
      f = std::fopen(path.c_str(), "wb");
      if (f == nullptr) {
        return absl::PermissionDeniedError("cannot create " + path);
      }
    }
    const bool ok =
        std::fwrite(body->data(), 1, body->size(), f) == body->size();
    if (!dir_.empty() && std::fclose(f) != 0) {
      return absl::DataLossError("write failed in " + dir_);
    }
    if (!ok) return absl::DataLossError("write failed");
    return absl::OkStatus();
  }

  absl::Status Close() {
    if (file_ == nullptr) return absl::OkStatus();
    const bool ok = owned_ ? std::fclose(file_) == 0 : std::fflush(file_) == 0;
    file_ = nullptr;
    return ok ? absl::OkStatus() : absl::DataLossError("write failed");
  }

 private:
  bool sgf_ = true;
  std::FILE* file_ = nullptr;
  bool owned_ = false;
  std::string dir_;
};

absl::StatusOr<qipu::v1::ExportRequest> BuildRequest(
    const ExportCommandOptions& o) {
  qipu::v1::ExportRequest req;
  qipu::v1::Filter* f = req.mutable_filter();
  if (!o.size.empty()) {
    std::vector<std::string> wh = absl::StrSplit(o.size, absl::ByAnyChar("x:"));
    uint32_t w = 0;
    uint32_t h = 0;
    if (wh.empty() || wh.size() > 2 || !absl::SimpleAtoi(wh[0], &w) ||
        !absl::SimpleAtoi(wh.back(), &h)) {
      return absl::InvalidArgumentError("--size: give N or WxH");
    }
    f->set_width(w);
    f->set_height(h);
  }
  f->set_rules(o.rules);
  if (o.has_komi) {
    f->set_has_komi(true);
    f->set_komi(o.komi);
  }
  if (o.handicap >= 0) {
    f->set_has_handicap(true);
    f->set_handicap(static_cast<uint32_t>(o.handicap));
  }
  f->set_source(o.source);
  f->set_policy(o.policy);
  f->set_date_from(o.from);
  f->set_date_to(o.to);
  req.set_limit(o.limit);
  return req;
}

int RunExport(const ExportCommandOptions& o) {
  if (o.db.empty() == o.server.empty()) {
    PrintError("export", "flags",
               "give exactly one of --db DIR and --server ADDR");
    return 2;
  }
  auto req = BuildRequest(o);
  if (!req.ok()) {
    PrintError("export", "flags", std::string(req.status().message()));
    return 2;
  }
  GameOutput out;
  if (absl::Status s = out.Open(o.out, o.format == "sgf"); !s.ok()) {
    PrintError("export", o.out, std::string(s.message()));
    return 1;
  }
  const absl::Time t0 = absl::Now();
  uint64_t games = 0;
  absl::Status write_status;
  auto sink = [&](const store::GameId& id, const qipu::v1::Game& g) {
    write_status = out.Write(id, g);
    if (!write_status.ok()) return false;
    ++games;
    return true;
  };
  absl::Status status;
  if (!o.db.empty()) {
    auto local = LocalCorpus::Open(o.db, /*create=*/false, {});
    if (!local.ok()) {
      PrintError("export", o.db, std::string(local.status().message()));
      return 1;
    }
    coordinator::Exporter exporter(&(*local)->store());
    status = exporter.Export(*req, sink).status();
  } else {
    auto stub = qipu::v1::CorpusService::NewStub(
        CoordinatorChannel(o.server, 64 << 20));
    grpc::ClientContext ctx;
    ctx.set_deadline(absl::ToChronoTime(t0 + absl::Seconds(o.timeout_s)));
    auto reader = stub->Export(&ctx, *req);
    qipu::v1::Game g;
    while (reader->Read(&g)) {
      auto id = coordinator::GameIdOf(g);
      if (!id.ok() || !sink(*id, g)) {
        if (!id.ok()) write_status = id.status();
        ctx.TryCancel();
        break;
      }
    }
    const grpc::Status gs = reader->Finish();
    if (!gs.ok() && write_status.ok()) {
      status = absl::Status(static_cast<absl::StatusCode>(gs.error_code()),
                            absl::StrCat(o.server, ": ", gs.error_message()));
    }
  }
  if (status.ok()) status = write_status;
  if (absl::Status s = out.Close(); status.ok()) status = s;
  const double secs = absl::ToDoubleSeconds(absl::Now() - t0);
  if (!status.ok()) {
    PrintError("export", "stopped after " + std::to_string(games) + " games",
               std::string(status.message()));
    return absl::IsInvalidArgument(status) ? 2 : 1;
  }
  if (o.json && o.out != "-") {
    nlohmann::ordered_json j = {{"games", games},
                                {"format", o.format},
                                {"out", o.out},
                                {"seconds", secs}};
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::fprintf(stderr, "exported %llu games to %s (%.2f s)\n",
                 static_cast<unsigned long long>(games), o.out.c_str(), secs);
  }
  return 0;
}

}  // namespace

void AddExportCommand(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<ExportCommandOptions>();
  CLI::App* c = app.add_subcommand(
      "export", "Stream stored games out as SGF or JSON Lines");
  c->add_option("--db", o->db, "Database directory (opened in-process)");
  c->add_option("--server", o->server, "Coordinator address HOST:PORT");
  c->add_option("--format", o->format, "sgf or jsonl")
      ->check(CLI::IsMember({"sgf", "jsonl"}))
      ->capture_default_str();
  c->add_option("--out", o->out,
                "Output file, '-' for stdout, or (sgf) an existing folder for "
                "one file per game")
      ->required();
  c->add_option("--size", o->size, "Board size: N or WxH");
  c->add_option("--rules", o->rules, "Preset name or axis=value list");
  c->add_option("--komi", o->komi, "Komi")->each([o](const std::string&) {
    o->has_komi = true;
  });
  c->add_option("--handicap", o->handicap, "Handicap stones (0 = even)")
      ->check(CLI::Range(0, 9));
  c->add_option("--source", o->source, "Import source name, or job:<id>");
  c->add_option("--policy", o->policy, "Playout policy, or 'import'");
  c->add_option("--from", o->from, "First date, YYYYMMDD");
  c->add_option("--to", o->to, "Last date, YYYYMMDD");
  c->add_option("--limit", o->limit, "Most games (0 = all)")
      ->capture_default_str();
  c->add_option("--timeout", o->timeout_s,
                "Deadline of the whole export with --server, seconds")
      ->check(CLI::Range(1.0, 7 * 86400.0))
      ->capture_default_str();
  c->add_flag("--json", o->json, "Print a JSON summary on stdout");
  c->callback([o, exit_code] { *exit_code = RunExport(*o); });
}

}  // namespace qipu::ops
