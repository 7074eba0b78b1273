// Board: construction, copying, setup and rebuilding, the consistency
// check, diagrams and the empty regions of area counting. Moves -- the
// playout and replay hot paths -- are in board_play.cc.
#include "rules/board.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstring>
#include <type_traits>
#include <utility>

namespace qipu::rules {

static_assert(std::is_trivially_copyable_v<Board>);

const char* MoveCheckName(MoveCheck c) {
  switch (c) {
    case MoveCheck::kLegal:
      return "legal";
    case MoveCheck::kOccupied:
      return "occupied";
    case MoveCheck::kSuicide:
      return "suicide";
    case MoveCheck::kKo:
      return "ko";
  }
  return "?";
}

Board::Board() : Board(19, 19) {}

Board::Board(int width, int height)
    : width_(static_cast<int16_t>(width)),
      height_(static_cast<int16_t>(height)) {
  assert(width >= kMinSize && width <= kMaxSize);
  assert(height >= kMinSize && height <= kMaxSize);
  color_.fill(Color::kWall);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) color_[MakePoint(x, y)] = Color::kEmpty;
  }
  Rebuild();
}

namespace {

// Copies the first n elements of `from` into `to`.
template <typename T, size_t N>
void CopyPrefix(std::array<T, N>& to, const std::array<T, N>& from, int n) {
  std::memcpy(to.data(), from.data(), sizeof(T) * n);
}

}  // namespace

void Board::CopyFrom(const Board& other) {
  // Cells past other.UsedCells() are untouched walls in `other`; in *this
  // they are too unless *this was a taller board.
  const int n = std::max(UsedCells(), other.UsedCells());
  width_ = other.width_;
  height_ = other.height_;
  ko_point_ = other.ko_point_;
  stones_ = other.stones_;
  num_empty_ = other.num_empty_;
  hash_ = other.hash_;
  last_play_ = other.last_play_;
  CopyPrefix(empty_, other.empty_, other.num_empty_);
  CopyPrefix(color_, other.color_, n);
  CopyPrefix(nbr_, other.nbr_, n);
  CopyPrefix(chain_, other.chain_, n);
  CopyPrefix(next_, other.next_, n);
  CopyPrefix(libs_, other.libs_, n);
  CopyPrefix(size_, other.size_, n);
  CopyPrefix(empty_index_, other.empty_index_, n);
}

Board::EmptyRegions Board::CountEmptyRegions() const {
  EmptyRegions out;
  // Regions of one point first, without a branch; the others are flood
  // filled from their first point met, with a bitmap cleared only then.
  std::array<bool, kNumCells> seen;
  bool seen_clear = false;
  std::array<Point, kMaxPoints> stack;
  for (int i = 0; i < num_empty_; ++i) {
    const int p = empty_[i];
    const uint32_t nbr = nbr_[p];
    if ((nbr & kEmptyMask) == 0) {
      const int b = (nbr & NbrMask(Color::kBlack)) != 0;
      const int w = (nbr & NbrMask(Color::kWhite)) != 0;
      out.black += b & !w;
      out.white += w & !b;
      out.other += !(b ^ w);
      continue;
    }
    if (!seen_clear) {
      seen.fill(false);
      seen_clear = true;
    }
    if (seen[p]) continue;
    uint32_t reach = 0;
    int size = 0;
    int top = 0;
    stack[top++] = static_cast<Point>(p);
    seen[p] = true;
    while (top > 0) {
      const int q = stack[--top];
      const uint32_t m = nbr_[q];
      reach |= m;
      ++size;
      for (unsigned e = (m >> kEmptyShift) & 0xF; e != 0; e &= e - 1) {
        const int n = q + kDirs[std::countr_zero(e)];
        if (!seen[n]) {
          seen[n] = true;
          stack[top++] = static_cast<Point>(n);
        }
      }
    }
    const bool b = (reach & NbrMask(Color::kBlack)) != 0;
    const bool w = (reach & NbrMask(Color::kWhite)) != 0;
    (b && !w ? out.black : w && !b ? out.white : out.other) += size;
  }
  return out;
}

int Board::Liberties(Point p) const {
  // Marks liberties in a local bitmap; the chain walk is bounded by size.
  std::array<bool, kNumCells> seen{};
  int libs = 0;
  const Point head = chain_[p];
  Point s = head;
  do {
    for (int d = 0; d < 4; ++d) {
      const Point n = static_cast<Point>(s + kDirs[d]);
      if (color_[n] == Color::kEmpty && !seen[n]) {
        seen[n] = true;
        ++libs;
      }
    }
    s = next_[s];
  } while (s != head);
  return libs;
}

void Board::SetStone(Point p, Color c) {
  assert(OnBoard(p));
  const Color old = color_[p];
  if (old == c) return;
  if (old != Color::kEmpty) hash_ ^= StoneKey(old, p);
  if (c != Color::kEmpty) hash_ ^= StoneKey(c, p);
  color_[p] = c;
  ko_point_ = kNoPoint;
  last_play_ = PlayInfo{};
  Rebuild();
}

