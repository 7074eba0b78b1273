// Api: the explorer's HTTP answers -- the JSON API under /api/v1/ that
// mirrors the gRPC queries, and the pages embedded in the binary
// (web/assets/, assets.h) -- as a function of one request, so that it is
// tested without sockets and served by HttpServer (http_server.h).
//
// Endpoints (GET; HEAD too): /api/v1/openings, /ko, /cycles, /results and
// /pattern take the query arguments of backend/query_args.h as query
// parameters and answer exactly the JSON of `qipu query ... --json`
// (report/query_report.h); /api/v1/game/ID is `qipu query game ID --json`,
// /api/v1/game/ID.sgf (or ?sgf=1) the SGF, /api/v1/game/ID/replay the
// move-by-move replay (game_replay.h); /api/v1/tournaments and
// /api/v1/tournaments/ID the database's tournaments, read-only (summary,
// standings, crosstable as `qipu tournament ... --json` prints them);
// /api/v1/health is open and says {"status": "ok"}. Errors are {"error":
// "..."}: 400 for the caller's mistakes (naming the parameter), 401/403
// for tokens, 404 for an unknown path or game, 405 for another method, 5xx
// only for the server's own failures (storage).
//
// The endpoint table is Routes() in api.cc: one row per query endpoint.
//
// Thread-safe: Handle() is const and the engine is thread-safe.
#ifndef QIPU_WEB_API_H_
#define QIPU_WEB_API_H_

#include <string>

#include "absl/status/status.h"
#include "engine/queries.h"
#include "engine/tokens.h"
#include "web/http_server.h"

namespace qipu::web {

// The HTTP status of an error status of the query engine or the argument
// parser: InvalidArgument/FailedPrecondition/OutOfRange 400,
// Unauthenticated 401, PermissionDenied 403, NotFound 404,
// ResourceExhausted 429, Unimplemented 501, Unavailable 503, others 500.
int HttpStatusOf(const absl::Status& s);
// {"error": message} with HttpStatusOf(s).
HttpResponse ErrorResponse(const absl::Status& s);

class Api {
 public:
  // Neither is owned; both must outlive the Api. `tokens` null: no token
  // is checked (--auth off); otherwise every /api/v1/ call but health
  // needs "Authorization: Bearer <token>" of a reader or operator token
  // (coordinator/access.h), like the gRPC queries.
  Api(const engine::QueryEngine* engine, const engine::TokenRegistry* tokens)
      : engine_(engine), tokens_(tokens) {}

  // The answer to `req`. Never throws.
  HttpResponse Handle(const HttpRequest& req) const;

 private:
  // OK, or Unauthenticated / PermissionDenied for the request's token.
  absl::Status Authorize(const HttpRequest& req) const;
  HttpResponse Query(const HttpRequest& req) const;
  HttpResponse Game(const HttpRequest& req, const std::string& rest) const;

  const engine::QueryEngine* const engine_;
  const engine::TokenRegistry* const tokens_;
};

}  // namespace qipu::web

#endif  // QIPU_WEB_API_H_
