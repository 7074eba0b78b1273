#include "report/tournament_print.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/time/time.h"
#include "tournament/field.h"
#include "tournament/outcome.h"
#include "tournament/tournament.h"

namespace qipu::report {
namespace {

using Json = nlohmann::json;

// The next code point of `s` from `*i` (advanced); a malformed byte is
// returned as itself.
uint32_t NextCodePoint(absl::string_view s, size_t* i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(*i);
  int len = c < 0x80           ? 1
            : (c >> 5) == 0x6  ? 2
            : (c >> 4) == 0xe  ? 3
            : (c >> 3) == 0x1e ? 4
                               : 1;
  if (*i + len > s.size()) len = 1;
  uint32_t cp = len == 1 ? c : c & (0x7f >> len);
  for (int k = 1; k < len; ++k) {
    if ((byte(*i + k) & 0xc0) != 0x80) {
      len = 1;
      cp = c;
      break;
    }
    cp = (cp << 6) | (byte(*i + k) & 0x3f);
  }
  *i += len;
  return cp;
}

int CodePointWidth(uint32_t cp) {
  static constexpr std::pair<uint32_t, uint32_t> kCombining[] = {
      {0x0300, 0x036f},
      {0x1ab0, 0x1aff},
      {0x1dc0, 0x1dff},
      {0x20d0, 0x20ff},
      {0xfe20, 0xfe2f}};
  static constexpr std::pair<uint32_t, uint32_t> kWide[] = {
      {0x1100, 0x115f},  {0x2e80, 0x303e}, {0x3041, 0x33ff}, {0x3400, 0x4dbf},
      {0x4e00, 0x9fff},  {0xa000, 0xa4cf}, {0xac00, 0xd7a3}, {0xf900, 0xfaff},
      {0xfe30, 0xfe4f},  {0xff00, 0xff60}, {0xffe0, 0xffe6}, {0x20000, 0x2fffd},
      {0x30000, 0x3fffd}};
  for (const auto& [lo, hi] : kCombining) {
    if (cp >= lo && cp <= hi) return 0;
  }
  for (const auto& [lo, hi] : kWide) {
    if (cp >= lo && cp <= hi) return 2;
  }
  return 1;
}

// The field before round `round` (rounds 1 .. round-1): points then.
tournament::Field FieldBefore(const qipu::v1::Tournament& t, int round) {
  qipu::v1::Tournament before = t;
  while (before.round_size() >= round) before.mutable_round()->RemoveLast();
  return tournament::BuildField(before);
}

std::string RankOf(const qipu::v1::Tournament& t, int e) {
  if (t.teams_event() || e < 0 || e >= t.players_size()) return "";
  return t.players(e).rank();
}

// Names of the entrants in `list`, full.
std::string Names(const qipu::v1::Tournament& t,
                  const google::protobuf::RepeatedField<int32_t>& list) {
  std::vector<std::string> names;
  for (const int e : list) names.push_back(EntrantFullName(t, e));
  return absl::StrJoin(names, ", ");
}

std::string Title(const qipu::v1::Tournament& t, int round) {
  return absl::StrCat(t.name(), " -- round ", round, " (",
                      tournament::SystemName(t.system()), ")");
}

constexpr char kStyle[] =
    "body{font-family:\"Noto Sans\",\"Noto Sans CJK SC\",sans-serif;"
    "margin:1.5em}h1{font-size:1.4em}table{border-collapse:collapse;"
    "width:100%}th,td{border:1px solid #444;padding:4px 8px;"
    "text-align:left}td.num{text-align:right}td.result{min-width:6em}"
    "tr.board td{font-size:0.9em;color:#333}p.note{margin:0.4em 0}"
    "@media print{body{margin:0}a{color:inherit}}";

std::string HtmlPage(const std::string& title, const std::string& body) {
  return absl::StrCat(
      "<!doctype html>\n<html lang=\"zh-Hant\">\n<head>\n<meta "
      "charset=\"utf-8\">\n<title>",
      HtmlEscape(title), "</title>\n<style>", kStyle,
      "</style>\n</head>\n<body>\n<h1>", HtmlEscape(title), "</h1>\n", body,
      "</body>\n</html>\n");
}

// What a sheet shows in the result box.
std::string ResultBox(qipu::v1::GameResult r) {
  return r == qipu::v1::GAME_RESULT_UNKNOWN ? std::string()
                                            : tournament::GameResultText(r);
}

}  // namespace

int DisplayWidth(absl::string_view s) {
  int width = 0;
  for (size_t i = 0; i < s.size();)
    width += CodePointWidth(NextCodePoint(s, &i));
  return width;
}

std::string PadRight(absl::string_view s, int width) {
  std::string out(s);
  const int w = DisplayWidth(s);
  if (w < width) out.append(width - w, ' ');
  return out;
}

std::string FullName(const qipu::v1::TournamentPlayer& p) {
  return p.alt_name().empty() ? p.name()
                              : absl::StrCat(p.name(), " ", p.alt_name());
}

std::string EntrantFullName(const qipu::v1::Tournament& t, int index) {
  if (t.teams_event()) {
    return index >= 0 && index < t.teams_size() ? t.teams(index).name() : "";
  }
  return index >= 0 && index < t.players_size() ? FullName(t.players(index))
                                                : "";
}

std::string HtmlEscape(absl::string_view s) {
  return absl::StrReplaceAll(s, {{"&", "&amp;"},
                                 {"<", "&lt;"},
                                 {">", "&gt;"},
                                 {"\"", "&quot;"},
                                 {"'", "&#39;"}});
}

absl::StatusOr<std::string> RoundSheetText(const qipu::v1::Tournament& t,
                                           int round) {
  if (round < 1 || round > t.round_size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "round ", round, " is not paired (", t.round_size(), " paired)"));
  }
  const qipu::v1::Round& r = t.round(round - 1);
  const tournament::Field field = FieldBefore(t, round);
  constexpr int kName = 30;
  std::string out = absl::StrCat(Title(t, round), "\n");
  absl::StrAppend(&out, "table  ", PadRight("Black", kName), " rank  pts  ",
                  PadRight("White", kName), " rank  pts  result\n");
  for (const qipu::v1::Pairing& p : r.pairings()) {
    absl::StrAppendFormat(
        &out, "%5d  %s %-4s %4d  %s %-4s %4d  [%s]\n", p.table(),
        PadRight(EntrantFullName(t, p.black()), kName), RankOf(t, p.black()),
        field.entrants[p.black()].points,
        PadRight(EntrantFullName(t, p.white()), kName), RankOf(t, p.white()),
        field.entrants[p.white()].points,
        absl::StrFormat("%-9s", ResultBox(p.result())));
    for (const qipu::v1::BoardGame& b : p.boards()) {
      absl::StrAppendFormat(
          &out, "       board %-2d %s - %s [%s]\n", b.board(),
          PadRight(b.black() >= 0 ? FullName(t.players(b.black())) : "", kName),
          PadRight(b.white() >= 0 ? FullName(t.players(b.white())) : "", kName),
          absl::StrFormat("%-9s", ResultBox(b.result())));
    }
  }
  for (const int b : r.byes()) {
    absl::StrAppend(&out, "bye: ", EntrantFullName(t, b), " (",
                    tournament::kByePoints, " points)\n");
  }
  if (r.absent_size() > 0) {
    absl::StrAppend(&out, "sitting out (", t.sit_out_points(),
                    " point each): ", Names(t, r.absent()), "\n");
  }
  if (r.cut_size() > 0) {
    absl::StrAppend(&out, "out to keep the field even (art. 26.4): ",
                    Names(t, r.cut()), "\n");
  }
  if (r.unpaired_size() > 0) {
    absl::StrAppend(&out, "not paired yet: ", Names(t, r.unpaired()), "\n");
  }
  return out;
}

