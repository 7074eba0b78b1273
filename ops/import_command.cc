// `qipu import (--db DIR | --server ADDR) PATH...`: imports SGF files and
// folders (and qipu JSONL exports) into the game database, locally through
// an in-process Importer (engine/importer.h) or through a
// coordinator's CorpusService (backend/corpus_client.h), and prints a
// summary.
//
// Exit status: 0 when the import ran, even if games were rejected (they
// are error rows of the summary); 1 when it could not run (a PATH that
// does not exist, a database that cannot be opened, a coordinator that
// cannot be reached or broke the stream); 2 for bad flags.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/time/clock.h"
#include "backend/corpus_client.h"
#include "base/console.h"
#include "base/files.h"
#include "ops/commands.h"
#include "ops/flags.h"
#include "report/import_report.h"

namespace qipu::ops {
namespace {

struct ImportCommandOptions {
  TargetFlags target;
  std::vector<std::string> paths;
  backend::ImportOptions import;
  bool json = false;
  bool no_progress = false;
  int max_file_mb = 31;
  size_t max_errors = 50;
  // An alias file stored before the import (--aliases).
  std::string aliases;
};

// Reads alias file `path` and stores its groups in the target: one line
// "N alias group(s), M names" on stdout (unless quiet); the exit status
// (2 for a bad file, 1 when it cannot be stored).
int StoreAliases(const backend::Target& target, const std::string& path,
                 absl::Duration timeout, bool quiet) {
  auto text = base::ReadFile(path);
  if (!text.ok())
    return base::Fail("aliases", path, text.status().message(), 2);
  auto r = backend::SetAliases(target, *text, path, timeout);
  if (!r.ok()) {
    return base::Fail("aliases", path, r.status().message(),
                      absl::IsInvalidArgument(r.status()) ? 2 : 1);
  }
  if (!quiet) {
    std::fprintf(stderr, "aliases: %u group(s), %u names from %s\n",
                 r->groups(), r->names(), path.c_str());
  }
  return 0;
}

int RunImport(const ImportCommandOptions& o) {
  auto target = o.target.ToTarget();
  if (!target.ok()) {
    return base::Fail("import", "flags", target.status().message(), 2);
  }
  backend::ImportOptions io = o.import;
  io.max_file_bytes = static_cast<size_t>(o.max_file_mb) << 20;
  io.timeout = absl::Seconds(o.target.timeout_s);
  if (absl::Status s = engine::ValidateImportSettings(io.settings); !s.ok()) {
    return base::Fail("import", "flags", s.message(), 2);
  }
  for (const std::string& p : o.paths) {
    std::error_code ec;
    if (!std::filesystem::exists(p, ec)) {
      return base::Fail("import", p, "no such file or directory");
    }
  }
  if (!o.aliases.empty()) {
    if (int rc = StoreAliases(*target, o.aliases, io.timeout, false); rc != 0) {
      return rc;
    }
  }
  absl::StatusOr<engine::ImportSummary> summary;
  {
    base::ProgressBar bar("", 0, !o.no_progress);
    const absl::Time t0 = absl::Now();
    summary = backend::Import(
        *target, o.paths, io, [&](const engine::ImportProgress& p) {
          bar.SetTotal(p.files_total);
          bar.Update(p.files_done,
                     report::ImportProgressSuffix(
                         p, absl::ToDoubleSeconds(absl::Now() - t0)));
        });
    bar.Finish(/*clear=*/true);
  }
  if (!summary.ok()) {
    return base::Fail("import", target->server.empty() ? target->db : "server",
                      summary.status().message());
  }
  if (o.json) {
    std::printf("%s\n",
                report::ImportJson(*summary)
                    .dump(-1, ' ', false,
                          nlohmann::ordered_json::error_handler_t::replace)
                    .c_str());
  } else {
    std::fputs(report::ImportText(*summary, o.max_errors).c_str(), stdout);
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
  o->target.Add(c, 3600, "Deadline of the whole import with --server, seconds");
  c->add_option("--source", o->import.settings.source,
                "Source name recorded with each game")
      ->capture_default_str();
  c->add_option("--index-depth", o->import.settings.index_depth,
                "Plies of each game indexed")
      ->check(CLI::Range(0, engine::kMaxIndexDepth))
      ->capture_default_str();
  c->add_flag("--strict", o->import.settings.strict,
              "Refuse records with a move their rules forbid (ko, superko, "
              "cycle, suicide, after the end) or that cannot be played "
              "(occupied, off the board), as error rows; default: keep them, "
              "noted or cut");
  c->add_option("--aliases", o->aliases,
                "Alias file stored before the import: one line per person, "
                "the names that are one person separated by tabs or commas "
                "('#' starts a comment); replaces the database's groups")
      ->check(CLI::ExistingFile);
  c->add_option("--threads", o->import.threads, "Parse/replay threads (--db)")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  c->add_option("--max-file-mb", o->max_file_mb,
                "Larger files are refused (error rows)")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  c->add_option("--max-errors", o->max_errors,
                "Error rows printed (text output)")
      ->capture_default_str();
  c->add_flag("--json", o->json, "Print the summary as one JSON object");
  c->add_flag("--no-progress", o->no_progress,
              "No progress bar (it is shown only when stderr is a terminal)");
  c->callback([o, exit_code] { *exit_code = RunImport(*o); });
}

void AddAliasesCommand(CLI::App& app, int* exit_code) {
  struct Options {
    TargetFlags target;
    std::string file;
  };
  auto o = std::make_shared<Options>();
  CLI::App* c = app.add_subcommand(
      "aliases",
      "Store a file of alias groups (the names that are one person: one line "
      "per person, separated by tabs or commas) in the database, replacing "
      "its groups; queries apply them from then on");
  c->add_option("file", o->file, "The alias file")->required();
  o->target.Add(c, 30, "Deadline with --server, seconds");
  c->callback([o, exit_code] {
    auto target = o->target.ToTarget();
    if (!target.ok()) {
      *exit_code = base::Fail("aliases", "flags", target.status().message(), 2);
      return;
    }
    *exit_code = StoreAliases(*target, o->file,
                              absl::Seconds(o->target.timeout_s), false);
  });
}

}  // namespace qipu::ops
