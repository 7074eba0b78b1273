// `qipu explore --db DIR --http HOST:PORT`: the web explorer (web/) over a
// database opened here, without a coordinator -- the openings board, the
// ko and cycle charts, the game viewer and the HTTP JSON API, answered by
// this process's query engine. The database must not be held by a
// running coordinator (`qipu-coordinator --http` serves the same pages).
// With --auth required the API wants a reader or operator token of the
// database (Authorization: Bearer), as the coordinator's gRPC does. With
// --http-tls-cert and --http-tls-key it speaks HTTPS only.
//
// Runs until SIGINT or SIGTERM, then stops serving (requests in progress
// finish) and closes the database.
//
//   qipu explore --db ./qipu-data --http 127.0.0.1:8080
//   qipu explore --db ./qipu-data --http 0.0.0.0:8443 --auth required
//       --http-tls-cert server.pem --http-tls-key server.key
//
// With --auth off a non-loopback --http is refused unless --insecure, as
// qipu-coordinator does.
//
// Exit status: 0 stopped by a signal, 1 the database or the address
// failed, 2 bad flags.
#include <cstdio>
#include <memory>
#include <string>

#include "base/console.h"
#include "base/signals.h"
#include "coordinator/coordinator.h"
#include "engine/engine.h"
#include "engine/tokens.h"
#include "ops/commands.h"
#include "spdlog/spdlog.h"
#include "web/explorer.h"

namespace qipu::ops {
namespace {

constexpr char kExploreCmd[] = "explore";

struct ExploreFlags {
  std::string db;
  std::string http = "127.0.0.1:8080";
  std::string auth = "off";
  std::string tls_cert;
  std::string tls_key;
  int threads = 8;
  bool insecure = false;
};

int RunExplore(const ExploreFlags& f) {
  // Before the database's threads start, so that they inherit the mask.
  const base::StopSignals signals;
  // As qipu-coordinator --http: no open API on the network by accident.
  if (absl::Status s = coordinator::CheckExposure(
          "--http", f.http, f.auth == "required", f.insecure);
      !s.ok()) {
    return base::Fail(kExploreCmd, s.message(), 2);
  }
  auto db = engine::Engine::Open(f.db);
  if (!db.ok()) return base::Fail(kExploreCmd, db.status().message());
  const engine::TokenRegistry* tokens =
      f.auth == "required" ? (*db)->tokens().get() : nullptr;
  web::ExplorerOptions o;
  o.http.listen = f.http;
  o.http.threads = f.threads;
  o.http.tls_cert = f.tls_cert;
  o.http.tls_key = f.tls_key;
  o.grpc_protected = tokens != nullptr;
  auto explorer = web::Explorer::Start(o, &(*db)->queries(), tokens);
  if (!explorer.ok()) {
    return base::Fail(kExploreCmd, explorer.status().message(),
                      absl::IsInvalidArgument(explorer.status()) ? 2 : 1);
  }
  std::printf("qipu explore: %s/ (database %s%s)\n", (*explorer)->url().c_str(),
              f.db.c_str(), tokens != nullptr ? ", tokens required" : "");
  std::fflush(stdout);
  int sig = 0;
  while ((sig = signals.Wait(absl::Seconds(1))) == 0) {
  }
  spdlog::info("explore: signal {}, stopping", sig);
  (*explorer)->Stop();
  return 0;
}

}  // namespace

void AddExploreCommand(CLI::App& app, int* exit_code) {
  auto f = std::make_shared<ExploreFlags>();
  CLI::App* cmd = app.add_subcommand(
      "explore",
      "The web explorer (openings board, ko and cycle charts, game viewer, "
      "HTTP JSON API) over a database opened here");
  cmd->add_option("--db", f->db,
                  "Database directory (not one a running coordinator holds)")
      ->required();
  cmd->add_option("--http", f->http,
                  "HOST:PORT to serve on (port 0 picks a free port, "
                  "printed); plain HTTP unless --http-tls-cert is given")
      ->capture_default_str();
  // Checked by the server (a missing, unreadable or mismatched file is
  // status 2, the flag named).
  cmd->add_option("--http-tls-cert", f->tls_cert,
                  "HTTPS: the server's certificate chain (PEM); with "
                  "--http-tls-key, and then HTTPS only");
  cmd->add_option("--http-tls-key", f->tls_key,
                  "HTTPS: the server's private key (PEM)");
  cmd->add_option("--auth", f->auth,
                  "required: the API wants a reader or operator token of "
                  "the database (Authorization: Bearer); off: none")
      ->check(CLI::IsMember({"required", "off"}))
      ->capture_default_str();
  cmd->add_flag("--insecure", f->insecure,
                "Serve a non-loopback --http with --auth off (anyone who "
                "reaches the port reads the database)");
  cmd->add_option("--threads", f->threads, "Requests answered at once")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->callback([f, exit_code] { *exit_code = RunExplore(*f); });
}

}  // namespace qipu::ops
