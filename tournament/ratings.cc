// BayesElo's model fitted by damped Newton (see ratings.h for the model, the
// prior and why Newton). Internally every Elo value is multiplied by
// kNatural = ln 10 / 400, so that f(d) becomes the logistic function.
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

namespace qipu::tournament {
namespace {

// Elo -> natural units (log-odds).
constexpr double kNatural = 2.302585092994045684 / 400;
// Half-width of a 95% interval in standard deviations.
constexpr double kZ95 = 1.959963984540054;
// Newton stops when half the Newton decrement (the predicted gain of
// log-posterior) falls below this.
constexpr double kConverged = 1e-12;
constexpr int kMaxIterations = 100;
// A parameter beyond this (in natural units, ~10,400 Elo) means the maximum
// is at infinity (possible only without a prior).
constexpr double kDivergence = 60;

// log(s(z)) with s the logistic function, without overflow.
double LogSigmoid(double z) {
  return z >= 0 ? -std::log1p(std::exp(-z)) : z - std::log1p(std::exp(z));
}

double Sigmoid(double z) {
  if (z >= 0) return 1 / (1 + std::exp(-z));
  const double e = std::exp(z);
  return e / (1 + e);
}

// The games of one colour order of a pair, condensed: Black `black` against
// White `white`; `draws` includes the virtual draws of the prior.
struct Term {
  int black = 0;
  int white = 0;
  double black_wins = 0;
  double white_wins = 0;
  double draws = 0;
};

// Per unordered pair {lo, hi}, lo < hi: games by colour order.
struct PairCounts {
  int lo = 0;
  int hi = 0;
  // [0]: lo had Black; [1]: hi had Black. Wins are the Black player's /
  // the White player's, as in Term.
  double black_wins[2] = {0, 0};
  double white_wins[2] = {0, 0};
  double draws[2] = {0, 0};
  int64_t games = 0;
};

// Dense square matrix, row-major.
struct Matrix {
  explicit Matrix(int n) : n(n), a(static_cast<size_t>(n) * n, 0.0) {}
  double& at(int i, int j) { return a[static_cast<size_t>(i) * n + j]; }
  double at(int i, int j) const { return a[static_cast<size_t>(i) * n + j]; }
  int n;
  std::vector<double> a;
};

// In-place Cholesky factorisation of the positive definite `m` (lower
// triangle: L with m = L L^T). False when `m` is not positive definite.
bool Cholesky(Matrix& m) {
  const int n = m.n;
  for (int j = 0; j < n; ++j) {
    double d = m.at(j, j);
    for (int k = 0; k < j; ++k) d -= m.at(j, k) * m.at(j, k);
    if (!(d > 0)) return false;
    d = std::sqrt(d);
    m.at(j, j) = d;
    for (int i = j + 1; i < n; ++i) {
      double s = m.at(i, j);
      const double* ri = &m.a[static_cast<size_t>(i) * n];
      const double* rj = &m.a[static_cast<size_t>(j) * n];
      for (int k = 0; k < j; ++k) s -= ri[k] * rj[k];
      m.at(i, j) = s / d;
    }
  }
  return true;
}

// Solves L L^T x = b in place, L from Cholesky().
void CholeskySolve(const Matrix& l, std::vector<double>& b) {
  const int n = l.n;
  for (int i = 0; i < n; ++i) {
    double s = b[i];
    for (int k = 0; k < i; ++k) s -= l.at(i, k) * b[k];
    b[i] = s / l.at(i, i);
  }
  // L^T x = b by rows of L (contiguous), not columns.
  for (int i = n - 1; i >= 0; --i) {
    b[i] /= l.at(i, i);
    const double* row = &l.a[static_cast<size_t>(i) * n];
    for (int k = 0; k < i; ++k) b[k] -= row[k] * b[i];
  }
}

// The inverse of L L^T, L from Cholesky(), into `inverse`, using `scratch`
// (same size) for W = L^-1, whose column j is stored as row j (zero before
// index j). Then inverse_ij = sum over k >= max(i, j) of W_ki W_kj: row
// dot products, n^3 / 3 multiply-adds in all, memory in order.
void InverseFromCholesky(const Matrix& l, Matrix& scratch, Matrix& inverse) {
  const int n = l.n;
  for (int j = 0; j < n; ++j) {
    double* w = &scratch.a[static_cast<size_t>(j) * n];
    std::fill(w, w + j, 0.0);
    w[j] = 1 / l.at(j, j);
    for (int k = j + 1; k < n; ++k) {
      const double* row = &l.a[static_cast<size_t>(k) * n];
      double s = 0;
      for (int m = j; m < k; ++m) s -= row[m] * w[m];
      w[k] = s / l.at(k, k);
    }
  }
  for (int i = 0; i < n; ++i) {
    const double* wi = &scratch.a[static_cast<size_t>(i) * n];
    for (int j = i; j < n; ++j) {
      const double* wj = &scratch.a[static_cast<size_t>(j) * n];
      double s = 0;
      for (int k = j; k < n; ++k) s += wi[k] * wj[k];
      inverse.at(i, j) = s;
      inverse.at(j, i) = s;
    }
  }
}

// Factorises the negated Hessian `neg_h`, adding a small ridge when rounding
// leaves it not quite positive definite (a flat direction of the
// log-posterior: a huge rating without a prior). False if even that fails.
bool FactorNegHessian(const Matrix& neg_h, Matrix& l) {
  double scale = 0;
  for (int i = 0; i < neg_h.n; ++i) scale = std::max(scale, neg_h.at(i, i));
  if (!(scale > 0)) scale = 1;
  for (double ridge = 0; ridge <= scale;
       ridge = ridge == 0 ? scale * 1e-12 : ridge * 100) {
    l = neg_h;
    for (int i = 0; i < l.n; ++i) l.at(i, i) += ridge;
    if (Cholesky(l)) return true;
  }
  return false;
}

// The log-posterior over the free parameters: one rating per player except
// each component's root (held at 0), then the advantage and draw_elo when
// they are estimated. All in natural units.
class Posterior {
 public:
  Posterior(std::vector<Term> terms, std::vector<int> var_of_player,
            int num_vars, int advantage_var, double advantage_fixed,
            int draw_var, double draw_fixed, double parameter_prior_sd)
      : terms_(std::move(terms)),
        var_of_player_(std::move(var_of_player)),
        num_vars_(num_vars),
        advantage_var_(advantage_var),
        advantage_fixed_(advantage_fixed),
        draw_var_(draw_var),
        draw_fixed_(draw_fixed),
        prior_precision_(1 / (parameter_prior_sd * parameter_prior_sd)) {}

