// `qipu backup (--server ADDR | --db DIR) --to DIR`: a consistent online
// backup of a database (store/backup.h) into a backup directory of
// numbered, incremental, checksummed backups -- through a running
// coordinator (AdminService.Backup; DIR is then a directory on the
// coordinator's host) or of a database no process has open.
// `qipu backup list --to DIR` and `qipu backup verify --to DIR [--id N]`
// read a backup directory; `qipu restore --from DIR [--id N] --db DIR
// [--force]` brings a backup back into a new (or, with --force, a stopped)
// database and reads every game back.
//
// Exit status: 0 done, 1 failed, 2 bad flags.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "backend/target.h"
#include "base/channel.h"
#include "base/console.h"
#include "base/grpc_status.h"
#include "coordinator/admin_service.h"
#include "nlohmann/json.hpp"
#include "ops/commands.h"
#include "ops/flags.h"
#include "qipu/v1/admin.grpc.pb.h"
#include "store/backup.h"
#include "store/restore.h"
#include "store/store.h"

namespace qipu::ops {
namespace {

struct BackupCommandOptions {
  TargetFlags target;
  std::string to;
  uint32_t id = 0;
  bool json = false;
};

struct RestoreCommandOptions {
  std::string from;
  uint32_t id = 0;
  std::string db;
  bool force = false;
  bool json = false;
};

std::string TimeText(absl::Time t) {
  return absl::FormatTime("%Y-%m-%d %H:%M:%S UTC", t, absl::UTCTimeZone());
}

nlohmann::ordered_json EntryJson(const store::BackupEntry& e) {
  return {{"id", e.id},
          {"unix_seconds", absl::ToUnixSeconds(e.time)},
          {"bytes", e.bytes},
          {"files", e.files},
          {"metadata", e.metadata}};
}

store::BackupEntry EntryFromProto(const qipu::v1::BackupInfo& b) {
  store::BackupEntry e;
  e.id = b.backup_id();
  e.time = absl::FromUnixSeconds(b.unix_seconds());
  e.bytes = b.bytes();
  e.files = b.files();
  e.metadata = b.metadata();
  return e;
}

// The backup through the coordinator at `t.server`.
absl::StatusOr<store::BackupEntry> BackupThroughServer(const backend::Target& t,
                                                       const std::string& to) {
  auto stub = qipu::v1::AdminService::NewStub(
      base::Dial(t.server, backend::ChannelOptionsOf(t)));
  grpc::ClientContext ctx;
  base::SetDeadline(&ctx, t.timeout);
  qipu::v1::BackupRequest req;
  req.set_to(to);
  qipu::v1::BackupResponse resp;
  const absl::Status s = base::FromGrpc(stub->Backup(&ctx, req, &resp));
  if (!s.ok()) return backend::WithServerHint(s, t.server);
  return EntryFromProto(resp.backup());
}

// The backup of the database in `t.db`, opened by this process.
absl::StatusOr<store::BackupEntry> BackupOfDatabase(const backend::Target& t,
                                                    const std::string& to) {
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::path(t.db) / "CURRENT", ec)) {
    return absl::NotFoundError(
        absl::StrCat("no database in ", t.db, " (no CURRENT file)"));
  }
  store::StoreOptions o;
  o.create_if_missing = false;
  o.block_cache_bytes = 16u << 20;
  auto store = store::Store::Open(t.db, o);
  if (!store.ok()) return store.status();
  return (*store)->Backup(to);
}

int RunBackup(const BackupCommandOptions& o) {
  auto target = o.target.ToTarget();
  if (!target.ok()) {
    return base::Fail("backup", "flags", target.status().message(), 2);
  }
  if (o.to.empty()) return base::Fail("backup", "flags", "--to is required", 2);
  std::string to = o.to;
  if (target->server.empty()) {
    // A local path: relative to here.
    std::error_code ec;
    to = std::filesystem::absolute(to, ec).string();
  } else if (!std::filesystem::path(to).is_absolute()) {
    return base::Fail("backup", "--to",
                      "with --server, --to is a directory on the "
                      "coordinator's host: give an absolute path",
                      2);
  }
  const absl::Time t0 = absl::Now();
  auto entry = target->server.empty() ? BackupOfDatabase(*target, to)
                                      : BackupThroughServer(*target, to);
  if (!entry.ok()) return base::Fail("backup", entry.status());
  const double secs = absl::ToDoubleSeconds(absl::Now() - t0);
  if (o.json) {
    nlohmann::ordered_json j = EntryJson(*entry);
    j["dir"] = to;
    j["seconds"] = secs;
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf("backup %u in %s: %u files, %llu bytes (%.2f s)\n", entry->id,
                to.c_str(), entry->files,
                static_cast<unsigned long long>(entry->bytes), secs);
  }
  return 0;
}