absl::StatusOr<std::string> RoundSheetHtml(const qipu::v1::Tournament& t,
                                           int round) {
  if (round < 1 || round > t.round_size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "round ", round, " is not paired (", t.round_size(), " paired)"));
  }
  const qipu::v1::Round& r = t.round(round - 1);
  const tournament::Field field = FieldBefore(t, round);
  std::string body =
      "<table class=\"sheet\">\n<thead><tr><th>table</th><th>Black 黑</th>"
      "<th>rank</th><th>pts</th><th>White 白</th><th>rank</th><th>pts</th>"
      "<th>result</th></tr></thead>\n<tbody>\n";
  for (const qipu::v1::Pairing& p : r.pairings()) {
    absl::StrAppend(&body, "<tr><td class=\"num\">", p.table(), "</td><td>",
                    HtmlEscape(EntrantFullName(t, p.black())), "</td><td>",
                    HtmlEscape(RankOf(t, p.black())), "</td><td class=\"num\">",
                    field.entrants[p.black()].points, "</td><td>",
                    HtmlEscape(EntrantFullName(t, p.white())), "</td><td>",
                    HtmlEscape(RankOf(t, p.white())), "</td><td class=\"num\">",
                    field.entrants[p.white()].points,
                    "</td><td class=\"result\">",
                    HtmlEscape(ResultBox(p.result())), "</td></tr>\n");
    for (const qipu::v1::BoardGame& b : p.boards()) {
      absl::StrAppend(
          &body, "<tr class=\"board\"><td class=\"num\">board ", b.board(),
          "</td><td colspan=\"3\">",
          HtmlEscape(b.black() >= 0 ? FullName(t.players(b.black())) : ""),
          "</td><td colspan=\"3\">",
          HtmlEscape(b.white() >= 0 ? FullName(t.players(b.white())) : ""),
          "</td><td class=\"result\">", HtmlEscape(ResultBox(b.result())),
          "</td></tr>\n");
    }
  }
  body += "</tbody>\n</table>\n";
  for (const int b : r.byes()) {
    absl::StrAppend(
        &body, "<p class=\"note\">bye: ", HtmlEscape(EntrantFullName(t, b)),
        " (", tournament::kByePoints, " points)</p>\n");
  }
  if (r.absent_size() > 0) {
    absl::StrAppend(
        &body, "<p class=\"note\">sitting out (", t.sit_out_points(),
        " point each): ", HtmlEscape(Names(t, r.absent())), "</p>\n");
  }
  if (r.cut_size() > 0) {
    absl::StrAppend(&body,
                    "<p class=\"note\">out to keep the field even (art. "
                    "26.4): ",
                    HtmlEscape(Names(t, r.cut())), "</p>\n");
  }
  return HtmlPage(Title(t, round), body);
}

