#include "tournament/swiss.h"

#include <algorithm>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "tournament/matching.h"

namespace qipu::tournament {

int RecommendedSwissRounds(int entrants) {
  if (entrants < 2) return 1;
  int knockout = 0;
  while ((1 << knockout) < entrants) ++knockout;
  int rounds = (3 * knockout + 1) / 2;  // ceil(1.5 k)
  if (rounds % 2 == 0) ++rounds;
  const int cap = entrants % 2 == 0 ? entrants - 1 : entrants;
  return std::max(1, std::min(rounds, cap));
}

namespace {

// A player's colour preference: +1 Black, -1 White, 0 none; strength as in
// swiss.h.
struct ColourWish {
  int colour = 0;
  int strength = 0;
};

ColourWish WishOf(const Entrant& e) {
  const int imbalance = e.blacks - e.whites;
  ColourWish wish;
  if (imbalance != 0) {
    wish.colour = imbalance > 0 ? -1 : 1;
    wish.strength = 2 * std::abs(imbalance);
    if (e.last_colour != 0 && e.last_colour == e.colour_before_last &&
        e.last_colour == -wish.colour) {
      ++wish.strength;
    }
  } else if (e.last_colour != 0) {
    wish.colour = -e.last_colour;
    wish.strength = 1;
  }
  return wish;
}

// Everything PairSwiss knows of one player, in field order.
struct Seat {
  int entrant = 0;
  int points = 0;
  int group_start = 0;  // first place of the score group
  int group_size = 0;
  int place = 0;  // in the order of the field
  ColourWish wish;
  bool bye_allowed = false;
};

// Cost levels and their units (see swiss.h).
struct Units {
  __int128 fold = 1;
  __int128 colour = 1;
  __int128 score = 1;
  __int128 repeat = 1;
  __int128 top = 1;  // larger than any edge cost
};

Units MakeUnits(int vertices, int max_fold, int max_colour, int max_score,
                bool with_fold, bool with_colour, bool with_repeat) {
  const __int128 half = vertices / 2 + 1;
  Units u;
  u.fold = with_fold ? 1 : 0;
  const __int128 fold_span = with_fold ? max_fold + 1 : 1;
  u.colour = with_colour ? half * fold_span : 0;
  const __int128 below_score = max_colour * u.colour + fold_span;
  u.score = half * below_score;
  const __int128 below_repeat = max_score * u.score + below_score;
  u.repeat = with_repeat ? half * below_repeat : 0;
  u.top = u.repeat + below_repeat + 1;
  return u;
}

// Units for the field, dropping the lowest levels when the largest total
// weight would not stay far inside int64 (LEMON doubles duals).
Units FitUnits(int vertices, int max_fold, int max_colour, int max_score,
               bool with_repeat) {
  const __int128 limit = static_cast<__int128>(1) << 58;
  Units u;
  for (const auto& [fold, colour] :
       {std::pair{true, true}, std::pair{false, true},
        std::pair{false, false}}) {
    u = MakeUnits(vertices, max_fold, max_colour, max_score, fold, colour,
                  with_repeat);
    if (u.top * (vertices / 2 + 1) < limit) break;
  }
  return u;
}

class Pairer {
 public:
  Pairer(const Field& field, const std::vector<int>& players, int round,
         const SwissOptions& options)
      : field_(field), round_(round), options_(options) {
    seats_.reserve(players.size());
    for (const int e : players) {
      Seat s;
      s.entrant = e;
      s.points = field.entrants[e].points;
      s.wish = WishOf(field.entrants[e]);
      s.bye_allowed = field.entrants[e].bye_rounds.empty();
      seats_.push_back(s);
    }
    std::sort(seats_.begin(), seats_.end(), [&](const Seat& a, const Seat& b) {
      if (a.points != b.points) return a.points > b.points;
      const Entrant& ea = field.entrants[a.entrant];
      const Entrant& eb = field.entrants[b.entrant];
      if (ea.order != eb.order) return ea.order < eb.order;
      return a.entrant < b.entrant;
    });
    const int m = static_cast<int>(seats_.size());
    for (int i = 0; i < m;) {
      int j = i;
      while (j < m && seats_[j].points == seats_[i].points) ++j;
      for (int k = i; k < j; ++k) {
        seats_[k].group_start = i;
        seats_[k].group_size = j - i;
        seats_[k].place = k;
      }
      i = j;
    }
    need_bye_ = m % 2 == 1;
    vertices_ = m + (need_bye_ ? 1 : 0);
    int max_colour = 1;
    for (const Seat& s : seats_)
      max_colour = std::max(max_colour, s.wish.strength);
    const int spread =
        m == 0 ? 0 : seats_.front().points - seats_.back().points;
    max_score_ = spread * spread;
    // The largest weight times the vertices must stay far inside int64
    // (LEMON doubles duals): drop the lowest levels if it would not.
    units_ = FitUnits(vertices_, m, max_colour, max_score_, false);
    repeat_units_ = FitUnits(vertices_, m, max_colour, max_score_, true);
    lowest_bye_points_ = 0;
    bool any = false;
    for (const Seat& s : seats_) {
      if (!s.bye_allowed) continue;
      lowest_bye_points_ =
          any ? std::min(lowest_bye_points_, s.points) : s.points;
      any = true;
    }
  }