  int num_vars() const { return num_vars_; }

  // A player's rating, the advantage and draw_elo at `theta`.
  double Rating(const std::vector<double>& theta, int player) const {
    const int v = var_of_player_[player];
    return v < 0 ? 0 : theta[v];
  }
  // Whether `theta` is inside the domain (draw_elo > 0 when estimated).
  bool InDomain(const std::vector<double>& theta) const {
    return draw_var_ < 0 || theta[draw_var_] > 0;
  }
  // Covariance of players i's and j's ratings given the covariance of the
  // free parameters (component roots are fixed: 0).
  double Covariance(const Matrix& covariance, int i, int j) const {
    const int vi = var_of_player_[i], vj = var_of_player_[j];
    return vi < 0 || vj < 0 ? 0.0 : covariance.at(vi, vj);
  }
  double Advantage(const std::vector<double>& theta) const {
    return advantage_var_ < 0 ? advantage_fixed_ : theta[advantage_var_];
  }
  double Draw(const std::vector<double>& theta) const {
    return draw_var_ < 0 ? draw_fixed_ : theta[draw_var_];
  }

  // The log-posterior at `theta` (up to a constant); -infinity outside the
  // domain (draw_elo <= 0 when estimated). With `gradient` and `neg_hessian`
  // non-null, also fills them.
  double Evaluate(const std::vector<double>& theta,
                  std::vector<double>* gradient, Matrix* neg_hessian) const {
    if (!InDomain(theta)) return -std::numeric_limits<double>::infinity();
    const double a = Advantage(theta);
    const double d = Draw(theta);
    const bool derivs = gradient != nullptr;
    if (derivs) {
      gradient->assign(num_vars_, 0.0);
      neg_hessian->a.assign(neg_hessian->a.size(), 0.0);
    }
    // log(e^(2d) - 1) and its derivatives, for the draws.
    double ell = 0, ell1 = 0, ell2 = 0;
    if (d > 0) {
      const double em1 = std::expm1(-2 * d);  // in (-1, 0)
      ell = 2 * d + std::log(-em1);
      ell1 = -2 / em1;
      ell2 = -4 * std::exp(-2 * d) / (em1 * em1);
    }
    double lp = 0;
    for (const Term& t : terms_) {
      const int vb = var_of_player_[t.black];
      const int vw = var_of_player_[t.white];
      const double u = (vb < 0 ? 0 : theta[vb]) - (vw < 0 ? 0 : theta[vw]) + a;
      const double wb = t.black_wins + t.draws;
      const double ww = t.white_wins + t.draws;
      lp += wb * LogSigmoid(u - d) + ww * LogSigmoid(-u - d);
      if (t.draws > 0) lp += t.draws * ell;
      if (!derivs) continue;
      const double p = Sigmoid(u - d), not_p = Sigmoid(d - u);
      const double q = Sigmoid(-u - d), not_q = Sigmoid(u + d);
      const double gu = wb * not_p - ww * not_q;
      const double gd = -wb * not_p - ww * not_q + t.draws * ell1;
      // Negated second derivatives (u, u), (u, d), (d, d).
      const double huu = wb * p * not_p + ww * q * not_q;
      const double hud = -wb * p * not_p + ww * q * not_q;
      const double hdd = huu - t.draws * ell2;
      // u = x_black - x_white + a: coefficients +1, -1, +1.
      const int vars[3] = {vb, vw, advantage_var_};
      const double coef[3] = {1, -1, 1};
      for (int r = 0; r < 3; ++r) {
        if (vars[r] < 0) continue;
        (*gradient)[vars[r]] += coef[r] * gu;
        for (int c = 0; c < 3; ++c) {
          if (vars[c] < 0) continue;
          neg_hessian->at(vars[r], vars[c]) += coef[r] * coef[c] * huu;
        }
        if (draw_var_ >= 0) {
          neg_hessian->at(vars[r], draw_var_) += coef[r] * hud;
          neg_hessian->at(draw_var_, vars[r]) += coef[r] * hud;
        }
      }
      if (draw_var_ >= 0) {
        (*gradient)[draw_var_] += gd;
        neg_hessian->at(draw_var_, draw_var_) += hdd;
      }
    }
    // The Gaussian priors (mean 0) on the estimated advantage and draw_elo.
    for (const int v : {advantage_var_, draw_var_}) {
      if (v < 0) continue;
      lp -= 0.5 * prior_precision_ * theta[v] * theta[v];
      if (!derivs) continue;
      (*gradient)[v] -= prior_precision_ * theta[v];
      neg_hessian->at(v, v) += prior_precision_;
    }
    return lp;
  }

