#include "rules/pattern.h"

#include <algorithm>
#include <bit>
#include <utility>

#include "absl/strings/str_cat.h"
#include "rules/coord.h"

namespace qipu::rules {
namespace {

bool PatternCellFromChar(char c, PatternCell* cell) {
  switch (c) {
    case 'X':
      *cell = PatternCell::kBlack;
      return true;
    case 'O':
      *cell = PatternCell::kWhite;
      return true;
    case '.':
      *cell = PatternCell::kEmpty;
      return true;
    case '*':
      *cell = PatternCell::kAny;
      return true;
    case 'x':
      *cell = PatternCell::kBlackOrEmpty;
      return true;
    case 'o':
      *cell = PatternCell::kWhiteOrEmpty;
      return true;
    default:
      return false;
  }
}

char PatternCellChar(PatternCell c) {
  switch (c) {
    case PatternCell::kBlack:
      return 'X';
    case PatternCell::kWhite:
      return 'O';
    case PatternCell::kEmpty:
      return '.';
    case PatternCell::kBlackOrEmpty:
      return 'x';
    case PatternCell::kWhiteOrEmpty:
      return 'o';
    case PatternCell::kAny:
      break;
  }
  return '*';
}

PatternCell SwapCellColours(PatternCell c) {
  switch (c) {
    case PatternCell::kBlack:
      return PatternCell::kWhite;
    case PatternCell::kWhite:
      return PatternCell::kBlack;
    case PatternCell::kBlackOrEmpty:
      return PatternCell::kWhiteOrEmpty;
    case PatternCell::kWhiteOrEmpty:
      return PatternCell::kBlackOrEmpty;
    default:
      return c;
  }
}

// The image of `p` under rectangle transform t, colours swapped or not,
// without offsets.
PatternVariant VariantOf(const Pattern& p, int t, bool swapped) {
  PatternVariant v;
  v.transform = static_cast<uint8_t>(t);
  v.swapped = swapped;
  v.width = (t & 4) ? p.height : p.width;
  v.height = (t & 4) ? p.width : p.height;
  for (int y = 0; y < p.height; ++y) {
    for (int x = 0; x < p.width; ++x) {
      int tx = x;
      int ty = y;
      TransformCell(t, p.width, p.height, &tx, &ty);
      const PatternCell c = swapped ? SwapCellColours(p.at(x, y)) : p.at(x, y);
      const uint32_t bit = uint32_t{1} << tx;
      switch (c) {
        case PatternCell::kBlack:
          v.black[ty] |= bit;
          break;
        case PatternCell::kWhite:
          v.white[ty] |= bit;
          break;
        case PatternCell::kEmpty:
          v.empty[ty] |= bit;
          break;
        case PatternCell::kBlackOrEmpty:
          v.no_white[ty] |= bit;
          break;
        case PatternCell::kWhiteOrEmpty:
          v.no_black[ty] |= bit;
          break;
        case PatternCell::kAny:
          break;
      }
    }
  }
  return v;
}

bool SameCells(const PatternVariant& a, const PatternVariant& b) {
  return a.width == b.width && a.height == b.height && a.black == b.black &&
         a.white == b.white && a.empty == b.empty && a.no_white == b.no_white &&
         a.no_black == b.no_black;
}

}  // namespace

const char* PatternPlacementName(PatternPlacement p) {
  switch (p) {
    case PatternPlacement::kFixed:
      return "fixed";
    case PatternPlacement::kCorner:
      return "corner";
    case PatternPlacement::kSide:
      return "side";
    case PatternPlacement::kAnywhere:
      return "anywhere";
  }
  return "fixed";
}

void TransformCell(int t, int width, int height, int* x, int* y) {
  if (t & 4) {
    std::swap(*x, *y);
    std::swap(width, height);
  }
  if (t & 1) *x = width - 1 - *x;
  if (t & 2) *y = height - 1 - *y;
}

absl::StatusOr<Pattern> ParsePattern(absl::string_view text) {
  Pattern p;
  int row = 0;
  int col = 0;
  int width = -1;
  bool any_cell = false;
  auto end_row = [&]() -> absl::Status {
    if (col == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("pattern: row ", row + 1, " is empty"));
    }
    if (width < 0) {
      width = col;
    } else if (col != width) {
      return absl::InvalidArgumentError(absl::StrCat(
          "pattern: row ", row + 1, " has ", col, " cells; row 1 has ", width));
    }
    ++row;
    col = 0;
    return absl::OkStatus();
  };
  // Surrounding blank space and a trailing separator are not rows.
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' ||
                           text.back() == ' ' || text.back() == '/')) {
    text.remove_suffix(1);
  }
  while (!text.empty() && (text.front() == '\n' || text.front() == ' ' ||
                           text.front() == '\r')) {
    text.remove_prefix(1);
  }
  if (text.empty()) {
    return absl::InvalidArgumentError(
        "pattern: empty (rows of X O . * x o, separated by '/' or new lines)");
  }
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\r') continue;
    if (c == '/' || c == '\n') {
      if (absl::Status s = end_row(); !s.ok()) return s;
      continue;
    }
    PatternCell cell;
    if (!PatternCellFromChar(c, &cell)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "pattern: row ", row + 1, ", column ", col + 1, ": '",
          absl::string_view(&text[i], 1),
          "' is not a cell (X black, O white, . empty, * any, x black or "
          "empty, o white or empty)"));
    }
    if (col >= kMaxSize || row >= kMaxSize) {
      return absl::InvalidArgumentError(
          absl::StrCat("pattern: larger than ", kMaxSize, "x", kMaxSize,
                       " (row ", row + 1, ", column ", col + 1, ")"));
    }
    p.cells[row * kMaxSize + col] = cell;
    if (cell != PatternCell::kAny) any_cell = true;
    ++col;
  }
  if (absl::Status s = end_row(); !s.ok()) return s;
  if (!any_cell) {
    return absl::InvalidArgumentError(
        "pattern: wildcards ('*') only; at least one cell must be X, O, ., "
        "x or o");
  }
  // Compact the kMaxSize-stride rows into width-stride cells.
  p.width = width;
  p.height = row;
  Pattern out;
  out.width = p.width;
  out.height = p.height;
  for (int y = 0; y < p.height; ++y) {
    for (int x = 0; x < p.width; ++x) {
      out.cells[y * p.width + x] = p.cells[y * kMaxSize + x];
    }
  }
  return out;
}

