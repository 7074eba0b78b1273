// BayesElo's model fitted by damped Newton (see ratings.h for the model, the
// prior and why Newton): the games validated and condensed by pair, the
// components, the prior's virtual draws, the free parameters, and the Ratings
// made from the fit. The posterior and Newton itself are in ratings_fit.*.
// Internally every Elo value is multiplied by kNatural = ln 10 / 400, so that
// f(d) becomes the logistic function.
#include "tournament/ratings.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tournament/ratings_fit.h"

namespace qipu::tournament {
namespace {

using ratings_internal::Fit;
using ratings_internal::Maximize;
using ratings_internal::PairCounts;
using ratings_internal::Posterior;
using ratings_internal::Term;

// Elo -> natural units (log-odds).
constexpr double kNatural = 2.302585092994045684 / 400;
// Half-width of a 95% interval in standard deviations.
constexpr double kZ95 = 1.959963984540054;

std::string PlayerLabel(int player, int num_players,
                        absl::Span<const std::string> names) {
  if (player >= 0 && player < num_players && !names.empty()) {
    return absl::StrCat(player, " (", names[player], ")");
  }
  return absl::StrCat(player);
}

absl::Status ValidateGames(absl::Span<const RatedGame> games, int num_players,
                           absl::Span<const std::string> names) {
  for (size_t k = 0; k < games.size(); ++k) {
    const RatedGame& g = games[k];
    for (const auto& [role, p] :
         {std::pair<const char*, int>{"black", g.black}, {"white", g.white}}) {
      if (p < 0 || p >= num_players) {
        return absl::InvalidArgumentError(
            absl::StrCat("ratings: game ", k, ": ", role, " player ", p,
                         " is out of range [0, ", num_players, ")"));
      }
    }
    if (g.black == g.white) {
      return absl::InvalidArgumentError(absl::StrCat(
          "ratings: game ", k, ": player ",
          PlayerLabel(g.black, num_players, names), " plays against itself"));
    }
    if (g.outcome != RatedOutcome::kBlackWins &&
        g.outcome != RatedOutcome::kWhiteWins &&
        g.outcome != RatedOutcome::kDraw) {
      return absl::InvalidArgumentError(absl::StrCat(
          "ratings: game ", k, ": outcome ", static_cast<int>(g.outcome),
          " is none of black wins, white wins, draw"));
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateOptions(const RatingOptions& o, int num_players) {
  // The ranges keep every intermediate finite; the limits are far beyond any
  // useful value.
  auto in = [](double x, double low, double high) {
    return std::isfinite(x) && x >= low && x <= high;
  };
  if (!in(o.prior_draws, 0, 1e6)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "ratings: prior_draws ", o.prior_draws, " is not in [0, 1e6]"));
  }
  if (!in(o.parameter_prior_sd, 1e-3, 1e6)) {
    return absl::InvalidArgumentError(
        absl::StrCat("ratings: parameter_prior_sd ", o.parameter_prior_sd,
                     " is not in [0.001, 1e6]"));
  }
  if (o.advantage && !in(*o.advantage, -1e4, 1e4)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "ratings: advantage ", *o.advantage, " is not in [-10000, 10000]"));
  }
  if (o.draw_elo && !in(*o.draw_elo, 0, 1e4)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "ratings: draw_elo ", *o.draw_elo, " is not in [0, 10000]"));
  }
  if (!in(o.offset, -1e9, 1e9)) {
    return absl::InvalidArgumentError(
        absl::StrCat("ratings: offset ", o.offset, " is not in [-1e9, 1e9]"));
  }
  if (o.anchor && (*o.anchor < 0 || *o.anchor >= num_players)) {
    return absl::InvalidArgumentError(
        absl::StrCat("ratings: anchor player ", *o.anchor,
                     " is out of range [0, ", num_players, ")"));
  }
  return absl::OkStatus();
}