std::string StandingsHtml(const qipu::v1::Tournament& t,
                          const tournament::Standings& s) {
  const bool sodos =
      std::find(s.order.begin(), s.order.end(), "sodos") != s.order.end();
  std::string body = absl::StrCat(
      "<p class=\"note\">ranked by ", HtmlEscape(absl::StrJoin(s.order, ", ")),
      "</p>\n<table class=\"standings\">\n<thead><tr><th>rank</th>"
      "<th>name</th>");
  if (t.teams_event()) {
    body += "<th>match points</th><th>board points</th>";
    for (int b = 1; b <= static_cast<int>(t.boards()); ++b) {
      absl::StrAppend(&body, "<th>board ", b, "</th>");
    }
  } else {
    absl::StrAppend(&body, "<th>points</th><th>", sodos ? "SODOS" : "SOS",
                    "</th><th>warnings</th>");
  }
  body += "<th>won-drawn-lost</th><th></th></tr></thead>\n<tbody>\n";
  for (const tournament::StandingRow& r : s.rows) {
    absl::StrAppend(&body, "<tr><td class=\"num\">", r.rank, "</td><td>",
                    HtmlEscape(EntrantFullName(t, r.entrant)),
                    "</td><td class=\"num\">", r.points, "</td>");
    if (t.teams_event()) {
      absl::StrAppend(&body, "<td class=\"num\">", r.board_points, "</td>");
      for (const int b : r.board_scores) {
        absl::StrAppend(&body, "<td class=\"num\">", b, "</td>");
      }
    } else {
      absl::StrAppend(
          &body, "<td class=\"num\">",
          sodos ? absl::StrFormat("%.1f", r.sodos) : absl::StrCat(r.sos),
          "</td><td class=\"num\">", r.warnings, "</td>");
    }
    std::string status = r.withdrawn ? "withdrawn" : "";
    if (r.out_in_round > 0)
      status = absl::StrCat("out after round ", r.out_in_round);
    absl::StrAppend(&body, "<td>", r.wins, "-", r.draws, "-", r.losses,
                    "</td><td>", HtmlEscape(status), "</td></tr>\n");
  }
  body += "</tbody>\n</table>\n";
  return HtmlPage(absl::StrCat(t.name(), " -- standings"), body);
}

std::string HistoryText(const qipu::v1::Tournament& t) {
  std::string out;
  for (const qipu::v1::TournamentChange& c : t.history()) {
    const std::string when =
        c.unix_ms() == 0 ? std::string("(time unknown)         ")
                         : absl::FormatTime("%Y-%m-%d %H:%M:%S UTC",
                                            absl::FromUnixMillis(c.unix_ms()),
                                            absl::UTCTimeZone());
    std::string what = absl::StrCat("round ", c.round());
    if (c.table() > 0) absl::StrAppend(&what, " table ", c.table());
    if (c.board() > 0) absl::StrAppend(&what, " board ", c.board());
    if (c.action() != "pairing") {
      absl::StrAppend(&what, ": ", tournament::GameResultText(c.old_result()),
                      " -> ", tournament::GameResultText(c.new_result()));
    }
    absl::StrAppend(&out, when, "  ", c.who().empty() ? "?" : c.who(), "  ",
                    c.action(), "  ", what, c.forced() ? "  (forced)" : "",
                    c.detail().empty() ? "" : absl::StrCat("  ", c.detail()),
                    "\n");
  }
  return out;
}

Json HistoryJson(const qipu::v1::Tournament& t) {
  Json out = Json::array();
  for (const qipu::v1::TournamentChange& c : t.history()) {
    out.push_back(
        {{"when", c.unix_ms() == 0
                      ? std::string()
                      : absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ",
                                         absl::FromUnixMillis(c.unix_ms()),
                                         absl::UTCTimeZone())},
         {"unix_ms", c.unix_ms()},
         {"who", c.who()},
         {"action", c.action()},
         {"round", c.round()},
         {"table", c.table()},
         {"board", c.board()},
         {"old", tournament::GameResultText(c.old_result())},
         {"new", tournament::GameResultText(c.new_result())},
         {"forced", c.forced()},
         {"detail", c.detail()}});
  }
  return out;
}

}  // namespace qipu::report
