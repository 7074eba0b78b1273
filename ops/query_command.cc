// `qipu query openings|ko|cycles|results|game`: the statistical queries of
// the game database, against a running coordinator (--server HOST:PORT,
// over gRPC) or a database directory opened here (--db DIR; it must not be
// held by a running coordinator). Every query takes the filters --size,
// --rules, --komi, --handicap, --source, --policy, --from and --to, and
// prints a table, or one JSON object with --json (ops/query_output.h).
//
//   qipu query openings --server localhost:7070 --size 9 --moves "E5 C3"
//   qipu query ko --db /var/lib/qipu --rules tromp-taylor --json
//   qipu query game s3-17 --server localhost:7070 --sgf
//
// Exit status: 0 answered, 1 the query failed, 2 bad flags, filters or
// moves.
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "coordinator/queries.h"
#include "ops/cli_util.h"
#include "ops/commands.h"
#include "ops/query_output.h"
#include "qipu/v1/query.grpc.pb.h"
#include "store/configs.h"
#include "store/store.h"

namespace qipu::ops {
namespace {

// Flags shared by every query subcommand.
struct QueryFlags {
  std::string server;
  std::string db;
  // Per-RPC deadline, seconds.
  double timeout = 10;
  // "N" or "WxH"; empty = any.
  std::string size;
  std::string rules;
  std::optional<double> komi;
  std::optional<uint32_t> handicap;
  std::string source;
  std::string policy;
  uint32_t from = 0;
  uint32_t to = 0;
  bool json = false;
  uint32_t examples = coordinator::kDefaultQueryExamples;
  // openings
  std::string moves;
  uint32_t limit = 0;
  // game
  std::string id;
  bool sgf = false;
};

absl::Status FromGrpc(const grpc::Status& s) {
  if (s.ok()) return absl::OkStatus();
  return absl::Status(static_cast<absl::StatusCode>(s.error_code()),
                      s.error_message());
}

// Where the queries go: a coordinator over gRPC, or an engine on a
// database opened by this process.
class Backend {
 public:
  static absl::StatusOr<std::unique_ptr<Backend>> Open(const QueryFlags& f) {
    if (f.server.empty() == f.db.empty()) {
      return absl::InvalidArgumentError(
          "give exactly one of --server HOST:PORT and --db DIR");
    }
    std::unique_ptr<Backend> b(new Backend());
    b->timeout_ = f.timeout;
    if (!f.server.empty()) {
      b->stub_ = qipu::v1::QueryService::NewStub(Dial(f.server));
      return b;
    }
    store::StoreOptions o;
    o.create_if_missing = false;
    auto st = store::Store::Open(f.db, o);
    if (!st.ok()) {
      if (absl::IsUnavailable(st.status())) {
        return absl::UnavailableError(absl::StrCat(
            st.status().message(),
            " (is a coordinator running on it? query it with --server)"));
      }
      return st.status();
    }
    b->store_ = *std::move(st);
    b->configs_ = std::make_unique<store::ConfigRegistry>(b->store_.get());
    if (absl::Status s = b->configs_->Load(); !s.ok()) return s;
    b->engine_ = std::make_unique<coordinator::QueryEngine>(b->store_.get(),
                                                            b->configs_.get());
    return b;
  }

  // Runs one query: `rpc` on the stub, or `local` on the engine.
  template <typename Req, typename Resp>
  absl::StatusOr<Resp> Call(
      grpc::Status (qipu::v1::QueryService::Stub::*rpc)(grpc::ClientContext*,
                                                        const Req&, Resp*),
      absl::StatusOr<Resp> (coordinator::QueryEngine::*local)(const Req&) const,
      const Req& req) {
    if (engine_ != nullptr) return ((*engine_).*local)(req);
    grpc::ClientContext ctx;
    SetDeadline(&ctx, timeout_);
    Resp resp;
    if (absl::Status s = FromGrpc(((*stub_).*rpc)(&ctx, req, &resp)); !s.ok()) {
      return s;
    }
    return resp;
  }

 private:
  Backend() = default;