// Condenses the games by unordered pair (sorted by (lo, hi)).
std::vector<PairCounts> CondenseByPair(absl::Span<const RatedGame> games) {
  auto key = [&](uint32_t k) {
    const uint32_t lo = std::min(games[k].black, games[k].white);
    const uint32_t hi = std::max(games[k].black, games[k].white);
    return uint64_t{lo} << 32 | hi;
  };
  std::vector<uint32_t> order(games.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(),
            [&](uint32_t x, uint32_t y) { return key(x) < key(y); });
  std::vector<PairCounts> pairs;
  for (const uint32_t k : order) {
    const RatedGame& g = games[k];
    const int lo = std::min(g.black, g.white);
    const int hi = std::max(g.black, g.white);
    if (pairs.empty() || pairs.back().lo != lo || pairs.back().hi != hi) {
      pairs.push_back(PairCounts{.lo = lo, .hi = hi});
    }
    PairCounts& p = pairs.back();
    const int order_index = g.black == lo ? 0 : 1;
    ++p.games;
    switch (g.outcome) {
      case RatedOutcome::kBlackWins:
        ++p.black_wins[order_index];
        break;
      case RatedOutcome::kWhiteWins:
        ++p.white_wins[order_index];
        break;
      case RatedOutcome::kDraw:
        ++p.draws[order_index];
        break;
    }
  }
  return pairs;
}

// Up to five players of `players`, as "0 (ann), 3 (cy), ...".
std::string ListPlayers(const std::vector<int>& players, int num_players,
                        absl::Span<const std::string> names) {
  std::string out;
  for (size_t k = 0; k < players.size() && k < 5; ++k) {
    absl::StrAppend(&out, k == 0 ? "" : ", ",
                    PlayerLabel(players[k], num_players, names));
  }
  if (players.size() > 5) absl::StrAppend(&out, ", ...");
  return out;
}

// Without a prior the ratings have a finite maximum only if no group of
// players won every game against the rest of its component (Zermelo's
// condition): in the graph with an edge i -> j when i won or drew a game
// against j, each component must be strongly connected. FailedPrecondition
// naming the group otherwise.
absl::Status CheckFiniteMaximum(const std::vector<Term>& terms,
                                const std::vector<std::vector<int>>& members,
                                int num_players,
                                absl::Span<const std::string> names) {
  std::vector<std::vector<int>> scored(num_players), conceded(num_players);
  for (const Term& t : terms) {
    if (t.black_wins + t.draws > 0) {
      scored[t.black].push_back(t.white);
      conceded[t.white].push_back(t.black);
    }
    if (t.white_wins + t.draws > 0) {
      scored[t.white].push_back(t.black);
      conceded[t.black].push_back(t.white);
    }
  }
  std::vector<char> seen(num_players, 0);
  // Players reachable from `start` along `edges`.
  auto reach = [&](int start, const std::vector<std::vector<int>>& edges,
                   const std::vector<int>& group) {
    for (const int i : group) seen[i] = 0;
    std::vector<int> stack = {start};
    seen[start] = 1;
    while (!stack.empty()) {
      const int i = stack.back();
      stack.pop_back();
      for (const int j : edges[i]) {
        if (!seen[j]) {
          seen[j] = 1;
          stack.push_back(j);
        }
      }
    }
  };
  for (const std::vector<int>& group : members) {
    if (group.size() < 2) continue;
    for (const bool forward : {true, false}) {
      // Forward: the reached players scored only among themselves, so the
      // others beat them every time. Backward: the reached players conceded
      // nothing to the others.
      reach(group[0], forward ? scored : conceded, group);
      std::vector<int> in, out;
      for (const int i : group) (seen[i] ? in : out).push_back(i);
      if (out.empty()) continue;
      const std::vector<int>& winners = forward ? out : in;
      const std::vector<int>& losers = forward ? in : out;
      return absl::FailedPreconditionError(absl::StrCat(
          "ratings: with prior_draws 0 the ratings have no finite maximum: ",
          "player(s) ", ListPlayers(winners, num_players, names),
          " won every game against ", ListPlayers(losers, num_players, names),
          "; use a positive prior_draws"));
    }
  }
  return absl::OkStatus();
}

