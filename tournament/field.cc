#include "tournament/field.h"

#include <algorithm>

namespace qipu::tournament {

bool Entrant::HasMet(int other) const {
  for (const Meeting& m : meetings) {
    if (m.opponent == other) return true;
  }
  return false;
}

v1::GameResult TeamMatchResult(const v1::Pairing& pairing) {
  if (pairing.boards_size() == 0) return v1::GAME_RESULT_UNKNOWN;
  int black_points = 0;
  int white_points = 0;
  bool all_forfeit_black = true;
  bool all_forfeit_white = true;
  bool any_counted = false;
  for (int b = 0; b < pairing.boards_size(); ++b) {
    const v1::BoardGame& game = pairing.boards(b);
    if (game.result() == v1::GAME_RESULT_UNKNOWN) {
      return v1::GAME_RESULT_UNKNOWN;
    }
    // Team `black` holds Black on odd boards (index 0, 2, ...).
    const bool team_black_has_black = b % 2 == 0;
    const Outcome own = OutcomeFor(game.result(), team_black_has_black);
    const Outcome their = OutcomeFor(game.result(), !team_black_has_black);
    black_points += OutcomePoints(own);
    white_points += OutcomePoints(their);
    any_counted = any_counted || Counts(own);
    all_forfeit_black = all_forfeit_black && own == Outcome::kForfeitWin;
    all_forfeit_white = all_forfeit_white && their == Outcome::kForfeitWin;
  }
  if (!any_counted) return v1::GAME_RESULT_VOID;
  if (all_forfeit_black) return v1::GAME_RESULT_BLACK_FORFEIT_WIN;
  if (all_forfeit_white) return v1::GAME_RESULT_WHITE_FORFEIT_WIN;
  if (black_points > white_points) return v1::GAME_RESULT_BLACK_WINS;
  if (white_points > black_points) return v1::GAME_RESULT_WHITE_WINS;
  return v1::GAME_RESULT_DRAW;
}

namespace {

void AddMeeting(Entrant& e, Meeting m, bool teams) {
  if (m.black) {
    ++e.blacks;
  } else {
    ++e.whites;
  }
  e.colour_before_last = e.last_colour;
  e.last_colour = m.black ? 1 : -1;
  if (Counts(m.outcome)) {
    ++e.games;
    e.points += OutcomePoints(m.outcome);
    if (IsWin(m.outcome)) ++e.wins;
    if (m.outcome == Outcome::kDraw) ++e.draws;
    if (IsLoss(m.outcome)) ++e.losses;
    if (teams) {
      e.board_points += m.board_points;
      for (size_t b = 0; b < m.board_scores.size(); ++b) {
        if (b < e.board_scores.size()) e.board_scores[b] += m.board_scores[b];
      }
    }
  }
  e.meetings.push_back(std::move(m));
}

}  // namespace

Field BuildField(const v1::Tournament& t) {
  Field field;
  field.teams = t.teams_event();
  field.boards = static_cast<int>(t.boards());
  if (field.teams) {
    for (int i = 0; i < t.teams_size(); ++i) {
      const v1::TournamentTeam& team = t.teams(i);
      Entrant e;
      e.index = i;
      e.name = team.name();
      e.order = static_cast<int>(team.order());
      e.removed = team.removed();
      e.withdrawn_at_round = static_cast<int>(team.withdrawn_at_round());
      e.results_void = team.results_void();
      e.board_scores.assign(std::max(field.boards, 0), 0);
      field.entrants.push_back(std::move(e));
    }
    for (const v1::TournamentPlayer& p : t.players()) {
      for (Entrant& e : field.entrants) {
        if (e.name == p.team()) {
          e.warnings += static_cast<int>(p.warnings());
          e.rating += p.rating();
        }
      }
    }
  } else {
    for (int i = 0; i < t.players_size(); ++i) {
      const v1::TournamentPlayer& p = t.players(i);
      Entrant e;
      e.index = i;
      e.name = p.name();
      e.order = static_cast<int>(p.order());
      e.rating = p.rating();
      e.removed = p.removed();
      e.withdrawn_at_round = static_cast<int>(p.withdrawn_at_round());
      e.results_void = p.results_void();
      e.warnings = static_cast<int>(p.warnings());
      e.entered_at_round = std::max(1, static_cast<int>(p.entered_at_round()));
      // A late entry's missed rounds, as far as they are paired.
      for (int r = 1; r < e.entered_at_round && r <= t.round_size(); ++r) {
        e.late_rounds.push_back(r);
        e.points += static_cast<int>(t.late_entry_points());
      }
      field.entrants.push_back(std::move(e));
    }
  }
  const int n = static_cast<int>(field.entrants.size());
  for (const v1::Round& round : t.round()) {
    const int r = static_cast<int>(round.number());
    for (const v1::Pairing& p : round.pairings()) {
      if (p.black() < 0 || p.white() < 0 || p.black() >= n || p.white() >= n ||
          p.black() == p.white()) {
        continue;
      }
      // A round robin withdrawal under half the rounds voids every game
      // of the entrant (art. 28.2); the stored results are kept.
      const bool voided = field.entrants[p.black()].results_void ||
                          field.entrants[p.white()].results_void;
      const v1::GameResult result = voided        ? v1::GAME_RESULT_VOID
                                    : field.teams ? TeamMatchResult(p)
                                                  : p.result();
      for (const bool black : {true, false}) {
        Meeting m;
        m.round = r;
        m.table = static_cast<int>(p.table());
        m.opponent = black ? p.white() : p.black();
        m.black = black;
        m.result = result;
        m.outcome = OutcomeFor(result, black);
        m.replay = round.replay();
        if (field.teams) {
          m.board_scores.assign(std::max(field.boards, 0), 0);
          for (int b = 0; b < p.boards_size(); ++b) {
            const bool has_black = (b % 2 == 0) == black;
            const int pts =
                OutcomePoints(OutcomeFor(p.boards(b).result(), has_black));
            m.board_points += pts;
            if (b < static_cast<int>(m.board_scores.size())) {
              m.board_scores[b] = pts;
            }
          }
        }
        Entrant& e = field.entrants[black ? p.black() : p.white()];
        AddMeeting(e, std::move(m), field.teams);
      }
    }
    for (const int absent : round.absent()) {
      if (absent < 0 || absent >= n) continue;
      field.entrants[absent].absent_rounds.push_back(r);
      field.entrants[absent].points += static_cast<int>(t.sit_out_points());
    }
    for (const int cut : round.cut()) {
      if (cut < 0 || cut >= n) continue;
      if (field.entrants[cut].cut_at_round == 0) {
        field.entrants[cut].cut_at_round = r;
      }
    }
    for (const int bye : round.byes()) {
      if (bye < 0 || bye >= n) continue;
      Entrant& e = field.entrants[bye];
      e.bye_rounds.push_back(r);
      e.points += kByePoints;
      if (field.teams) {
        // A bye is a match won on every board (documented in README).
        e.board_points += kWinPoints * field.boards;
        for (int& s : e.board_scores) s += kWinPoints;
      }
    }
  }
  return field;
}

}  // namespace qipu::tournament
