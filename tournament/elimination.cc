#include "tournament/elimination.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"

namespace qipu::tournament {

std::vector<int> BracketOrder(int size) {
  if (size < 1 || (size & (size - 1)) != 0) return {};
  std::vector<int> order = {1};
  while (static_cast<int>(order.size()) < size) {
    const int next = static_cast<int>(order.size()) * 2;
    std::vector<int> grown;
    grown.reserve(next);
    for (const int seed : order) {
      grown.push_back(seed);
      grown.push_back(next + 1 - seed);
    }
    order = std::move(grown);
  }
  return order;
}

int BracketSize(int n) {
  int size = 1;
  while (size < n) size *= 2;
  return size;
}

int StageLosses(const Field& field, const EliminationStage& stage,
                int entrant) {
  int losses = 0;
  for (const Meeting& m : field.entrants[entrant].meetings) {
    if (m.round >= stage.first_round && IsLoss(m.outcome)) ++losses;
  }
  return losses;
}

std::vector<int> StillIn(const Field& field, const EliminationStage& stage,
                         int round) {
  std::vector<int> in;
  for (const int e : stage.seeds) {
    if (!field.entrants[e].PlaysIn(round)) continue;
    if (StageLosses(field, stage, e) >= stage.losses) continue;
    in.push_back(e);
  }
  return in;
}

namespace {

// Black for the entrant with fewer Blacks; equal: by lot.
std::pair<int, int> Colours(const Field& field, int a, int b, uint64_t lots,
                            int round, int table) {
  const Entrant& ea = field.entrants[a];
  const Entrant& eb = field.entrants[b];
  const int da = ea.blacks - ea.whites;
  const int db = eb.blacks - eb.whites;
  if (da != db) return da < db ? std::make_pair(a, b) : std::make_pair(b, a);
  if (ea.last_colour != eb.last_colour) {
    return ea.last_colour < eb.last_colour ? std::make_pair(a, b)
                                           : std::make_pair(b, a);
  }
  const bool a_black = (DrawLot(lots, round * 1024 + table) & 1) == 0;
  return a_black ? std::make_pair(a, b) : std::make_pair(b, a);
}

}  // namespace

absl::StatusOr<RoundDraft> PairElimination(const Field& field,
                                           const EliminationStage& stage,
                                           int round) {
  RoundDraft draft;
  // Undecided games of the previous round replay first.
  std::vector<std::pair<int, int>> undecided;
  const int n = static_cast<int>(field.entrants.size());
  std::map<std::pair<int, int>, v1::GameResult> previous;
  for (const int e : stage.seeds) {
    if (e < 0 || e >= n) {
      return absl::InternalError(
          absl::StrCat("stage seed ", e, " out of range"));
    }
    for (const Meeting& m : field.entrants[e].meetings) {
      if (m.round == round - 1 && m.round >= stage.first_round && m.black) {
        if (!HasWinner(m.result) && m.result != v1::GAME_RESULT_BOTH_LOSE) {
          undecided.emplace_back(m.opponent, e);  // colours reversed
        }
      }
    }
  }
  if (!undecided.empty()) {
    draft.replay = true;
    for (const auto& [black, white] : undecided) {
      if (field.entrants[black].PlaysIn(round) &&
          field.entrants[white].PlaysIn(round)) {
        draft.games.emplace_back(black, white);
      } else if (field.entrants[black].PlaysIn(round)) {
        draft.byes.push_back(black);
      } else if (field.entrants[white].PlaysIn(round)) {
        draft.byes.push_back(white);
      }
    }
    if (!draft.games.empty() || !draft.byes.empty()) return draft;
    draft = RoundDraft();
  }

  std::vector<int> in = StillIn(field, stage, round);
  if (in.size() <= 1) {
    return absl::FailedPreconditionError(
        in.empty() ? "the elimination is over: nobody is left"
                   : absl::StrCat("the elimination is over: ",
                                  field.entrants[in[0]].name, " won"));
  }
  // Bracket slot of every seed.
  const int size = BracketSize(static_cast<int>(stage.seeds.size()));
  const std::vector<int> order = BracketOrder(size);
  std::vector<int> slot_of_seed(size + 1, 0);
  for (int s = 0; s < size; ++s) slot_of_seed[order[s]] = s;
  std::map<int, int> slot;  // entrant -> bracket slot
  std::map<int, int> seed;  // entrant -> seed (1-based)
  for (size_t i = 0; i < stage.seeds.size(); ++i) {
    slot[stage.seeds[i]] = slot_of_seed[i + 1];
    seed[stage.seeds[i]] = static_cast<int>(i) + 1;
  }

  bool stage_started = false;
  for (const int e : stage.seeds) {
    for (const Meeting& m : field.entrants[e].meetings) {
      if (m.round >= stage.first_round) stage_started = true;
    }
    for (const int r : field.entrants[e].bye_rounds) {
      if (r >= stage.first_round) stage_started = true;
    }
  }
  int table = 0;
  const auto add_game = [&](int a, int b) {
    ++table;
    draft.games.push_back(Colours(field, a, b, stage.lots, round, table));
  };

  if (!stage_started) {
    // The bracket: slots 2i and 2i+1; an empty slot is a bye for the other.
    std::vector<int> at_slot(size, -1);
    for (const int e : in) at_slot[slot[e]] = e;
    for (int s = 0; s < size; s += 2) {
      const int a = at_slot[s];
      const int b = at_slot[s + 1];
      if (a >= 0 && b >= 0) {
        add_game(a, b);
      } else if (a >= 0) {
        draft.byes.push_back(a);
      } else if (b >= 0) {
        draft.byes.push_back(b);
      }
    }
    return draft;
  }

  std::map<int, std::vector<int>> groups;  // losses -> entrants
  for (const int e : in) groups[StageLosses(field, stage, e)].push_back(e);
  bool any_pair = false;
  for (auto& [losses, members] : groups) {
    if (members.size() >= 2) any_pair = true;
    std::sort(members.begin(), members.end(),
              [&](int a, int b) { return slot[a] < slot[b]; });
  }
  if (!any_pair) {
    // Only one-entrant groups: they meet each other, most losses first.
    std::vector<int> singles;
    for (auto it = groups.rbegin(); it != groups.rend(); ++it) {
      singles.push_back(it->second[0]);
    }
    size_t i = 0;
    for (; i + 1 < singles.size(); i += 2) add_game(singles[i], singles[i + 1]);
    if (i < singles.size()) draft.byes.push_back(singles[i]);
    return draft;
  }
  for (auto& [losses, members] : groups) {
    if (members.size() % 2 == 1) {
      // The best seed of the group sits out.
      auto best =
          std::min_element(members.begin(), members.end(),
                           [&](int a, int b) { return seed[a] < seed[b]; });
      draft.byes.push_back(*best);
      members.erase(best);
    }
    if (losses > 0) {
      // Avoid rematches by swapping with the next pair where possible.
      for (size_t i = 0; i + 1 < members.size(); i += 2) {
        if (!field.entrants[members[i]].HasMet(members[i + 1])) continue;
        for (size_t j = i + 2; j < members.size(); ++j) {
          if (!field.entrants[members[i]].HasMet(members[j])) {
            std::swap(members[i + 1], members[j]);
            break;
          }
        }
      }
    }
    for (size_t i = 0; i + 1 < members.size(); i += 2) {
      add_game(members[i], members[i + 1]);
    }
  }
  return draft;
}

}  // namespace qipu::tournament