int FindRoot(std::vector<int>& parent, int x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

// The connected components of the graph of games.
struct Components {
  // Component of each player, numbered as PlayerRating::component.
  std::vector<int> of;
  // Members of each component, ascending; the first is the component's root,
  // whose rating the fit holds at 0.
  std::vector<std::vector<int>> members;
};

Components FindComponents(const std::vector<PairCounts>& pairs, int n) {
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  for (const PairCounts& p : pairs) {
    parent[FindRoot(parent, p.lo)] = FindRoot(parent, p.hi);
  }
  Components c;
  std::vector<int> group_of_root(n, -1);
  for (int i = 0; i < n; ++i) {
    int& group = group_of_root[FindRoot(parent, i)];
    if (group < 0) {
      group = static_cast<int>(c.members.size());
      c.members.emplace_back();
    }
    c.members[group].push_back(i);
  }
  // Groups were made in order of their lowest member: a stable sort by size
  // keeps that order between equal sizes.
  std::stable_sort(c.members.begin(), c.members.end(),
                   [](const std::vector<int>& x, const std::vector<int>& y) {
                     return x.size() > y.size();
                   });
  c.of.resize(n);
  for (size_t k = 0; k < c.members.size(); ++k) {
    for (const int i : c.members[k]) c.of[i] = static_cast<int>(k);
  }
  return c;
}

// The condensed games plus BayesElo's prior: player i adds
// prior * g_ij / (4 G_i) draws to each colour order of the pair {i, j}.
// Adds to *total_draws and *total_games (real and virtual).
std::vector<Term> MakeTerms(const std::vector<PairCounts>& pairs, int n,
                            double prior_draws, double* total_draws,
                            double* total_games) {
  std::vector<int64_t> games_of(n, 0);
  for (const PairCounts& p : pairs) {
    games_of[p.lo] += p.games;
    games_of[p.hi] += p.games;
  }
  std::vector<Term> terms;
  terms.reserve(pairs.size() * 2);
  for (const PairCounts& p : pairs) {
    const double virtual_draws = 0.25 * prior_draws *
                                 static_cast<double>(p.games) *
                                 (1.0 / static_cast<double>(games_of[p.lo]) +
                                  1.0 / static_cast<double>(games_of[p.hi]));
    for (int o = 0; o < 2; ++o) {
      Term t{.black = o == 0 ? p.lo : p.hi,
             .white = o == 0 ? p.hi : p.lo,
             .black_wins = p.black_wins[o],
             .white_wins = p.white_wins[o],
             .draws = p.draws[o] + virtual_draws};
      const double total = t.black_wins + t.white_wins + t.draws;
      if (total == 0) continue;
      *total_draws += t.draws;
      *total_games += total;
      terms.push_back(t);
    }
  }
  return terms;
}

// Sets every player's rating, interval and component: each component
// centred on options.offset, or the anchor's shifted to put it there.
void SetRatings(const Posterior& posterior, const Fit& fit,
                const Components& components, const RatingOptions& options,
                Ratings* out) {
  auto cov = [&](int i, int j) {
    return posterior.Covariance(fit.covariance, i, j);
  };
  for (size_t c = 0; c < components.members.size(); ++c) {
    const std::vector<int>& m = components.members[c];
    const double size = static_cast<double>(m.size());
    // Sums of cov(i, k) over the component: per member, and in all.
    std::vector<double> row_sum(m.size(), 0.0);
    double total = 0, mean = 0;
    for (size_t a = 0; a < m.size(); ++a) {
      for (size_t b = 0; b < m.size(); ++b) row_sum[a] += cov(m[a], m[b]);
      total += row_sum[a];
      mean += posterior.Rating(fit.theta, m[a]);
    }
    mean /= size;
    const bool anchored =
        options.anchor && components.of[*options.anchor] == static_cast<int>(c);
    const double shift =
        anchored ? posterior.Rating(fit.theta, *options.anchor) : mean;
    for (size_t a = 0; a < m.size(); ++a) {
      const int i = m[a];
      // Var(x_i - x_anchor), or Var(x_i - mean of the component).
      const double variance =
          anchored ? cov(i, i) + cov(*options.anchor, *options.anchor) -
                         2 * cov(i, *options.anchor)
                   : cov(i, i) - 2 * row_sum[a] / size + total / (size * size);
      const double sd = std::sqrt(std::max(variance, 0.0)) / kNatural;
      PlayerRating& r = out->players[i];
      r.rating =
          options.offset + (posterior.Rating(fit.theta, i) - shift) / kNatural;
      r.low = r.rating - kZ95 * sd;
      r.high = r.rating + kZ95 * sd;
      r.component = static_cast<int>(c);
    }
  }
}

// Sets the players' names, game counts, scores and opponents' average (after
// SetRatings).
void SetCounts(absl::Span<const RatedGame> games,
               absl::Span<const std::string> names, Ratings* out) {
  const size_t n = out->players.size();
  for (size_t i = 0; i < names.size(); ++i) out->players[i].name = names[i];
  std::vector<double> opponent_sum(n, 0.0);
  for (const RatedGame& g : games) {
    PlayerRating& b = out->players[g.black];
    PlayerRating& w = out->players[g.white];
    ++b.games;
    ++w.games;
    opponent_sum[g.black] += w.rating;
    opponent_sum[g.white] += b.rating;
    switch (g.outcome) {
      case RatedOutcome::kBlackWins:
        ++b.wins;
        ++w.losses;
        break;
      case RatedOutcome::kWhiteWins:
        ++w.wins;
        ++b.losses;
        break;
      case RatedOutcome::kDraw:
        ++b.draws;
        ++w.draws;
        break;
    }
  }
  for (size_t i = 0; i < n; ++i) {
    PlayerRating& r = out->players[i];
    r.rated = r.games > 0;
    if (r.rated) {
      r.score = (r.wins + 0.5 * r.draws) / r.games;
      r.opponent_average = opponent_sum[i] / r.games;
    }
  }
}

// The likelihood-of-superiority matrix (see Ratings::los).
std::vector<std::vector<double>> Superiority(const Posterior& posterior,
                                             const Fit& fit,
                                             const Components& components) {
  const int n = static_cast<int>(components.of.size());
  std::vector<std::vector<double>> los(n, std::vector<double>(n, 0.5));
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < i; ++j) {
      if (components.of[i] != components.of[j]) continue;
      const double diff =
          posterior.Rating(fit.theta, i) - posterior.Rating(fit.theta, j);
      const double variance = posterior.Covariance(fit.covariance, i, i) +
                              posterior.Covariance(fit.covariance, j, j) -
                              2 * posterior.Covariance(fit.covariance, i, j);
      const double p = variance > 0
                           ? 0.5 * std::erfc(-diff / std::sqrt(2 * variance))
                       : diff > 0 ? 1
                       : diff < 0 ? 0
                                  : 0.5;
      los[i][j] = p;
      los[j][i] = 1 - p;
    }
  }
  return los;
}

}  // namespace

