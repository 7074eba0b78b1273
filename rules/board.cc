#include "rules/board.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <type_traits>

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
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) cells_[MakePoint(x, y)].color = Color::kEmpty;
  }
  Rebuild();
}

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
  std::memcpy(empty_.data(), other.empty_.data(),
              sizeof(Point) * other.num_empty_);
  std::memcpy(cells_.data(), other.cells_.data(), sizeof(Cell) * n);
}

void Board::AddEmpty(Point p) {
  cells_[p].empty_index = num_empty_;
  empty_[num_empty_++] = p;
}

void Board::RemoveEmpty(Point p) {
  const int16_t i = cells_[p].empty_index;
  const Point last = empty_[--num_empty_];
  empty_[i] = last;
  cells_[last].empty_index = i;
  cells_[p].empty_index = -1;
}

MoveCheck Board::CheckCrowded(Point p, Color c,
                              bool multi_stone_suicide) const {
  // No empty neighbour: legal only if it captures, or joins a chain that
  // keeps another liberty. A chain's only liberty is p exactly when its
  // pseudo-liberties equal its number of adjacencies to p.
  Point ids[4];
  for (int d = 0; d < 4; ++d) {
    const Point n = static_cast<Point>(p + kDirs[d]);
    ids[d] = cells_[n].color <= Color::kWhite && cells_[n].color != Color::kEmpty
                 ? cells_[n].chain
                 : kNoPoint;
  }
  bool friendly = false;
  for (int d = 0; d < 4; ++d) {
    if (ids[d] == kNoPoint) continue;
    int adj = 0;
    for (int e = 0; e < 4; ++e) adj += ids[e] == ids[d];
    const int16_t libs = cells_[ids[d]].libs;
    if (cells_[p + kDirs[d]].color == c) {
      if (libs > adj) return MoveCheck::kLegal;
      friendly = true;
    } else if (libs == adj) {
      return MoveCheck::kLegal;
    }
  }
  if (multi_stone_suicide && friendly) return MoveCheck::kLegal;
  return MoveCheck::kSuicide;
}

void Board::MergeChains(Point a, Point b) {
  Cell& ha = cells_[a];
  Cell& hb = cells_[b];
  if (ha.size < hb.size) {
    MergeChains(b, a);
    return;
  }
  // Relabel b's stones, then splice the two circular lists.
  Point s = b;
  do {
    cells_[s].chain = a;
    s = cells_[s].next;
  } while (s != b);
  const Point an = ha.next;
  ha.next = hb.next;
  hb.next = an;
  ha.libs = static_cast<int16_t>(ha.libs + hb.libs);
  ha.size = static_cast<int16_t>(ha.size + hb.size);
}

int Board::RemoveChain(Point head, RemovedStones* removed) {
  const Color c = cells_[head].color;
  const int size = cells_[head].size;
  const uint16_t delta = NbrUnit(Color::kEmpty) - NbrUnit(c);
  Point s = head;
  do {
    const Point next = cells_[s].next;
    Cell& cs = cells_[s];
    cs.color = Color::kEmpty;
    hash_ ^= StoneKey(c, s);
    AddEmpty(s);
    if (removed != nullptr) removed->points[removed->count++] = s;
    for (int d = 0; d < 4; ++d) {
      Cell& cn = cells_[s + kDirs[d]];
      cn.nbr = static_cast<uint16_t>(cn.nbr + delta);
      if (cn.color == Color::kBlack || cn.color == Color::kWhite) {
        ++cells_[cn.chain].libs;
      }
    }
    s = next;
  } while (s != head);
  stones_[PlayerIndex(c)] = static_cast<int16_t>(stones_[PlayerIndex(c)] - size);
  return size;
}

