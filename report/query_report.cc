#include "report/query_report.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/console.h"
#include "engine/game_format.h"
#include "engine/queries.h"
#include "proto/convert.h"
#include "rules/coord.h"
#include "rules/result.h"

namespace qipu::report {

nlohmann::json OutcomesJson(const qipu::v1::Outcomes& o) {
  return {{"games", o.games()},
          {"black_wins", o.black_wins()},
          {"white_wins", o.white_wins()},
          {"draws", o.draws()},
          {"void", o.void_()},
          {"black_win_rate", BlackWinRate(o)}};
}

namespace {

std::string Percent(uint64_t part, uint64_t whole) {
  if (whole == 0) return "-";
  return absl::StrFormat("%.1f%%", 100.0 * static_cast<double>(part) / whole);
}

std::string Rate(const qipu::v1::Outcomes& o) {
  const uint64_t decided = o.black_wins() + o.white_wins() + o.draws();
  return decided == 0 ? "-" : absl::StrFormat("%.1f%%", 100 * BlackWinRate(o));
}

std::string OutcomesLine(const qipu::v1::Outcomes& o) {
  return absl::StrFormat(
      "%d games: Black %d (%s), White %d (%s), draws %d, void %d", o.games(),
      o.black_wins(), Percent(o.black_wins(), o.games()), o.white_wins(),
      Percent(o.white_wins(), o.games()), o.draws(), o.void_());
}

// Value at nearest-rank percentile q of a histogram (bucket width applied).
double HistogramPercentile(const qipu::v1::Histogram& h, double q) {
  uint64_t total = 0;
  for (uint64_t c : h.counts()) total += c;
  if (total == 0) return 0;
  const uint64_t rank =
      std::max<uint64_t>(1, static_cast<uint64_t>(q * total + 0.999999));
  uint64_t cum = 0;
  for (int i = 0; i < h.counts_size(); ++i) {
    cum += h.counts(i);
    if (cum >= rank) return i * h.bucket();
  }
  return (h.counts_size() - 1) * h.bucket();
}

// A text histogram, `group` buckets per line, bars scaled to 40 columns.
void AppendHistogram(std::string* out, const qipu::v1::Histogram& h, int group,
                     const std::string& unit) {
  std::vector<uint64_t> lines;
  for (int i = 0; i < h.counts_size(); ++i) {
    if (i / group >= static_cast<int>(lines.size())) lines.push_back(0);
    lines[i / group] += h.counts(i);
  }
  uint64_t peak = 1;
  for (uint64_t c : lines) peak = std::max(peak, c);
  for (size_t i = 0; i < lines.size(); ++i) {
    const double lo = i * group * h.bucket();
    const double hi = (i + 1) * group * h.bucket() - 1;
    const std::string label =
        group * h.bucket() == 1 ? absl::StrCat(lo) : absl::StrCat(lo, "-", hi);
    const int bar = static_cast<int>(40.0 * lines[i] / peak + 0.5);
    absl::StrAppendFormat(out, "  %9s %-5s %10llu  %s\n", label, unit,
                          static_cast<unsigned long long>(lines[i]),
                          std::string(bar, '#').c_str());
  }
}

nlohmann::json KoGroupJson(const qipu::v1::KoGroup& g) {
  return {
      {"label", g.label()},
      {"games", g.games()},
      {"games_with_ko", g.games_with_ko()},
      {"share_with_ko",
       g.games() ? static_cast<double>(g.games_with_ko()) / g.games() : 0.0},
      {"ko_captures", g.ko_captures()},
      {"mean", g.mean()},
      {"p50", g.p50()},
      {"p90", g.p90()},
      {"p99", g.p99()},
      {"max", g.max()}};
}

std::vector<std::string> KoRow(const qipu::v1::KoGroup& g) {
  return {g.label(),
          absl::StrCat(g.games()),
          Percent(g.games_with_ko(), g.games()),
          absl::StrFormat("%.2f", g.mean()),
          absl::StrCat(g.p50()),
          absl::StrCat(g.p90()),
          absl::StrCat(g.p99()),
          absl::StrCat(g.max())};
}

// "B", "W", or "" for an unspecified or unknown colour.
const char* ColorLetter(qipu::v1::Color c) {
  return c == qipu::v1::COLOR_BLACK   ? "B"
         : c == qipu::v1::COLOR_WHITE ? "W"
                                      : "";
}

}  // namespace

double BlackWinRate(const qipu::v1::Outcomes& o) {
  const uint64_t decided = o.black_wins() + o.white_wins() + o.draws();
  return decided ? static_cast<double>(o.black_wins()) / decided : 0;
}

nlohmann::json OpeningsJson(const qipu::v1::OpeningsResponse& r) {
  nlohmann::json j = OutcomesJson(r.reached());
  j["position_key"] = r.position_key();
  j["to_play"] = ColorLetter(r.to_play());
  nlohmann::json list = nlohmann::json::array();
  for (const qipu::v1::Continuation& c : r.continuations()) {
    nlohmann::json e = {{"move", c.move()}};
    e.update(OutcomesJson(c.outcomes()));
    e["examples"] = std::vector<std::string>(c.example_game_ids().begin(),
                                             c.example_game_ids().end());
    list.push_back(std::move(e));
  }
  j["continuations"] = std::move(list);
  return j;
}

std::string OpeningsText(const qipu::v1::OpeningsResponse& r,
                         const qipu::v1::OpeningsRequest& req) {
  const qipu::v1::Filter& f = req.filter();
  const int width = f.width() != 0 ? static_cast<int>(f.width())
                                   : engine::kDefaultOpeningsSize;
  const int height = f.height() != 0 ? static_cast<int>(f.height())
                                     : engine::kDefaultOpeningsSize;
  std::string after;
  if (req.setup_size() != 0) {
    after = absl::StrCat("setup ", absl::StrJoin(req.setup(), " "),
                         req.moves_size() != 0 ? " and " : "");
  }
  if (req.moves_size() != 0) {
    absl::StrAppend(&after, absl::StrJoin(req.moves(), " "));
  } else if (req.setup_size() == 0) {
    after = "no moves (empty board)";
  }
  const std::string side =
      r.to_play() == qipu::v1::COLOR_BLACK   ? ", Black to move"
      : r.to_play() == qipu::v1::COLOR_WHITE ? ", White to move"
                                             : "";
  std::string out;
  absl::StrAppendFormat(&out, "Position after %s on %dx%d%s (key %s)\n", after,
                        width, height, side, r.position_key());
  absl::StrAppendFormat(&out, "Reached by %s; Black's winning rate %s\n\n",
                        OutcomesLine(r.reached()).c_str(),
                        Rate(r.reached()).c_str());
  if (r.continuations_size() == 0) {
    absl::StrAppendFormat(&out, "No continuations.\n");
    return out;
  }
  std::vector<std::vector<std::string>> rows;
  for (const qipu::v1::Continuation& c : r.continuations()) {
    const qipu::v1::Outcomes& o = c.outcomes();
    rows.push_back({c.move(), absl::StrCat(o.games()),
                    Percent(o.games(), r.reached().games()),
                    absl::StrCat(o.black_wins()), absl::StrCat(o.white_wins()),
                    absl::StrCat(o.draws()), absl::StrCat(o.void_()), Rate(o),
                    absl::StrJoin(c.example_game_ids(), " ")});
  }
  out += base::FormatTable({"move", "games", "share", "B wins", "W wins",
                            "draws", "void", "B win%", "examples"},
                           rows);
  return out;
}

nlohmann::json KoJson(const qipu::v1::KoResponse& r) {
  nlohmann::json j = KoGroupJson(r.all());
  j.erase("label");
  j["histogram"] = std::vector<uint64_t>(r.histogram().counts().begin(),
                                         r.histogram().counts().end());
  auto groups = [](const auto& list) {
    nlohmann::json a = nlohmann::json::array();
    for (const qipu::v1::KoGroup& g : list) a.push_back(KoGroupJson(g));
    return a;
  };
  j["by_size"] = groups(r.by_size());
  j["by_rules"] = groups(r.by_rules());
  j["by_length"] = groups(r.by_length());
  return j;
}

std::string KoText(const qipu::v1::KoResponse& r) {
  std::string out;
  const qipu::v1::KoGroup& a = r.all();
  absl::StrAppendFormat(&out, "Ko captures per game over %llu games\n",
                        static_cast<unsigned long long>(a.games()));
  absl::StrAppendFormat(&out, "  games with at least one: %llu (%s)\n",
                        static_cast<unsigned long long>(a.games_with_ko()),
                        Percent(a.games_with_ko(), a.games()).c_str());
  absl::StrAppendFormat(
      &out, "  mean %.3f  p50 %g  p90 %g  p99 %g  max %llu\n\n", a.mean(),
      a.p50(), a.p90(), a.p99(), static_cast<unsigned long long>(a.max()));
  if (a.games() == 0) return out;
  absl::StrAppendFormat(&out, "Histogram (ko captures: games)\n");
  AppendHistogram(&out, r.histogram(), 1, "");
  const std::vector<std::string> header = {"group", "games", "with ko", "mean",
                                           "p50",   "p90",   "p99",     "max"};
  for (const auto& [title, list] :
       {std::pair{"By board size", &r.by_size()},
        std::pair{"By rules", &r.by_rules()},
        std::pair{"By game length (moves)", &r.by_length()}}) {
    absl::StrAppendFormat(&out, "\n%s\n", title);
    std::vector<std::vector<std::string>> rows;
    for (const qipu::v1::KoGroup& g : *list) rows.push_back(KoRow(g));
    out += base::FormatTable(header, rows);
  }
  return out;
}

nlohmann::json CyclesJson(const qipu::v1::CyclesResponse& r) {
  nlohmann::json rows = nlohmann::json::array();
  for (const qipu::v1::CycleRow& row : r.rows()) {
    rows.push_back(
        {{"class", wire::CycleClassName(row.cls())},
         {"outcome", wire::CycleOutcomeName(row.outcome())},
         {"cycles", row.cycles()},
         {"games", row.games()},
         {"per_10k", row.per_10k()},
         {"examples", std::vector<std::string>(row.example_game_ids().begin(),
                                               row.example_game_ids().end())},
         {"results", OutcomesJson(row.results())}});
  }
  return {{"games", r.games()},
          {"rows", std::move(rows)},
          {"results_with_cycle", OutcomesJson(r.results_with_cycle())}};
}

std::string CyclesText(const qipu::v1::CyclesResponse& r) {
  std::string out;
  absl::StrAppendFormat(&out,
                        "Cycles over %llu games (rates: games per 10,000)\n\n",
                        static_cast<unsigned long long>(r.games()));
  std::vector<std::vector<std::string>> rows;
  for (int cls = qipu::v1::CYCLE_CLASS_TRIPLE_KO;
       cls <= qipu::v1::CYCLE_CLASS_OTHER; ++cls) {
    for (int out = qipu::v1::CYCLE_OUTCOME_NO_RESULT;
         out <= qipu::v1::CYCLE_OUTCOME_CONTINUED_IN_RECORD; ++out) {
      const qipu::v1::CycleRow* found = nullptr;
      for (const qipu::v1::CycleRow& row : r.rows()) {
        if (row.cls() == cls && row.outcome() == out) found = &row;
      }
      qipu::v1::CycleRow zero;
      const qipu::v1::CycleRow& row = found ? *found : zero;
      const qipu::v1::Outcomes& o = row.results();
      rows.push_back(
          {wire::CycleClassName(static_cast<qipu::v1::CycleClass>(cls)),
           wire::CycleOutcomeName(static_cast<qipu::v1::CycleOutcome>(out)),
           absl::StrCat(row.cycles()), absl::StrCat(row.games()),
           absl::StrFormat("%.2f", row.per_10k()),
           found ? absl::StrFormat("%d/%d/%d/%d", o.black_wins(),
                                   o.white_wins(), o.draws(), o.void_())
                 : "",
           absl::StrJoin(row.example_game_ids(), " ")});
    }
  }
  out += base::FormatTable({"class", "outcome", "cycles", "games", "per 10k",
                            "B/W/draw/void", "examples"},
                           rows);
  absl::StrAppendFormat(&out,
                        "\nGames with a completed or prevented cycle: %s\n",
                        OutcomesLine(r.results_with_cycle()).c_str());
  return out;
}

nlohmann::json ResultsJson(const qipu::v1::ResultsResponse& r) {
  nlohmann::json j = OutcomesJson(r.outcomes());
  nlohmann::json reasons = nlohmann::json::object();
  for (const auto& [name, n] : r.by_reason()) reasons[name] = n;
  j["by_reason"] = std::move(reasons);
  auto hist = [](const qipu::v1::Histogram& h) {
    return nlohmann::json{{"bucket", h.bucket()},
                          {"counts", std::vector<uint64_t>(h.counts().begin(),
                                                           h.counts().end())}};
  };
  j["black_margin"] = hist(r.black_margin());
  j["white_margin"] = hist(r.white_margin());
  j["length"] = hist(r.length());
  j["mean_length"] = r.mean_length();
  return j;
}

std::string ResultsText(const qipu::v1::ResultsResponse& r) {
  std::string out;
  const qipu::v1::Outcomes& o = r.outcomes();
  absl::StrAppendFormat(&out, "%s\n", OutcomesLine(o).c_str());
  absl::StrAppendFormat(
      &out, "Black's winning rate (draws count, void does not): %s\n\n",
      Rate(o).c_str());
  std::vector<std::vector<std::string>> rows;
  for (const auto& [name, n] : r.by_reason()) {
    rows.push_back({name, absl::StrCat(n), Percent(n, o.games())});
  }
  std::sort(rows.begin(), rows.end());
  out += base::FormatTable({"ended by", "games", "share"}, rows);
  for (const auto& [title, h] :
       {std::pair{"Black's winning margins (points)", &r.black_margin()},
        std::pair{"White's winning margins (points)", &r.white_margin()}}) {
    uint64_t n = 0;
    for (uint64_t c : h->counts()) n += c;
    absl::StrAppendFormat(
        &out, "\n%s over %llu scored wins: p10 %g  p50 %g  p90 %g\n", title,
        static_cast<unsigned long long>(n), HistogramPercentile(*h, 0.1),
        HistogramPercentile(*h, 0.5), HistogramPercentile(*h, 0.9));
    if (n != 0) AppendHistogram(&out, *h, 5, "pts");
  }
  absl::StrAppendFormat(
      &out, "\nGame length (moves): mean %.1f  p10 %g  p50 %g  p90 %g\n",
      r.mean_length(), HistogramPercentile(r.length(), 0.1),
      HistogramPercentile(r.length(), 0.5),
      HistogramPercentile(r.length(), 0.9));
  if (o.games() != 0) AppendHistogram(&out, r.length(), 1, "moves");
  return out;
}

absl::StatusOr<nlohmann::json> GameJson(const qipu::v1::GetGameResponse& r) {
  auto game = engine::GameJson(r.game(), r.id());
  if (!game.ok()) {
    return absl::DataLossError(
        absl::StrCat("game ", r.id(),
                     " cannot be written as JSON: ", game.status().message()));
  }
  nlohmann::json j(*game);
  j["sgf"] = r.sgf();
  return j;
}

std::string GameText(const qipu::v1::GetGameResponse& r) {
  std::string out;
  const qipu::v1::Game& g = r.game();
  const qipu::v1::Provenance& p = g.provenance();
  absl::StrAppendFormat(
      &out, "Game %s: %ux%u, %s rules, komi %g, handicap %u\n", r.id().c_str(),
      g.width(), g.height(),
      g.rules().preset().empty() ? "custom" : g.rules().preset().c_str(),
      g.rules().komi(), g.handicap());
  auto result = wire::ResultFromProto(g.result());
  // The RE the game's SGF and JSON give (rules::RecordResult::Sgf()).
  const std::string re =
      result.ok()
          ? rules::RecordResult::Stored(*result, g.meta().record_result()).Sgf()
          : "?";
  absl::StrAppendFormat(
      &out, "Result: %s (%s); %u moves, %u ko captures, %d cycles\n", re,
      result.ok() ? rules::EndReasonName(result->reason) : "?", g.num_moves(),
      g.ko_captures(), g.cycles_size());
  for (const qipu::v1::Cycle& c : g.cycles()) {
    absl::StrAppendFormat(
        &out, "  cycle %s/%s: moves %u-%u, captures B %u W %u\n",
        wire::CycleClassName(c.cls()), wire::CycleOutcomeName(c.outcome()),
        c.first_move(), c.first_move() + c.period() - 1, c.black_captures(),
        c.white_captures());
  }
  // A record kept against its rules: each note, the move and the rule.
  const std::vector<engine::KeptNote> notes = engine::KeptNotes(g);
  if (!notes.empty()) {
    absl::StrAppendFormat(&out, "Record kept as played (%s):\n",
                          g.has_cut() ? "cut" : "noted");
    for (const engine::KeptNote& n : notes) {
      absl::StrAppendFormat(&out, "  %s\n", n.text);
    }
  }
  if (p.job() != 0) {
    absl::StrAppendFormat(
        &out, "Self-play: job %llu game %llu attempt %u seed %llu, worker %s\n",
        static_cast<unsigned long long>(p.job()),
        static_cast<unsigned long long>(p.game_index()), p.attempt(),
        static_cast<unsigned long long>(p.seed()), p.worker().c_str());
  } else {
    absl::StrAppendFormat(&out, "Imported from %s (%s game %u)\n",
                          p.source().c_str(), p.file().c_str(), p.file_game());
  }
  auto points = wire::UnpackPoints(g.moves(), static_cast<int>(g.width()),
                                   static_cast<int>(g.height()), true);
  if (points.ok()) {
    std::string line;
    for (size_t i = 0; i < points->size(); ++i) {
      absl::StrAppend(
          &line, i % 10 == 0 ? (i ? "\n  " : "  ") : " ", i + 1, ".",
          rules::GtpPoint((*points)[i], static_cast<int>(g.height())));
    }
    absl::StrAppendFormat(&out, "Moves:\n%s\n", line.c_str());
  }
  return out;
}

namespace {

nlohmann::json PlayerRefJson(const qipu::v1::PlayerRef& p) {
  return {{"name", p.name()}, {"key", p.key()}, {"rank", p.rank()}};
}

std::string SideText(const qipu::v1::PlayerRef& p) {
  std::string name = p.name().empty() ? "?" : p.name();
  if (!p.rank().empty() && !absl::StrContains(p.name(), p.rank())) {
    absl::StrAppend(&name, " (", p.rank(), ")");
  }
  return name;
}

}  // namespace

nlohmann::json GamesJson(const qipu::v1::GamesResponse& r) {
  nlohmann::json games = nlohmann::json::array();
  for (const qipu::v1::GameSummary& g : r.games()) {
    games.push_back({{"id", g.id()},
                     {"date", g.date()},
                     {"date_ymd", g.date_ymd()},
                     {"black", PlayerRefJson(g.black())},
                     {"white", PlayerRefJson(g.white())},
                     {"event", g.event()},
                     {"result", g.result()},
                     {"moves", g.moves()},
                     {"record", g.record()},
                     {"size", absl::StrCat(g.width(), "x", g.height())}});
  }
  return {{"total", r.total()},
          {"next_page_token", r.next_page_token()},
          {"games", std::move(games)}};
}

std::string GamesText(const qipu::v1::GamesResponse& r) {
  std::string out = absl::StrCat(r.total(), " game(s)\n");
  for (const qipu::v1::GameSummary& g : r.games()) {
    absl::StrAppend(
        &out,
        absl::StrFormat(
            "  %-36s %-10s %s - %s  %s  %u moves%s%s\n", g.id(),
            g.date().empty() ? "-" : g.date(), SideText(g.black()),
            SideText(g.white()), g.result().empty() ? "?" : g.result(),
            g.moves(), g.event().empty() ? "" : absl::StrCat("  ", g.event()),
            g.record() == "clean" ? "" : absl::StrCat("  [", g.record(), "]")));
  }
  if (!r.next_page_token().empty()) {
    absl::StrAppend(&out, "next page: --page-token ", r.next_page_token(),
                    "\n");
  }
  return out;
}

nlohmann::json PlayersJson(const qipu::v1::PlayersResponse& r) {
  nlohmann::json players = nlohmann::json::array();
  for (const qipu::v1::PlayerSummary& p : r.players()) {
    nlohmann::json years = nlohmann::json::array();
    for (const qipu::v1::PlayerYear& y : p.years()) {
      years.push_back({{"year", y.year()},
                       {"games", y.games()},
                       {"wins", y.wins()},
                       {"losses", y.losses()}});
    }
    nlohmann::json names = nlohmann::json::array();
    for (const std::string& n : p.names()) names.push_back(n);
    players.push_back({{"key", p.key()},
                       {"display", p.display()},
                       {"names", std::move(names)},
                       {"games", p.games()},
                       {"as_black", OutcomesJson(p.as_black())},
                       {"as_white", OutcomesJson(p.as_white())},
                       {"first", p.first_ymd()},
                       {"last", p.last_ymd()},
                       {"rank", p.rank()},
                       {"years", std::move(years)}});
  }
  return {{"players", std::move(players)}};
}

std::string PlayersText(const qipu::v1::PlayersResponse& r) {
  std::string out = absl::StrFormat("%-28s %6s %-5s %-17s %s\n", "player",
                                    "games", "rank", "dates", "B wins/W wins");
  for (const qipu::v1::PlayerSummary& p : r.players()) {
    const std::string dates =
        p.first_ymd() == 0 ? "-"
                           : absl::StrCat(p.first_ymd(), "-", p.last_ymd());
    absl::StrAppend(
        &out, absl::StrFormat("%-28s %6u %-5s %-17s %u/%u as Black, %u/%u as "
                              "White\n",
                              p.display(), p.games(),
                              p.rank().empty() ? "-" : p.rank(), dates,
                              p.as_black().black_wins(), p.as_black().games(),
                              p.as_white().white_wins(), p.as_white().games()));
  }
  return out;
}

}  // namespace qipu::report