absl::StatusOr<Ratings> ComputeRatings(absl::Span<const RatedGame> games,
                                       int num_players,
                                       const RatingOptions& options,
                                       absl::Span<const std::string> names) {
  if (num_players < 1 || num_players > kMaxRatedPlayers) {
    return absl::InvalidArgumentError(absl::StrCat(
        "ratings: ", num_players, " players; need 1 to ", kMaxRatedPlayers));
  }
  if (!names.empty() && names.size() != static_cast<size_t>(num_players)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "ratings: ", names.size(), " names for ", num_players, " players"));
  }
  if (games.size() > std::numeric_limits<int32_t>::max()) {
    return absl::InvalidArgumentError(
        absl::StrCat("ratings: ", games.size(), " games is too many"));
  }
  if (absl::Status s = ValidateOptions(options, num_players); !s.ok()) return s;
  if (absl::Status s = ValidateGames(games, num_players, names); !s.ok()) {
    return s;
  }
  const int n = num_players;

  const std::vector<PairCounts> pairs = CondenseByPair(games);
  const Components components = FindComponents(pairs, n);
  double total_draws = 0, total_games = 0;
  std::vector<Term> terms =
      MakeTerms(pairs, n, options.prior_draws, &total_draws, &total_games);
  if (options.prior_draws == 0) {
    if (absl::Status s =
            CheckFiniteMaximum(terms, components.members, n, names);
        !s.ok()) {
      return s;
    }
  }

  // Free parameters: every rating but the components' roots, then the
  // advantage and draw_elo unless fixed. draw_elo is fixed at 0 when there
  // are no draws at all (its maximum would be at 0, the edge of its domain).
  std::vector<int> var_of_player(n, -1);
  int num_vars = 0;
  for (const std::vector<int>& m : components.members) {
    for (size_t k = 1; k < m.size(); ++k) var_of_player[m[k]] = num_vars++;
  }
  const int advantage_var = options.advantage ? -1 : num_vars++;
  int draw_var = -1;
  if (options.draw_elo) {
    if (total_draws > 0 && !(*options.draw_elo > 0)) {
      return absl::InvalidArgumentError(
          "ratings: draw_elo is fixed at 0 but there are draws (real, or the "
          "prior's virtual ones): they would have probability 0");
    }
  } else if (total_draws > 0) {
    draw_var = num_vars++;
  }
  const Posterior posterior(std::move(terms), var_of_player, num_vars,
                            advantage_var,
                            options.advantage.value_or(0) * kNatural, draw_var,
                            options.draw_elo.value_or(0) * kNatural,
                            options.parameter_prior_sd * kNatural);

  // Start at equal ratings, no advantage, and the draw_elo that gives equal
  // players the observed draw rate: P(draw) = 1 - 2 s(-d).
  std::vector<double> theta(num_vars, 0.0);
  if (draw_var >= 0) {
    const double rate = std::min(total_draws / total_games, 0.999);
    theta[draw_var] = std::log((1 + rate) / (1 - rate));
  }
  absl::StatusOr<Fit> fit =
      Maximize(posterior, std::move(theta), options.prior_draws);
  if (!fit.ok()) return fit.status();

  Ratings out;
  out.players.resize(n);
  out.components = static_cast<int>(components.members.size());
  out.iterations = fit->iterations;
  SetRatings(posterior, *fit, components, options, &out);
  SetCounts(games, names, &out);
  auto parameter = [&](int var, double value, double* low, double* high) {
    const double sd =
        var < 0 ? 0 : std::sqrt(std::max(fit->covariance.at(var, var), 0.0));
    *low = (value - kZ95 * sd) / kNatural;
    *high = (value + kZ95 * sd) / kNatural;
    return value / kNatural;
  };
  out.advantage_estimated = advantage_var >= 0;
  out.advantage = parameter(advantage_var, posterior.Advantage(fit->theta),
                            &out.advantage_low, &out.advantage_high);
  out.draw_elo_estimated = draw_var >= 0;
  out.draw_elo = parameter(draw_var, posterior.Draw(fit->theta),
                           &out.draw_elo_low, &out.draw_elo_high);
  out.draw_elo_low = std::max(out.draw_elo_low, 0.0);
  if (options.los) out.los = Superiority(posterior, *fit, components);
  return out;
}

}  // namespace qipu::tournament
