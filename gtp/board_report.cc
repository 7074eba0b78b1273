#include "gtp/board_report.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "rules/coord.h"

namespace qipu::gtp {
namespace {

bool IsStarPoint(int x, int y, int size) {
  if (size < 7) return false;
  const int edge = size >= 13 ? 3 : 2;
  auto on_line = [&](int v) {
    return v == edge || v == size - 1 - edge ||
           (size % 2 == 1 && size >= 9 && v == size / 2);
  };
  return on_line(x) && on_line(y);
}

}  // namespace

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