 private:
  std::vector<Term> terms_;
  // Variable index of each player's rating; -1 for component roots.
  std::vector<int> var_of_player_;
  int num_vars_;
  // Variable indices, or -1 when fixed at the *_fixed_ value.
  int advantage_var_;
  double advantage_fixed_;
  int draw_var_;
  double draw_fixed_;
  // 1 / sd^2 of the priors on the advantage and draw_elo, natural units.
  double prior_precision_;
};

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

// The maximum of a posterior and the covariance there.
struct Fit {
  // The free parameters (Posterior's layout), natural units.
  std::vector<double> theta;
  // Inverse of the negated Hessian at theta.
  Matrix covariance{0};
  // Newton steps taken.
  int iterations = 0;
};

// Damped Newton from `theta`. FailedPrecondition when it does not converge
// (possible only without a prior, which CheckFiniteMaximum catches first).
absl::StatusOr<Fit> Maximize(const Posterior& posterior,
                             std::vector<double> theta, double prior_draws) {
  const int num_vars = posterior.num_vars();
  std::vector<double> gradient, step(num_vars), candidate(num_vars);
  Matrix neg_hessian(num_vars), factor(num_vars);
  int iterations = 0;
  bool converged = num_vars == 0;
  while (!converged) {
    const double lp = posterior.Evaluate(theta, &gradient, &neg_hessian);
    if (!FactorNegHessian(neg_hessian, factor)) break;
    step = gradient;
    CholeskySolve(factor, step);
    const double decrement =
        std::inner_product(step.begin(), step.end(), gradient.begin(), 0.0);
    if (!(decrement >= 0) || !std::isfinite(decrement)) break;
    if (iterations == kMaxIterations) break;
    ++iterations;
    if (decrement / 2 < kConverged) {
      // One last full step: Newton's error squares, so this one is exact to
      // rounding.
      for (int v = 0; v < num_vars; ++v) candidate[v] = theta[v] + step[v];
      if (posterior.InDomain(candidate)) theta.swap(candidate);
      converged = true;
      break;
    }
    // Backtracking (Armijo). Close to the maximum the gain is below the
    // rounding of lp, so a small enough decrement takes the full step.
    double t = 1;
    bool accepted = false;
    for (int halvings = 0; halvings < 60 && !accepted; ++halvings, t /= 2) {
      for (int v = 0; v < num_vars; ++v) candidate[v] = theta[v] + t * step[v];
      accepted = decrement < 1e-6
                     ? posterior.InDomain(candidate)
                     : posterior.Evaluate(candidate, nullptr, nullptr) >=
                           lp + 1e-4 * t * decrement;
    }
    if (!accepted) break;
    theta.swap(candidate);
    double largest = 0;
    for (const double x : theta) largest = std::max(largest, std::fabs(x));
    if (largest > kDivergence) break;
  }
  if (!converged) {
    return absl::FailedPreconditionError(
        absl::StrCat("ratings: no finite maximum after ", iterations,
                     " Newton steps (prior_draws ", prior_draws,
                     "); a larger prior_draws keeps the ratings finite"));
  }
  Fit fit{.theta = std::move(theta),
          .covariance = Matrix(num_vars),
          .iterations = iterations};
  if (num_vars > 0) {
    posterior.Evaluate(fit.theta, &gradient, &neg_hessian);
    if (!FactorNegHessian(neg_hessian, factor)) {
      return absl::InternalError("ratings: the Hessian is singular");
    }
    // neg_hessian's storage is the scratch space.
    InverseFromCholesky(factor, neg_hessian, fit.covariance);
  }
  return fit;
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