void Board::Play(Point p, Color c, RemovedStones* removed) {
  assert(cells_[p].color == Color::kEmpty);
  PlayInfo& info = last_play_;
  info = PlayInfo{};
  const Color opp = Opponent(c);
  ko_point_ = kNoPoint;

  RemoveEmpty(p);
  Cell& cp = cells_[p];
  cp.color = c;
  cp.chain = p;
  cp.next = p;
  cp.size = 1;
  hash_ ^= StoneKey(c, p);
  ++stones_[PlayerIndex(c)];

  // Unrolled over the four neighbours: this is the hottest loop of a
  // playout and its branches are data-dependent.
  const uint16_t delta = NbrUnit(c) - NbrUnit(Color::kEmpty);
  int16_t libs = 0;
  auto touch = [&](Point n) {
    Cell& cn = cells_[n];
    cn.nbr = static_cast<uint16_t>(cn.nbr + delta);
    if (cn.color == Color::kEmpty) {
      ++libs;
    } else if (cn.color != Color::kWall) {
      --cells_[cn.chain].libs;
    }
  };
  touch(static_cast<Point>(p - kStride));
  touch(static_cast<Point>(p - 1));
  touch(static_cast<Point>(p + 1));
  touch(static_cast<Point>(p + kStride));
  cp.libs = libs;

  const uint16_t nbr = cp.nbr;
  if (nbr & NbrMask(c)) {
    auto merge = [&](Point n) {
      const Cell& cn = cells_[n];
      if (cn.color == c && cn.chain != cells_[p].chain) {
        MergeChains(cells_[p].chain, cn.chain);
      }
    };
    merge(static_cast<Point>(p - kStride));
    merge(static_cast<Point>(p - 1));
    merge(static_cast<Point>(p + 1));
    merge(static_cast<Point>(p + kStride));
  }
  Point captured_point = kNoPoint;
  if (nbr & NbrMask(opp)) {
    auto capture = [&](Point n) {
      const Cell& cn = cells_[n];
      if (cn.color == opp && cells_[cn.chain].libs == 0) {
        captured_point = n;
        info.captured =
            static_cast<int16_t>(info.captured + RemoveChain(cn.chain, removed));
      }
    };
    capture(static_cast<Point>(p - kStride));
    capture(static_cast<Point>(p - 1));
    capture(static_cast<Point>(p + 1));
    capture(static_cast<Point>(p + kStride));
  }
  const Cell& head = cells_[cells_[p].chain];
  if (head.libs == 0) {
    info.suicided = static_cast<int16_t>(RemoveChain(cells_[p].chain, removed));
  } else if (info.captured == 1 && head.size == 1 && head.libs == 1) {
    ko_point_ = captured_point;
    info.ko_capture = true;
  }
}

bool Board::Captures(Point p, Color c) const {
  const Color opp = Opponent(c);
  Point ids[4];
  for (int d = 0; d < 4; ++d) {
    const Point n = static_cast<Point>(p + kDirs[d]);
    ids[d] = cells_[n].color == opp ? cells_[n].chain : kNoPoint;
  }
  for (int d = 0; d < 4; ++d) {
    if (ids[d] == kNoPoint) continue;
    int adj = 0;
    for (int e = 0; e < 4; ++e) adj += ids[e] == ids[d];
    if (cells_[ids[d]].libs == adj) return true;
  }
  return false;
}

MovePreview Board::Preview(Point p, Color c) const {
  MovePreview out;
  Hash128 h = hash_ ^ StoneKey(c, p);
  const Color opp = Opponent(c);
  Point ids[4];
  for (int d = 0; d < 4; ++d) {
    const Point n = static_cast<Point>(p + kDirs[d]);
    const Color nc = cells_[n].color;
    ids[d] = (nc == Color::kBlack || nc == Color::kWhite) ? cells_[n].chain
                                                          : kNoPoint;
  }
  const int empty_nbrs = (cells_[p].nbr & kEmptyMask) >> kEmptyShift;
  bool own_libs = empty_nbrs > 0;
  bool friendly = false;
  for (int d = 0; d < 4; ++d) {
    if (ids[d] == kNoPoint) continue;
    bool seen = false;
    for (int e = 0; e < d; ++e) seen |= ids[e] == ids[d];
    if (seen) continue;
    int adj = 0;
    for (int e = 0; e < 4; ++e) adj += ids[e] == ids[d];
    const Cell& head = cells_[ids[d]];
    if (head.color == opp) {
      if (head.libs == adj) {
        out.captured = static_cast<int16_t>(out.captured + head.size);
        Point s = ids[d];
        do {
          h ^= StoneKey(opp, s);
          s = cells_[s].next;
        } while (s != ids[d]);
      }
    } else {
      friendly = true;
      if (head.libs > adj) own_libs = true;
    }
  }
  if (out.captured == 0 && !own_libs) {
    // Legal multi-stone suicide: the new chain disappears with the stone.
    h ^= StoneKey(c, p);
    out.suicided = 1;
    for (int d = 0; d < 4; ++d) {
      if (ids[d] == kNoPoint || cells_[ids[d]].color != c) continue;
      bool seen = false;
      for (int e = 0; e < d; ++e) seen |= ids[e] == ids[d];
      if (seen) continue;
      out.suicided = static_cast<int16_t>(out.suicided + cells_[ids[d]].size);
      Point s = ids[d];
      do {
        h ^= StoneKey(c, s);
        s = cells_[s].next;
      } while (s != ids[d]);
    }
  }
  out.ko_capture = out.captured == 1 && !friendly && empty_nbrs == 0;
  out.hash = h;
  return out;
}

