#include "backend/query_args.h"

#include <algorithm>
#include <string_view>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/quote.h"

namespace qipu::backend {
namespace {

constexpr uint32_t Bits(QueryKind k) { return static_cast<uint32_t>(k); }
constexpr uint32_t kFiltered =
    Bits(QueryKind::kOpenings) | Bits(QueryKind::kKo) |
    Bits(QueryKind::kCycles) | Bits(QueryKind::kResults) |
    Bits(QueryKind::kPattern) | Bits(QueryKind::kGames);

// Looks up arguments by name; remembers the prefix for messages.
class ArgReader {
 public:
  ArgReader(const QueryArgs& args, absl::string_view prefix)
      : args_(args), prefix_(prefix) {}

  // The value of `name`, or nullptr when it was not given.
  const std::string* Find(absl::string_view name) const {
    for (const auto& [n, v] : args_) {
      if (n == name) return &v;
    }
    return nullptr;
  }
  // "--name: why" / "name: why".
  absl::Status Bad(absl::string_view name, absl::string_view why) const {
    return absl::InvalidArgumentError(absl::StrCat(prefix_, name, ": ", why));
  }
  // An unsigned integer in [lo, hi]; `fallback` when not given.
  absl::StatusOr<uint32_t> Uint(absl::string_view name, uint32_t lo,
                                uint32_t hi, uint32_t fallback) const {
    const std::string* v = Find(name);
    if (v == nullptr) return fallback;
    uint64_t n = 0;
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(*v), &n) || n < lo ||
        n > hi) {
      return Bad(
          name, absl::StrCat(base::QuoteInput(*v), " is not a whole number in ",
                             lo, "..", hi));
    }
    return static_cast<uint32_t>(n);
  }
  // A flag: 0/1/true/false (empty: true, as a bare "?colour-swap").
  absl::StatusOr<bool> Bool(absl::string_view name) const {
    const std::string* v = Find(name);
    if (v == nullptr) return false;
    const std::string s = absl::AsciiStrToLower(*v);
    if (s.empty() || s == "1" || s == "true" || s == "yes") return true;
    if (s == "0" || s == "false" || s == "no") return false;
    return Bad(name, absl::StrCat(base::QuoteInput(*v), " is not 0 or 1"));
  }
  // Items separated by spaces, commas or semicolons.
  std::vector<std::string> List(absl::string_view name) const {
    std::vector<std::string> out;
    if (const std::string* v = Find(name)) {
      for (absl::string_view m :
           absl::StrSplit(*v, absl::ByAnyChar(" ,;\t"), absl::SkipEmpty())) {
        out.emplace_back(m);
      }
    }
    return out;
  }
  absl::string_view prefix() const { return prefix_; }

 private:
  const QueryArgs& args_;
  const absl::string_view prefix_;
};

// A day YYYYMMDD (0 when not given).
absl::StatusOr<uint32_t> Day(const ArgReader& r, absl::string_view name) {
  const std::string* v = r.Find(name);
  if (v == nullptr) return 0u;
  uint32_t d = 0;
  if (v->size() != 8 || !absl::SimpleAtoi(*v, &d)) {
    return r.Bad(name,
                 absl::StrCat(base::QuoteInput(*v), " is not a day YYYYMMDD"));
  }
  return d;
}

// examples: 1..10 (default 3, the engine's kDefaultQueryExamples).
absl::StatusOr<uint32_t> Examples(const ArgReader& r) {
  return r.Uint("examples", 1, 10, 3);
}

}  // namespace

