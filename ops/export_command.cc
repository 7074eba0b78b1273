// `qipu export (--db DIR | --server ADDR) [filters] --format sgf|jsonl
// --out PATH`: streams stored games out (backend/corpus_client.h) as SGF or
// JSON Lines (engine/game_format.h). With --format sgf, --out names
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

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "backend/corpus_client.h"
#include "base/console.h"
#include "engine/game_format.h"
#include "nlohmann/json.hpp"
#include "ops/commands.h"
#include "ops/flags.h"
#include "store/game_id.h"

namespace qipu::ops {
namespace {

struct ExportCommandOptions {
  TargetFlags target;
  FilterFlags filter;
  uint64_t limit = 0;
  std::string format = "sgf";
  std::string out;
  bool json = false;
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
    auto body =
        sgf_ ? engine::GameToSgf(game) : engine::GameToJsonLine(game, text);
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

int RunExport(const ExportCommandOptions& o) {
  auto target = o.target.ToTarget();
  if (!target.ok()) {
    return base::Fail("export", "flags", target.status().message(), 2);
  }
  qipu::v1::ExportRequest req;
  auto filter = o.filter.ToProto();
  if (!filter.ok()) {
    return base::Fail("export", "flags", filter.status().message(), 2);
  }
  *req.mutable_filter() = *filter;
  req.set_limit(o.limit);
  GameOutput out;
  if (absl::Status s = out.Open(o.out, o.format == "sgf"); !s.ok()) {
    return base::Fail("export", o.out, s.message());
  }
  const absl::Time t0 = absl::Now();
  uint64_t games = 0;
  absl::Status status = backend::Export(
      *target, req,
      [&](const store::GameId& id, const qipu::v1::Game& g) {
        absl::Status s = out.Write(id, g);
        if (s.ok()) ++games;
        return s;
      },
      target->timeout);
  if (absl::Status s = out.Close(); status.ok()) status = s;
  const double secs = absl::ToDoubleSeconds(absl::Now() - t0);
  if (!status.ok()) {
    base::PrintError("export", absl::StrCat("stopped after ", games, " games"),
                     status.message());
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
  o->target.Add(c, 3600, "Deadline of the whole export with --server, seconds");
  c->add_option("--format", o->format, "sgf or jsonl")
      ->check(CLI::IsMember({"sgf", "jsonl"}))
      ->capture_default_str();
  c->add_option("--out", o->out,
                "Output file, '-' for stdout, or (sgf) an existing folder for "
                "one file per game")
      ->required();
  o->filter.Add(c);
  c->add_option("--limit", o->limit, "Most games (0 = all)")
      ->capture_default_str();
  c->add_flag("--json", o->json, "Print a JSON summary on stdout");
  c->callback([o, exit_code] { *exit_code = RunExport(*o); });
}

}  // namespace qipu::ops