bool Board::DiagonalsAllowEye(Point p, Color c) const {
  const Color opp = Opponent(c);
  int bad = 0;
  bool edge = false;
  for (int d : {-kStride - 1, -kStride + 1, kStride - 1, kStride + 1}) {
    const Color dc = cells_[p + d].color;
    bad += dc == opp;
    edge |= dc == Color::kWall;
  }
  return bad + (edge ? 1 : 0) < 2;
}

int Board::Liberties(Point p) const {
  // Marks liberties in a local bitmap; the chain walk is bounded by size.
  std::array<bool, kNumCells> seen{};
  int libs = 0;
  const Point head = cells_[p].chain;
  Point s = head;
  do {
    for (int d = 0; d < 4; ++d) {
      const Point n = static_cast<Point>(s + kDirs[d]);
      if (cells_[n].color == Color::kEmpty && !seen[n]) {
        seen[n] = true;
        ++libs;
      }
    }
    s = cells_[s].next;
  } while (s != head);
  return libs;
}

void Board::SetStone(Point p, Color c) {
  assert(OnBoard(p));
  const Color old = cells_[p].color;
  if (old == c) return;
  if (old != Color::kEmpty) hash_ ^= StoneKey(old, p);
  if (c != Color::kEmpty) hash_ ^= StoneKey(c, p);
  cells_[p].color = c;
  ko_point_ = kNoPoint;
  last_play_ = PlayInfo{};
  Rebuild();
}

void Board::Rebuild() {
  num_empty_ = 0;
  stones_ = {0, 0};
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      const Point p = MakePoint(x, y);
      Cell& cell = cells_[p];
      cell.chain = kNoPoint;
      cell.next = kNoPoint;
      cell.empty_index = -1;
      cell.libs = 0;
      cell.size = 0;
      if (cell.color == Color::kEmpty) {
        AddEmpty(p);
      } else {
        ++stones_[PlayerIndex(cell.color)];
      }
    }
  }
  for (int y = -1; y <= height_; ++y) {
    for (int x = -1; x <= width_; ++x) {
      const Point p = static_cast<Point>((y + 1) * kStride + x + 1);
      if (p < 0 || p >= kNumCells) continue;
      uint16_t nbr = 0;
      for (int d = 0; d < 4; ++d) {
        const int n = p + kDirs[d];
        if (n >= 0 && n < kNumCells) nbr = static_cast<uint16_t>(nbr + NbrUnit(cells_[n].color));
      }
      cells_[p].nbr = nbr;
    }
  }
  // Chains: each stone starts alone, then merges with earlier neighbours.
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      const Point p = MakePoint(x, y);
      Cell& cell = cells_[p];
      if (cell.color != Color::kBlack && cell.color != Color::kWhite) continue;
      cell.chain = p;
      cell.next = p;
      cell.size = 1;
      cell.libs = static_cast<int16_t>((cell.nbr & kEmptyMask) >> kEmptyShift);
      for (int d : {-kStride, -1}) {
        const Point n = static_cast<Point>(p + d);
        if (cells_[n].color == cell.color && cells_[n].chain != cells_[p].chain) {
          MergeChains(cells_[n].chain, cells_[p].chain);
        }
      }
    }
  }
}

bool Board::HasDeadChains() const {
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      const Point p = MakePoint(x, y);
      const Color c = cells_[p].color;
      if ((c == Color::kBlack || c == Color::kWhite) && cells_[p].chain == p &&
          cells_[p].libs == 0) {
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
  Hash128 h{};
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      const Point p = MakePoint(x, y);
      const Cell& a = cells_[p];
      const Cell& b = copy.cells_[p];
      if (a.color != b.color || a.nbr != b.nbr) return false;
      if (a.color == Color::kEmpty) {
        if (empty_[a.empty_index] != p) return false;
        continue;
      }
      h ^= StoneKey(a.color, p);
      // Same partition into chains, same per-chain counts.
      if (cells_[a.chain].size != copy.cells_[b.chain].size) return false;
      if (cells_[a.chain].libs != copy.cells_[b.chain].libs) return false;
      for (int d = 0; d < 4; ++d) {
        const Point n = static_cast<Point>(p + kDirs[d]);
        if (cells_[n].color == a.color &&
            (cells_[n].chain == a.chain) != (copy.cells_[n].chain == b.chain)) {
          return false;
        }
        if (cells_[n].color == a.color && cells_[n].chain != a.chain) {
          return false;
        }
      }
    }
  }
  return h == hash_;
}

std::string Board::ToString() const {
  std::string out;
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      const Color c = cells_[MakePoint(x, y)].color;
      out += c == Color::kBlack ? 'X' : c == Color::kWhite ? 'O' : '.';
      if (x + 1 < width_) out += ' ';
    }
    out += '\n';
  }
  return out;
}

}  // namespace qipu::rules
