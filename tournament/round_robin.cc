#include "tournament/round_robin.h"

#include <cstddef>
#include <utility>

namespace qipu::tournament {

int RoundRobinRounds(int n, bool double_round) {
  if (n < 2) return 0;
  const int even = n + (n % 2);
  return (even - 1) * (double_round ? 2 : 1);
}

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
  std::vector<int> blacks(even + 1, 0);
  std::vector<int> last(even + 1, 0);  // +1 black, -1 white
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
      if (i == 0) {
        g.left_black = r % 2 == 0;
      } else if (g.left == 0 || g.right == 0) {
        g.left_black = true;
      } else if (blacks[g.left] != blacks[g.right]) {
        g.left_black = blacks[g.left] < blacks[g.right];
      } else if (last[g.left] != last[g.right]) {
        g.left_black = last[g.left] < last[g.right];
      } else {
        g.left_black = true;
      }
      if (g.left != 0 && g.right != 0) {
        const int b = g.left_black ? g.left : g.right;
        const int w = g.left_black ? g.right : g.left;
        ++blacks[b];
        last[b] = 1;
        last[w] = -1;
      }
      games.push_back(g);
    }
    rounds.push_back(std::move(games));
  }
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
