#include "rules/dead_stones.h"

#include <algorithm>

#include "rules/playout.h"

namespace qipu::rules {
namespace {

constexpr std::array<int, 4> kDirs = {1, -1, kStride, -kStride};

// Points of `board`, in board order.
template <typename F>
void ForEachPoint(const Board& board, F f) {
  for (int y = 0; y < board.height(); ++y) {
    for (int x = 0; x < board.width(); ++x) f(MakePoint(x, y));
  }
}

// For each empty cell, the colours its empty region reaches: bit 0 Black,
// bit 1 White. Allocation-free.
std::array<uint8_t, kNumCells> RegionReach(const Board& b) {
  std::array<uint8_t, kNumCells> reach{};
  std::array<bool, kNumCells> seen{};
  std::array<Point, kMaxPoints> region;
  std::array<Point, kMaxPoints> stack;
  ForEachPoint(b, [&](Point start) {
    if (b.at(start) != Color::kEmpty || seen[start]) return;
    int n_region = 0;
    int n_stack = 0;
    stack[n_stack++] = start;
    seen[start] = true;
    uint8_t r = 0;
    while (n_stack > 0) {
      const Point p = stack[--n_stack];
      region[n_region++] = p;
      for (int d : kDirs) {
        const Point q = static_cast<Point>(p + d);
        const Color c = b.at(q);
        if (c == Color::kEmpty && !seen[q]) {
          seen[q] = true;
          stack[n_stack++] = q;
        } else if (c == Color::kBlack) {
          r |= 1;
        } else if (c == Color::kWhite) {
          r |= 2;
        }
      }
    }
    for (int i = 0; i < n_region; ++i) reach[region[i]] = r;
  });
  return reach;
}

// True when neither colour can usefully fill empty point q: for each
// colour the move is illegal, or captures nothing and leaves the chain it
// makes with at most one liberty.
bool IsSharedLiberty(const Board& b, Point q) {
  for (Color c : {Color::kBlack, Color::kWhite}) {
    if (!b.IsLegal(q, c)) continue;
    if (b.Captures(q, c)) return false;
    Board after = b;
    after.Play(q, c);
    if (after.Liberties(q) >= 2) return false;
  }
  return true;
}

// Adds the owner of each point of `board` at the end of a playout.
void AddOwners(const Board& board, StoneJudgement* j) {
  const std::array<uint8_t, kNumCells> reach = RegionReach(board);
  ForEachPoint(board, [&](Point p) {
    const Color c = board.at(p);
    if (c == Color::kBlack || (c == Color::kEmpty && reach[p] == 1)) {
      ++j->black_owned[p];
    } else if (c == Color::kWhite || (c == Color::kEmpty && reach[p] == 2)) {
      ++j->white_owned[p];
    }
  });
}

// Calls f(chain) for each chain of `board` (its stones in board order),
// chains in the board order of their first stone.
template <typename F>
void ForEachChain(const Board& board, F f) {
  std::array<bool, kNumCells> seen{};
  std::vector<Point> chain;
  ForEachPoint(board, [&](Point start) {
    const Color c = board.at(start);
    if ((c != Color::kBlack && c != Color::kWhite) || seen[start]) return;
    chain.clear();
    ForEachPoint(board, [&](Point q) {
      if (board.at(q) == c && board.SameChain(start, q)) {
        seen[q] = true;
        chain.push_back(q);
      }
    });
    f(chain);
  });
}

// True when some stone of `chain` is next to a shared liberty.
bool TouchesShared(const std::vector<Point>& chain,
                   const std::array<bool, kNumCells>& shared) {
  for (Point p : chain) {
    for (int d : kDirs) {
      if (shared[static_cast<Point>(p + d)]) return true;
    }
  }
  return false;
}

// True when no stone of the other colour touches `chain` or an empty
// region next to it: nothing can capture it (an empty board's lone stone).
bool Unchallenged(const Board& b, const std::vector<Point>& chain,
                  const std::array<uint8_t, kNumCells>& reach) {
  const Color them = Opponent(b.at(chain[0]));
  const uint8_t bit = them == Color::kBlack ? 1 : 2;
  for (Point p : chain) {
    for (int d : kDirs) {
      const Point q = static_cast<Point>(p + d);
      if (b.at(q) == them) return false;
      if (b.at(q) == Color::kEmpty && (reach[q] & bit) != 0) return false;
    }
  }
  return true;
}

}  // namespace

const char* StoneStatusName(StoneStatus s) {
  switch (s) {
    case StoneStatus::kAlive:
      return "alive";
    case StoneStatus::kDead:
      return "dead";
    case StoneStatus::kSeki:
      return "seki";
  }
  return "?";
}

std::array<bool, kNumCells> SharedLiberties(const Board& board) {
  std::array<bool, kNumCells> shared{};
  const std::array<uint8_t, kNumCells> reach = RegionReach(board);
  ForEachPoint(board, [&](Point q) {
    if (board.at(q) == Color::kEmpty && reach[q] == 3) {
      shared[q] = IsSharedLiberty(board, q);
    }
  });
  return shared;
}

StoneJudgement JudgeStones(const Board& board, const JudgeOptions& options) {
  return JudgeStones(board, options, [](Board& b, Color to_play, Rng& rng) {
    b.PlayLightGame(to_play, rng, 3 * kMaxPoints);
  });
}

StoneJudgement JudgeStones(const Board& board, const JudgeOptions& options,
                           PlayoutFn playout) {
  StoneJudgement j;
  j.playouts = std::clamp(options.playouts, 2, 65535);
  Rng rng(options.seed);
  Board scratch;
  for (int i = 0; i < j.playouts; ++i) {
    scratch.CopyFrom(board);
    playout(scratch, i % 2 == 0 ? Color::kBlack : Color::kWhite, rng);
    AddOwners(scratch, &j);
  }

  // Seki first, then the dead chains, then sekis the dead chains hid.
  const std::array<bool, kNumCells> shared = SharedLiberties(board);
  const std::array<uint8_t, kNumCells> reach = RegionReach(board);
  std::vector<Point> dead;
  ForEachChain(board, [&](const std::vector<Point>& chain) {
    const Color c = board.at(chain[0]);
    double survival = 0;
    for (Point p : chain) survival += j.Owned(p, c);
    survival /= chain.size();
    StoneStatus s = StoneStatus::kAlive;
    if (TouchesShared(chain, shared) && survival >= kSekiFloor) {
      s = StoneStatus::kSeki;
    } else if (survival < 0.5 && !Unchallenged(board, chain, reach)) {
      s = StoneStatus::kDead;
      dead.insert(dead.end(), chain.begin(), chain.end());
    }
    for (Point p : chain) j.status[p] = s;
  });
  if (!dead.empty()) {
    const Board rest = WithoutStones(board, dead);
    const std::array<bool, kNumCells> hidden = SharedLiberties(rest);
    ForEachChain(rest, [&](const std::vector<Point>& chain) {
      if (j.status[chain[0]] != StoneStatus::kAlive) return;
      if (!TouchesShared(chain, hidden)) return;
      for (Point p : chain) j.status[p] = StoneStatus::kSeki;
    });
  }
  std::sort(dead.begin(), dead.end());
  j.dead = std::move(dead);
  return j;
}

std::vector<std::vector<Point>> ChainsWithStatus(
    const Board& board, const StoneJudgement& judgement, StoneStatus status) {
  std::vector<std::vector<Point>> out;
  ForEachChain(board, [&](const std::vector<Point>& chain) {
    if (judgement.status[chain[0]] == status) out.push_back(chain);
  });
  return out;
}

Board WithoutStones(const Board& board, absl::Span<const Point> dead) {
  Board out = board;
  std::vector<Point> stones;
  for (Point p : dead) {
    if (board.OnBoard(p) && board.at(p) != Color::kEmpty) stones.push_back(p);
  }
  if (!stones.empty()) out.SetStones(stones, {}, {});
  return out;
}

GameResult CountWithout(const Game& game, absl::Span<const Point> dead,
                        Counting counting) {
  const Board board = WithoutStones(game.board(), dead);
  GameResult r = ScoreResult(CountArea(board, game.rules().dame), game.rules(),
                             game.handicap());
  r.counting = counting;
  return r;
}

std::vector<Point> WholeChains(const Board& board,
                               absl::Span<const Point> stones) {
  std::array<bool, kNumCells> in{};
  for (Point p : stones) {
    if (board.OnBoard(p) && board.at(p) != Color::kEmpty) in[p] = true;
  }
  std::vector<Point> out;
  ForEachChain(board, [&](const std::vector<Point>& chain) {
    for (Point p : chain) {
      if (in[p]) {
        out.insert(out.end(), chain.begin(), chain.end());
        return;
      }
    }
  });
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace qipu::rules
