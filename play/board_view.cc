#include "play/board_view.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "rules/coord.h"

namespace qipu::play {
namespace {

using rules::Color;
using rules::Point;

// Column of the first point: the row number right-aligned in columns
// 0-2, a space, the column where the cursor's '[' goes.
constexpr int kBoardLeft = 5;
// Columns between the right row numbers and the panel.
constexpr int kPanelGap = 2;

// True when (x, y) is a star point of an n x n board: the 3rd line (4th
// from 13 up) in the corners, the centre of odd boards, and the sides'
// middles of odd boards from 15 up.
bool StarPoint(int x, int y, int n) {
  if (n < 9) return false;
  const int edge = n >= 13 ? 3 : 2;
  const int mid = n % 2 == 1 ? n / 2 : -1;
  // 1: a corner line, 2: the middle line, 0: neither.
  auto kind = [&](int v) {
    return v == edge || v == n - 1 - edge ? 1 : v == mid ? 2 : 0;
  };
  const int kx = kind(x);
  const int ky = kind(y);
  if (kx == 0 || ky == 0) return false;
  if (kx == 2 && ky == 2) return true;
  if (kx == 2 || ky == 2) return n >= 15;
  return true;
}

// Who gets each point when the marked stones are removed: kBlack, kWhite
// or kEmpty (dame), for stones and empty points alike (dense index).
std::vector<Color> Ownership(const BoardSession& s) {
  const rules::Board& board = s.game().board();
  const int w = board.width();
  const int h = board.height();
  std::vector<Color> cell(w * h);
  for (int i = 0; i < w * h; ++i) {
    const Point p = rules::FromDenseIndex(i, w);
    cell[i] = s.dead(p) ? Color::kEmpty : board.at(p);
  }
  std::vector<Color> owner(cell);
  std::vector<bool> seen(w * h, false);
  std::vector<int> region;
  std::vector<int> stack;
  for (int start = 0; start < w * h; ++start) {
    if (cell[start] != Color::kEmpty || seen[start]) continue;
    region.clear();
    stack.assign(1, start);
    seen[start] = true;
    bool black = false;
    bool white = false;
    while (!stack.empty()) {
      const int i = stack.back();
      stack.pop_back();
      region.push_back(i);
      const int x = i % w;
      const int y = i / w;
      const std::array<std::array<int, 2>, 4> nbrs = {
          {{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}}};
      for (const auto& [nx, ny] : nbrs) {
        if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
        const int j = ny * w + nx;
        if (cell[j] == Color::kBlack) black = true;
        if (cell[j] == Color::kWhite) white = true;
        if (cell[j] == Color::kEmpty && !seen[j]) {
          seen[j] = true;
          stack.push_back(j);
        }
      }
    }
    const Color who = black == white ? Color::kEmpty
                      : black        ? Color::kBlack
                                     : Color::kWhite;
    for (int i : region) owner[i] = who;
  }
  return owner;
}

// `text` cut into lines of at most `width` columns at spaces (a word
// longer than a line is cut).
std::vector<std::string> Wrap(absl::string_view text, int width) {
  std::vector<std::string> out;
  std::string line;
  for (absl::string_view word : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    if (!line.empty() &&
        static_cast<int>(line.size() + 1 + word.size()) > width) {
      out.push_back(std::move(line));
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line.append(word.data(), word.size());
    while (static_cast<int>(line.size()) > width) {
      out.push_back(line.substr(0, width));
      line.erase(0, width);
    }
  }
  if (!line.empty()) out.push_back(std::move(line));
  return out;
}

// The status panel's lines.
std::vector<std::string> Panel(const BoardSession& s, absl::Time now,
                               const ViewOptions& o) {
  const rules::Game& g = s.game();
  const int n = s.options().size;
  std::vector<std::string> p;
  const bool playing = s.phase() == Phase::kPlaying;
  for (Color c : {Color::kBlack, Color::kWhite}) {
    const bool to_move = playing && g.to_play() == c;
    p.push_back(absl::StrCat(to_move ? "> " : "  ",
                             c == Color::kBlack ? "Black X  " : "White O  ",
                             s.player(c)));
    p.push_back(absl::StrCat("    time ", s.DescribeClock(c, now)));
    p.push_back(absl::StrCat("    captures ", g.captures(c)));
  }
  p.emplace_back();
  std::string move = absl::StrCat("Move ", g.num_moves() + 1);
  switch (s.phase()) {
    case Phase::kPlaying:
      absl::StrAppend(&move, ", ",
                      g.to_play() == Color::kBlack ? "Black" : "White",
                      " to play");
      if (o.thinking) absl::StrAppend(&move, "  thinking…");
      break;
    case Phase::kCounting:
      move = absl::StrCat("Moves ", g.num_moves(), ", counting");
      break;
    case Phase::kOver:
      move = absl::StrCat("Moves ", g.num_moves(), ", game over");
      break;
  }
  p.push_back(std::move(move));
  const Point last = s.last_move();
  if (last != rules::kNoPoint) {
    const rules::Move m = g.moves().back();
    p.push_back(
        absl::StrCat("Last move: ", m.color == Color::kBlack ? "B " : "W ",
                     rules::GtpPoint(last, n)));
  } else {
    p.push_back("Last move: -");
  }
  p.push_back(absl::StrCat("Cursor: ", s.cursor_on_done()
                                           ? "[done]"
                                           : rules::GtpPoint(s.cursor(), n)));
  std::string rules_line =
      absl::StrCat(rules::PresetName(s.options().rules), " rules, komi ",
                   s.options().rules.komi);
  if (s.options().handicap > 0) {
    absl::StrAppend(&rules_line, ", handicap ", s.options().handicap);
  }
  p.push_back(std::move(rules_line));
  if (s.phase() != Phase::kPlaying) {
    p.emplace_back();
    const bool counted = s.phase() == Phase::kCounting ||
                         s.result().reason == rules::EndReason::kScore;
    if (counted) {
      const rules::AreaCount a = s.Count();
      p.push_back("Count: stones + territory");
      p.push_back(absl::StrCat("  Black ", a.black, " = ", a.black_stones,
                               " + ", a.black_territory));
      p.push_back(absl::StrCat("  White ", a.white, " = ", a.white_stones,
                               " + ", a.white_territory));
      if (a.dame > 0) {
        p.push_back(absl::StrCat("  dame ", a.dame, ", half each"));
      }
      p.push_back("x o dead, b w territory");
    }
    if (s.phase() == Phase::kCounting) {
      const rules::GameResult r = s.CountedResult();
      p.push_back(absl::StrCat("Count now: ", rules::ResultToSgf(r)));
    } else {
      p.push_back(absl::StrCat("Result: ", rules::ResultToSgf(s.result())));
      p.push_back(absl::StrCat("  ", rules::ResultInStones(s.result())));
    }
  }
  return p;
}

}  // namespace

char ColumnLetter(int x) {
  const char c = static_cast<char>('A' + x);
  return c >= 'I' ? static_cast<char>(c + 1) : c;
}

Screen RenderScreen(const BoardSession& s, absl::Time now,
                    const ViewOptions& o) {
  const int n = s.options().size;
  const rules::Board& board = s.game().board();
  const bool show_count = s.phase() == Phase::kCounting ||
                          (s.phase() == Phase::kOver &&
                           s.result().reason == rules::EndReason::kScore);
  std::vector<Color> owner;
  if (show_count) owner = Ownership(s);

  Screen screen;
  std::vector<std::string> left;
  left.push_back(absl::StrCat(" qipu play  ", n, "x", n));
  left.emplace_back();
  std::string letters(kBoardLeft + 2 * n - 1, ' ');
  for (int x = 0; x < n; ++x) letters[kBoardLeft + 2 * x] = ColumnLetter(x);
  left.push_back(letters);
  const int first_row = static_cast<int>(left.size());
  const Point last = s.last_move();
  for (int y = 0; y < n; ++y) {
    std::string line(kBoardLeft + 2 * n, ' ');
    const std::string number = absl::StrCat(n - y);
    line.replace(3 - number.size(), number.size(), number);
    for (int x = 0; x < n; ++x) {
      const Point p = rules::MakePoint(x, y);
      const int col = kBoardLeft + 2 * x;
      const Color c = board.at(p);
      char ch = StarPoint(x, y, n) ? '+' : '.';
      if (c == Color::kBlack) ch = s.dead(p) ? 'x' : 'X';
      if (c == Color::kWhite) ch = s.dead(p) ? 'o' : 'O';
      if (show_count && (c == Color::kEmpty)) {
        const Color who = owner[y * n + x];
        if (who == Color::kBlack) ch = 'b';
        if (who == Color::kWhite) ch = 'w';
      }
      line[col] = ch;
      if (p == last) {
        line[col - 1] = '(';
        line[col + 1] = ')';
      }
    }
    if (!s.cursor_on_done() && y == s.cursor_y()) {
      const int col = kBoardLeft + 2 * s.cursor_x();
      line[col - 1] = '[';
      line[col + 1] = ']';
      screen.cursor_line = first_row + y;
      screen.cursor_column = col;
      screen.cursor_width = 1;
    }
    absl::StrAppend(&line, " ", number);
    left.push_back(std::move(line));
  }
  left.push_back(letters);
  if (s.phase() == Phase::kCounting) {
    const std::string done = "[done]";
    left.push_back(absl::StrCat(std::string(kBoardLeft, ' '), done));
    if (s.cursor_on_done()) {
      screen.cursor_line = static_cast<int>(left.size()) - 1;
      screen.cursor_column = kBoardLeft;
      screen.cursor_width = static_cast<int>(done.size());
    }
  }

  const int panel_column = kBoardLeft + 2 * n + 3 + kPanelGap;
  std::vector<std::string> panel = Panel(s, now, o);
  const size_t rows = std::max(left.size(), panel.size() + first_row);
  for (size_t i = 0; i < rows; ++i) {
    std::string line = i < left.size() ? left[i] : "";
    const int pi = static_cast<int>(i) - first_row;
    if (pi >= 0 && pi < static_cast<int>(panel.size())) {
      line.resize(panel_column, ' ');
      line += panel[pi];
    }
    screen.lines.push_back(std::move(line));
  }
  // What a short window leaves out first (rank 1), then next (2, 3); 0
  // stays: the title, the blank lines, the key help.
  std::vector<int> rank(screen.lines.size(), 0);
  rank[0] = rank[1] = 1;
  screen.lines.emplace_back();
  rank.push_back(2);
  for (std::string& l : Wrap(s.message(), std::max(20, o.width - 2))) {
    screen.lines.push_back(absl::StrCat(" ", l));
    rank.push_back(0);
  }
  screen.lines.emplace_back();
  rank.push_back(2);
  const char* help =
      s.phase() == Phase::kCounting ? kCountKeysHelp : kPlayKeysHelp;
  for (std::string& l : Wrap(help, std::max(20, o.width - 2))) {
    screen.lines.push_back(absl::StrCat(" ", l));
    rank.push_back(3);
  }
  for (int r = 1; r <= 3 && o.height > 0 &&
                  static_cast<int>(screen.lines.size()) > o.height;
       ++r) {
    for (int i = static_cast<int>(screen.lines.size()) - 1;
         i >= 0 && static_cast<int>(screen.lines.size()) > o.height; --i) {
      if (rank[i] != r) continue;
      screen.lines.erase(screen.lines.begin() + i);
      rank.erase(rank.begin() + i);
      if (i < screen.cursor_line) --screen.cursor_line;
    }
  }
  if (!o.utf8) {
    for (std::string& l : screen.lines) l = AsciiFallback(l);
  }
  return screen;
}

std::string ClipColumns(absl::string_view line, int columns) {
  size_t i = 0;
  for (int c = 0; c < columns && i < line.size(); ++c) {
    ++i;
    while (i < line.size() &&
           (static_cast<unsigned char>(line[i]) & 0xC0) == 0x80) {
      ++i;
    }
  }
  return std::string(line.substr(0, i));
}

std::string AsciiFallback(absl::string_view text) {
  struct Swap {
    absl::string_view from;
    absl::string_view to;
    bool fraction;
  };
  static constexpr Swap kSwaps[] = {
      {"…", "...", false}, {"—", "-", false},  {"¼", "1/4", true},
      {"½", "1/2", true},  {"¾", "3/4", true},
  };
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    bool swapped = false;
    for (const Swap& s : kSwaps) {
      if (text.substr(i, s.from.size()) == s.from) {
        if (s.fraction && !out.empty() &&
            std::isdigit(static_cast<unsigned char>(out.back()))) {
          out += ' ';
        }
        out.append(s.to.data(), s.to.size());
        i += s.from.size();
        swapped = true;
        break;
      }
    }
    if (swapped) continue;
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      out += text[i++];
    } else {
      // Any other non-ASCII character: one '?' for its UTF-8 sequence.
      out += '?';
      ++i;
      while (i < text.size() &&
             (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) {
        ++i;
      }
    }
  }
  return out;
}

}  // namespace qipu::play
