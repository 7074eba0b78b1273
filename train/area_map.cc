#include "train/area_map.h"

#include <cstdint>

namespace qipu::train {

using rules::Color;
using rules::Point;

void ComputeArea(const rules::Board& board, AreaMap* area) {
  constexpr int kDirs[4] = {-rules::kStride, -1, 1, rules::kStride};
  // Region points found so far (the flood's stack, then the region).
  std::array<Point, rules::kMaxPoints> region;
  std::array<bool, rules::kNumCells> seen{};
  AreaMap& out = *area;
  for (int y = 0; y < board.height(); ++y) {
    for (int x = 0; x < board.width(); ++x) {
      const Point p = rules::MakePoint(x, y);
      const Color c = board.at(p);
      if (c != Color::kEmpty) {
        out[p] = c;
        continue;
      }
      if (seen[p]) continue;
      // Flood the empty region of p, noting which colours it touches:
      // bit 0 black, bit 1 white.
      int count = 0;
      int next = 0;
      unsigned reach = 0;
      region[count++] = p;
      seen[p] = true;
      while (next < count) {
        const Point q = region[next++];
        for (int d : kDirs) {
          const Point n = static_cast<Point>(q + d);
          const Color nc = board.at(n);
          if (nc == Color::kEmpty) {
            if (!seen[n]) {
              seen[n] = true;
              region[count++] = n;
            }
          } else if (nc == Color::kBlack) {
            reach |= 1u;
          } else if (nc == Color::kWhite) {
            reach |= 2u;
          }
        }
      }
      const Color owner = reach == 1u   ? Color::kBlack
                          : reach == 2u ? Color::kWhite
                                        : Color::kEmpty;
      for (int i = 0; i < count; ++i) out[region[i]] = owner;
    }
  }
}

}  // namespace qipu::train
