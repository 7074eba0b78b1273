// The numerical core of the ratings (tournament/ratings.h): the log-posterior
// of BayesElo's model over the free parameters, its maximum by damped Newton,
// and the dense matrix routines both need (Cholesky factorisation, solves,
// the inverse). ratings.cc validates the games, condenses them into Terms,
// chooses the free parameters, and turns the Fit into Ratings.
//
// Units: every value here is in natural units (Elo * ln 10 / 400), in which
// the model's win probability is the logistic function and the log-posterior
// is concave (see ratings.h).
//
// Internal to qipu_ratings: not part of its interface, declared in a header
// only so that ratings.cc and ratings_fit.cc can share it.
#ifndef QIPU_TOURNAMENT_RATINGS_FIT_H_
#define QIPU_TOURNAMENT_RATINGS_FIT_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace qipu::tournament::ratings_internal {

// The games of one colour order of a pair, condensed: Black `black` against
// White `white`; `draws` includes the virtual draws of the prior. A plain
// value; counts are >= 0 and may be fractional (the virtual draws).
struct Term {
  int black = 0;
  int white = 0;
  double black_wins = 0;
  double white_wins = 0;
  double draws = 0;
};

// Per unordered pair {lo, hi}, lo < hi: games by colour order. A plain value.
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

// Dense square matrix, row-major. A plain value that owns its storage; not
// synchronised (one writer, or readers only).
struct Matrix {
  // An n x n matrix of zeros; n >= 0.
  explicit Matrix(int n) : n(n), a(static_cast<size_t>(n) * n, 0.0) {}
  // The element (i, j); 0 <= i, j < n, unchecked.
  double& at(int i, int j) { return a[static_cast<size_t>(i) * n + j]; }
  double at(int i, int j) const { return a[static_cast<size_t>(i) * n + j]; }
  // Rows and columns; a.size() == n * n.
  int n;
  std::vector<double> a;
};

// In-place Cholesky factorisation of the positive definite `m` (lower
// triangle: L with m = L L^T; the upper triangle is left as it was). False
// when `m` is not positive definite (then `m` is partly overwritten).
// `m` must be symmetric (only its lower triangle is read).
bool Cholesky(Matrix& m);

// Solves L L^T x = b in place (IN: b, OUT: x), L from Cholesky().
// Precondition: b.size() == l.n.
void CholeskySolve(const Matrix& l, std::vector<double>& b);

// The inverse of L L^T, L from Cholesky(), into `inverse` (OUT, both
// triangles), using `scratch` (overwritten) for L^-1. Precondition: `scratch`
// and `inverse` are l.n x l.n and distinct from `l` and each other.
void InverseFromCholesky(const Matrix& l, Matrix& scratch, Matrix& inverse);

// Factorises the negated Hessian `neg_h` into `l` (OUT, as Cholesky()),
// adding a small ridge when rounding leaves it not quite positive definite (a
// flat direction of the log-posterior: a huge rating without a prior). False
// if even that fails. Precondition: `l` is neg_h.n x neg_h.n.
bool FactorNegHessian(const Matrix& neg_h, Matrix& l);

// The log-posterior over the free parameters: one rating per player except
// each component's root (held at 0), then the advantage and draw_elo when
// they are estimated. All in natural units. Immutable after construction:
// the const methods may be called from several threads at once.
class Posterior {
 public:
  // Takes ownership of `terms` and `var_of_player`. `var_of_player[p]` is
  // the variable of player p's rating in [0, num_vars), or -1 when it is held
  // at 0; every player of `terms` must be a valid index into it.
  // `advantage_var` and `draw_var` are variables in [0, num_vars), or -1
  // when the value is fixed at `advantage_fixed` / `draw_fixed`. The Gaussian
  // priors (mean 0) on the estimated advantage and draw_elo have standard
  // deviation `parameter_prior_sd` > 0.
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

  // The number of free parameters: the size of every `theta`.
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
  // non-null (both or neither), also fills them (OUT: gradient resized to
  // num_vars(); neg_hessian must be num_vars() x num_vars()).
  double Evaluate(const std::vector<double>& theta,
                  std::vector<double>* gradient, Matrix* neg_hessian) const;

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

// The maximum of a posterior and the covariance there. A plain value.
struct Fit {
  // The free parameters (Posterior's layout), natural units.
  std::vector<double> theta;
  // Inverse of the negated Hessian at theta.
  Matrix covariance{0};
  // Newton steps taken.
  int iterations = 0;
};

// Damped Newton from `theta` (size posterior.num_vars(), inside the domain).
// `prior_draws` only goes into the error message. FailedPrecondition when it
// does not converge (possible only without a prior, which ratings.cc's
// CheckFiniteMaximum catches first); Internal if the Hessian at the maximum
// is singular. Pure: thread-safe for distinct or const arguments.
absl::StatusOr<Fit> Maximize(const Posterior& posterior,
                             std::vector<double> theta, double prior_draws);

}  // namespace qipu::tournament::ratings_internal

#endif  // QIPU_TOURNAMENT_RATINGS_FIT_H_