  absl::StatusOr<SwissPairing> Run() {
    SwissPairing result;
    const int m = static_cast<int>(seats_.size());
    if (m == 0) return result;
    if (need_bye_) {
      bool any = false;
      for (const Seat& s : seats_) any = any || s.bye_allowed;
      if (!any) {
        return absl::FailedPreconditionError(
            absl::StrCat("round ", round_, " needs a bye and all ", m,
                         " players have had one (at most one bye each)"));
      }
    }
    std::vector<int> mate;
    const bool sparse = m > kSwissFullGraph && !options_.full_graph;
    // The bye goes to the lowest score group of those who have had none,
    // unless only a bye elsewhere leaves a repeat-free round.
    bool found = false;
    if (sparse) found = Solve(SparseCandidates(), false, true, &mate);
    if (!found) found = Solve(AllCandidates(), false, true, &mate);
    if (!found && need_bye_)
      found = Solve(AllCandidates(), false, false, &mate);
    if (!found) {
      result.repeat_free = false;
      if (!Solve(AllCandidates(), true, false, &mate)) {
        return absl::InternalError(
            "Swiss pairing: the complete graph has no perfect matching");
      }
    }
    Fill(mate, &result);
    result.repeats_needed = static_cast<int>(result.draft.repeats.size());
    return result;
  }

 private:
  bool Met(int a, int b) const {
    return field_.entrants[seats_[a].entrant].HasMet(seats_[b].entrant);
  }

  __int128 Cost(int a, int b, const Units& units) const {
    if (a > b) std::swap(a, b);
    const Seat& sa = seats_[a];
    const Seat& sb = seats_[b];
    const __int128 diff = sa.points - sb.points;
    __int128 cost = diff * diff * units.score;
    if (sa.wish.colour != 0 && sa.wish.colour == sb.wish.colour) {
      cost += std::min(sa.wish.strength, sb.wish.strength) * units.colour;
    }
    int fold;
    if (sa.group_start == sb.group_start) {
      const int target = sa.group_size / 2;
      fold = std::abs((b - a) - target);
    } else {
      fold = (sa.group_start + sa.group_size - 1 - a) + (b - sb.group_start);
    }
    cost += fold * units.fold;
    return cost;
  }

  __int128 ByeCost(int a, const Units& units) const {
    const __int128 diff = seats_[a].points - lowest_bye_points_;
    const int from_bottom = static_cast<int>(seats_.size()) - 1 - a;
    return diff * diff * units.score + from_bottom * units.fold;
  }

  std::vector<std::pair<int, int>> AllCandidates() const {
    std::vector<std::pair<int, int>> pairs;
    const int m = static_cast<int>(seats_.size());
    pairs.reserve(static_cast<size_t>(m) * (m - 1) / 2 + m);
    for (int a = 0; a < m; ++a) {
      for (int b = a + 1; b < m; ++b) pairs.emplace_back(a, b);
      if (need_bye_) pairs.emplace_back(a, m);
    }
    return pairs;
  }

  std::vector<std::pair<int, int>> SparseCandidates() const {
    std::vector<std::pair<int, int>> pairs;
    const int m = static_cast<int>(seats_.size());
    const int w = kSwissWindow;
    const auto add = [&](int a, int b) {
      if (a < 0 || b < 0 || a >= m || b >= m || a == b) return;
      pairs.emplace_back(std::min(a, b), std::max(a, b));
    };
    for (int a = 0; a < m; ++a) {
      const Seat& s = seats_[a];
      for (int d = 1; d <= w; ++d) add(a, a + d);
      const int half = s.group_size / 2;
      const int start = s.group_start;
      const int end = s.group_start + s.group_size;
      for (int d = -w; d <= w; ++d) {
        const int down = a + half + d;
        if (down >= start && down < end) add(a, down);
      }
    }
    if (need_bye_) {
      for (int a = 0; a < m; ++a) {
        if (seats_[a].points == lowest_bye_points_ || a >= m - 2 * w - 1) {
          pairs.emplace_back(a, m);
        }
      }
    }
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    return pairs;
  }

