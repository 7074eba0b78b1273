// The pairing part of tournament.h: PairNextRound() -- the start of the
// event (checks of the field, seeding orders, the number of rounds), the
// draft of the round by its system (round_robin.h, swiss.h,
// elimination.h, match.h), and the Round it becomes: tables, the boards of
// team matches, and the forfeits and void games the withdrawal rules give.
#include <algorithm>
#include <climits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "tournament/elimination.h"
#include "tournament/event_state.h"
#include "tournament/field.h"
#include "tournament/match.h"
#include "tournament/round_robin.h"
#include "tournament/swiss.h"
#include "tournament/tournament.h"

namespace qipu::tournament {

namespace {

// Fixes the seeding orders when round 1 is paired.
void AssignOrders(v1::Tournament& t) {
  const Field field = BuildField(t);
  std::vector<int> entrants;
  for (const Entrant& e : field.entrants) {
    if (!e.removed) entrants.push_back(e.index);
  }
  // Orders set by the director are kept when they are a permutation of
  // 1..n; otherwise they are assigned.
  std::set<int> given;
  for (const int e : entrants) given.insert(field.entrants[e].order);
  const bool director =
      static_cast<int>(given.size()) == static_cast<int>(entrants.size()) &&
      !given.count(0) && *given.rbegin() == static_cast<int>(entrants.size());
  if (!director) {
    if (IsRoundRobin(t.system())) {
      // The numbers of the rotation table are drawn by lot (抽簽).
      std::stable_sort(entrants.begin(), entrants.end(), [&](int a, int b) {
        return DrawLot(t.drawing_lots() ^ 0x5eedULL, a) <
               DrawLot(t.drawing_lots() ^ 0x5eedULL, b);
      });
    } else {
      const auto strength = [&](int e) {
        if (t.teams_event()) return 0;
        auto s = RankStrength(t.players(e).rank());
        return s.ok() ? *s : INT_MIN;
      };
      std::stable_sort(entrants.begin(), entrants.end(), [&](int a, int b) {
        if (field.entrants[a].rating != field.entrants[b].rating) {
          return field.entrants[a].rating > field.entrants[b].rating;
        }
        return strength(a) > strength(b);
      });
    }
    for (size_t i = 0; i < entrants.size(); ++i) {
      const int order = static_cast<int>(i) + 1;
      if (t.teams_event()) {
        t.mutable_teams(entrants[i])->set_order(order);
      } else {
        t.mutable_players(entrants[i])->set_order(order);
      }
    }
  }
}

// The players of team `team` that play its boards, board 1 first.
std::vector<int> TeamLineUp(const v1::Tournament& t, int team) {
  std::vector<int> members;
  for (int i = 0; i < t.players_size(); ++i) {
    if (t.players(i).team() == t.teams(team).name() &&
        !t.players(i).removed()) {
      members.push_back(i);
    }
  }
  std::stable_sort(members.begin(), members.end(), [&](int a, int b) {
    return t.players(a).board() < t.players(b).board();
  });
  if (static_cast<int>(members.size()) > static_cast<int>(t.boards())) {
    members.resize(t.boards());
  }
  return members;
}

absl::Status StartEvent(v1::Tournament& t) {
  const Field field = BuildField(t);
  int entrants = 0;
  for (const Entrant& e : field.entrants) entrants += e.removed ? 0 : 1;
  const v1::TournamentSystem system = t.system();
  if (system == v1::TOURNAMENT_SYSTEM_TEAM_CHALLENGE) {
    if (t.teams_size() != 2) {
      return absl::FailedPreconditionError(absl::StrCat(
          "a team challenge needs 2 teams; ", t.teams_size(), " registered"));
    }
  } else if (entrants < 2) {
    return absl::FailedPreconditionError(absl::StrCat(
        "pairing needs at least 2 entrants; ", entrants, " registered"));
  }
  if (system == v1::TOURNAMENT_SYSTEM_BEST_OF && entrants != 2) {
    return absl::FailedPreconditionError(absl::StrCat(
        "a best-of match is between 2 entrants; ", entrants, " registered"));
  }
  if (t.teams_event()) {
    for (int k = 0; k < t.teams_size(); ++k) {
      if (t.teams(k).removed()) continue;
      const int size = static_cast<int>(TeamLineUp(t, k).size());
      if (size < static_cast<int>(t.boards())) {
        return absl::FailedPreconditionError(absl::StrCat(
            "team '", t.teams(k).name(), "' has ", size, " players for ",
            t.boards(), " boards (teams are of equal size, art. 25.2)"));
      }
    }
  }
  if (system == v1::TOURNAMENT_SYSTEM_SWISS_KNOCKOUT &&
      static_cast<int>(t.knockout_size()) > entrants) {
    return absl::FailedPreconditionError(
        absl::StrCat("the knockout takes ", t.knockout_size(),
                     " entrants; only ", entrants, " registered"));
  }
  AssignOrders(t);
  if (IsRoundRobin(system)) {
    t.set_rounds(RoundRobinRounds(
        entrants, system == v1::TOURNAMENT_SYSTEM_DOUBLE_ROUND_ROBIN));
  } else if ((system == v1::TOURNAMENT_SYSTEM_SWISS ||
              system == v1::TOURNAMENT_SYSTEM_SWISS_KNOCKOUT) &&
             t.rounds() == 0) {
    t.set_rounds(RecommendedSwissRounds(entrants));
  }
  t.set_started(true);
  return absl::OkStatus();
}

// The round robin draft of round `round`.
absl::StatusOr<RoundDraft> PairRoundRobin(const v1::Tournament& t,
                                          const Field& field, int round) {
  const std::vector<int> seeds = SeedOrder(field);
  const int n = static_cast<int>(seeds.size());
  const auto schedule = RotationSchedule(
      n, t.system() == v1::TOURNAMENT_SYSTEM_DOUBLE_ROUND_ROBIN);
  if (round > static_cast<int>(schedule.size())) {
    return absl::FailedPreconditionError(absl::StrCat(
        "all ", schedule.size(), " rounds of the round robin are paired"));
  }
  RoundDraft draft;
  for (const RotationGame& g : schedule[round - 1]) {
    if (g.left == 0 || g.right == 0) {
      const int number = g.left == 0 ? g.right : g.left;
      if (number > 0) draft.byes.push_back(seeds[number - 1]);
      continue;
    }
    const int left = seeds[g.left - 1];
    const int right = seeds[g.right - 1];
    draft.games.emplace_back(g.left_black ? left : right,
                             g.left_black ? right : left);
  }
  return draft;
}

// Turns a draft into a Round: tables, boards, and the forfeits and void
// games the withdrawal rules give.
v1::Round MakeRound(const v1::Tournament& t, const Field& field,
                    const RoundDraft& draft, int number) {
  v1::Round round;
  round.set_number(number);
  round.set_replay(draft.replay);
  const auto plays = [&](int e) { return field.entrants[e].PlaysIn(number); };
  for (const int bye : draft.byes) {
    // A withdrawn entrant gets no bye (nothing is played for it).
    if (plays(bye) && !field.entrants[bye].results_void) round.add_byes(bye);
  }
  int table = 0;
  for (const auto& [black, white] : draft.games) {
    v1::Pairing* p = round.add_pairings();
    p->set_table(++table);
    p->set_black(black);
    p->set_white(white);
    const bool b_in = plays(black);
    const bool w_in = plays(white);
    if (field.entrants[black].results_void ||
        field.entrants[white].results_void) {
      p->set_result(v1::GAME_RESULT_VOID);
      p->set_by_withdrawal(true);
    } else if (!b_in && !w_in) {
      p->set_result(v1::GAME_RESULT_BOTH_LOSE);
      p->set_by_withdrawal(true);
    } else if (!b_in) {
      p->set_result(v1::GAME_RESULT_WHITE_FORFEIT_WIN);
      p->set_by_withdrawal(true);
    } else if (!w_in) {
      p->set_result(v1::GAME_RESULT_BLACK_FORFEIT_WIN);
      p->set_by_withdrawal(true);
    }
    if (!t.teams_event()) continue;
    const std::vector<int> black_team = TeamLineUp(t, black);
    const std::vector<int> white_team = TeamLineUp(t, white);
    for (int b = 0; b < static_cast<int>(t.boards()); ++b) {
      v1::BoardGame* game = p->add_boards();
      game->set_board(b + 1);
      const int bp =
          b < static_cast<int>(black_team.size()) ? black_team[b] : -1;
      const int wp =
          b < static_cast<int>(white_team.size()) ? white_team[b] : -1;
      // Team `black` holds Black on odd boards.
      const bool odd = b % 2 == 0;
      game->set_black(odd ? bp : wp);
      game->set_white(odd ? wp : bp);
      if (p->by_withdrawal()) {
        const Outcome own = OutcomeFor(p->result(), true);
        if (!Counts(own)) {
          game->set_result(v1::GAME_RESULT_VOID);
        } else if (own == Outcome::kBothLose) {
          game->set_result(v1::GAME_RESULT_BOTH_LOSE);
        } else {
          const bool black_team_wins = IsWin(own);
          game->set_result(black_team_wins == odd
                               ? v1::GAME_RESULT_BLACK_FORFEIT_WIN
                               : v1::GAME_RESULT_WHITE_FORFEIT_WIN);
        }
        continue;
      }
      const auto gone = [&](int player) {
        if (player < 0) return true;
        const v1::TournamentPlayer& pl = t.players(player);
        return pl.withdrawn_at_round() != 0 &&
               static_cast<int>(pl.withdrawn_at_round()) <= number;
      };
      const bool black_gone = gone(game->black());
      const bool white_gone = gone(game->white());
      if (black_gone && white_gone) {
        game->set_result(v1::GAME_RESULT_BOTH_LOSE);
      } else if (black_gone) {
        game->set_result(v1::GAME_RESULT_WHITE_FORFEIT_WIN);
      } else if (white_gone) {
        game->set_result(v1::GAME_RESULT_BLACK_FORFEIT_WIN);
      }
    }
    p->set_result(TeamMatchResult(*p));
  }
  return round;
}

// The entrants a Swiss round pairs.
std::vector<int> SwissPlayers(const Field& field, int round) {
  std::vector<int> players;
  for (const Entrant& e : field.entrants) {
    if (e.PlaysIn(round) && !e.results_void) players.push_back(e.index);
  }
  return players;
}

absl::StatusOr<PairingReport> PairSwissRound(v1::Tournament& t,
                                             const Field& field, int round,
                                             const PairingOptions& options) {
  const std::vector<int> players = SwissPlayers(field, round);
  if (players.size() < 2) {
    return absl::FailedPreconditionError(
        absl::StrCat("round ", round, ": ", players.size(),
                     " player(s) left to pair; a Swiss round needs 2"));
  }
  SwissOptions swiss;
  swiss.allow_repeats = options.allow_repeats;
  swiss.lots = t.drawing_lots();
  QIPU_ASSIGN_OR_RETURN(SwissPairing pairing,
                        PairSwiss(field, players, round, swiss));
  PairingReport report;
  report.round = round;
  report.repeat_free = pairing.repeat_free;
  report.repeats_needed = pairing.repeats_needed;
  report.proposal = MakeRound(t, field, pairing.draft, round);
  if (!pairing.repeat_free) {
    report.proposal.set_repeats_accepted(true);
    if (!options.allow_repeats) return report;
  }
  *t.add_round() = report.proposal;
  report.paired = true;
  return report;
}

}  // namespace

absl::StatusOr<PairingReport> PairNextRound(v1::Tournament* t,
                                            const PairingOptions& options) {
  QIPU_RETURN_IF_ERROR(CheckCreated(*t));
  const std::vector<std::string> missing = MissingResults(*t);
  if (!missing.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "round ", t->round_size(), " is not complete: no result at ",
        absl::StrJoin(missing, ", ")));
  }
  v1::Tournament next = *t;
  if (!next.started()) QIPU_RETURN_IF_ERROR(StartEvent(next));
  const Field field = BuildField(next);
  const int round = next.round_size() + 1;
  const v1::TournamentSystem system = next.system();
  RoundDraft draft;
  bool knockout_stage = false;
  if (IsRoundRobin(system)) {
    QIPU_ASSIGN_OR_RETURN(draft, PairRoundRobin(next, field, round));
  } else if (system == v1::TOURNAMENT_SYSTEM_SWISS ||
             (system == v1::TOURNAMENT_SYSTEM_SWISS_KNOCKOUT &&
              round <= static_cast<int>(next.rounds()))) {
    if (round > static_cast<int>(next.rounds())) {
      return absl::FailedPreconditionError(
          absl::StrCat("all ", next.rounds(), " Swiss rounds are paired"));
    }
    QIPU_ASSIGN_OR_RETURN(PairingReport report,
                          PairSwissRound(next, field, round, options));
    if (report.paired) *t = std::move(next);
    return report;
  } else if (IsElimination(system) ||
             system == v1::TOURNAMENT_SYSTEM_SWISS_KNOCKOUT) {
    QIPU_ASSIGN_OR_RETURN(const EliminationStage stage, StageOf(next, field));
    QIPU_ASSIGN_OR_RETURN(draft, PairElimination(field, stage, round));
    knockout_stage = system == v1::TOURNAMENT_SYSTEM_SWISS_KNOCKOUT;
  } else if (system == v1::TOURNAMENT_SYSTEM_BEST_OF) {
    QIPU_ASSIGN_OR_RETURN(draft, PairBestOf(field, SeedOrder(field),
                                            static_cast<int>(next.best_of()),
                                            round, next.drawing_lots()));
  } else if (system == v1::TOURNAMENT_SYSTEM_TEAM_CHALLENGE) {
    QIPU_ASSIGN_OR_RETURN(draft, PairChallenge(next, field, round));
  } else {
    return absl::FailedPreconditionError("the tournament has no system");
  }
  PairingReport report;
  report.round = round;
  report.proposal = MakeRound(next, field, draft, round);
  report.proposal.set_knockout_stage(knockout_stage);
  *next.add_round() = report.proposal;
  report.paired = true;
  *t = std::move(next);
  return report;
}

}  // namespace qipu::tournament