const std::vector<QueryArgSpec>& QueryArgSpecs() {
  static const auto* const specs = new std::vector<QueryArgSpec>{
      {"size", "Board size N or WxH", kFiltered},
      {"rules",
       "Rules: a preset (chinese, chinese-superko, tromp-taylor, aga, "
       "new-zealand) or axes like \"ko=positional cycle=draw\"",
       kFiltered},
      {"komi", "Komi", kFiltered},
      {"handicap", "Handicap stones (0 = even games)", kFiltered},
      {"source",
       "Source: job:<id> for a self-play job, or an import source name",
       kFiltered},
      {"job", "Self-play job id (the source job:<id>)", kFiltered},
      {"policy",
       "Games where either colour played this policy (its spec, or a prefix "
       "at a token boundary: mcts, gtp:gnugo), or import for imported games",
       kFiltered},
      {"records",
       "Imported records by how they were kept: all (default), clean (whole "
       "and within their rules), noted (kept against their rules: a move "
       "they forbid played as recorded, or cut where they could not go on), "
       "cut",
       kFiltered},
      {"from", "First day, YYYYMMDD", kFiltered},
      {"to", "Last day, YYYYMMDD", kFiltered},
      {"player",
       "Games of this player (the name compared normalised: case, spacing, "
       "full-width forms, ranks and titles folded; and through the "
       "database's alias groups); self-play players are policy specs",
       kFiltered},
      {"as", "The colour --player played: black or white (default either)",
       kFiltered},
      {"opponent",
       "Games against this player (with --player: games between the two)",
       kFiltered},
      {"event", "Games whose event (SGF EV) contains this text", kFiltered},
      {"result", "The recorded winner: B+, W+, draw or void", kFiltered},
      {"rank-min",
       "Lowest rank of --player (of both players without it): 30k..1k, "
       "1d..9d, 1p..9p; games of unknown rank do not match",
       kFiltered},
      {"rank-max", "Highest rank, as --rank-min", kFiltered},
      {"moves",
       "Moves from the start, GTP vertices or pass, each optionally with its "
       "colour: \"Q16 D4 pass\" alternates from Black (White after handicap "
       "stones); \"B:Q16 B:D4 W:Q4\" gives each move's colour (a side may "
       "move twice, as in free-placement handicaps recorded as moves)",
       Bits(QueryKind::kOpenings)},
      {"setup",
       "Stones on the board before the moves, each with its colour "
       "(\"B:D4 B:Q16 W:Q4\"); replaces --handicap's fixed stones",
       Bits(QueryKind::kOpenings)},
      {"to-play",
       "Side to move at the position, whose continuations are listed: B or "
       "W (default: the opponent of the last move; with no moves, White "
       "after handicap stones, else Black)",
       Bits(QueryKind::kOpenings)},
      {"examples", "Example game ids per row (1..10, default 3)",
       Bits(QueryKind::kOpenings) | Bits(QueryKind::kCycles)},
      {"limit",
       "Most rows: continuations (0 = all) or players (0 = 20); at most 1000",
       Bits(QueryKind::kOpenings) | Bits(QueryKind::kPlayers)},
      {"prefix",
       "Players whose name (or an alias) starts with this, compared "
       "normalised (empty: all)",
       Bits(QueryKind::kPlayers)},
      {"newest", "Newest games first (0/1)", Bits(QueryKind::kGames)},
      {"id", "Game id (s<job>-<index> or i<32 hex>)", Bits(QueryKind::kGame)},
      {"pattern",
       "Pattern rows top to bottom joined by '/', cells X (black) O (white) "
       ". (empty) * (anything) x (black or empty) o (white or empty)",
       Bits(QueryKind::kPattern)},
      {"placement", "fixed (at --anchor), corner, side or anywhere",
       Bits(QueryKind::kPattern)},
      {"anchor", "GTP vertex of the pattern's top-left cell (fixed placement)",
       Bits(QueryKind::kPattern)},
      {"colour-swap", "Also match with the colours swapped (0/1)",
       Bits(QueryKind::kPattern)},
      {"page-size", "Matching games per page (at most 1000)",
       Bits(QueryKind::kPattern) | Bits(QueryKind::kGames)},
      {"page-token", "Where the next page starts (from next_page_token)",
       Bits(QueryKind::kPattern) | Bits(QueryKind::kGames)},
  };
  return *specs;
}

std::vector<QueryArgSpec> QueryArgSpecsOf(QueryKind kind) {
  std::vector<QueryArgSpec> out;
  for (const QueryArgSpec& s : QueryArgSpecs()) {
    if ((s.kinds & Bits(kind)) != 0) out.push_back(s);
  }
  return out;
}

