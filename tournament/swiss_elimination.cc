#include "tournament/swiss_elimination.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "tournament/standings.h"

namespace qipu::tournament {

std::vector<int> SwissEliminationStillIn(const v1::Tournament& t,
                                         const Field& field, int round) {
  std::vector<int> in;
  const int limit = static_cast<int>(t.eliminate_after());
  for (const Entrant& e : field.entrants) {
    if (!e.PlaysIn(round) || e.results_void) continue;
    if (limit > 0 && e.losses >= limit) continue;
    in.push_back(e.index);
  }
  return in;
}

int SwissEliminationOutAfter(const v1::Tournament& t, const Entrant& e) {
  const int limit = static_cast<int>(t.eliminate_after());
  int out = -1;
  int losses = 0;
  for (const Meeting& m : e.meetings) {
    if (IsLoss(m.outcome) && ++losses == limit) {
      out = m.round;
      break;
    }
  }
  for (const int from : {e.cut_at_round, e.withdrawn_at_round}) {
    if (from > 0 && (out < 0 || from - 1 < out)) out = from - 1;
  }
  return out;
}

absl::StatusOr<SwissEliminationRound> SwissEliminationPlayers(
    const v1::Tournament& t, const Field& field, int round) {
  SwissEliminationRound r;
  r.players = SwissEliminationStillIn(t, field, round);
  if (r.players.size() <= 1) {
    return absl::FailedPreconditionError(
        r.players.empty() ? std::string("the event is over: nobody is left")
                          : absl::StrCat("the event is over: ",
                                         field.entrants[r.players[0]].name,
                                         " is the last player left"));
  }
  if (r.players.size() % 2 == 1) {
    // Art. 26.4 keeps the number playing even: the lowest-ranked player
    // still in goes out too.
    const std::vector<int> order = SwissOrder(field, t.drawing_lots());
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      auto found = std::find(r.players.begin(), r.players.end(), *it);
      if (found == r.players.end()) continue;
      r.cut.push_back(*it);
      r.players.erase(found);
      break;
    }
  }
  return r;
}

}  // namespace qipu::tournament
