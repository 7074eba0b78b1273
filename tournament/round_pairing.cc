// The pairing part of tournament.h: PairNextRound() -- the start of the
// event (checks of the field, seeding orders, the number of rounds), the
// draft of the round by its system (round_robin.h, swiss.h,
// swiss_elimination.h, elimination.h, match.h), and the Round it becomes:
// tables, the boards of team matches, the entrants sitting out or cut,
// and the forfeits and void games the withdrawal rules give.
#include <algorithm>
#include <climits>
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
#include "tournament/swiss_elimination.h"
#include "tournament/tournament.h"

namespace qipu::tournament {

namespace {

// Fixes the seeding orders when round 1 is paired: the director's seeds
// stay where they are; the other entrants fill the free places (round
// robin: by lot, the numbers of the rotation table; otherwise by rating,
// then rank, then registration). FailedPrecondition for a seed given
// twice or beyond the field.
absl::Status AssignOrders(v1::Tournament& t) {
  const Field field = BuildField(t);
  std::vector<int> entrants;
  for (const Entrant& e : field.entrants) {
    if (!e.removed) entrants.push_back(e.index);
  }
  const int n = static_cast<int>(entrants.size());
  std::vector<int> holder(n + 1, -1);  // seed -> entrant
  std::vector<int> rest;
  for (const int e : entrants) {
    const int seed = field.entrants[e].order;
    if (seed == 0) {
      rest.push_back(e);
      continue;
    }
    if (seed > n) {
      return absl::FailedPreconditionError(
          absl::StrCat("seed ", seed, " of '", field.entrants[e].name,
                       "' is beyond the ", n, " entrants; change it first"));
    }
    if (holder[seed] >= 0) {
      return absl::FailedPreconditionError(
          absl::StrCat("seed ", seed, " is given to both '",
                       field.entrants[holder[seed]].name, "' and '",
                       field.entrants[e].name, "'"));
    }
    holder[seed] = e;
  }
  if (IsRoundRobin(t.system())) {
    // The numbers of the rotation table are drawn by lot (抽簽).
    std::stable_sort(rest.begin(), rest.end(), [&](int a, int b) {
      return DrawLot(t.drawing_lots() ^ 0x5eedULL, a) <
             DrawLot(t.drawing_lots() ^ 0x5eedULL, b);
    });
  } else {
    const auto strength = [&](int e) {
      if (t.teams_event()) return 0;
      auto s = RankStrength(t.players(e).rank());
      return s.ok() ? *s : INT_MIN;
    };
    std::stable_sort(rest.begin(), rest.end(), [&](int a, int b) {
      if (field.entrants[a].rating != field.entrants[b].rating) {
        return field.entrants[a].rating > field.entrants[b].rating;
      }
      return strength(a) > strength(b);
    });
  }
  size_t next = 0;
  for (int seed = 1; seed <= n; ++seed) {
    if (holder[seed] < 0) holder[seed] = rest[next++];
    if (t.teams_event()) {
      t.mutable_teams(holder[seed])->set_order(seed);
    } else {
      t.mutable_players(holder[seed])->set_order(seed);
    }
  }
  return absl::OkStatus();
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
  if (system == v1::TOURNAMENT_SYSTEM_SWISS_ELIMINATION && entrants % 2 == 1) {
    return absl::FailedPreconditionError(absl::StrCat(
        "swiss-elimination keeps the number playing even (art. 26.4: "
        "始終要保持參賽人數為偶數); ",
        entrants, " registered: register or withdraw one before round 1"));
  }
  QIPU_RETURN_IF_ERROR(AssignOrders(t));
  if (IsRoundRobin(system)) {
    t.set_rounds(RoundRobinRounds(
        entrants, system == v1::TOURNAMENT_SYSTEM_DOUBLE_ROUND_ROBIN));
  } else if (IsSwissFamily(system) && t.rounds() == 0) {
    t.set_rounds(RecommendedSwissRounds(entrants));
  }
  if (IsSwissFamily(system) && t.accelerated_rounds() > t.rounds()) {
    return absl::FailedPreconditionError(
        absl::StrCat("accelerated rounds ", t.accelerated_rounds(),
                     " exceed the event's ", t.rounds(), " rounds"));
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

// Turns a draft into a Round: tables, boards, the entrants sitting out or
// cut, and the forfeits and void games the withdrawal rules give.
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
    if (t.teams_event()) FillBoards(t, number, p);
  }
  for (const int e : draft.absent) round.add_absent(e);
  for (const int e : draft.cut) round.add_cut(e);
  return round;
}

// Whether player `e` asked to sit out round `round`.
bool SitsOut(const v1::Tournament& t, int e, int round) {
  if (t.teams_event()) return false;
  for (const uint32_t r : t.players(e).sit_out_rounds()) {
    if (static_cast<int>(r) == round) return true;
  }
  return false;
}

// The entrants a Swiss round pairs, and those sitting it out on request.
void SwissPlayers(const v1::Tournament& t, const Field& field, int round,
                  std::vector<int>* players, std::vector<int>* absent) {
  for (const Entrant& e : field.entrants) {
    if (!e.PlaysIn(round) || e.results_void) continue;
    (SitsOut(t, e.index, round) ? absent : players)->push_back(e.index);
  }
}

// The field as an accelerated round pairs it: the top half by seed one
// win up (virtual points, for this pairing only; standings never see
// them).
Field Accelerated(const v1::Tournament& t, const Field& field, int round) {
  if (round > static_cast<int>(t.accelerated_rounds())) return field;
  Field virtual_field = field;
  int seeded = 0;
  for (const Entrant& e : field.entrants) seeded += e.removed ? 0 : 1;
  const int top = (seeded + 1) / 2;
  for (Entrant& e : virtual_field.entrants) {
    if (!e.removed && e.order >= 1 && e.order <= top) e.points += kWinPoints;
  }
  return virtual_field;
}

// Pairs Swiss round `round` among `players`; `extra`'s absent and cut
// entrants go into the round as they are.
absl::StatusOr<PairingReport> PairSwissRound(v1::Tournament& t,
                                             const Field& field, int round,
                                             const std::vector<int>& players,
                                             RoundDraft extra,
                                             const PairingOptions& options) {
  if (players.size() < 2) {
    return absl::FailedPreconditionError(
        absl::StrCat("round ", round, ": ", players.size(),
                     " player(s) left to pair; a Swiss round needs 2"));
  }
  SwissOptions swiss;
  swiss.allow_repeats = options.allow_repeats;
  swiss.lots = t.drawing_lots();
  QIPU_ASSIGN_OR_RETURN(
      SwissPairing pairing,
      PairSwiss(Accelerated(t, field, round), players, round, swiss));
  pairing.draft.absent = std::move(extra.absent);
  pairing.draft.cut = std::move(extra.cut);
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
  const std::vector<std::string> incomplete = IncompleteRounds(*t);
  if (!incomplete.empty()) {
    // Pairing needs every earlier result, not only the last round's.
    return absl::FailedPreconditionError(absl::StrJoin(incomplete, "; "));
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
  } else if (IsSwissRound(next, round)) {
    if (round > static_cast<int>(next.rounds())) {
      return absl::FailedPreconditionError(
          absl::StrCat("all ", next.rounds(), " Swiss rounds are paired"));
    }
    std::vector<int> players;
    RoundDraft extra;
    if (system == v1::TOURNAMENT_SYSTEM_SWISS_ELIMINATION) {
      QIPU_ASSIGN_OR_RETURN(SwissEliminationRound in,
                            SwissEliminationPlayers(next, field, round));
      players = std::move(in.players);
      extra.cut = std::move(in.cut);
    } else {
      SwissPlayers(next, field, round, &players, &extra.absent);
    }
    QIPU_ASSIGN_OR_RETURN(
        PairingReport report,
        PairSwissRound(next, field, round, players, std::move(extra), options));
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