absl::Status CheckQueryArgs(QueryKind kind, const QueryArgs& args,
                            absl::string_view prefix) {
  const std::vector<QueryArgSpec> specs = QueryArgSpecsOf(kind);
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& name = args[i].first;
    const bool known =
        std::any_of(specs.begin(), specs.end(),
                    [&](const QueryArgSpec& s) { return name == s.name; });
    if (!known) {
      std::vector<std::string> names;
      for (const QueryArgSpec& s : specs) {
        names.push_back(absl::StrCat(prefix, s.name));
      }
      return absl::InvalidArgumentError(
          absl::StrCat(prefix, name, ": unknown; this query takes ",
                       names.empty() ? "none" : absl::StrJoin(names, ", ")));
    }
    for (size_t j = 0; j < i; ++j) {
      if (args[j].first == name) {
        return absl::InvalidArgumentError(
            absl::StrCat(prefix, name, ": given twice"));
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<qipu::v1::Filter> FilterFromArgs(const QueryArgs& args,
                                                absl::string_view prefix) {
  const ArgReader r(args, prefix);
  qipu::v1::Filter out;
  if (const std::string* size = r.Find("size")) {
    std::vector<std::string> wh = absl::StrSplit(*size, absl::ByAnyChar("x:"));
    uint32_t w = 0;
    uint32_t h = 0;
    if (wh.size() > 2 || !absl::SimpleAtoi(wh[0], &w) ||
        !absl::SimpleAtoi(wh.back(), &h) || w > 1000 || h > 1000) {
      return r.Bad("size",
                   absl::StrCat(base::QuoteInput(*size), " is not N or WxH"));
    }
    if (w == 0 || h == 0) {
      return r.Bad("size", absl::StrCat(base::QuoteInput(*size),
                                        " is not a board size"));
    }
    out.set_width(w);
    out.set_height(h);
  }
  if (const std::string* rules = r.Find("rules")) out.set_rules(*rules);
  if (const std::string* komi = r.Find("komi")) {
    double k = 0;
    if (!absl::SimpleAtod(*komi, &k)) {
      return r.Bad("komi",
                   absl::StrCat(base::QuoteInput(*komi), " is not a number"));
    }
    out.set_has_komi(true);
    out.set_komi(k);
  }
  if (r.Find("handicap") != nullptr) {
    auto h = r.Uint("handicap", 0, 400, 0);
    if (!h.ok()) return h.status();
    out.set_has_handicap(true);
    out.set_handicap(*h);
  }
  const std::string* source = r.Find("source");
  if (const std::string* job = r.Find("job")) {
    if (source != nullptr) {
      return r.Bad("job", absl::StrCat("give ", prefix, "job or ", prefix,
                                       "source, not both (", prefix,
                                       "job N is ", prefix, "source job:N)"));
    }
    uint64_t id = 0;
    if (!absl::SimpleAtoi(*job, &id)) {
      return r.Bad("job",
                   absl::StrCat(base::QuoteInput(*job), " is not a job id"));
    }
    out.set_source(absl::StrCat("job:", id));
  } else if (source != nullptr) {
    out.set_source(*source);
  }
  if (const std::string* policy = r.Find("policy")) out.set_policy(*policy);
  if (const std::string* records = r.Find("records")) {
    out.set_records(*records);
  }
  auto from = Day(r, "from");
  if (!from.ok()) return from.status();
  auto to = Day(r, "to");
  if (!to.ok()) return to.status();
  out.set_date_from(*from);
  out.set_date_to(*to);
  if (const std::string* p = r.Find("player")) out.set_player(*p);
  if (const std::string* side = r.Find("as")) {
    const std::string c = absl::AsciiStrToLower(*side);
    if (c == "b" || c == "black") {
      out.set_player_as(qipu::v1::COLOR_BLACK);
    } else if (c == "w" || c == "white") {
      out.set_player_as(qipu::v1::COLOR_WHITE);
    } else {
      return r.Bad("as", absl::StrCat(base::QuoteInput(*side),
                                      " is not black or white"));
    }
    if (r.Find("player") == nullptr) {
      return r.Bad("as", absl::StrCat("names the colour of ", prefix,
                                      "player; give ", prefix, "player too"));
    }
  }
  if (const std::string* o = r.Find("opponent")) out.set_opponent(*o);
  if (const std::string* e = r.Find("event")) out.set_event(*e);
  if (const std::string* res = r.Find("result")) out.set_result(*res);
  if (const std::string* lo = r.Find("rank-min")) out.set_rank_min(*lo);
  if (const std::string* hi = r.Find("rank-max")) out.set_rank_max(*hi);
  return out;
}

absl::StatusOr<qipu::v1::GamesRequest> GamesFromArgs(const QueryArgs& args,
                                                     absl::string_view prefix) {
  const ArgReader r(args, prefix);
  qipu::v1::GamesRequest req;
  auto filter = FilterFromArgs(args, prefix);
  if (!filter.ok()) return filter.status();
  *req.mutable_filter() = *std::move(filter);
  auto page = r.Uint("page-size", 0, kMaxQueryLimit, 0);
  if (!page.ok()) return page.status();
  req.set_page_size(*page);
  if (const std::string* t = r.Find("page-token")) {
    if (t->size() > 256) return r.Bad("page-token", "too long");
    req.set_page_token(*t);
  }
  auto newest = r.Bool("newest");
  if (!newest.ok()) return newest.status();
  req.set_newest_first(*newest);
  return req;
}

absl::StatusOr<qipu::v1::PlayersRequest> PlayersFromArgs(
    const QueryArgs& args, absl::string_view prefix) {
  const ArgReader r(args, prefix);
  qipu::v1::PlayersRequest req;
  if (const std::string* p = r.Find("prefix")) req.set_prefix(*p);
  auto limit = r.Uint("limit", 0, kMaxQueryLimit, 0);
  if (!limit.ok()) return limit.status();
  req.set_limit(*limit);
  return req;
}

absl::StatusOr<qipu::v1::OpeningsRequest> OpeningsFromArgs(
    const QueryArgs& args, absl::string_view prefix) {
  const ArgReader r(args, prefix);
  qipu::v1::OpeningsRequest req;
  auto filter = FilterFromArgs(args, prefix);
  if (!filter.ok()) return filter.status();
  *req.mutable_filter() = *std::move(filter);
  for (std::string& m : r.List("moves")) req.add_moves(std::move(m));
  for (std::string& s : r.List("setup")) req.add_setup(std::move(s));
  if (const std::string* side = r.Find("to-play")) {
    const std::string s = absl::AsciiStrToLower(*side);
    if (s == "b" || s == "black") {
      req.set_to_play(qipu::v1::COLOR_BLACK);
    } else if (s == "w" || s == "white") {
      req.set_to_play(qipu::v1::COLOR_WHITE);
    } else {
      return r.Bad("to-play",
                   absl::StrCat(base::QuoteInput(*side), " is not B or W"));
    }
  }
  auto examples = Examples(r);
  if (!examples.ok()) return examples.status();
  req.set_examples(*examples);
  auto limit = r.Uint("limit", 0, kMaxQueryLimit, 0);
  if (!limit.ok()) return limit.status();
  req.set_limit(*limit);
  return req;
}

absl::StatusOr<qipu::v1::KoRequest> KoFromArgs(const QueryArgs& args,
                                               absl::string_view prefix) {
  qipu::v1::KoRequest req;
  auto filter = FilterFromArgs(args, prefix);
  if (!filter.ok()) return filter.status();
  *req.mutable_filter() = *std::move(filter);
  return req;
}

absl::StatusOr<qipu::v1::CyclesRequest> CyclesFromArgs(
    const QueryArgs& args, absl::string_view prefix) {
  qipu::v1::CyclesRequest req;
  auto filter = FilterFromArgs(args, prefix);
  if (!filter.ok()) return filter.status();
  *req.mutable_filter() = *std::move(filter);
  auto examples = Examples(ArgReader(args, prefix));
  if (!examples.ok()) return examples.status();
  req.set_examples(*examples);
  return req;
}

absl::StatusOr<qipu::v1::ResultsRequest> ResultsFromArgs(
    const QueryArgs& args, absl::string_view prefix) {
  qipu::v1::ResultsRequest req;
  auto filter = FilterFromArgs(args, prefix);
  if (!filter.ok()) return filter.status();
  *req.mutable_filter() = *std::move(filter);
  return req;
}

absl::StatusOr<qipu::v1::GetGameRequest> GameFromArgs(
    const QueryArgs& args, absl::string_view prefix) {
  const ArgReader r(args, prefix);
  const std::string* id = r.Find("id");
  if (id == nullptr || id->empty()) return r.Bad("id", "missing");
  if (id->size() > 64) return r.Bad("id", "too long to be a game id");
  qipu::v1::GetGameRequest req;
  req.set_id(*id);
  return req;
}

absl::StatusOr<PatternArgs> PatternArgsFromArgs(const QueryArgs& args,
                                                absl::string_view prefix) {
  const ArgReader r(args, prefix);
  PatternArgs out;
  auto filter = FilterFromArgs(args, prefix);
  if (!filter.ok()) return filter.status();
  out.filter = *std::move(filter);
  const std::string* pattern = r.Find("pattern");
  if (pattern == nullptr || pattern->empty()) {
    return r.Bad("pattern", "missing (rows joined by '/', like XO./.X.)");
  }
  for (absl::string_view row : absl::StrSplit(*pattern, '/')) {
    row = absl::StripAsciiWhitespace(row);
    if (row.empty() || row.size() > 25) {
      return r.Bad("pattern", "each row has 1..25 cells");
    }
    for (char c : row) {
      if (std::string_view("XO.*xo").find(c) == std::string_view::npos) {
        return r.Bad("pattern", absl::StrCat("cell '", std::string(1, c),
                                             "' is none of X O . * x o"));
      }
    }
    if (!out.rows.empty() && row.size() != out.rows[0].size()) {
      return r.Bad("pattern", "rows of different lengths");
    }
    out.rows.emplace_back(row);
  }
  if (out.rows.size() > 25) return r.Bad("pattern", "at most 25 rows");
  if (const std::string* p = r.Find("placement")) {
    if (*p != "fixed" && *p != "corner" && *p != "side" && *p != "anywhere") {
      return r.Bad("placement",
                   absl::StrCat(base::QuoteInput(*p),
                                " is none of fixed, corner, side, anywhere"));
    }
    out.placement = *p;
  }
  if (const std::string* a = r.Find("anchor")) out.anchor = *a;
  auto swap = r.Bool("colour-swap");
  if (!swap.ok()) return swap.status();
  out.colour_swap = *swap;
  auto page = r.Uint("page-size", 0, kMaxQueryLimit, 0);
  if (!page.ok()) return page.status();
  out.page_size = *page;
  if (const std::string* t = r.Find("page-token")) {
    if (t->size() > 256) return r.Bad("page-token", "too long");
    out.page_token = *t;
  }
  return out;
}

absl::StatusOr<qipu::v1::PatternRequest> PatternFromArgs(
    const QueryArgs& args, absl::string_view prefix) {
  auto parsed = PatternArgsFromArgs(args, prefix);
  if (!parsed.ok()) return parsed.status();
  qipu::v1::PatternRequest req;
  *req.mutable_filter() = std::move(parsed->filter);
  req.set_pattern(absl::StrJoin(parsed->rows, "/"));
  const std::string& p = parsed->placement;
  req.set_placement(p == "corner"     ? qipu::v1::PATTERN_PLACEMENT_CORNER
                    : p == "side"     ? qipu::v1::PATTERN_PLACEMENT_SIDE
                    : p == "anywhere" ? qipu::v1::PATTERN_PLACEMENT_ANYWHERE
                                      : qipu::v1::PATTERN_PLACEMENT_FIXED);
  req.set_anchor(parsed->anchor);
  req.set_colour_swap(parsed->colour_swap);
  req.set_page_size(parsed->page_size);
  req.set_page_token(parsed->page_token);
  return req;
}

absl::Status NameArgsInStatus(const absl::Status& s, absl::string_view prefix) {
  if (s.ok()) return s;
  // Request fields of the engine's messages -> argument names.
  static constexpr std::pair<absl::string_view, absl::string_view> kFields[] = {
      {"filter.size", "size"},
      {"filter.rules", "rules"},
      {"filter.komi", "komi"},
      {"filter.handicap", "handicap"},
      {"filter.policy", "policy"},
      {"filter.source", "source"},
      {"filter.date", "from/to"},
      {"filter.records", "records"},
      {"to_play", "to-play"},
      {"moves", "moves"},
      {"setup", "setup"},
      {"examples", "examples"},
      {"limit", "limit"},
      {"id", "id"},
      {"filter.player_as", "as"},
      {"filter.player", "player"},
      {"filter.opponent", "opponent"},
      {"filter.event", "event"},
      {"filter.result", "result"},
      {"filter.rank_min", "rank-min"},
      {"filter.rank_max", "rank-max"},
      {"page_size", "page-size"},
      {"page_token", "page-token"}};
  const absl::string_view m = s.message();
  for (const auto& [field, name] : kFields) {
    if (absl::StartsWith(m, field) && m.size() > field.size() &&
        m[field.size()] == ':') {
      std::string named = absl::StrCat(prefix, name);
      if (name == "from/to")
        named = absl::StrCat(prefix, "from/", prefix, "to");
      return absl::Status(s.code(),
                          absl::StrCat(named, m.substr(field.size())));
    }
  }
  return s;
}

}  // namespace qipu::backend
