#include "report/tournament_report.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "report/team_report.h"
#include "report/tournament_print.h"
#include "tournament/outcome.h"
#include "tournament/tournament.h"

namespace qipu::report {
namespace {

using Json = nlohmann::json;
using qipu::v1::GameResult;

// A team match's board points and boards; a team challenge's teams.
void AddMatchJson(const qipu::v1::Tournament& t, const qipu::v1::Pairing& p,
                  Json* e) {
  if (t.teams_event()) {
    const auto [black, white] = MatchBoardPoints(p);
    (*e)["black_board_points"] = black;
    (*e)["white_board_points"] = white;
    (*e)["boards"] = BoardsJson(t, p);
  } else if (t.system() == qipu::v1::TOURNAMENT_SYSTEM_TEAM_CHALLENGE) {
    for (const bool black : {true, false}) {
      const int player = black ? p.black() : p.white();
      (*e)[black ? "black_team" : "white_team"] =
          player >= 0 && player < t.players_size() ? t.players(player).team()
                                                   : "";
    }
  }
}

Json PairingsJson(const qipu::v1::Tournament& t, const qipu::v1::Round& r) {
  Json pairings = Json::array();
  for (const qipu::v1::Pairing& p : r.pairings()) {
    Json e = {{"table", p.table()},
              {"black", EntrantName(t, p.black())},
              {"white", EntrantName(t, p.white())},
              {"result", tournament::GameResultText(p.result())}};
    AddMatchJson(t, p, &e);
    pairings.push_back(std::move(e));
  }
  return pairings;
}

std::vector<std::string> NamesOf(
    const qipu::v1::Tournament& t,
    const google::protobuf::RepeatedField<int32_t>& list) {
  std::vector<std::string> out;
  for (const int e : list) out.push_back(EntrantName(t, e));
  return out;
}

std::vector<std::string> ByeNames(const qipu::v1::Tournament& t,
                                  const qipu::v1::Round& r) {
  return NamesOf(t, r.byes());
}

std::string PairingsText(const qipu::v1::Tournament& t,
                         const qipu::v1::Round& r) {
  std::string out = absl::StrFormat("round %d\n", r.number());
  for (const qipu::v1::Pairing& p : r.pairings()) {
    std::string result = tournament::GameResultText(p.result());
    if (t.teams_event()) {
      const auto [black, white] = MatchBoardPoints(p);
      result = absl::StrCat(black, ":", white, "  ", result);
    }
    absl::StrAppendFormat(&out, "  table %3d  %s (B) - %s (W)  %s\n", p.table(),
                          PadRight(EntrantFullName(t, p.black()), 24),
                          PadRight(EntrantFullName(t, p.white()), 24), result);
    out += BoardsText(t, p);
  }
  for (const int b : r.byes()) {
    absl::StrAppendFormat(&out, "  bye        %s\n", EntrantFullName(t, b));
  }
  if (r.absent_size() > 0) {
    absl::StrAppend(&out, "  sitting out ",
                    absl::StrJoin(NamesOf(t, r.absent()), ", "), "\n");
  }
  if (r.cut_size() > 0) {
    absl::StrAppend(&out, "  cut (art. 26.4) ",
                    absl::StrJoin(NamesOf(t, r.cut()), ", "), "\n");
  }
  if (r.unpaired_size() > 0) {
    absl::StrAppend(&out, "  not paired yet ",
                    absl::StrJoin(NamesOf(t, r.unpaired()), ", "), "\n");
  }
  return out;
}

std::string XmlEscape(const std::string& s) {
  return absl::StrReplaceAll(s, {{"&", "&amp;"},
                                 {"<", "&lt;"},
                                 {">", "&gt;"},
                                 {"\"", "&quot;"},
                                 {"'", "&apos;"}});
}

// OpenGotha's participating string of player `p`: one character a round,
// '1' when the player is (to be) paired in it. A player who withdrew with
// withdrawn_at_round n (not paired from round n on) plays rounds 1 ..
// n-1; a late entry from its round; a round sat out is '0'.
std::string Participating(const qipu::v1::Tournament& t,
                          const qipu::v1::TournamentPlayer& p) {
  std::string out(std::max<int>(t.rounds(), t.round_size()), '1');
  const auto off = [&](int round) {
    if (round >= 1 && round <= static_cast<int>(out.size())) {
      out[round - 1] = '0';
    }
  };
  if (p.withdrawn_at_round() > 0) {
    for (int r = p.withdrawn_at_round(); r <= static_cast<int>(out.size());
         ++r) {
      off(r);
    }
  }
  for (int r = 1; r < static_cast<int>(p.entered_at_round()); ++r) off(r);
  for (const uint32_t r : p.sit_out_rounds()) off(static_cast<int>(r));
  return out;
}

const char* OpenGothaResult(GameResult r) {
  switch (r) {
    case qipu::v1::GAME_RESULT_BLACK_WINS:
      return "RESULT_BLACKWINS";
    case qipu::v1::GAME_RESULT_WHITE_WINS:
      return "RESULT_WHITEWINS";
    case qipu::v1::GAME_RESULT_DRAW:
      return "RESULT_EQUAL";
    case qipu::v1::GAME_RESULT_BLACK_FORFEIT_WIN:
      return "RESULT_BLACKWINS_BYDEF";
    case qipu::v1::GAME_RESULT_WHITE_FORFEIT_WIN:
      return "RESULT_WHITEWINS_BYDEF";
    case qipu::v1::GAME_RESULT_BOTH_LOSE:
      return "RESULT_BOTHLOSE";
    default:
      return "RESULT_UNKNOWN";
  }
}

}  // namespace

std::string EntrantName(const qipu::v1::Tournament& t, int index) {
  if (t.teams_event()) {
    return index >= 0 && index < t.teams_size() ? t.teams(index).name() : "";
  }
  return index >= 0 && index < t.players_size() ? t.players(index).name() : "";
}

Json TournamentSummaryJson(const qipu::v1::Tournament& t) {
  Json players = Json::array();
  for (const qipu::v1::TournamentPlayer& p : t.players()) {
    if (p.removed()) continue;
    players.push_back({{"name", p.name()},
                       {"alt_name", p.alt_name()},
                       {"rating", p.rating()},
                       {"rank", p.rank()},
                       {"club", p.club()},
                       {"team", p.team()},
                       {"board", p.board()},
                       {"seed", p.order()},
                       {"warnings", p.warnings()},
                       {"withdrawn_at_round", p.withdrawn_at_round()},
                       {"entered_at_round", p.entered_at_round()},
                       {"sit_out_rounds", Json(std::vector<uint32_t>(
                                              p.sit_out_rounds().begin(),
                                              p.sit_out_rounds().end()))}});
  }
  Json teams = Json::array();
  for (const qipu::v1::TournamentTeam& team : t.teams()) {
    if (!team.removed()) teams.push_back(team.name());
  }
  Json rounds = Json::array();
  for (const qipu::v1::Round& r : t.round()) {
    rounds.push_back({{"round", r.number()},
                      {"pairings", PairingsJson(t, r)},
                      {"byes", ByeNames(t, r)},
                      {"absent", NamesOf(t, r.absent())},
                      {"cut", NamesOf(t, r.cut())},
                      {"unpaired", NamesOf(t, r.unpaired())},
                      {"edited", r.edited()}});
  }
  Json j = {{"tournament", t.id()},
            {"name", t.name()},
            {"system", tournament::SystemName(t.system())},
            {"rounds", t.rounds()},
            {"rounds_paired", t.round_size()},
            {"players", std::move(players)},
            {"teams", std::move(teams)},
            {"round", std::move(rounds)},
            {"changes", t.history_size()}};
  if (t.eliminate_after() > 0) j["eliminate_after"] = t.eliminate_after();
  if (t.accelerated_rounds() > 0) {
    j["accelerated_rounds"] = t.accelerated_rounds();
  }
  j["late_entry_points"] = t.late_entry_points();
  j["sit_out_points"] = t.sit_out_points();
  return j;
}

std::string TournamentSummaryText(const qipu::v1::Tournament& t) {
  std::string out = absl::StrFormat(
      "tournament %s: %s (%s), %d rounds paired\n", t.id(), t.name(),
      tournament::SystemName(t.system()), t.round_size());
  for (const qipu::v1::TournamentPlayer& p : t.players()) {
    if (p.removed()) continue;
    absl::StrAppendFormat(
        &out, "  %s %5d %-4s %-16s %s%s%s%s\n", PadRight(FullName(p), 24),
        p.rating(), p.rank(), p.club(), p.team(),
        t.teams_event() && p.board() > 0 ? absl::StrCat(" board ", p.board())
                                         : "",
        p.withdrawn_at_round() > 0 ? absl::StrCat("  (withdrawn in round ",
                                                  p.withdrawn_at_round(), ")")
                                   : "",
        p.entered_at_round() > 1 ? absl::StrCat("  (late entry from round ",
                                                p.entered_at_round(), ")")
                                 : "");
  }
  for (const qipu::v1::Round& r : t.round()) out += PairingsText(t, r);
  return out;
}

Json PairingJson(const qipu::v1::PairResponse& r) {
  const std::vector<std::string> byes = ByeNames(r.tournament(), r.proposal());
  Json pairings = Json::array();
  for (const qipu::v1::Pairing& p : r.proposal().pairings()) {
    Json e = {{"table", p.table()},
              {"black", EntrantName(r.tournament(), p.black())},
              {"white", EntrantName(r.tournament(), p.white())}};
    AddMatchJson(r.tournament(), p, &e);
    pairings.push_back(std::move(e));
  }
  return {{"round", r.round()},
          {"paired", r.paired()},
          {"repeat_free", r.repeat_free()},
          {"repeats_needed", r.repeats_needed()},
          {"pairings", std::move(pairings)},
          {"bye", byes.empty() ? Json(nullptr) : Json(byes[0])},
          {"byes", byes}};
}

std::string PairingText(const qipu::v1::PairResponse& r) {
  std::string out = PairingsText(r.tournament(), r.proposal());
  if (!r.paired()) {
    absl::StrAppendFormat(&out,
                          "  (not paired: no pairing without %d repeats)\n",
                          r.repeats_needed());
  }
  return out;
}

Json StandingsJson(const qipu::v1::Tournament& t,
                   const tournament::Standings& s) {
  Json rows = Json::array();
  for (const tournament::StandingRow& r : s.rows) {
    Json e = {{"rank", r.rank},
              {"name", r.name},
              {"points", r.points},
              {"sos", r.sos},
              {"sodos", r.sodos},
              {"warnings", r.warnings},
              {"lots", r.lot},
              {"games", r.games},
              {"wins", r.wins},
              {"draws", r.draws},
              {"losses", r.losses},
              {"byes", r.byes},
              {"absent", r.absent},
              {"alt_name", t.teams_event() || r.entrant >= t.players_size()
                               ? std::string()
                               : t.players(r.entrant).alt_name()},
              {"withdrawn", r.withdrawn},
              {"results_void", r.results_void}};
    if (t.teams_event()) AddTeamColumns(r, &e);
    if (t.system() == qipu::v1::TOURNAMENT_SYSTEM_TEAM_CHALLENGE) {
      // ComputeStandings keeps the players still to play in `games`.
      e["players_left"] = r.games;
    }
    if (r.in_knockout || r.out_in_round > 0) {
      e["out_in_round"] = r.out_in_round;
      e["knockout_losses"] = r.knockout_losses;
    }
    rows.push_back(std::move(e));
  }
  return {{"tournament", t.id()}, {"order", s.order}, {"rows", rows}};
}

std::string StandingsText(const qipu::v1::Tournament& t,
                          const tournament::Standings& s) {
  if (t.teams_event()) return TeamStandingsText(t, s);
  if (t.system() == qipu::v1::TOURNAMENT_SYSTEM_TEAM_CHALLENGE) {
    return ChallengeStandingsText(t, s);
  }
  std::string out = absl::StrFormat("%s: ranked by %s\n", t.name(),
                                    absl::StrJoin(s.order, ", "));
  absl::StrAppendFormat(&out, "%4s  %s %6s %5s %6s %4s  %s\n", "rank",
                        PadRight("name", 28), "points", "sos", "sodos", "warn",
                        "won-drawn-lost");
  for (const tournament::StandingRow& r : s.rows) {
    std::string status = r.withdrawn ? "  withdrawn" : "";
    if (r.out_in_round > 0 &&
        t.system() == qipu::v1::TOURNAMENT_SYSTEM_SWISS_ELIMINATION) {
      status = absl::StrCat("  out after round ", r.out_in_round);
    }
    absl::StrAppendFormat(&out, "%4d  %s %6d %5d %6.1f %4d  %d-%d-%d%s\n",
                          r.rank, PadRight(EntrantFullName(t, r.entrant), 28),
                          r.points, r.sos, r.sodos, r.warnings, r.wins, r.draws,
                          r.losses, status);
  }
  return out;
}

std::string StandingsCsv(const qipu::v1::Tournament& t,
                         const tournament::Standings& s) {
  if (t.teams_event()) return TeamStandingsCsv(t, s);
  std::string out =
      "rank,name,points,sos,sodos,warnings,games,wins,draws,losses,byes,"
      "withdrawn,alt_name,absent\n";
  for (const tournament::StandingRow& r : s.rows) {
    const std::string alt =
        r.entrant < t.players_size() ? t.players(r.entrant).alt_name() : "";
    absl::StrAppend(&out, r.rank, ",", CsvField(r.name), ",", r.points, ",",
                    r.sos, ",", r.sodos, ",", r.warnings, ",", r.games, ",",
                    r.wins, ",", r.draws, ",", r.losses, ",", r.byes, ",",
                    r.withdrawn ? 1 : 0, ",", CsvField(alt), ",", r.absent,
                    "\n");
  }
  return out;
}

Json CrosstableJson(const tournament::Crosstable& x) {
  Json rows = Json::array();
  for (const tournament::CrossRow& r : x.rows) {
    Json cells = Json::array();
    for (const tournament::CrossCell& c : r.cells) {
      Json cell = {
          {"round", c.round},
          {"opponent_rank", c.opponent_rank},
          {"colour", c.colour == 0 ? std::string() : std::string(1, c.colour)},
          {"result", c.result}};
      if (x.teams) {
        cell["board_points"] = c.board_points;
        cell["opponent_board_points"] = c.opponent_board_points;
      }
      cells.push_back(std::move(cell));
    }
    Json row = {{"rank", r.rank},
                {"name", r.name},
                {"points", r.points},
                {"cells", std::move(cells)}};
    if (x.teams) row["board_points"] = r.board_points;
    rows.push_back(std::move(row));
  }
  return {{"rounds", x.rounds}, {"teams", x.teams}, {"rows", std::move(rows)}};
}

std::string CrosstableText(const tournament::Crosstable& x) {
  std::string out;
  for (const tournament::CrossRow& r : x.rows) {
    absl::StrAppendFormat(&out, "%4d  %-24s %4d ", r.rank, r.name, r.points);
    if (x.teams) absl::StrAppendFormat(&out, "%4d ", r.board_points);
    for (const tournament::CrossCell& c : r.cells) {
      if (x.teams) {
        absl::StrAppendFormat(&out, " %10s", TeamCrossCellText(c));
        continue;
      }
      std::string cell = c.result;
      if (c.opponent_rank > 0) {
        cell = absl::StrCat(
            c.opponent_rank, c.result, c.colour == 0 ? "" : "/",
            c.colour == 0 ? std::string() : std::string(1, c.colour));
      }
      absl::StrAppendFormat(&out, " %8s", cell);
    }
    out += "\n";
  }
  return out;
}

std::string OpenGothaXml(const qipu::v1::Tournament& t) {
  std::string out = absl::StrFormat(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<Tournament dataVersion=\"201\" externalIPAddress=\"\" "
      "fullVersionNumber=\"qipu\" runningRound=\"%d\" saveDT=\"\">\n"
      "<Players>\n",
      t.round_size());
  for (const qipu::v1::TournamentPlayer& p : t.players()) {
    if (p.removed()) continue;
    const std::string participating = Participating(t, p);
    absl::StrAppendFormat(
        &out,
        "<Player agaExpirationDate=\"\" agaId=\"\" club=\"%s\" country=\"\" "
        "egfPin=\"\" ffgLicence=\"\" ffgLicenceStatus=\"\" firstName=\"\" "
        "grade=\"\" name=\"%s\" participating=\"%s\" rank=\"%s\" "
        "rating=\"%d\" ratingOrigin=\"\" registeringStatus=\"FIN\" "
        "smmsCorrection=\"0\"/>\n",
        XmlEscape(p.club()), XmlEscape(p.name()), participating,
        XmlEscape(absl::AsciiStrToUpper(p.rank())), p.rating());
  }
  out += "</Players>\n<Games>\n";
  for (const qipu::v1::Round& r : t.round()) {
    for (const qipu::v1::Pairing& p : r.pairings()) {
      if (t.teams_event()) {
        for (const qipu::v1::BoardGame& b : p.boards()) {
          absl::StrAppendFormat(
              &out,
              "<Game blackPlayer=\"%s\" handicap=\"0\" knownColor=\"true\" "
              "result=\"%s\" roundNumber=\"%d\" tableNumber=\"%d\" "
              "whitePlayer=\"%s\"/>\n",
              XmlEscape(PlayerName(t, b.black())), OpenGothaResult(b.result()),
              r.number(),
              // One table per board game: match k's boards are tables
              // (k-1) * boards + 1 .. k * boards.
              (p.table() - 1) * t.boards() + b.board(),
              XmlEscape(PlayerName(t, b.white())));
        }
        continue;
      }
      absl::StrAppendFormat(
          &out,
          "<Game blackPlayer=\"%s\" handicap=\"0\" knownColor=\"true\" "
          "result=\"%s\" roundNumber=\"%d\" tableNumber=\"%d\" "
          "whitePlayer=\"%s\"/>\n",
          XmlEscape(EntrantName(t, p.black())), OpenGothaResult(p.result()),
          r.number(), p.table(), XmlEscape(EntrantName(t, p.white())));
    }
  }
  out += "</Games>\n<ByePlayers>\n";
  for (const qipu::v1::Round& r : t.round()) {
    for (int b : r.byes()) {
      absl::StrAppendFormat(&out,
                            "<ByePlayer player=\"%s\" roundNumber=\"%d\"/>\n",
                            XmlEscape(EntrantName(t, b)), r.number());
    }
  }
  out += absl::StrFormat(
      "</ByePlayers>\n<TournamentParameterSet>\n<GeneralParameterSet "
      "name=\"%s\" numberOfRounds=\"%d\" shortName=\"%s\"/>\n"
      "</TournamentParameterSet>\n</Tournament>\n",
      XmlEscape(t.name()), std::max<int>(t.rounds(), t.round_size()),
      XmlEscape(t.name()));
  return out;
}

std::vector<tournament::RatedGame> RatedGames(const qipu::v1::Tournament& t) {
  std::vector<tournament::RatedGame> out;
  auto add = [&](int black, int white, qipu::v1::GameResult r) {
    if (black < 0 || white < 0 || black == white) return;
    if (black >= t.players_size() || white >= t.players_size()) return;
    tournament::RatedOutcome o;
    switch (r) {
      case qipu::v1::GAME_RESULT_BLACK_WINS:
        o = tournament::RatedOutcome::kBlackWins;
        break;
      case qipu::v1::GAME_RESULT_WHITE_WINS:
        o = tournament::RatedOutcome::kWhiteWins;
        break;
      case qipu::v1::GAME_RESULT_DRAW:
        o = tournament::RatedOutcome::kDraw;
        break;
      default:
        return;
    }
    out.push_back({black, white, o});
  };
  for (const qipu::v1::Round& round : t.round()) {
    for (const qipu::v1::Pairing& p : round.pairings()) {
      if (t.teams_event()) {
        for (const qipu::v1::BoardGame& b : p.boards()) {
          add(b.black(), b.white(), b.result());
        }
      } else {
        add(p.black(), p.white(), p.result());
      }
    }
  }
  return out;
}

std::vector<std::string> PlayerNames(const qipu::v1::Tournament& t) {
  std::vector<std::string> names;
  for (const qipu::v1::TournamentPlayer& p : t.players()) {
    names.push_back(p.name());
  }
  return names;
}

namespace {

std::vector<const tournament::PlayerRating*> ByRating(
    const tournament::Ratings& r) {
  std::vector<const tournament::PlayerRating*> rows;
  for (const tournament::PlayerRating& p : r.players) rows.push_back(&p);
  std::stable_sort(rows.begin(), rows.end(), [](const auto* a, const auto* b) {
    return a->rating > b->rating;
  });
  return rows;
}

}  // namespace

Json RatingsJson(const tournament::Ratings& r) {
  Json players = Json::array();
  for (const tournament::PlayerRating* p : ByRating(r)) {
    players.push_back({{"name", p->name},
                       {"rating", p->rating},
                       {"low", p->low},
                       {"high", p->high},
                       {"games", p->games},
                       {"wins", p->wins},
                       {"draws", p->draws},
                       {"losses", p->losses},
                       {"score", p->score},
                       {"rated", p->rated}});
  }
  return {{"advantage", r.advantage},
          {"advantage_low", r.advantage_low},
          {"advantage_high", r.advantage_high},
          {"draw_elo", r.draw_elo},
          {"players", std::move(players)}};
}

std::string RatingsText(const tournament::Ratings& r) {
  std::string out = absl::StrFormat(
      "Bradley-Terry (BayesElo) ratings; Black's advantage %.0f Elo "
      "[%.0f, %.0f], draw_elo %.0f\n",
      r.advantage, r.advantage_low, r.advantage_high, r.draw_elo);
  absl::StrAppendFormat(&out, "%-24s %7s %15s %6s %6s\n", "name", "Elo", "95%",
                        "games", "score");
  for (const tournament::PlayerRating* p : ByRating(r)) {
    absl::StrAppendFormat(&out, "%-24s %7.0f  [%5.0f, %5.0f] %6d %5.0f%%\n",
                          p->name, p->rating, p->low, p->high, p->games,
                          100 * p->score);
  }
  return out;
}

}  // namespace qipu::report
