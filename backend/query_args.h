// Query arguments: the one mapping from the names of the query filters and
// options -- `qipu query`'s flags without their "--", the HTTP API's query
// parameters (web/api.h) -- to the fields of the requests of
// qipu/v1/query.proto. Both front ends build their requests here, so a
// name, its syntax and its checks cannot drift between them.
//
// Arguments arrive as text, name -> value, in the order given. Every
// error is InvalidArgument and starts with the argument's name as the
// front end spells it: the `prefix` ("--" for flags, "" for query
// parameters) followed by the name ("--size: 'x' is not N or WxH",
// "moves: move 2 'Z99': ..."). Errors of the query engine name request
// fields ("filter.komi: ...", "to_play: ..."); NameArgsInStatus() renames
// them the same way.
//
// Pure functions; thread-safe.
#ifndef QIPU_BACKEND_QUERY_ARGS_H_
#define QIPU_BACKEND_QUERY_ARGS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "qipu/v1/query.pb.h"

namespace qipu::backend {

// The queries built from arguments (bits: an argument may serve several).
enum class QueryKind : uint32_t {
  kOpenings = 1,
  kKo = 2,
  kCycles = 4,
  kResults = 8,
  kGame = 16,
  kPattern = 32,
  kGames = 64,
  kPlayers = 128,
};

// One argument a query takes.
struct QueryArgSpec {
  // The flag without "--", the HTTP parameter ("to-play").
  const char* name;
  // Help text of the flag (and the API documentation).
  const char* help;
  // The QueryKind bits of the queries that take it.
  uint32_t kinds;
};

// Every argument, filters first. Static; never empty.
const std::vector<QueryArgSpec>& QueryArgSpecs();
// The arguments `kind` takes, in QueryArgSpecs() order.
std::vector<QueryArgSpec> QueryArgSpecsOf(QueryKind kind);

// Arguments as given: (name, value) in order.
using QueryArgs = std::vector<std::pair<std::string, std::string>>;

// The most continuations (openings `limit`) or matches a page may ask for.
inline constexpr uint32_t kMaxQueryLimit = 1000;

// OK when every argument is one `kind` takes and none is given twice;
// otherwise InvalidArgument naming it and listing the accepted names.
absl::Status CheckQueryArgs(QueryKind kind, const QueryArgs& args,
                            absl::string_view prefix);

// The filter of size (N or WxH), rules, komi, handicap, source, job (the
// source job:N; not with source), policy, from, to (YYYYMMDD), and the
// player index's: player, as (black/white, with player), opponent, event,
// result (B+, W+, draw, void), rank-min, rank-max. Arguments
// of other names are ignored here (CheckQueryArgs() refuses them).
absl::StatusOr<qipu::v1::Filter> FilterFromArgs(const QueryArgs& args,
                                                absl::string_view prefix);

// The filter plus moves and setup (separated by spaces, commas or
// semicolons), to-play (B, W, black, white), examples (1..10) and limit
// (0..kMaxQueryLimit, 0 = all).
absl::StatusOr<qipu::v1::OpeningsRequest> OpeningsFromArgs(
    const QueryArgs& args, absl::string_view prefix);
absl::StatusOr<qipu::v1::KoRequest> KoFromArgs(const QueryArgs& args,
                                               absl::string_view prefix);
// The filter plus examples (1..10).
absl::StatusOr<qipu::v1::CyclesRequest> CyclesFromArgs(
    const QueryArgs& args, absl::string_view prefix);
absl::StatusOr<qipu::v1::ResultsRequest> ResultsFromArgs(
    const QueryArgs& args, absl::string_view prefix);
// The id argument (the CLI's positional, the API's path segment).
absl::StatusOr<qipu::v1::GetGameRequest> GameFromArgs(const QueryArgs& args,
                                                      absl::string_view prefix);

// The filter plus page-size (0..1000), page-token and newest (0/1).
absl::StatusOr<qipu::v1::GamesRequest> GamesFromArgs(const QueryArgs& args,
                                                     absl::string_view prefix);
// prefix and limit (0..1000).
absl::StatusOr<qipu::v1::PlayersRequest> PlayersFromArgs(
    const QueryArgs& args, absl::string_view prefix);

// The pattern query's own arguments, checked (the request message is
// built by the pattern search's code from this and the filter).
struct PatternArgs {
  qipu::v1::Filter filter;
  // Rows top to bottom, each of the same length, cells X O . * x o.
  std::vector<std::string> rows;
  // fixed, corner, side or anywhere.
  std::string placement = "fixed";
  // GTP vertex of the pattern's top-left cell (fixed placement), or empty.
  std::string anchor;
  bool colour_swap = false;
  // 0: the search's default.
  uint32_t page_size = 0;
  std::string page_token;
};
// pattern (rows joined by '/'), placement, anchor, colour-swap (0/1,
// true/false), page-size (0..kMaxQueryLimit), page-token, and the filter.
absl::StatusOr<PatternArgs> PatternArgsFromArgs(const QueryArgs& args,
                                                absl::string_view prefix);
// The PatternRequest of PatternArgsFromArgs(): rows joined by '/', the
// placement as PatternPlacement, the rest as they are.
absl::StatusOr<qipu::v1::PatternRequest> PatternFromArgs(
    const QueryArgs& args, absl::string_view prefix);

// `s` with a leading request-field name of the query engine's messages
// ("filter.size", "filter.komi", "filter.date", "to_play", "moves", ...)
// replaced by the argument's name with `prefix`; other statuses as they
// are.
absl::Status NameArgsInStatus(const absl::Status& s, absl::string_view prefix);

}  // namespace qipu::backend

#endif  // QIPU_BACKEND_QUERY_ARGS_H_