int RunList(const BackupCommandOptions& o) {
  auto list = store::ListBackups(o.to);
  if (!list.ok()) return base::Fail("backup list", list.status());
  if (o.json) {
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (const store::BackupEntry& e : *list) j.push_back(EntryJson(e));
    std::printf("%s\n", j.dump().c_str());
    return 0;
  }
  std::vector<std::vector<std::string>> rows;
  for (const store::BackupEntry& e : *list) {
    rows.push_back({absl::StrCat(e.id), TimeText(e.time), absl::StrCat(e.files),
                    absl::StrCat(e.bytes), e.metadata});
  }
  base::PrintTable({"id", "taken", "files", "bytes", "holds"}, rows);
  return 0;
}

int RunVerify(const BackupCommandOptions& o) {
  auto entry = store::VerifyBackup(o.to, o.id);
  if (!entry.ok()) return base::Fail("backup verify", entry.status());
  if (o.json) {
    nlohmann::ordered_json j = EntryJson(*entry);
    j["ok"] = true;
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf("backup %u in %s: %u files, checksums match\n", entry->id,
                o.to.c_str(), entry->files);
  }
  return 0;
}

int RunRestore(const RestoreCommandOptions& o) {
  const absl::Time t0 = absl::Now();
  auto r = store::RestoreBackup(o.from, o.id, o.db, o.force);
  if (!r.ok()) return base::Fail("restore", r.status());
  const double secs = absl::ToDoubleSeconds(absl::Now() - t0);
  if (o.json) {
    nlohmann::ordered_json j = {{"backup", EntryJson(r->backup)},
                                {"db", o.db},
                                {"games", r->games},
                                {"reindexed_games", r->reindexed_games},
                                {"replaced", r->replaced},
                                {"recovered", r->recovered},
                                {"seconds", secs}};
    std::printf("%s\n", j.dump().c_str());
  } else {
    for (const std::string& note : r->recovered) {
      std::printf("earlier restore: %s\n", note.c_str());
    }
    std::printf(
        "restored backup %u of %s into %s: %llu games (%llu re-indexed), "
        "%.2f s%s\n",
        r->backup.id, o.from.c_str(), o.db.c_str(),
        static_cast<unsigned long long>(r->games),
        static_cast<unsigned long long>(r->reindexed_games), secs,
        r->replaced ? "; the database that was there is replaced" : "");
  }
  return 0;
}

}  // namespace

void AddBackupCommand(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<BackupCommandOptions>();
  CLI::App* c = app.add_subcommand(
      "backup",
      "Take a consistent online backup of a database (or list/verify the "
      "backups of a backup directory)");
  c->require_subcommand(0, 1);
  o->target.Add(c, 3600, "Deadline of the backup with --server, seconds");
  c->add_option("--to", o->to,
                "Backup directory (with --server: an absolute path on the "
                "coordinator's host)");
  c->add_flag("--json", o->json, "Print JSON on stdout");

  auto l = std::make_shared<BackupCommandOptions>();
  CLI::App* list = c->add_subcommand("list", "The backups of a directory");
  list->add_option("--to", l->to, "Backup directory")->required();
  list->add_flag("--json", l->json, "Print a JSON array on stdout");
  list->callback([l, exit_code] { *exit_code = RunList(*l); });

  auto v = std::make_shared<BackupCommandOptions>();
  CLI::App* verify = c->add_subcommand(
      "verify", "Check a backup's files against their checksums");
  verify->add_option("--to", v->to, "Backup directory")->required();
  verify->add_option("--id", v->id, "Backup id (0: the latest)")
      ->capture_default_str();
  verify->add_flag("--json", v->json, "Print JSON on stdout");
  verify->callback([v, exit_code] { *exit_code = RunVerify(*v); });

  // `backup list|verify` take their own --to; the parent's is checked
  // only when it takes the backup itself.
  c->callback([o, c, exit_code] {
    if (!c->get_subcommands().empty()) return;
    *exit_code = RunBackup(*o);
  });

  auto r = std::make_shared<RestoreCommandOptions>();
  CLI::App* restore = app.add_subcommand(
      "restore", "Restore a backup into a database directory and read it back");
  restore->add_option("--from", r->from, "Backup directory")->required();
  restore->add_option("--id", r->id, "Backup id (0: the latest)")
      ->capture_default_str();
  restore->add_option("--db", r->db, "Database directory to restore into")
      ->required();
  restore->add_flag("--force", r->force,
                    "Replace the database (or a failed restore's leftovers) "
                    "in --db; it must not be in use, and is kept until the "
                    "restored one reads back");
  restore->add_flag("--json", r->json, "Print JSON on stdout");
  restore->callback([r, exit_code] { *exit_code = RunRestore(*r); });
}

}  // namespace qipu::ops