std::string PatternText(const Pattern& p) {
  std::string out;
  for (int y = 0; y < p.height; ++y) {
    if (y > 0) out.push_back('/');
    for (int x = 0; x < p.width; ++x)
      out.push_back(PatternCellChar(p.at(x, y)));
  }
  return out;
}

absl::StatusOr<PatternSearch> PatternSearch::Compile(
    const Pattern& pattern, PatternPlacement placement, int board_width,
    int board_height, int anchor_x, int anchor_y, bool colour_swap) {
  if (absl::Status s = ValidateSize(board_width, board_height); !s.ok()) {
    return s;
  }
  if (pattern.width < 1 || pattern.height < 1) {
    return absl::InvalidArgumentError("pattern: empty");
  }
  if (placement == PatternPlacement::kCorner) {
    anchor_x = 0;
    anchor_y = 0;
  } else if (placement == PatternPlacement::kSide) {
    anchor_y = 0;
  }
  if (anchor_x < 0 || anchor_y < 0 || anchor_x + pattern.width > board_width ||
      anchor_y + pattern.height > board_height) {
    return absl::InvalidArgumentError(
        absl::StrCat("pattern: ", pattern.width, "x", pattern.height,
                     " does not fit on the ", board_width, "x", board_height,
                     " board with its top-left cell at ",
                     GtpPoint(MakePoint(anchor_x, anchor_y), board_height)));
  }
  PatternSearch s;
  s.pattern_ = pattern;
  s.placement_ = placement;
  s.board_width_ = board_width;
  s.board_height_ = board_height;
  s.anchor_x_ = anchor_x;
  s.anchor_y_ = anchor_y;
  s.colour_swap_ = colour_swap;

  // Offsets of the untransformed pattern.
  std::vector<std::pair<int, int>> base;
  const int max_x = board_width - pattern.width;
  const int max_y = board_height - pattern.height;
  switch (placement) {
    case PatternPlacement::kFixed:
    case PatternPlacement::kCorner:
      base.emplace_back(anchor_x, anchor_y);
      break;
    case PatternPlacement::kSide:
      for (int x = 0; x <= max_x; ++x) base.emplace_back(x, 0);
      break;
    case PatternPlacement::kAnywhere:
      for (int y = 0; y <= max_y; ++y) {
        for (int x = 0; x <= max_x; ++x) base.emplace_back(x, y);
      }
      break;
  }
  const int transforms = board_width == board_height ? 8 : 4;
  for (int swap = 0; swap < (colour_swap ? 2 : 1); ++swap) {
    for (int t = 0; t < transforms; ++t) {
      PatternVariant v = VariantOf(pattern, t, swap == 1);
      // The image of each base placement: the board transform t maps the
      // rectangle at (ox, oy) onto the rectangle whose top-left cell is
      // the image of one of its corners, holding the image of the pattern
      // under the same transform of the rectangle.
      for (const auto& [ox, oy] : base) {
        int x0 = ox;
        int y0 = oy;
        int x1 = ox + pattern.width - 1;
        int y1 = oy + pattern.height - 1;
        TransformCell(t, board_width, board_height, &x0, &y0);
        TransformCell(t, board_width, board_height, &x1, &y1);
        v.offsets[std::min(y0, y1)] |= uint32_t{1} << std::min(x0, x1);
      }
      // An image equal to an earlier one, cells and offsets, stands
      // exactly where that one does: dropped. One with equal cells but
      // other offsets stays: its transform is what maps its continuations
      // back (a symmetric pattern in another corner of a corner search).
      bool seen_before = false;
      for (const PatternVariant& seen : s.variants_) {
        if (SameCells(seen, v) && seen.offsets == v.offsets) {
          seen_before = true;
          break;
        }
      }
      if (!seen_before) s.variants_.push_back(v);
    }
  }
  for (PatternVariant& v : s.variants_) {
    v.first_oy = kMaxSize;
    v.last_oy = -1;
    for (int y = 0; y < kMaxSize; ++y) {
      if (v.offsets[y] == 0) continue;
      v.first_oy = std::min(v.first_oy, y);
      v.last_oy = y;
    }
    const std::array<uint32_t, kMaxSize>* kinds[5] = {
        &v.black, &v.white, &v.empty, &v.no_white, &v.no_black};
    v.num_cells = 0;
    for (int k = 0; k < 5; ++k) {
      for (int y = 0; y < v.height; ++y) {
        uint32_t row = (*kinds[k])[y];
        while (row != 0) {
          const int x = std::countr_zero(row);
          row &= row - 1;
          v.cells[v.num_cells++] = static_cast<uint16_t>(k << 10 | y << 5 | x);
        }
      }
    }
  }
  return s;
}

