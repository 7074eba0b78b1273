#include "policy/patterns.h"

#include <algorithm>

namespace qipu::policy {
namespace {

// (dx, dy) of neighbour slot i of a code.
constexpr int kDx[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
constexpr int kDy[8] = {-1, -1, -1, 0, 0, 1, 1, 1};

// The slot of offset (dx, dy), dx and dy in {-1, 0, 1}, not both 0.
constexpr int Slot(int dx, int dy) {
  for (int i = 0; i < 8; ++i) {
    if (kDx[i] == dx && kDy[i] == dy) return i;
  }
  return -1;
}

// kImage[t][i]: the slot that slot i moves to under transform t.
struct ImageTable {
  int slot[8][8];
};
constexpr ImageTable MakeImages() {
  ImageTable m{};
  for (int t = 0; t < 8; ++t) {
    for (int i = 0; i < 8; ++i) {
      int x = kDx[i];
      int y = kDy[i];
      if (t & 4) {
        const int tmp = x;
        x = y;
        y = tmp;
      }
      if (t & 1) x = -x;
      if (t & 2) y = -y;
      m.slot[t][i] = Slot(x, y);
    }
  }
  return m;
}
constexpr ImageTable kImage = MakeImages();

// The counts fitted by tools/fit_patterns.cc.
constexpr PatternCount kFitted[] = {
#include "policy/patterns_3x3.inc"
};

}  // namespace

uint16_t TransformCode(uint16_t code, int t) {
  unsigned out = 0;
  for (int i = 0; i < 8; ++i) {
    out |= ((code >> (2 * i)) & 3u) << (2 * kImage.slot[t][i]);
  }
  return static_cast<uint16_t>(out);
}

uint16_t CanonicalCode(uint16_t code, rules::Color to_play) {
  if (to_play == rules::Color::kWhite) code = SwapColors(code);
  uint16_t best = code;
  for (int t = 1; t < 8; ++t) best = std::min(best, TransformCode(code, t));
  return best;
}

std::string PatternText(uint16_t code) {
  static constexpr char kChar[4] = {'.', 'X', 'O', '#'};
  std::string s;
  for (int y = -1; y <= 1; ++y) {
    if (y > -1) s += '/';
    for (int x = -1; x <= 1; ++x) {
      s += (x == 0 && y == 0) ? '*' : kChar[(code >> (2 * Slot(x, y))) & 3];
    }
  }
  return s;
}

absl::Span<const PatternCount> FittedPatternCounts() { return kFitted; }

PatternWeights::PatternWeights(absl::Span<const PatternCount> counts) {
  double played = 0;
  double available = 0;
  for (const PatternCount& c : counts) {
    played += c.played;
    available += c.available;
  }
  const double rate = available > 0 ? played / available : 1.0;
  // Canonical code -> gamma; 1 for patterns never seen.
  std::vector<float> canonical(kNumPatternCodes, 1.0f);
  for (const PatternCount& c : counts) {
    canonical[c.code] = static_cast<float>((c.played + kSmoothing * rate) /
                                           (c.available + kSmoothing) / rate);
  }
  for (int player = 0; player < 2; ++player) {
    const rules::Color to_play =
        player == 0 ? rules::Color::kBlack : rules::Color::kWhite;
    gamma_[player].resize(kNumPatternCodes);
    for (int code = 0; code < kNumPatternCodes; ++code) {
      gamma_[player][code] =
          canonical[CanonicalCode(static_cast<uint16_t>(code), to_play)];
    }
  }
}

const PatternWeights& PatternWeights::Default() {
  static const PatternWeights* const kWeights =
      new PatternWeights(FittedPatternCounts());
  return *kWeights;
}

}  // namespace qipu::policy
