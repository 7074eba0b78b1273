#include "policy/pattern_mover.h"

namespace qipu::policy {
namespace {

using rules::Board;
using rules::Color;
using rules::Point;

constexpr int kDirs[4] = {-rules::kStride, -1, 1, rules::kStride};
constexpr int kNeighbours8[8] = {
    -rules::kStride - 1, -rules::kStride, -rules::kStride + 1, -1, 1,
    rules::kStride - 1,  rules::kStride,  rules::kStride + 1};

// Uniform in [0, 1).
double Uniform(rules::Rng& rng) {
  return static_cast<double>(rng.Next() >> 11) * 0x1.0p-53;
}

}  // namespace

PatternMover::PatternMover(const PatternWeights& weights) : weights_(weights) {}

void PatternMover::NewWalk() {
  if (++epoch_ == 0) {
    mark_.fill(0);
    epoch_ = 1;
  }
}

int PatternMover::ChainLiberties(const Board& board, Point p, Point libs[2],
                                 Point ignore) {
  NewWalk();
  num_adjacent_ = 0;
  const Color own = board.at(p);
  const Color opp = rules::Opponent(own);
  int n = 0;
  int sp = 0;
  stack_[sp++] = p;
  Mark(p);
  while (sp > 0) {
    const Point q = stack_[--sp];
    for (int d : kDirs) {
      const Point r = static_cast<Point>(q + d);
      if (Marked(r)) continue;
      const Color col = board.at(r);
      if (col == own) {
        Mark(r);
        stack_[sp++] = r;
      } else if (col == Color::kEmpty) {
        Mark(r);
        if (r == ignore) continue;
        libs[n++] = r;
        if (n == 2) return 2;
      } else if (col == opp) {
        Mark(r);
        if (num_adjacent_ < kMaxAdjacent) adjacent_[num_adjacent_++] = r;
      }
    }
  }
  return n;
}

bool PatternMover::SelfAtari(const Board& board, Point p, Color c) {
  if (board.Captures(p, c)) return false;
  Point found[2];
  int n = 0;
  auto add = [&](Point q) {
    if (n == 1 && found[0] == q) return;
    found[n++] = q;
  };
  for (int d : kDirs) {
    const Point r = static_cast<Point>(p + d);
    if (board.at(r) == Color::kEmpty) {
      add(r);
      if (n == 2) return false;
    }
  }
  Point libs[2];
  for (int d : kDirs) {
    const Point r = static_cast<Point>(p + d);
    if (board.at(r) != c) continue;
    const int k = ChainLiberties(board, r, libs, p);
    for (int j = 0; j < k; ++j) {
      add(libs[j]);
      if (n == 2) return false;
    }
  }
  return true;
}

Point PatternMover::Save(const Board& board, Color c, Point s, Point lib,
                         bool multi_stone_suicide) {
  // ChainLiberties(s) found one liberty, so it walked the whole chain and
  // adjacent_ holds its opponent neighbours; copy them before walking
  // again.
  std::array<Point, kMaxAdjacent> attackers;
  const int num_attackers = num_adjacent_;
  for (int i = 0; i < num_attackers; ++i) attackers[i] = adjacent_[i];
  Point libs[2];
  for (int i = 0; i < num_attackers; ++i) {
    const Point a = attackers[i];
    bool seen = false;
    for (int j = 0; j < i && !seen; ++j)
      seen = board.SameChain(a, attackers[j]);
    if (seen) continue;
    if (ChainLiberties(board, a, libs) == 1 &&
        Playable(board, libs[0], c, multi_stone_suicide)) {
      return libs[0];
    }
  }
  if (!Playable(board, lib, c, multi_stone_suicide)) return rules::kNoPoint;
  // Extending must leave the chain two liberties or more (a capture by
  // the extension counts as enough).
  if (!SelfAtari(board, lib, c)) return lib;
  return rules::kNoPoint;
}

Point PatternMover::Tactic(const Board& board, Color c, Point last,
                           bool multi_stone_suicide) {
  if (last <= rules::kResign) return rules::kNoPoint;
  Point libs[2];
  if (board.at(last) == rules::Opponent(c) &&
      ChainLiberties(board, last, libs) == 1 &&
      Playable(board, libs[0], c, multi_stone_suicide)) {
    return libs[0];
  }
  Point done[4];
  int num_done = 0;
  for (int d : kDirs) {
    const Point s = static_cast<Point>(last + d);
    if (board.at(s) != c) continue;
    bool seen = false;
    for (int j = 0; j < num_done && !seen; ++j) {
      seen = board.SameChain(s, done[j]);
    }
    if (seen) continue;
    done[num_done++] = s;
    if (ChainLiberties(board, s, libs) != 1) continue;
    const Point m = Save(board, c, s, libs[0], multi_stone_suicide);
    if (m != rules::kNoPoint) return m;
  }
  return rules::kNoPoint;
}

Point PatternMover::Choose(const Board& board, Color c, Point last,
                           rules::Rng& rng, bool multi_stone_suicide) {
  if (last > rules::kResign) {
    const Point t = Tactic(board, c, last, multi_stone_suicide);
    if (t != rules::kNoPoint) return t;
    // Local patterns.
    float gamma[8];
    Point cand[8];
    int k = 0;
    double sum = 0;
    for (int off : kNeighbours8) {
      const Point q = static_cast<Point>(last + off);
      if (!Playable(board, q, c, multi_stone_suicide)) continue;
      gamma[k] = weights_.Gamma(board, q, c);
      sum += gamma[k];
      cand[k++] = q;
    }
    // Draw by weight; a self-atari drawn is dropped (as if it had never
    // been a candidate) and the draw repeated. Testing only what is drawn keeps
    // the chain walks few.
    while (k > 0) {
      double u = Uniform(rng) * (sum + kLocalRest);
      int i = 0;
      while (i < k && (u -= gamma[i]) >= 0) ++i;
      if (i == k) break;  // Elsewhere.
      if (!SelfAtari(board, cand[i], c)) return cand[i];
      sum -= gamma[i];
      gamma[i] = gamma[k - 1];
      cand[i] = cand[k - 1];
      --k;
    }
  }
  const int n = board.num_empty();
  if (n == 0) return rules::kPass;
  for (int t = 0; t < kGlobalTries; ++t) {
    const Point q = board.empty_point(
        static_cast<int>(rng.Below(static_cast<uint32_t>(n))));
    if (!Playable(board, q, c, multi_stone_suicide)) continue;
    const double g = weights_.Gamma(board, q, c);
    if ((g >= kGlobalAccept || Uniform(rng) * kGlobalAccept < g) &&
        !SelfAtari(board, q, c)) {
      return q;
    }
  }
  // The light policy's scan, skipping self-ataris that would join an own
  // chain (a single-stone throw-in stays playable). With nothing else
  // left the mover passes rather than put a group into atari: this is
  // what keeps a seki alive to the end of a playout.
  int start = static_cast<int>(rng.Below(static_cast<uint32_t>(n)));
  int count = n;
  while (count > 0) {
    const int j = board.ScanLight(c, start, count, multi_stone_suicide);
    if (j < 0) break;
    const Point q = board.empty_point(j);
    if (!JoinsOwnChain(board, q, c) || !SelfAtari(board, q, c)) return q;
    const int scanned = (j >= start ? j - start : j + n - start) + 1;
    count -= scanned;
    start = j + 1 == n ? 0 : j + 1;
  }
  return rules::kPass;
}

}  // namespace qipu::policy
