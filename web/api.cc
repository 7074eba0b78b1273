#include "web/api.h"

#include <functional>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "backend/query_args.h"
#include "base/bearer.h"
#include "base/quote.h"
#include "base/version.h"
#include "coordinator/access.h"
#include "engine/tournaments.h"
#include "nlohmann/json.hpp"
#include "report/pattern_report.h"
#include "report/query_report.h"
#include "report/tournament_report.h"
#include "spdlog/spdlog.h"
#include "tournament/tournament.h"
#include "web/assets.h"
#include "web/game_replay.h"

namespace qipu::web {
namespace {

using engine::QueryEngine;

constexpr char kApiPrefix[] = "/api/v1/";
constexpr char kGamePrefix[] = "/api/v1/game/";
constexpr char kTournaments[] = "/api/v1/tournaments";

// Runs one query endpoint: its arguments to the engine's answer as JSON.
using QueryRun = std::function<absl::StatusOr<nlohmann::json>(
    const QueryEngine&, const backend::QueryArgs&)>;

// One query endpoint.
struct ApiRoute {
  const char* path;
  // Which arguments it takes (backend/query_args.h).
  backend::QueryKind kind;
  QueryRun run;
};

// An endpoint that builds its request from the arguments (`build`, with
// the parameters named without a prefix), asks the engine (`query`) and
// renders the answer as `qipu query --json` does (`render`).
template <typename Req, typename Resp>
QueryRun Answer(absl::StatusOr<Req> (*build)(const backend::QueryArgs&,
                                             absl::string_view),
                absl::StatusOr<Resp> (QueryEngine::*query)(const Req&) const,
                nlohmann::json (*render)(const Resp&)) {
  return [build, query, render](
             const QueryEngine& engine,
             const backend::QueryArgs& args) -> absl::StatusOr<nlohmann::json> {
    absl::StatusOr<Req> req = build(args, "");
    if (!req.ok()) return req.status();
    absl::StatusOr<Resp> resp = (engine.*query)(*req);
    if (!resp.ok()) return backend::NameArgsInStatus(resp.status(), "");
    return render(*resp);
  };
}

// The query endpoints: one row each.
const std::vector<ApiRoute>& Routes() {
  static const auto* const routes = new std::vector<ApiRoute>{
      {"/api/v1/openings", backend::QueryKind::kOpenings,
       Answer(backend::OpeningsFromArgs, &QueryEngine::Openings,
              report::OpeningsJson)},
      {"/api/v1/ko", backend::QueryKind::kKo,
       Answer(backend::KoFromArgs, &QueryEngine::Ko, report::KoJson)},
      {"/api/v1/cycles", backend::QueryKind::kCycles,
       Answer(backend::CyclesFromArgs, &QueryEngine::Cycles,
              report::CyclesJson)},
      {"/api/v1/results", backend::QueryKind::kResults,
       Answer(backend::ResultsFromArgs, &QueryEngine::Results,
              report::ResultsJson)},
      {"/api/v1/pattern", backend::QueryKind::kPattern,
       Answer(backend::PatternFromArgs, &QueryEngine::Pattern,
              report::PatternJson)},
      {"/api/v1/games", backend::QueryKind::kGames,
       Answer(backend::GamesFromArgs, &QueryEngine::Games, report::GamesJson)},
      {"/api/v1/players", backend::QueryKind::kPlayers,
       Answer(backend::PlayersFromArgs, &QueryEngine::Players,
              report::PlayersJson)},
  };
  return *routes;
}

HttpResponse JsonResponse(int status, const nlohmann::json& j) {
  HttpResponse r;
  r.status = status;
  r.body = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return r;
}

HttpResponse NotFound(const std::string& path) {
  return JsonResponse(404, {{"error", absl::StrCat("no such path: ", path)}});
}

// The tournaments of the database, read-only (the explorer's tournament
// page): /api/v1/tournaments lists them ({"tournaments": [{"tournament",
// "name", "system", "players", "rounds", "rounds_paired"}]});
// /api/v1/tournaments/ID is one: {"tournament": the summary of `qipu
// tournament show --json`, "finished", "standings" and "crosstable" as
// `qipu tournament standings|crosstable --json` print them (null, with
// "standings_error", when the event cannot rank yet)}. No parameters.
HttpResponse TournamentAnswer(const QueryEngine& engine,
                              const HttpRequest& req) {
  if (!req.query.empty()) {
    return ErrorResponse(absl::InvalidArgumentError(
        absl::StrCat(req.query.begin()->first,
                     ": unknown; tournaments take no parameters")));
  }
  engine::Tournaments tournaments(engine.store());
  const std::string rest = req.path.substr(sizeof(kTournaments) - 1);
  if (rest.empty() || rest == "/") {
    auto all = tournaments.All();
    if (!all.ok()) return ErrorResponse(all.status());
    nlohmann::json list = nlohmann::json::array();
    for (const qipu::v1::Tournament& t : *all) {
      int players = 0;
      for (const auto& p : t.players()) players += p.removed() ? 0 : 1;
      list.push_back({{"tournament", t.id()},
                      {"name", t.name()},
                      {"system", tournament::SystemName(t.system())},
                      {"players", players},
                      {"rounds", t.rounds()},
                      {"rounds_paired", t.round_size()}});
    }
    return JsonResponse(200, {{"tournaments", std::move(list)}});
  }
  const std::string id = rest.substr(1);
  if (rest[0] != '/' || id.find('/') != std::string::npos) {
    return NotFound(req.path);
  }
  auto t = tournaments.Get(id);
  if (!t.ok()) return ErrorResponse(t.status());
  nlohmann::json j = {{"tournament", report::TournamentSummaryJson(*t)}};
  auto finished = tournament::IsFinished(*t);
  j["finished"] = finished.ok() && *finished;
  auto standings = tournament::GetStandings(*t);
  auto cross = tournament::GetCrosstable(*t);
  if (standings.ok() && cross.ok()) {
    j["standings"] = report::StandingsJson(*t, *standings);
    j["crosstable"] = report::CrosstableJson(*cross);
  } else {
    j["standings"] = nullptr;
    j["crosstable"] = nullptr;
    j["standings_error"] =
        (standings.ok() ? cross.status() : standings.status()).message();
  }
  return JsonResponse(200, j);
}

}  // namespace

int HttpStatusOf(const absl::Status& s) {
  switch (s.code()) {
    case absl::StatusCode::kOk:
      return 200;
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kOutOfRange:
      return 400;
    case absl::StatusCode::kUnauthenticated:
      return 401;
    case absl::StatusCode::kPermissionDenied:
      return 403;
    case absl::StatusCode::kNotFound:
      return 404;
    case absl::StatusCode::kResourceExhausted:
      return 429;
    case absl::StatusCode::kUnimplemented:
      return 501;
    case absl::StatusCode::kUnavailable:
      return 503;
    default:
      return 500;
  }
}

HttpResponse ErrorResponse(const absl::Status& s) {
  HttpResponse r =
      JsonResponse(HttpStatusOf(s), {{"error", std::string(s.message())}});
  if (r.status == 401) r.headers.emplace_back("WWW-Authenticate", "Bearer");
  return r;
}

absl::Status Api::Authorize(const HttpRequest& req) const {
  if (tokens_ == nullptr) return absl::OkStatus();
  // base::ParseBearer() reads the header as the gRPC port reads its
  // metadata; beyond the first, only the number of headers matters.
  const int count = req.authorization_count >= 0
                        ? req.authorization_count
                        : (req.authorization.empty() ? 0 : 1);
  const std::vector<absl::string_view> values(count, req.authorization);
  const absl::StatusOr<absl::string_view> token = base::ParseBearer(values);
  if (!token.ok()) {
    if (count == 0) {
      return absl::UnauthenticatedError(
          "this server requires a token: Authorization: Bearer <token> (a "
          "reader or operator token, `qipu token create --role reader`)");
    }
    return token.status();
  }
  const auto grant = tokens_->Find(*token);
  if (!grant.has_value()) {
    return absl::UnauthenticatedError("unknown token (not of this database)");
  }
  if (grant->revoked) {
    return absl::UnauthenticatedError(
        absl::StrCat("token ", grant->id, " was revoked"));
  }
  if (!coordinator::Allows(grant->role, coordinator::Access::kReader)) {
    return absl::PermissionDeniedError(
        absl::StrCat("a ", coordinator::RoleName(grant->role),
                     " token may not query (reader or operator needed)"));
  }
  return absl::OkStatus();
}

HttpResponse Api::Handle(const HttpRequest& req) const {
  if (req.method != "GET" && req.method != "HEAD") {
    HttpResponse r = JsonResponse(
        405, {{"error", absl::StrCat(req.method, ": only GET and HEAD")}});
    r.headers.emplace_back("Allow", "GET, HEAD");
    return r;
  }
  const std::string& path = req.path;
  if (!absl::StartsWith(path, kApiPrefix)) {
    const std::string want = path == "/" ? "/openings.html" : path;
    for (const Asset& a : Assets()) {
      if (want == a.path) {
        HttpResponse r;
        r.content_type = a.content_type;
        r.body.assign(reinterpret_cast<const char*>(a.data), a.size);
        return r;
      }
    }
    return NotFound(path);
  }
  if (path == "/api/v1/health") {
    return JsonResponse(200, {{"status", "ok"},
                              {"version", base::Version()},
                              {"auth", tokens_ != nullptr}});
  }
  if (absl::Status s = Authorize(req); !s.ok()) return ErrorResponse(s);
  if (absl::StartsWith(path, kGamePrefix)) {
    return Game(req, path.substr(sizeof(kGamePrefix) - 1));
  }
  if (absl::StartsWith(path, kTournaments) &&
      (path.size() == sizeof(kTournaments) - 1 ||
       path[sizeof(kTournaments) - 1] == '/')) {
    return TournamentAnswer(*engine_, req);
  }
  return Query(req);
}

HttpResponse Api::Query(const HttpRequest& req) const {
  for (const ApiRoute& route : Routes()) {
    if (req.path != route.path) continue;
    if (absl::Status s = backend::CheckQueryArgs(route.kind, req.query, "");
        !s.ok()) {
      return ErrorResponse(s);
    }
    absl::StatusOr<nlohmann::json> j = route.run(*engine_, req.query);
    if (!j.ok()) {
      if (HttpStatusOf(j.status()) >= 500 &&
          !absl::IsUnimplemented(j.status())) {
        spdlog::warn("http: {}: {}", req.path, j.status().ToString());
      }
      return ErrorResponse(j.status());
    }
    return JsonResponse(200, *j);
  }
  return NotFound(req.path);
}

HttpResponse Api::Game(const HttpRequest& req, const std::string& rest) const {
  // ID, ID.sgf or ID/replay.
  std::string id = rest;
  bool sgf = false;
  bool replay = false;
  if (absl::EndsWith(id, "/replay")) {
    replay = true;
    id.resize(id.size() - 7);
  } else if (absl::EndsWith(id, ".sgf")) {
    sgf = true;
    id.resize(id.size() - 4);
  }
  if (id.empty() || id.find('/') != std::string::npos) {
    return NotFound(req.path);
  }
  for (const auto& [name, value] : req.query) {
    if (name == "sgf" && !replay) {
      if (value == "1" || value == "true" || value.empty()) {
        sgf = true;
      } else if (value != "0" && value != "false") {
        return ErrorResponse(absl::InvalidArgumentError(
            absl::StrCat("sgf: ", base::QuoteInput(value), " is not 0 or 1")));
      }
    } else {
      return ErrorResponse(absl::InvalidArgumentError(
          absl::StrCat(name, ": unknown; a game takes ",
                       replay ? "no parameters" : "only sgf (0 or 1)")));
    }
  }
  auto request = backend::GameFromArgs({{"id", id}}, "");
  if (!request.ok()) return ErrorResponse(request.status());
  auto resp = engine_->GetGame(*request);
  if (!resp.ok()) {
    return ErrorResponse(backend::NameArgsInStatus(resp.status(), ""));
  }
  if (sgf) {
    HttpResponse r;
    r.content_type = "application/x-go-sgf; charset=utf-8";
    r.body = resp->sgf();
    std::string file = id;
    for (char& c : file) {
      if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '-') {
        c = '_';
      }
    }
    r.headers.emplace_back(
        "Content-Disposition",
        absl::StrCat("attachment; filename=\"qipu-", file, ".sgf\""));
    return r;
  }
  if (replay) {
    auto j = GameReplayJson(resp->game(), resp->id());
    if (!j.ok()) {
      spdlog::warn("http: replay of {}: {}", id, j.status().ToString());
      return ErrorResponse(absl::DataLossError(absl::StrCat(
          "game ", id, " does not replay: ", j.status().message())));
    }
    return JsonResponse(200, *j);
  }
  auto j = report::GameJson(*resp);
  if (!j.ok()) return ErrorResponse(j.status());
  j->erase("sgf");
  return JsonResponse(200, *j);
}

}  // namespace qipu::web
