#include "tournament/round_robin.h"

#include <cstddef>
#include <cstdlib>
#include <utility>

namespace qipu::tournament {

int RoundRobinRounds(int n, bool double_round) {
  if (n < 2) return 0;
  const int even = n + (n % 2);
  return (even - 1) * (double_round ? 2 : 1);
}

namespace {

// Swaps colours along chains of games until no number has two colours
// more of one than of the other (see round_robin.h).
void BalanceColours(int n, std::vector<std::vector<RotationGame>>& rounds) {
  std::vector<RotationGame*> games;
  std::vector<std::vector<int>> of(n + 1);  // games of each number
  for (auto& round : rounds) {
    for (RotationGame& g : round) {
      if (g.left == 0 || g.right == 0) continue;
      of[g.left].push_back(static_cast<int>(games.size()));
      of[g.right].push_back(static_cast<int>(games.size()));
      games.push_back(&g);
    }
  }
  const auto black_of = [](const RotationGame& g) {
    return g.left_black ? g.left : g.right;
  };
  const auto white_of = [](const RotationGame& g) {
    return g.left_black ? g.right : g.left;
  };
  std::vector<int> surplus(n + 1, 0);  // Blacks minus Whites
  for (const RotationGame* g : games) {
    ++surplus[black_of(*g)];
    --surplus[white_of(*g)];
  }
  // Each number plays n - 1 games: level is 0 for odd n, +-1 for even n.
  const int slack = (n - 1) % 2;
  for (int guard = 0; guard < 4 * n; ++guard) {
    int from = 0;
    for (int x = 1; x <= n; ++x) {
      if (std::abs(surplus[x]) > slack &&
          (from == 0 || std::abs(surplus[x]) > std::abs(surplus[from]))) {
        from = x;
      }
    }
    if (from == 0) return;
    const bool too_black = surplus[from] > 0;
    // Breadth-first along games `from`'s side holds the surplus colour in.
    std::vector<int> via(n + 1, -1);  // game that reached each number
    std::vector<int> queue = {from};
    via[from] = -2;
    int to = 0;
    for (size_t q = 0; q < queue.size() && to == 0; ++q) {
      const int x = queue[q];
      for (const int gi : of[x]) {
        const RotationGame& g = *games[gi];
        if ((too_black ? black_of(g) : white_of(g)) != x) continue;
        const int y = too_black ? white_of(g) : black_of(g);
        if (via[y] != -1) continue;
        via[y] = gi;
        queue.push_back(y);
        if (too_black ? surplus[y] <= slack - 2 : surplus[y] >= 2 - slack) {
          to = y;
          break;
        }
      }
    }
    if (to == 0) return;
    surplus[from] += too_black ? -2 : 2;
    surplus[to] += too_black ? 2 : -2;
    for (int y = to; y != from;) {
      RotationGame& g = *games[via[y]];
      const int x = g.left == y ? g.right : g.left;
      g.left_black = !g.left_black;
      y = x;
    }
  }
}

}  // namespace

std::vector<std::vector<RotationGame>> RotationSchedule(int n,
                                                        bool double_round) {
  std::vector<std::vector<RotationGame>> rounds;
  if (n < 2) return rounds;
  const int even = n + (n % 2);
  const int half = even / 2;
  // The circle of movable places, anticlockwise from left row 1: left rows
  // 1..half-1 downwards, then right rows half-1..0 upwards.
  // place(k) for k in [0, even-1): k < half-1 -> left[k+1], else
  // right[half-1-(k-(half-1))].
  std::vector<int> circle(even - 1);
  for (int k = 0; k < even - 1; ++k) {
    // Round 1: left holds 2..half, right (bottom to top) holds half+1..even.
    circle[k] = k + 2;
  }
  const auto number = [n](int x) { return x > n ? 0 : x; };
  for (int r = 0; r < even - 1; ++r) {
    // Rotate: each number moves one place anticlockwise, i.e. the number
    // at place k goes to place k + 1.
    std::vector<int> left(half), right(half);
    left[0] = 1;
    for (int k = 0; k < even - 1; ++k) {
      const int place = (k + r) % (even - 1);
      const int x = circle[k];
      if (place < half - 1) {
        left[place + 1] = x;
      } else {
        right[half - 1 - (place - (half - 1))] = x;
      }
    }
    std::vector<RotationGame> games;
    for (int i = 0; i < half; ++i) {
      RotationGame g;
      g.left = number(left[i]);
      g.right = number(right[i]);
      g.left_black = i == 0 ? r % 2 == 0 : i % 2 == 1;
      games.push_back(g);
    }
    rounds.push_back(std::move(games));
  }
  BalanceColours(n, rounds);
  if (double_round) {
    const std::size_t single = rounds.size();
    for (std::size_t r = 0; r < single; ++r) {
      std::vector<RotationGame> games = rounds[r];
      for (RotationGame& g : games) g.left_black = !g.left_black;
      rounds.push_back(std::move(games));
    }
  }
  return rounds;
}

}  // namespace qipu::tournament
