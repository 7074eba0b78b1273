// 3x3 patterns: the colours of the 8 neighbours of an empty point, as the
// `pattern` playout policy and the pattern fitter (tools/fit_patterns.cc)
// see them.
//
// A pattern code packs the 8 neighbours, 2 bits each, in the order NW, N,
// NE, W, E, SW, S, SE (bit 2i for neighbour i), with the values of
// rules::Color: 0 empty, 1 black, 2 white, 3 off the board. Computing one
// is 8 loads from the board (Code()); no incremental state.
//
// A canonical code is the code seen by the player to move as Black (the
// colours swapped when White moves) and reduced over the 8 symmetries of
// the square (the smallest code of the 8 images), so that a pattern and its
// rotations, reflections and colour swap share one weight.
//
// PatternWeights maps every raw code, for each colour to move, to a weight
// "gamma": how much more often than an average point a professional plays
// a point with that pattern when it is available (1 = average). The
// weights are fitted from a corpus (the counts in patterns_3x3.inc; see
// policy/README.md) and smoothed towards 1 for rare patterns.
#ifndef QIPU_POLICY_PATTERNS_H_
#define QIPU_POLICY_PATTERNS_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "rules/board.h"
#include "rules/types.h"

namespace qipu::policy {

// Number of distinct raw codes (4^8).
inline constexpr int kNumPatternCodes = 1 << 16;

// The code of the 3x3 neighbourhood of board point p (see above).
// Precondition: p is a point of `board`.
inline uint16_t PatternCode(const rules::Board& board, rules::Point p) {
  constexpr int s = rules::kStride;
  auto at = [&](int d) {
    return static_cast<unsigned>(board.at(static_cast<rules::Point>(p + d)));
  };
  return static_cast<uint16_t>(at(-s - 1) | at(-s) << 2 | at(-s + 1) << 4 |
                               at(-1) << 6 | at(1) << 8 | at(s - 1) << 10 |
                               at(s) << 12 | at(s + 1) << 14);
}

// The code with black and white swapped (empty and off-board kept).
constexpr uint16_t SwapColors(uint16_t code) {
  // In each 2-bit field, 01 <-> 10: flip both bits where they differ.
  const unsigned differ = (code ^ (code >> 1)) & 0x5555u;
  return static_cast<uint16_t>(code ^ (differ | differ << 1));
}

// The image of `code` under symmetry t in [0, 8) of the 3x3 square: bit 2
// transposes, bit 0 mirrors left-right, bit 1 mirrors top-bottom.
uint16_t TransformCode(uint16_t code, int t);

// The canonical code of `code` for `to_play` (see above). Slow (8
// transforms): for tables and the fitter, not for playouts.
uint16_t CanonicalCode(uint16_t code, rules::Color to_play);

// Renders a code as three rows separated by '/' ("X.O/.*./###": X black,
// O white, '.' empty, '#' off the board, '*' the centre), for the data
// file and test messages.
std::string PatternText(uint16_t code);

// Fitted counts of one canonical pattern (a row of patterns_3x3.inc).
struct PatternCount {
  // Canonical code (CanonicalCode(..., kBlack)).
  uint16_t code = 0;
  // Times a move was played on a point with this pattern.
  uint32_t played = 0;
  // Times a legal point with this pattern was available to the mover.
  uint32_t available = 0;
};

// The fitted counts compiled into the library (patterns_3x3.inc).
absl::Span<const PatternCount> FittedPatternCounts();

// Weights per raw code and colour to move. Immutable after construction;
// thread-safe to read. About 256 KB.
class PatternWeights {
 public:
  // Weights from `counts` (canonical codes): gamma = ((played + k * r) /
  // (available + k)) / r where r is the overall rate played / available
  // and k = kSmoothing; patterns absent from `counts` get gamma 1.
  explicit PatternWeights(absl::Span<const PatternCount> counts);

  // The shared weights of FittedPatternCounts(), built on first use.
  static const PatternWeights& Default();

  // Pseudo-availabilities that pull a rare pattern's rate towards the
  // overall rate.
  static constexpr double kSmoothing = 50.0;

  // gamma of raw code `code` for `to_play` (black or white).
  float Gamma(uint16_t code, rules::Color to_play) const {
    return gamma_[rules::PlayerIndex(to_play)][code];
  }
  // gamma of point p of `board` for `to_play`.
  float Gamma(const rules::Board& board, rules::Point p,
              rules::Color to_play) const {
    return Gamma(PatternCode(board, p), to_play);
  }

 private:
  // [player index][raw code]
  std::array<std::vector<float>, 2> gamma_;
};

}  // namespace qipu::policy

#endif  // QIPU_POLICY_PATTERNS_H_
