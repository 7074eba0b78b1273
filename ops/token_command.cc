// `qipu token ...`: the access tokens of a coordinator that runs with
// `--auth required` (engine/tokens.h, coordinator/access.h).
//
//   qipu token create --role operator --name alice --db DIR [--json]
//   qipu token create --role worker --name slurm --server H:P --token OP
//   qipu token list (--db DIR | --server H:P) [--json]
//   qipu token revoke --id 3 (--db DIR | --server H:P) [--json]
//
// `create` prints the token once (`{"token": "...", "role": "...", "id": N,
// "name": "..."}` with --json); the database keeps only its SHA-256.
// `list` never prints tokens. Through --server every subcommand needs an
// operator token; with --db the database must not be held by a running
// coordinator (that is how the first operator token is made: on the
// coordinator's database, before it starts). `create --db` makes the
// database when it is missing.
//
// Exit status: 0 done, 1 the call failed, 2 bad flags.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "backend/token_client.h"
#include "base/console.h"
#include "coordinator/access.h"
#include "nlohmann/json.hpp"
#include "ops/commands.h"
#include "ops/flags.h"

namespace qipu::ops {
namespace {

using Json = nlohmann::json;

// Flags of every subcommand; each uses the ones it registers.
struct TokenFlags {
  TargetFlags target;
  bool json = false;
  std::string role;
  std::string name;
  uint64_t id = 0;
};

int TokenFail(const std::string& cmd, const absl::Status& s) {
  return base::Fail("token " + cmd, s.message(),
                    absl::IsInvalidArgument(s) ? 2 : 1);
}

absl::StatusOr<std::unique_ptr<backend::TokenClient>> Open(const TokenFlags& f,
                                                           bool create) {
  auto target = f.target.ToTarget();
  if (!target.ok()) return target.status();
  return backend::TokenClient::Open(*target, create);
}

std::string Created(int64_t ms) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", absl::FromUnixMillis(ms),
                          absl::UTCTimeZone());
}

Json InfoJson(const qipu::v1::TokenInfo& t) {
  return Json{{"id", t.id()},
              {"role", coordinator::RoleName(t.role())},
              {"name", t.name()},
              {"created", Created(t.created_ms())},
              {"revoked", t.revoked()}};
}

int RunCreate(const TokenFlags& f) {
  auto role = coordinator::ParseRole(f.role);
  if (!role.ok()) {
    return TokenFail("create", absl::InvalidArgumentError(absl::StrCat(
                                   "--role: ", role.status().message())));
  }
  auto c = Open(f, /*create=*/true);
  if (!c.ok()) return TokenFail("create", c.status());
  auto r = (*c)->Create(*role, f.name);
  if (!r.ok()) return TokenFail("create", r.status());
  if (f.json) {
    Json j{{"token", r->token()},
           {"role", coordinator::RoleName(r->info().role())},
           {"id", r->info().id()},
           {"name", r->info().name()}};
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf("%s\n", r->token().c_str());
    std::fprintf(
        stderr, "token %llu (%s%s%s) created; it is shown only this once\n",
        static_cast<unsigned long long>(r->info().id()),
        coordinator::RoleName(r->info().role()).c_str(),
        r->info().name().empty() ? "" : ", ", r->info().name().c_str());
  }
  return 0;
}

int RunList(const TokenFlags& f) {
  auto c = Open(f, /*create=*/false);
  if (!c.ok()) return TokenFail("list", c.status());
  auto tokens = (*c)->List();
  if (!tokens.ok()) return TokenFail("list", tokens.status());
  if (f.json) {
    Json a = Json::array();
    for (const auto& t : *tokens) a.push_back(InfoJson(t));
    std::printf("%s\n", Json{{"tokens", a}}.dump().c_str());
    return 0;
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& t : *tokens) {
    rows.push_back({absl::StrCat(t.id()), coordinator::RoleName(t.role()),
                    t.name(), Created(t.created_ms()),
                    t.revoked() ? "yes" : "no"});
  }
  base::PrintTable({"id", "role", "name", "created", "revoked"}, rows);
  return 0;
}

int RunRevoke(const TokenFlags& f) {
  auto c = Open(f, /*create=*/false);
  if (!c.ok()) return TokenFail("revoke", c.status());
  auto info = (*c)->Revoke(f.id);
  if (!info.ok()) return TokenFail("revoke", info.status());
  if (f.json) {
    std::printf("%s\n", InfoJson(*info).dump().c_str());
  } else {
    std::printf("token %llu revoked\n",
                static_cast<unsigned long long>(info->id()));
  }
  return 0;
}

}  // namespace

void AddTokenCommand(CLI::App& app, int* exit_code) {
  CLI::App* token = app.add_subcommand(
      "token", "Access tokens of a coordinator that requires auth");
  token->require_subcommand(1);

  auto fc = std::make_shared<TokenFlags>();
  CLI::App* create = token->add_subcommand(
      "create", "Make a token (printed once; only its hash is stored)");
  create->add_option("--role", fc->role, "reader, worker or operator")
      ->required();
  create->add_option("--name", fc->name, "Who or what holds it (free text)");
  fc->target.Add(create);
  create->add_flag("--json", fc->json, "JSON output");
  create->callback([fc, exit_code] { *exit_code = RunCreate(*fc); });

  auto fl = std::make_shared<TokenFlags>();
  CLI::App* list = token->add_subcommand(
      "list", "Ids, roles, names, creation and revocation (never tokens)");
  fl->target.Add(list);
  list->add_flag("--json", fl->json, "JSON output");
  list->callback([fl, exit_code] { *exit_code = RunList(*fl); });

  auto fr = std::make_shared<TokenFlags>();
  CLI::App* revoke = token->add_subcommand(
      "revoke", "Revoke a token: refused from the next call on");
  revoke->add_option("--id", fr->id, "Token id (from `qipu token list`)")
      ->required();
  fr->target.Add(revoke);
  revoke->add_flag("--json", fr->json, "JSON output");
  revoke->callback([fr, exit_code] { *exit_code = RunRevoke(*fr); });
}

}  // namespace qipu::ops