  // One matching over `candidates`; `lowest_bye` keeps the bye in the
  // lowest score group of the players who may have it.
  bool Solve(const std::vector<std::pair<int, int>>& candidates,
             bool allow_repeats, bool lowest_bye,
             std::vector<int>* mate) const {
    const int m = static_cast<int>(seats_.size());
    const Units& units = allow_repeats ? repeat_units_ : units_;
    std::vector<WeightedEdge> edges;
    edges.reserve(candidates.size());
    for (const auto& [a, b] : candidates) {
      __int128 cost;
      if (b == m) {
        if (!seats_[a].bye_allowed) continue;
        if (lowest_bye && seats_[a].points != lowest_bye_points_) continue;
        cost = ByeCost(a, units);
      } else {
        const bool met = Met(a, b);
        if (met && !allow_repeats) continue;
        cost = Cost(a, b, units) + (met ? units.repeat : 0);
      }
      edges.push_back(
          WeightedEdge{a, b, static_cast<int64_t>(units.top - cost)});
    }
    return MaxWeightPerfectMatching(vertices_, edges, mate);
  }

  void Fill(const std::vector<int>& mate, SwissPairing* result) const {
    const int m = static_cast<int>(seats_.size());
    struct Table {
      int high;  // the better placed seat
      int low;
    };
    std::vector<Table> tables;
    for (int a = 0; a < m; ++a) {
      const int b = mate[a];
      if (b == m) {
        result->draft.byes.push_back(seats_[a].entrant);
      } else if (a < b) {
        tables.push_back(Table{a, b});
      }
    }
    // Top table first: higher score, then better place.
    std::sort(tables.begin(), tables.end(),
              [&](const Table& x, const Table& y) {
                if (seats_[x.high].points != seats_[y.high].points) {
                  return seats_[x.high].points > seats_[y.high].points;
                }
                return x.high < y.high;
              });
    const bool lot_flip = (DrawLot(options_.lots, round_) & 1) != 0;
    for (size_t t = 0; t < tables.size(); ++t) {
      const Seat& hi = seats_[tables[t].high];
      const Seat& lo = seats_[tables[t].low];
      bool high_black;
      const ColourWish& wh = hi.wish;
      const ColourWish& wl = lo.wish;
      if (wh.colour == 0 && wl.colour == 0) {
        high_black = (t % 2 == 0) != lot_flip;
      } else if (wh.colour == 0) {
        high_black = wl.colour < 0;
      } else if (wl.colour == 0 || wl.colour != wh.colour) {
        high_black = wh.colour > 0;
      } else if (wh.strength != wl.strength) {
        // Same colour wanted: the stronger preference has it.
        high_black = (wh.strength > wl.strength) == (wh.colour > 0);
      } else {
        high_black = wh.colour > 0;
      }
      const int black = high_black ? hi.entrant : lo.entrant;
      const int white = high_black ? lo.entrant : hi.entrant;
      result->draft.games.emplace_back(black, white);
      if (field_.entrants[black].HasMet(white)) {
        result->draft.repeats.emplace_back(black, white);
      }
    }
  }

  const Field& field_;
  const int round_;
  const SwissOptions options_;
  std::vector<Seat> seats_;
  bool need_bye_ = false;
  int vertices_ = 0;
  int max_score_ = 0;
  int lowest_bye_points_ = 0;
  Units units_;         // without the repeat level
  Units repeat_units_;  // with it
};

}  // namespace

absl::StatusOr<SwissPairing> PairSwiss(const Field& field,
                                       const std::vector<int>& players,
                                       int round, const SwissOptions& options) {
  const int n = static_cast<int>(field.entrants.size());
  for (const int e : players) {
    if (e < 0 || e >= n) {
      return absl::InvalidArgumentError(
          absl::StrCat("Swiss pairing: entrant ", e, " out of range"));
    }
  }
  Pairer pairer(field, players, round, options);
  return pairer.Run();
}

}  // namespace qipu::tournament