void Board::SetStones(absl::Span<const Point> empty,
                      absl::Span<const Point> black,
                      absl::Span<const Point> white) {
  // SetStone() rebuilds from the colours alone, so only the last rebuild
  // of the one-by-one calls counts; none happens when nothing changes.
  bool changed = false;
  for (const auto& [points, c] :
       {std::pair{empty, Color::kEmpty}, std::pair{black, Color::kBlack},
        std::pair{white, Color::kWhite}}) {
    for (const Point p : points) {
      assert(OnBoard(p));
      const Color old = color_[p];
      if (old == c) continue;
      if (old != Color::kEmpty) hash_ ^= StoneKey(old, p);
      if (c != Color::kEmpty) hash_ ^= StoneKey(c, p);
      color_[p] = c;
      changed = true;
    }
  }
  if (!changed) return;
  ko_point_ = kNoPoint;
  last_play_ = PlayInfo{};
  Rebuild();
}

void Board::Rebuild() {
  num_empty_ = 0;
  stones_ = {0, 0};
  // Cells past UsedCells() are walls in the scratch chain already.
  for (int p = 0; p < UsedCells(); ++p) {
    if (color_[p] != Color::kBlack && color_[p] != Color::kWhite) {
      chain_[p] = kScratch;
    }
  }
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      const Point p = MakePoint(x, y);
      next_[p] = kNoPoint;
      empty_index_[p] = -1;
      libs_[p] = 0;
      size_[p] = 0;
      if (color_[p] == Color::kEmpty) {
        AddEmpty(p);
      } else {
        ++stones_[PlayerIndex(color_[p])];
      }
    }
  }
  libs_[kScratch] = kScratchLibs;
  for (int y = -1; y <= height_; ++y) {
    for (int x = -1; x <= width_; ++x) {
      const Point p = static_cast<Point>((y + 1) * kStride + x + 1);
      if (p < 0 || p >= kNumCells) continue;
      uint32_t nbr = 0;
      for (int d = 0; d < 4; ++d) {
        const int n = p + kDirs[d];
        if (n >= 0 && n < kNumCells) {
          nbr += NbrBit(color_[n], d);
        }
      }
      nbr_[p] = nbr;
    }
  }
  // Chains: each stone starts alone, then merges with earlier neighbours.
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      const Point p = MakePoint(x, y);
      const Color c = color_[p];
      if (c != Color::kBlack && c != Color::kWhite) continue;
      chain_[p] = p;
      next_[p] = p;
      size_[p] = 1;
      libs_[p] = static_cast<int16_t>(NbrCount(nbr_[p], Color::kEmpty));
      for (int d : {-kStride, -1}) {
        const Point n = static_cast<Point>(p + d);
        if (color_[n] == c && chain_[n] != chain_[p]) {
          MergeChains(chain_[n], chain_[p]);
        }
      }
    }
  }
}

bool Board::HasDeadChains() const {
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      const Point p = MakePoint(x, y);
      const Color c = color_[p];
      if ((c == Color::kBlack || c == Color::kWhite) && chain_[p] == p &&
          libs_[p] == 0) {
        return true;
      }
    }
  }
  return false;
}

bool Board::Consistent() const {
  Board copy = *this;
  copy.Rebuild();
  if (copy.num_empty_ != num_empty_ || copy.stones_ != stones_) return false;
  if (libs_[kScratch] != kScratchLibs) return false;
  for (int p = 0; p < kNumCells; ++p) {
    const Color c = color_[p];
    if (c != Color::kBlack && c != Color::kWhite && chain_[p] != kScratch) {
      return false;
    }
  }
  for (int i = 0; i < num_empty_; ++i) {
    if (color_[empty_[i]] != Color::kEmpty) return false;
  }
  Hash128 h{};
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      const Point p = MakePoint(x, y);
      const Color c = color_[p];
      if (c != copy.color_[p] || nbr_[p] != copy.nbr_[p]) return false;
      if (c == Color::kEmpty) {
        if (empty_[empty_index_[p]] != p) return false;
        continue;
      }
      h ^= StoneKey(c, p);
      // Same partition into chains, same per-chain counts; the head is a
      // stone of the chain.
      const Point head = chain_[p];
      if (color_[head] != c || chain_[head] != head) return false;
      if (size_[head] != copy.size_[copy.chain_[p]]) return false;
      if (libs_[head] != copy.libs_[copy.chain_[p]]) return false;
      if (chain_[next_[p]] != head) return false;
      for (int d = 0; d < 4; ++d) {
        const Point n = static_cast<Point>(p + kDirs[d]);
        if (color_[n] == c && chain_[n] != head) return false;
      }
    }
  }
  // Each chain has exactly size_ stones labelled with its head, and its
  // circular list visits that many.
  std::array<int16_t, kNumCells> labelled{};
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      const Point p = MakePoint(x, y);
      if (color_[p] == Color::kBlack || color_[p] == Color::kWhite) {
        ++labelled[chain_[p]];
      }
    }
  }
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      const Point p = MakePoint(x, y);
      const Color c = color_[p];
      if ((c != Color::kBlack && c != Color::kWhite) || chain_[p] != p) {
        continue;
      }
      int n = 0;
      Point s = p;
      do {
        if (++n > size_[p]) return false;
        s = next_[s];
      } while (s != p);
      if (n != size_[p] || labelled[p] != size_[p]) return false;
    }
  }
  return h == hash_;
}

std::string Board::ToString() const {
  std::string out;
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      const Color c = color_[MakePoint(x, y)];
      out += c == Color::kBlack ? 'X' : c == Color::kWhite ? 'O' : '.';
      if (x + 1 < width_) out += ' ';
    }
    out += '\n';
  }
  return out;
}

}  // namespace qipu::rules