Point PatternSearch::ToCaller(const PatternVariant& v, int ox, int oy,
                              Point p) const {
  int x = PointX(p) - ox;
  int y = PointY(p) - oy;
  // The image's cell back to the pattern's: the inverse rectangle transform
  // on the image's dimensions.
  const int inv =
      (v.transform & 4)
          ? (4 | ((v.transform & 1) << 1) | ((v.transform & 2) >> 1))
          : v.transform;
  TransformCell(inv, v.width, v.height, &x, &y);
  return MakePoint(anchor_x_ + x, anchor_y_ + y);
}

PatternSearch::Match PatternSearch::FindOnBoard(
    const BoardRows& black_rows, const BoardRows& white_rows,
    const BoardRows* allowed) const {
  for (size_t i = 0; i < variants_.size(); ++i) {
    const PatternVariant& v = variants_[i];
    const BoardRows& offsets = allowed != nullptr ? allowed[i] : v.offsets;
    for (int oy = 0; oy + v.height <= board_height_; ++oy) {
      uint32_t row = offsets[oy];
      while (row != 0) {
        const int ox = std::countr_zero(row);
        row &= row - 1;
        if (v.MatchesAt(black_rows, white_rows, ox, oy)) {
          return {static_cast<int>(i), ox, oy};
        }
      }
    }
  }
  return {};
}

void BoardToRows(const Board& board, BoardRows* black_rows,
                 BoardRows* white_rows) {
  black_rows->fill(0);
  white_rows->fill(0);
  for (int y = 0; y < board.height(); ++y) {
    for (int x = 0; x < board.width(); ++x) {
      const Color c = board.at(MakePoint(x, y));
      if (c == Color::kBlack) (*black_rows)[y] |= uint32_t{1} << x;
      if (c == Color::kWhite) (*white_rows)[y] |= uint32_t{1} << x;
    }
  }
}

}  // namespace qipu::rules
