// Kombilo-style local patterns: a rectangle of black, white, empty and
// wildcard points, where it may stand on a board (a fixed place and its
// symmetric images, any corner, any edge, anywhere), with the 8 board
// symmetries and optionally the colours swapped, and matching it against a
// board held as row bitmasks.
//
// Text form: rows of equal length, top row first, separated by '/' or new
// lines; cells 'X' black, 'O' white, '.' empty, '*' any, 'x' black or empty,
// 'o' white or empty (Kombilo's alphabet).
//
// A compiled PatternSearch lists the oriented (and colour-swapped) images
// of the pattern, each a PatternVariant with per-row masks and the
// offsets where it may stand. Matching a variant at an offset reads a few
// row masks and never allocates.
#ifndef QIPU_RULES_PATTERN_H_
#define QIPU_RULES_PATTERN_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/board.h"
#include "rules/types.h"

namespace qipu::rules {

// One cell of a pattern.
enum class PatternCell : uint8_t {
  kAny = 0,           // '*'
  kBlack = 1,         // 'X'
  kWhite = 2,         // 'O'
  kEmpty = 3,         // '.'
  kBlackOrEmpty = 4,  // 'x'
  kWhiteOrEmpty = 5,  // 'o'
};

// A pattern as the caller drew it. cells[y * width + x], y = 0 the top row.
struct Pattern {
  int width = 0;
  int height = 0;
  std::array<PatternCell, kMaxPoints> cells{};

  PatternCell at(int x, int y) const { return cells[y * width + x]; }
};

// Parses the text form. InvalidArgument naming the row and column of a bad
// character, a row of another length, an empty text, a pattern larger than
// kMaxSize either way, or one of wildcards ('*') only.
absl::StatusOr<Pattern> ParsePattern(absl::string_view text);

// The text form of `p`, rows separated by '/'.
std::string PatternText(const Pattern& p);

// Where a pattern may stand.
enum class PatternPlacement : uint8_t {
  // Its top-left cell at the anchor, and the 8 (4 on a rectangular board)
  // symmetric images of that placement.
  kFixed = 0,
  // Fixed at the board's top-left corner: every corner, both orientations.
  kCorner = 1,
  // Its top row on the top edge at any column, and the symmetric images:
  // along any edge.
  kSide = 2,
  // At any offset, in any orientation.
  kAnywhere = 3,
};

// "fixed", "corner", "side", "anywhere".
const char* PatternPlacementName(PatternPlacement p);

// The rows of a board as bitmasks: bit x of rows[y] is set when (x, y)
// holds the colour. Width at most kMaxSize (< 32).
using BoardRows = std::array<uint32_t, kMaxSize>;

// One oriented (and maybe colour-swapped) image of a pattern, and the
// offsets (top-left cell on the board) where it may stand.
struct PatternVariant {
  // Size of the image (the pattern's, transposed by transforms 4..7).
  int width = 0;
  int height = 0;
  // The rectangle transform (rules/symmetry.h numbering: bit 2 transposes,
  // bit 0 mirrors x, bit 1 mirrors y) taking the caller's pattern to this
  // image, and whether the colours are swapped.
  uint8_t transform = 0;
  bool swapped = false;
  // Per row j of the image, bit dx: the cells that must be black ('X'),
  // white ('O'), empty ('.'), not white ('x') and not black ('o').
  std::array<uint32_t, kMaxSize> black{};
  std::array<uint32_t, kMaxSize> white{};
  std::array<uint32_t, kMaxSize> empty{};
  std::array<uint32_t, kMaxSize> no_white{};
  std::array<uint32_t, kMaxSize> no_black{};
  // Offsets allowed: bit ox of offsets[oy]; rows first_oy..last_oy hold
  // them all.
  BoardRows offsets{};
  int first_oy = 0;
  int last_oy = -1;
  // The cells that are not '*', stones first, then empty, then 'x' and
  // 'o' (the order a prefilter tests them in): kind << 10 | dy << 5 | dx,
  // kind 0 black, 1 white, 2 empty, 3 not white, 4 not black.
  std::array<uint16_t, kMaxPoints> cells{};
  int num_cells = 0;

  // Whether the image stands at (ox, oy) on the board given by its rows.
  // Precondition: the image fits there. Never allocates.
  bool MatchesAt(const BoardRows& black_rows, const BoardRows& white_rows,
                 int ox, int oy) const {
    for (int j = 0; j < height; ++j) {
      const uint32_t b = black_rows[oy + j] >> ox;
      const uint32_t w = white_rows[oy + j] >> ox;
      if ((b & (black[j] | no_black[j] | empty[j])) != black[j]) return false;
      if ((w & (white[j] | no_white[j] | empty[j])) != white[j]) return false;
    }
    return true;
  }
};

// A compiled pattern query: the pattern, its placement on a board and the
// distinct images to look for. Immutable; thread-compatible.
class PatternSearch {
 public:
  // Compiles `pattern` for a board_width x board_height board. The anchor
  // (0-based column and row from the top-left) is the pattern's top-left
  // cell in the caller's frame: where kFixed places it, and where
  // continuations are reported for every placement (kCorner forces (0, 0),
  // kSide a row of 0). colour_swap adds the images with the colours
  // swapped. InvalidArgument when the board size is unsupported or the
  // pattern does not fit at the anchor (naming sizes and anchor).
  static absl::StatusOr<PatternSearch> Compile(const Pattern& pattern,
                                               PatternPlacement placement,
                                               int board_width,
                                               int board_height, int anchor_x,
                                               int anchor_y, bool colour_swap);

  const Pattern& pattern() const { return pattern_; }
  PatternPlacement placement() const { return placement_; }
  int board_width() const { return board_width_; }
  int board_height() const { return board_height_; }
  int anchor_x() const { return anchor_x_; }
  int anchor_y() const { return anchor_y_; }
  bool colour_swap() const { return colour_swap_; }
  // The images, unswapped first, by transform (one equal to an earlier
  // image in cells and offsets is left out); a match is reported for the
  // first variant (then the smallest row, then column) that stands.
  const std::vector<PatternVariant>& variants() const { return variants_; }

  // The board point p, inside variant v standing at (ox, oy), in the
  // caller's frame (the pattern at the anchor, untransformed).
  Point ToCaller(const PatternVariant& v, int ox, int oy, Point p) const;

  // A match: the variant's index and its offset.
  struct Match {
    int variant = -1;
    int ox = 0;
    int oy = 0;
    bool found() const { return variant >= 0; }
  };
  // The first variant and offset (allowed by `allowed[v]` when given, else
  // by the variant's offsets) where the pattern stands on the board.
  // Never allocates.
  Match FindOnBoard(const BoardRows& black_rows, const BoardRows& white_rows,
                    const BoardRows* allowed = nullptr) const;

 private:
  PatternSearch() = default;

  Pattern pattern_;
  PatternPlacement placement_ = PatternPlacement::kFixed;
  int board_width_ = 19;
  int board_height_ = 19;
  int anchor_x_ = 0;
  int anchor_y_ = 0;
  bool colour_swap_ = false;
  std::vector<PatternVariant> variants_;
};

// Applies rectangle transform t to cell (x, y) of a width x height
// rectangle (rules/symmetry.h numbering; transforms 4..7 transpose it).
void TransformCell(int t, int width, int height, int* x, int* y);

// The rows of `board`'s black and white stones.
void BoardToRows(const Board& board, BoardRows* black_rows,
                 BoardRows* white_rows);

}  // namespace qipu::rules

#endif  // QIPU_RULES_PATTERN_H_