  double timeout_ = 10;
  std::unique_ptr<qipu::v1::QueryService::Stub> stub_;
  // Local mode (destroyed in reverse order: engine, registry, store).
  std::unique_ptr<store::Store> store_;
  std::unique_ptr<store::ConfigRegistry> configs_;
  std::unique_ptr<coordinator::QueryEngine> engine_;
};

// The proto filter of the flags; InvalidArgument names the bad flag (the
// engine checks the rest).
absl::StatusOr<qipu::v1::Filter> FilterOf(const QueryFlags& f) {
  qipu::v1::Filter out;
  if (!f.size.empty()) {
    std::vector<std::string> wh = absl::StrSplit(f.size, absl::ByAnyChar("x:"));
    uint32_t w = 0;
    uint32_t h = 0;
    if (wh.size() > 2 || !absl::SimpleAtoi(wh[0], &w) ||
        !absl::SimpleAtoi(wh.back(), &h)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--size: '", f.size, "' is not N or WxH"));
    }
    out.set_width(w);
    out.set_height(h);
  }
  out.set_rules(f.rules);
  if (f.komi) {
    out.set_has_komi(true);
    out.set_komi(*f.komi);
  }
  if (f.handicap) {
    out.set_has_handicap(true);
    out.set_handicap(*f.handicap);
  }
  out.set_source(f.source);
  out.set_policy(f.policy);
  out.set_date_from(f.from);
  out.set_date_to(f.to);
  return out;
}

// Prints a failed query as "qipu query <cmd>: <why>"; returns the exit
// status (2 for the caller's mistakes).
int Fail(const char* cmd, const absl::Status& s) {
  std::fprintf(stderr, "qipu query %s: %s\n", cmd,
               std::string(s.message()).c_str());
  return absl::IsInvalidArgument(s) ? 2 : 1;
}

void PrintJson(const nlohmann::json& j) {
  std::printf("%s\n", j.dump().c_str());
}

int RunQuery(const std::string& cmd, const QueryFlags& f) {
  const char* name = cmd.c_str();
  auto filter = FilterOf(f);
  if (!filter.ok()) return Fail(name, filter.status());
  auto backend = Backend::Open(f);
  if (!backend.ok()) return Fail(name, backend.status());
  Backend& b = **backend;
  using Stub = qipu::v1::QueryService::Stub;
  using Engine = coordinator::QueryEngine;
  if (cmd == "openings") {
    qipu::v1::OpeningsRequest req;
    *req.mutable_filter() = *filter;
    std::vector<std::string> moves =
        absl::StrSplit(f.moves, absl::ByAnyChar(" ,;"), absl::SkipEmpty());
    for (const std::string& m : moves) req.add_moves(m);
    req.set_examples(f.examples);
    req.set_limit(f.limit);
    auto r = b.Call(&Stub::Openings, &Engine::Openings, req);
    if (!r.ok()) return Fail(name, r.status());
    if (f.json) {
      PrintJson(OpeningsJson(*r));
    } else {
      const int w = filter->width() ? static_cast<int>(filter->width())
                                    : coordinator::kDefaultOpeningsSize;
      const int h = filter->height() ? static_cast<int>(filter->height())
                                     : coordinator::kDefaultOpeningsSize;
      PrintOpenings(*r, moves, w, h);
    }
  } else if (cmd == "ko") {
    qipu::v1::KoRequest req;
    *req.mutable_filter() = *filter;
    auto r = b.Call(&Stub::Ko, &Engine::Ko, req);
    if (!r.ok()) return Fail(name, r.status());
    f.json ? PrintJson(KoJson(*r)) : PrintKo(*r);
  } else if (cmd == "cycles") {
    qipu::v1::CyclesRequest req;
    *req.mutable_filter() = *filter;
    req.set_examples(f.examples);
    auto r = b.Call(&Stub::Cycles, &Engine::Cycles, req);
    if (!r.ok()) return Fail(name, r.status());
    f.json ? PrintJson(CyclesJson(*r)) : PrintCycles(*r);
  } else if (cmd == "results") {
    qipu::v1::ResultsRequest req;
    *req.mutable_filter() = *filter;
    auto r = b.Call(&Stub::Results, &Engine::Results, req);
    if (!r.ok()) return Fail(name, r.status());
    f.json ? PrintJson(ResultsJson(*r)) : PrintResults(*r);
  } else {
    qipu::v1::GetGameRequest req;
    req.set_id(f.id);
    auto r = b.Call(&Stub::GetGame, &Engine::GetGame, req);
    if (!r.ok()) return Fail(name, r.status());
    if (f.json) {
      nlohmann::json j = GameJson(*r);
      if (!f.sgf) j.erase("sgf");
      PrintJson(j);
    } else if (f.sgf) {
      std::printf("%s", r->sgf().c_str());
      if (!r->sgf().empty() && r->sgf().back() != '\n') std::printf("\n");
    } else {
      PrintGame(*r);
    }
  }
  return 0;
}

// Registers the flags every query takes (filters only where they apply).
void AddCommonFlags(CLI::App* cmd, QueryFlags* f, bool filters) {
  cmd->add_option("--server", f->server,
                  "Coordinator address HOST:PORT (gRPC)");
  cmd->add_option("--db", f->db,
                  "Database directory to open here (not one a running "
                  "coordinator holds)");
  cmd->add_option("--timeout", f->timeout, "Deadline per query, seconds")
      ->check(CLI::Range(0.01, 3600.0))
      ->capture_default_str();
  cmd->add_flag("--json", f->json, "Print one JSON object");
  if (!filters) return;
  cmd->add_option("--size", f->size, "Board size N or WxH");
  cmd->add_option(
      "--rules", f->rules,
      "Rules: a preset (chinese, chinese-superko, tromp-taylor, "
      "aga, new-zealand) or axes like \"ko=positional cycle=draw\"");
  cmd->add_option("--komi", f->komi, "Komi");
  cmd->add_option("--handicap", f->handicap,
                  "Handicap stones (0 = even games)");
  cmd->add_option(
      "--source", f->source,
      "Source: job:<id> for a self-play job, or an import source name");
  cmd->add_option("--policy", f->policy,
                  "Playout policy (random), or import for imported games");
  cmd->add_option("--from", f->from, "First day, YYYYMMDD");
  cmd->add_option("--to", f->to, "Last day, YYYYMMDD");
}

}  // namespace

void AddQueryCommand(CLI::App& app, int* exit_code) {
  CLI::App* query = app.add_subcommand(
      "query",
      "Statistics of the game database (openings, ko, cycles, results) "
      "and single games");
  query->require_subcommand(1);
  auto f = std::make_shared<QueryFlags>();

  CLI::App* openings = query->add_subcommand(
      "openings",
      "The position after --moves, the games that reached it (symmetries "
      "folded) and every continuation");
  AddCommonFlags(openings, f.get(), true);
  openings->add_option("--moves", f->moves,
                       "Moves from the start, GTP vertices (\"Q16 D4 pass\")");
  openings
      ->add_option("--examples", f->examples,
                   "Example game ids per move (1..10)")
      ->check(CLI::Range(1, 10))
      ->capture_default_str();
  openings->add_option("--limit", f->limit, "Most continuations (0 = all)");
  openings->callback([f, exit_code] { *exit_code = RunQuery("openings", *f); });

  CLI::App* ko = query->add_subcommand(
      "ko",
      "Ko captures per game: mean, percentiles, histogram, by size, "
      "rules and game length");
  AddCommonFlags(ko, f.get(), true);
  ko->callback([f, exit_code] { *exit_code = RunQuery("ko", *f); });

  CLI::App* cycles = query->add_subcommand(
      "cycles",
      "Cycles (triple ko, eternal life, ...) by class and how they "
      "ended, per 10,000 games, with example games");
  AddCommonFlags(cycles, f.get(), true);
  cycles
      ->add_option("--examples", f->examples,
                   "Example game ids per row (1..10)")
      ->check(CLI::Range(1, 10))
      ->capture_default_str();
  cycles->callback([f, exit_code] { *exit_code = RunQuery("cycles", *f); });

  CLI::App* results = query->add_subcommand(
      "results", "Wins by colour, draws, void, end reasons, margins, lengths");
  AddCommonFlags(results, f.get(), true);
  results->callback([f, exit_code] { *exit_code = RunQuery("results", *f); });

  CLI::App* game = query->add_subcommand("game", "One stored game");
  AddCommonFlags(game, f.get(), false);
  game->add_option("id", f->id, "Game id (s<job>-<index> or i<32 hex>)")
      ->required();
  game->add_flag("--sgf", f->sgf, "Print the game as SGF");
  game->callback([f, exit_code] { *exit_code = RunQuery("game", *f); });
}

}  // namespace qipu::ops
