#include "tournament/standings.h"

#include <algorithm>
#include <climits>
#include <functional>
#include <map>

#include "absl/strings/str_cat.h"
#include "tournament/event_state.h"
#include "tournament/match.h"
#include "tournament/swiss_elimination.h"

namespace qipu::tournament {

namespace {

using Less = std::function<bool(const StandingRow&, const StandingRow&)>;
using Same = std::function<bool(const StandingRow&, const StandingRow&)>;

// Rows for every entrant not removed, with points and tie-break values.
std::vector<StandingRow> BaseRows(const Field& field, uint64_t lots) {
  std::vector<StandingRow> rows;
  for (const Entrant& e : field.entrants) {
    if (e.removed) continue;
    StandingRow row;
    row.entrant = e.index;
    row.name = e.name;
    row.points = e.points;
    row.warnings = e.warnings;
    row.lot = DrawLot(lots, e.index);
    row.games = e.games;
    row.wins = e.wins;
    row.draws = e.draws;
    row.losses = e.losses;
    row.byes = static_cast<int>(e.bye_rounds.size());
    row.absent =
        static_cast<int>(e.late_rounds.size() + e.absent_rounds.size());
    row.withdrawn = e.withdrawn_at_round != 0;
    row.results_void = e.results_void;
    row.board_points = e.board_points;
    row.board_scores = e.board_scores;
    for (const Meeting& m : e.meetings) {
      if (!Counts(m.outcome)) continue;
      const int opp = field.entrants[m.opponent].points;
      row.sos += opp;
      if (IsWin(m.outcome)) row.sodos += opp;
      if (m.outcome == Outcome::kDraw) row.sodos += opp / 2.0;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

// Sorts and numbers the rows; rows that `same` calls equal to the row
// before share its rank.
void Rank(std::vector<StandingRow>& rows, const Less& less, const Same& same,
          int first_rank = 1) {
  std::stable_sort(rows.begin(), rows.end(), less);
  for (size_t i = 0; i < rows.size(); ++i) {
    if (i > 0 && same && same(rows[i - 1], rows[i])) {
      rows[i].rank = rows[i - 1].rank;
    } else {
      rows[i].rank = first_rank + static_cast<int>(i);
    }
  }
}

bool RoundRobinLess(const StandingRow& a, const StandingRow& b) {
  if (a.results_void != b.results_void) return !a.results_void;
  if (a.points != b.points) return a.points > b.points;
  if (a.sodos != b.sodos) return a.sodos > b.sodos;
  if (a.warnings != b.warnings) return a.warnings < b.warnings;
  if (a.lot != b.lot) return a.lot < b.lot;
  return a.entrant < b.entrant;
}

bool SwissLess(const StandingRow& a, const StandingRow& b) {
  if (a.results_void != b.results_void) return !a.results_void;
  if (a.points != b.points) return a.points > b.points;
  if (a.sos != b.sos) return a.sos > b.sos;
  if (a.warnings != b.warnings) return a.warnings < b.warnings;
  if (a.lot != b.lot) return a.lot < b.lot;
  return a.entrant < b.entrant;
}

bool TeamSame(const StandingRow& a, const StandingRow& b) {
  return a.results_void == b.results_void && a.points == b.points &&
         a.board_points == b.board_points && a.board_scores == b.board_scores;
}

bool TeamLess(const StandingRow& a, const StandingRow& b) {
  if (a.results_void != b.results_void) return !a.results_void;
  if (a.points != b.points) return a.points > b.points;
  if (a.board_points != b.board_points) return a.board_points > b.board_points;
  if (a.board_scores != b.board_scores) {
    return std::lexicographical_compare(
        a.board_scores.begin(), a.board_scores.end(), b.board_scores.begin(),
        b.board_scores.end(), std::greater<int>());
  }
  return a.entrant < b.entrant;
}

// Fills out_in_round and knockout_losses of the stage's rows.
void MarkElimination(const Field& field, const EliminationStage& stage,
                     std::vector<StandingRow>& rows) {
  std::map<int, int> seed;
  for (size_t i = 0; i < stage.seeds.size(); ++i) seed[stage.seeds[i]] = i;
  for (StandingRow& row : rows) {
    if (!seed.count(row.entrant)) continue;
    row.in_knockout = true;
    const Entrant& e = field.entrants[row.entrant];
    int losses = 0;
    for (const Meeting& m : e.meetings) {
      if (m.round < stage.first_round || !IsLoss(m.outcome)) continue;
      ++losses;
      if (losses == stage.losses) row.out_in_round = m.round;
    }
    row.knockout_losses = losses;
    if (row.out_in_round == 0 && e.withdrawn_at_round != 0) {
      row.out_in_round = std::max(e.withdrawn_at_round - 1, stage.first_round);
    }
  }
}

void RankElimination(const EliminationStage& stage,
                     std::vector<StandingRow>& rows, int first_rank) {
  std::map<int, int> seed;
  for (size_t i = 0; i < stage.seeds.size(); ++i) seed[stage.seeds[i]] = i;
  const auto key = [](const StandingRow& r) {
    return r.out_in_round == 0 ? INT_MAX : r.out_in_round;
  };
  Rank(
      rows,
      [&](const StandingRow& a, const StandingRow& b) {
        if (key(a) != key(b)) return key(a) > key(b);
        if (a.knockout_losses != b.knockout_losses) {
          return a.knockout_losses < b.knockout_losses;
        }
        return seed[a.entrant] < seed[b.entrant];
      },
      [&](const StandingRow& a, const StandingRow& b) {
        return key(a) == key(b) && a.knockout_losses == b.knockout_losses;
      },
      first_rank);
}

}  // namespace

std::vector<int> SwissOrder(const Field& field, uint64_t lots) {
  std::vector<StandingRow> rows = BaseRows(field, lots);
  std::stable_sort(rows.begin(), rows.end(), SwissLess);
  std::vector<int> order;
  order.reserve(rows.size());
  for (const StandingRow& row : rows) order.push_back(row.entrant);
  return order;
}

std::vector<int> SeedOrder(const Field& field) {
  std::vector<int> seeds;
  for (const Entrant& e : field.entrants) {
    if (!e.removed) seeds.push_back(e.index);
  }
  std::stable_sort(seeds.begin(), seeds.end(), [&](int a, int b) {
    const int oa =
        field.entrants[a].order == 0 ? INT_MAX : field.entrants[a].order;
    const int ob =
        field.entrants[b].order == 0 ? INT_MAX : field.entrants[b].order;
    return oa < ob;
  });
  return seeds;
}

absl::StatusOr<EliminationStage> StageOf(const v1::Tournament& t,
                                         const Field& field) {
  EliminationStage stage;
  stage.lots = t.drawing_lots();
  if (IsElimination(t.system())) {
    stage.seeds = SeedOrder(field);
    stage.first_round = 1;
    stage.losses = t.system() == v1::TOURNAMENT_SYSTEM_DOUBLE_KNOCKOUT
                       ? 2
                       : std::max<int>(1, static_cast<int>(t.losses()));
    return stage;
  }
  if (t.system() != v1::TOURNAMENT_SYSTEM_SWISS_KNOCKOUT) {
    return absl::FailedPreconditionError("not an elimination system");
  }
  const int swiss_rounds = static_cast<int>(t.rounds());
  if (t.round_size() < swiss_rounds) {
    return absl::FailedPreconditionError(
        absl::StrCat("the knockout starts after the ", swiss_rounds,
                     " Swiss rounds; ", t.round_size(), " paired"));
  }
  v1::Tournament swiss = t;
  while (swiss.round_size() > swiss_rounds) swiss.mutable_round()->RemoveLast();
  const Field swiss_field = BuildField(swiss);
  std::vector<StandingRow> rows = BaseRows(swiss_field, t.drawing_lots());
  std::stable_sort(rows.begin(), rows.end(), SwissLess);
  for (const StandingRow& row : rows) {
    if (static_cast<int>(stage.seeds.size()) >=
        static_cast<int>(t.knockout_size())) {
      break;
    }
    if (!field.entrants[row.entrant].PlaysIn(swiss_rounds + 1)) continue;
    stage.seeds.push_back(row.entrant);
  }
  stage.first_round = swiss_rounds + 1;
  stage.losses = 1;
  return stage;
}

absl::StatusOr<Standings> ComputeStandings(const v1::Tournament& t) {
  const Field field = BuildField(t);
  Standings s;
  s.rows = BaseRows(field, t.drawing_lots());
  switch (t.system()) {
    case v1::TOURNAMENT_SYSTEM_ROUND_ROBIN:
    case v1::TOURNAMENT_SYSTEM_DOUBLE_ROUND_ROBIN:
    case v1::TOURNAMENT_SYSTEM_SWISS:
      if (t.teams_event()) {
        s.order = {"match_points", "board_points", "board_1", "board_2..."};
        Rank(s.rows, TeamLess, TeamSame);
      } else if (t.system() == v1::TOURNAMENT_SYSTEM_SWISS) {
        s.order = {"points", "sos", "warnings", "lots"};
        Rank(s.rows, SwissLess, nullptr);
      } else {
        s.order = {"points", "sodos", "warnings", "lots"};
        Rank(s.rows, RoundRobinLess, nullptr);
      }
      return s;
    case v1::TOURNAMENT_SYSTEM_KNOCKOUT:
    case v1::TOURNAMENT_SYSTEM_DOUBLE_KNOCKOUT: {
      auto stage = StageOf(t, field);
      if (!stage.ok()) return stage.status();
      s.order = {"still_in", "out_in_round", "knockout_losses"};
      MarkElimination(field, *stage, s.rows);
      RankElimination(*stage, s.rows, 1);
      return s;
    }
    case v1::TOURNAMENT_SYSTEM_SWISS_KNOCKOUT: {
      s.order = {"knockout", "points", "sos", "warnings", "lots"};
      auto stage = StageOf(t, field);
      if (!stage.ok()) {
        Rank(s.rows, SwissLess, nullptr);
        return s;
      }
      // Swiss values from the Swiss rounds only.
      v1::Tournament swiss = t;
      while (swiss.round_size() > static_cast<int>(t.rounds())) {
        swiss.mutable_round()->RemoveLast();
      }
      std::vector<StandingRow> rows =
          BaseRows(BuildField(swiss), t.drawing_lots());
      MarkElimination(field, *stage, rows);
      std::vector<StandingRow> knockout;
      std::vector<StandingRow> rest;
      for (StandingRow& row : rows) {
        (row.in_knockout ? knockout : rest).push_back(std::move(row));
      }
      RankElimination(*stage, knockout, 1);
      Rank(rest, SwissLess, nullptr, static_cast<int>(knockout.size()) + 1);
      s.rows = std::move(knockout);
      for (StandingRow& row : rest) s.rows.push_back(std::move(row));
      return s;
    }
    case v1::TOURNAMENT_SYSTEM_SWISS_ELIMINATION: {
      s.order = {"still_in", "out_in_round", "points",
                 "sos",      "warnings",     "lots"};
      for (StandingRow& row : s.rows) {
        const Entrant& e = field.entrants[row.entrant];
        row.in_knockout = true;
        row.knockout_losses = e.losses;
        // Out after round 0 cannot be: a withdrawal after the start is
        // from round 2 on, and a cut from round 2.
        row.out_in_round = std::max(0, SwissEliminationOutAfter(t, e));
      }
      const auto key = [](const StandingRow& r) {
        return r.out_in_round == 0 ? INT_MAX : r.out_in_round;
      };
      Rank(
          s.rows,
          [&](const StandingRow& a, const StandingRow& b) {
            if (key(a) != key(b)) return key(a) > key(b);
            return SwissLess(a, b);
          },
          nullptr);
      return s;
    }
    case v1::TOURNAMENT_SYSTEM_BEST_OF: {
      s.order = {"points"};
      Rank(
          s.rows,
          [](const StandingRow& a, const StandingRow& b) {
            if (a.points != b.points) return a.points > b.points;
            return a.entrant < b.entrant;
          },
          [](const StandingRow& a, const StandingRow& b) {
            return a.points == b.points;
          });
      return s;
    }
    case v1::TOURNAMENT_SYSTEM_TEAM_CHALLENGE: {
      auto state = ScoreChallenge(t, field);
      if (!state.ok()) return state.status();
      s.order = {"result", "players_left", "wins"};
      s.rows.clear();
      for (int k = 0; k < 2; ++k) {
        StandingRow row;
        row.entrant = k;
        row.name = t.teams(k).name();
        for (const int p : state->team[k]) {
          row.points += state->wins[p];
          row.wins += state->wins[p];
        }
        // Players still to play, for the order while the match is on.
        row.games = static_cast<int>(state->team[k].size()) - state->out[k];
        s.rows.push_back(std::move(row));
      }
      const int winner = state->winner;
      Rank(
          s.rows,
          [&](const StandingRow& a, const StandingRow& b) {
            if (winner >= 0) return a.entrant == winner && b.entrant != winner;
            return a.games > b.games;
          },
          [&](const StandingRow& a, const StandingRow& b) {
            return winner < 0 && a.games == b.games;
          });
      return s;
    }
    default:
      return absl::FailedPreconditionError(
          "the tournament has no system (TOURNAMENT_SYSTEM_UNSPECIFIED)");
  }
}

absl::StatusOr<Crosstable> ComputeCrosstable(const v1::Tournament& t) {
  const Field field = BuildField(t);
  Crosstable table;
  table.rounds = t.round_size();
  table.teams = t.teams_event();
  std::map<int, int> rank_of;
  std::map<int, int> points_of;
  std::vector<int> order;
  if (t.system() == v1::TOURNAMENT_SYSTEM_TEAM_CHALLENGE) {
    for (const Entrant& e : field.entrants) {
      if (!e.removed) order.push_back(e.index);
    }
  } else {
    auto standings = ComputeStandings(t);
    if (!standings.ok()) return standings.status();
    for (const StandingRow& row : standings->rows) {
      order.push_back(row.entrant);
      rank_of[row.entrant] = row.rank;
      points_of[row.entrant] = row.points;
    }
  }
  for (const int index : order) {
    const Entrant& e = field.entrants[index];
    CrossRow row;
    row.rank = rank_of.count(index) ? rank_of[index] : 0;
    row.entrant = index;
    row.name = e.name;
    row.points = points_of.count(index) ? points_of[index] : e.points;
    row.board_points = e.board_points;
    row.cells.resize(table.rounds);
    for (int r = 0; r < table.rounds; ++r) row.cells[r].round = r + 1;
    for (const auto* rounds : {&e.late_rounds, &e.absent_rounds}) {
      for (const int r : *rounds) {
        if (r >= 1 && r <= table.rounds) row.cells[r - 1].result = "absent";
      }
    }
    if (e.cut_at_round >= 1 && e.cut_at_round <= table.rounds) {
      row.cells[e.cut_at_round - 1].result = "cut";
    }
    for (const int r : e.bye_rounds) {
      if (r < 1 || r > table.rounds) continue;
      row.cells[r - 1].result = "bye";
      // A team bye is a match won on every board (field.cc).
      if (table.teams)
        row.cells[r - 1].board_points = kWinPoints * field.boards;
    }
    for (const Meeting& m : e.meetings) {
      if (m.round < 1 || m.round > table.rounds) continue;
      CrossCell& cell = row.cells[m.round - 1];
      cell.opponent = m.opponent;
      cell.opponent_rank = rank_of.count(m.opponent) ? rank_of[m.opponent] : 0;
      cell.colour = m.black ? 'b' : 'w';
      if (table.teams && m.result != v1::GAME_RESULT_VOID) {
        cell.board_points = m.board_points;
        for (const Meeting& o : field.entrants[m.opponent].meetings) {
          if (o.round == m.round && o.table == m.table) {
            cell.opponent_board_points = o.board_points;
          }
        }
      }
      switch (m.outcome) {
        case Outcome::kWin:
          cell.result = "+";
          break;
        case Outcome::kForfeitWin:
          cell.result = "+!";
          break;
        case Outcome::kDraw:
          cell.result = "=";
          break;
        case Outcome::kLoss:
          cell.result = "-";
          break;
        case Outcome::kForfeitLoss:
          cell.result = "-!";
          break;
        case Outcome::kBothLose:
          cell.result = "x";
          break;
        case Outcome::kNone:
          cell.result = m.result == v1::GAME_RESULT_VOID ? "void" : "?";
          break;
      }
    }
    table.rows.push_back(std::move(row));
  }
  return table;
}

}  // namespace qipu::tournament
