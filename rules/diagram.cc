#include "rules/diagram.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "rules/coord.h"

namespace qipu::rules {

absl::StatusOr<Board> BoardFromDiagram(absl::string_view diagram) {
  std::vector<std::string> rows;
  int line_no = 0;
  for (absl::string_view line : absl::StrSplit(diagram, '\n')) {
    ++line_no;
    std::string row;
    for (char ch : line) {
      if (ch == ' ' || ch == '\t' || ch == '\r') continue;
      if (ch == 'X' || ch == 'x' || ch == '#') {
        row += 'X';
      } else if (ch == 'O' || ch == 'o') {
        row += 'O';
      } else if (ch == '.' || ch == '+') {
        row += '.';
      } else {
        return absl::InvalidArgumentError(absl::StrCat(
            "diagram line ", line_no, ": unexpected character '",
            std::string(1, ch), "'"));
      }
    }
    if (row.empty()) continue;
    if (!rows.empty() && row.size() != rows[0].size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "diagram line ", line_no, ": ", row.size(), " points, expected ",
          rows[0].size()));
    }
    rows.push_back(row);
  }
  if (rows.empty()) return absl::InvalidArgumentError("empty diagram");
  const int width = static_cast<int>(rows[0].size());
  const int height = static_cast<int>(rows.size());
  if (absl::Status s = ValidateSize(width, height); !s.ok()) return s;
  Board board(width, height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const char ch = rows[y][x];
      if (ch != '.') {
        board.SetStone(MakePoint(x, y),
                       ch == 'X' ? Color::kBlack : Color::kWhite);
      }
    }
  }
  if (board.HasDeadChains()) {
    return absl::InvalidArgumentError("diagram has a chain without liberties");
  }
  return board;
}

}  // namespace qipu::rules
