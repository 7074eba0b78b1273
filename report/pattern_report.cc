#include "report/pattern_report.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "report/query_report.h"

namespace qipu::report {
namespace {

// "B", "W", or "" for no colour.
const char* PatternColourLetter(qipu::v1::Color c) {
  return c == qipu::v1::COLOR_BLACK   ? "B"
         : c == qipu::v1::COLOR_WHITE ? "W"
                                      : "";
}

std::string PatternRate(const qipu::v1::Outcomes& o) {
  if (o.black_wins() + o.white_wins() + o.draws() == 0) return "-";
  return absl::StrFormat("%.1f%%", 100.0 * BlackWinRate(o));
}

}  // namespace

nlohmann::json PatternJson(const qipu::v1::PatternResponse& r) {
  nlohmann::json j = OutcomesJson(r.matched());
  j["pattern"] = r.pattern();
  j["placement"] = r.placement();
  j["anchor"] = r.anchor();
  j["colour_swap"] = r.colour_swap();
  j["games_scanned"] = r.games_scanned();
  j["games_indexed"] = r.games_indexed();
  nlohmann::json conts = nlohmann::json::array();
  for (const qipu::v1::PatternContinuation& c : r.continuations()) {
    nlohmann::json e = {{"move", c.move()},
                        {"colour", PatternColourLetter(c.color())}};
    e.update(OutcomesJson(c.outcomes()));
    conts.push_back(std::move(e));
  }
  j["continuations"] = std::move(conts);
  nlohmann::json matches = nlohmann::json::array();
  for (const qipu::v1::PatternMatch& m : r.matches()) {
    matches.push_back({{"id", m.id()},
                       {"move_number", m.move_number()},
                       {"next", m.next()},
                       {"colour", PatternColourLetter(m.next_color())},
                       {"result", m.result()}});
  }
  j["matches"] = std::move(matches);
  j["next_page_token"] = r.next_page_token();
  return j;
}

std::string PatternText(const qipu::v1::PatternResponse& r) {
  std::string out =
      absl::StrCat("pattern (", r.placement(), ", top-left at ", r.anchor(),
                   r.colour_swap() ? ", colours swapped too" : "", "):\n");
  for (absl::string_view row : absl::StrSplit(r.pattern(), '/')) {
    absl::StrAppend(&out, "  ", row, "\n");
  }
  const qipu::v1::Outcomes& m = r.matched();
  absl::StrAppend(&out, m.games(), " games (", r.games_scanned(),
                  " replayed of ", r.games_indexed(), " indexed); Black wins ",
                  PatternRate(m), "\n");
  if (r.continuations_size() > 0) {
    absl::StrAppend(&out, absl::StrFormat("  %-8s %-6s %7s  %s\n", "next",
                                          "colour", "games", "Black wins"));
    for (const qipu::v1::PatternContinuation& c : r.continuations()) {
      absl::StrAppend(&out, absl::StrFormat("  %-8s %-6s %7d  %s\n", c.move(),
                                            PatternColourLetter(c.color()),
                                            c.outcomes().games(),
                                            PatternRate(c.outcomes())));
    }
  }
  if (r.matches_size() > 0) {
    absl::StrAppend(&out, "games:\n");
    for (const qipu::v1::PatternMatch& g : r.matches()) {
      absl::StrAppend(
          &out,
          absl::StrFormat("  %-36s move %-4d next %s%s%s  %s\n", g.id(),
                          g.move_number(), PatternColourLetter(g.next_color()),
                          g.next().empty() ? "" : ":",
                          g.next().empty() ? "(end)" : g.next(), g.result()));
    }
  }
  if (!r.next_page_token().empty()) {
    absl::StrAppend(&out, "more: --page-token ", r.next_page_token(), "\n");
  }
  return out;
}

}  // namespace qipu::report
