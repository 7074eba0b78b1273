#include "report/team_report.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "tournament/outcome.h"

namespace qipu::report {
namespace {

using Json = nlohmann::json;

// The team of player `index`, "" when none.
std::string TeamOf(const qipu::v1::Tournament& t, int index) {
  return index >= 0 && index < t.players_size() ? t.players(index).team() : "";
}

}  // namespace

std::string PlayerName(const qipu::v1::Tournament& t, int index) {
  return index >= 0 && index < t.players_size() ? t.players(index).name() : "";
}

std::pair<int, int> MatchBoardPoints(const qipu::v1::Pairing& p) {
  std::pair<int, int> points = {0, 0};
  for (int b = 0; b < p.boards_size(); ++b) {
    // The team in `black` holds Black on odd boards (index 0, 2, ...).
    const bool black_has_black = b % 2 == 0;
    const qipu::v1::GameResult r = p.boards(b).result();
    points.first +=
        tournament::OutcomePoints(tournament::OutcomeFor(r, black_has_black));
    points.second +=
        tournament::OutcomePoints(tournament::OutcomeFor(r, !black_has_black));
  }
  return points;
}

Json BoardsJson(const qipu::v1::Tournament& t, const qipu::v1::Pairing& p) {
  Json boards = Json::array();
  for (const qipu::v1::BoardGame& b : p.boards()) {
    boards.push_back({{"board", b.board()},
                      {"black", PlayerName(t, b.black())},
                      {"white", PlayerName(t, b.white())},
                      {"black_team", TeamOf(t, b.black())},
                      {"white_team", TeamOf(t, b.white())},
                      {"result", tournament::GameResultText(b.result())}});
  }
  return boards;
}

std::string BoardsText(const qipu::v1::Tournament& t,
                       const qipu::v1::Pairing& p) {
  std::string out;
  for (const qipu::v1::BoardGame& b : p.boards()) {
    absl::StrAppendFormat(
        &out, "             board %2d  %-24s (B) - %-24s (W)  %s\n", b.board(),
        PlayerName(t, b.black()), PlayerName(t, b.white()),
        tournament::GameResultText(b.result()));
  }
  return out;
}

void AddTeamColumns(const tournament::StandingRow& r, Json* row) {
  (*row)["match_points"] = r.points;
  (*row)["board_points"] = r.board_points;
  (*row)["board_scores"] = r.board_scores;
  for (size_t b = 0; b < r.board_scores.size(); ++b) {
    (*row)[absl::StrCat("board_", b + 1)] = r.board_scores[b];
  }
}

std::string TeamStandingsText(const qipu::v1::Tournament& t,
                              const tournament::Standings& s) {
  std::string out = absl::StrFormat(
      "%s: ranked by match points, board points, board 1's points, board "
      "2's ...\n",
      t.name());
  absl::StrAppendFormat(&out, "%4s  %-24s %6s %6s", "rank", "team", "match",
                        "board");
  for (uint32_t b = 1; b <= t.boards(); ++b) {
    absl::StrAppendFormat(&out, " %4s", absl::StrCat("b", b));
  }
  out += "  won-drawn-lost\n";
  for (const tournament::StandingRow& r : s.rows) {
    absl::StrAppendFormat(&out, "%4d  %-24s %6d %6d", r.rank, r.name, r.points,
                          r.board_points);
    for (const int score : r.board_scores) {
      absl::StrAppendFormat(&out, " %4d", score);
    }
    absl::StrAppendFormat(
        &out, "  %d-%d-%d%s%s\n", r.wins, r.draws, r.losses,
        r.byes > 0 ? absl::StrCat("  ", r.byes, " bye(s)") : "",
        r.withdrawn ? "  withdrawn" : "");
  }
  return out;
}

std::string TeamStandingsCsv(const qipu::v1::Tournament& t,
                             const tournament::Standings& s) {
  std::string out = "rank,name,match_points,board_points";
  for (uint32_t b = 1; b <= t.boards(); ++b)
    absl::StrAppend(&out, ",board_", b);
  out += ",matches,wins,draws,losses,byes,warnings,withdrawn\n";
  for (const tournament::StandingRow& r : s.rows) {
    absl::StrAppend(&out, r.rank, ",", CsvField(r.name), ",", r.points, ",",
                    r.board_points);
    for (const int score : r.board_scores) absl::StrAppend(&out, ",", score);
    absl::StrAppend(&out, ",", r.games, ",", r.wins, ",", r.draws, ",",
                    r.losses, ",", r.byes, ",", r.warnings, ",",
                    r.withdrawn ? 1 : 0, "\n");
  }
  return out;
}

std::string ChallengeStandingsText(const qipu::v1::Tournament& t,
                                   const tournament::Standings& s) {
  std::string out = absl::StrFormat(
      "%s: team challenge, the winner stays on\n%4s  %-24s %5s %13s\n",
      t.name(), "rank", "team", "wins", "players left");
  for (const tournament::StandingRow& r : s.rows) {
    // ComputeStandings keeps the players still to play in `games`.
    absl::StrAppendFormat(&out, "%4d  %-24s %5d %13d\n", r.rank, r.name, r.wins,
                          r.games);
  }
  return out;
}

std::string TeamCrossCellText(const tournament::CrossCell& c) {
  if (c.result == "bye") {
    return absl::StrCat("bye ", c.board_points, ":0");
  }
  if (c.opponent_rank == 0) return c.result;
  return absl::StrCat(c.opponent_rank, c.result, c.board_points, ":",
                      c.opponent_board_points);
}

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  return absl::StrCat("\"", absl::StrReplaceAll(s, {{"\"", "\"\""}}), "\"");
}

}  // namespace qipu::report
