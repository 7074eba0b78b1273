// The numerical core of the ratings: the log-posterior, damped Newton and the
// matrix routines (see ratings_fit.h). Everything here is in natural units
// (Elo * ln 10 / 400).
#include "tournament/ratings_fit.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace qipu::tournament::ratings_internal {
namespace {

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

}  // namespace

// Column by column (Cholesky-Crout), the inner products along rows.
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

// L y = b, then L^T x = y.
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

// `scratch` holds W = L^-1, whose column j is stored as row j (zero before
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

// First without a ridge, then with one growing from 1e-12 of the largest
// diagonal element by factors of 100 up to that element.
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

double Posterior::Evaluate(const std::vector<double>& theta,
                           std::vector<double>* gradient,
                           Matrix* neg_hessian) const {
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

}  // namespace qipu::tournament::ratings_internal
