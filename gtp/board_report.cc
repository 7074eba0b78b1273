#include "gtp/board_report.h"

#include <algorithm>
#include <array>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "rules/coord.h"

namespace qipu::gtp {
namespace {

constexpr std::array<int, 4> kDirs = {1, -1, rules::kStride, -rules::kStride};

// For each cell, whether its empty region reaches Black and White.
struct Regions {
  std::array<uint8_t, rules::kNumCells> reach{};  // bit 0 Black, bit 1 White
};

Regions FindRegions(const rules::Board& b) {
  Regions r;
  std::array<bool, rules::kNumCells> seen{};
  std::vector<rules::Point> region, stack;
  for (int y = 0; y < b.height(); ++y) {
    for (int x = 0; x < b.width(); ++x) {
      const rules::Point start = rules::MakePoint(x, y);
      if (b.at(start) != rules::Color::kEmpty || seen[start]) continue;
      region.clear();
      stack.assign(1, start);
      seen[start] = true;
      uint8_t reach = 0;
      while (!stack.empty()) {
        const rules::Point p = stack.back();
        stack.pop_back();
        region.push_back(p);
        for (int d : kDirs) {
          const rules::Point q = static_cast<rules::Point>(p + d);
          const rules::Color c = b.at(q);
          if (c == rules::Color::kEmpty && !seen[q]) {
            seen[q] = true;
            stack.push_back(q);
          } else if (c == rules::Color::kBlack) {
            reach |= 1;
          } else if (c == rules::Color::kWhite) {
            reach |= 2;
          }
        }
      }
      for (rules::Point p : region) r.reach[p] = reach;
    }
  }
  return r;
}

bool IsStarPoint(int x, int y, int size) {
  if (size < 7) return false;
  const int edge = size >= 13 ? 3 : 2;
  auto on_line = [&](int v) {
    return v == edge || v == size - 1 - edge ||
           (size % 2 == 1 && size >= 9 && v == size / 2);
  };
  return on_line(x) && on_line(y);
}

// True when neither colour can usefully fill empty point q: for each
// colour the move is illegal, or captures nothing and leaves the chain it
// makes with at most one liberty (self-atari). Such points in a region
// reaching both colours are the shared liberties of a seki.
bool IsSekiLiberty(const rules::Board& b, rules::Point q) {
  for (rules::Color c : {rules::Color::kBlack, rules::Color::kWhite}) {
    if (!b.IsLegal(q, c)) continue;
    if (b.Captures(q, c)) return false;
    rules::Board after = b;
    after.Play(q, c);
    if (after.Liberties(q) >= 2) return false;
  }
  return true;
}

}  // namespace

std::vector<std::vector<rules::Point>> ChainsWithStatus(
    const rules::Board& board, StoneStatus status) {
  std::vector<std::vector<rules::Point>> out;
  if (status == StoneStatus::kDead) return out;
  const Regions regions = FindRegions(board);
  std::array<bool, rules::kNumCells> seen{};
  std::vector<rules::Point> stack;
  for (int y = 0; y < board.height(); ++y) {
    for (int x = 0; x < board.width(); ++x) {
      const rules::Point start = rules::MakePoint(x, y);
      const rules::Color c = board.at(start);
      if ((c != rules::Color::kBlack && c != rules::Color::kWhite) ||
          seen[start]) {
        continue;
      }
      std::vector<rules::Point> chain;
      bool seki = false;
      stack.assign(1, start);
      seen[start] = true;
      while (!stack.empty()) {
        const rules::Point p = stack.back();
        stack.pop_back();
        chain.push_back(p);
        for (int d : kDirs) {
          const rules::Point q = static_cast<rules::Point>(p + d);
          const rules::Color qc = board.at(q);
          if (qc == c && !seen[q]) {
            seen[q] = true;
            stack.push_back(q);
          } else if (qc == rules::Color::kEmpty && regions.reach[q] == 3 &&
                     !seki && IsSekiLiberty(board, q)) {
            seki = true;
          }
        }
      }
      if (seki == (status == StoneStatus::kSeki)) {
        std::sort(chain.begin(), chain.end());
        out.push_back(std::move(chain));
      }
    }
  }
  return out;
}

std::string ShowBoard(const rules::Game& game) {
  const rules::Board& b = game.board();
  const int size = b.width();
  const int h = b.height();
  std::string letters = "   ";
  for (int x = 0; x < size; ++x) {
    absl::StrAppend(&letters, " ",
                    std::string(1, "ABCDEFGHJKLMNOPQRSTUVWXYZ"[x]));
  }
  rules::Point last = rules::kNoPoint;
  if (!game.moves().empty()) last = game.moves().back().point;
  std::string out = "\n" + letters + "\n";
  for (int y = 0; y < h; ++y) {
    std::string row = absl::StrFormat("%2d ", h - y);
    for (int x = 0; x < size; ++x) {
      const rules::Point p = rules::MakePoint(x, y);
      const rules::Color c = b.at(p);
      char ch = c == rules::Color::kBlack   ? 'X'
                : c == rules::Color::kWhite ? 'O'
                : IsStarPoint(x, y, size)   ? '+'
                                            : '.';
      const bool mark = p == last;
      const bool after_mark = x > 0 && rules::MakePoint(x - 1, y) == last;
      row += mark ? '(' : after_mark ? ')' : ' ';
      row += ch;
    }
    row += rules::MakePoint(size - 1, y) == last ? ')' : ' ';
    absl::StrAppend(&row, absl::StrFormat("%2d", h - y));
    if (y == 0) {
      absl::StrAppend(&row, "    ", rules::ColorName(game.to_play()),
                      " to play, move ", game.num_moves() + 1);
    } else if (y == 1) {
      absl::StrAppend(&row, "    captures: B ",
                      game.captures(rules::Color::kBlack), ", W ",
                      game.captures(rules::Color::kWhite));
    } else if (y == 2) {
      absl::StrAppend(&row, "    komi ", game.rules().komi);
    } else if (y == 3 && game.over()) {
      absl::StrAppend(&row, "    game over");
    }
    absl::StrAppend(&out, row, "\n");
  }
  absl::StrAppend(&out, letters);
  return out;
}

}  // namespace qipu::gtp
