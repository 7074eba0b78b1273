// Board's moves: checking and playing them, captures, the repetition
// guard, and the light policy's scan -- the playout and replay hot paths,
// as templates on the colour to move (its masks, neighbour deltas and
// Zobrist table become constants) behind public functions that pick the
// instance once per call. The rest of Board is in board.cc.
#include <bit>
#include <cassert>
#include <cstdint>

#include "rules/board.h"
#include "rules/playout.h"

namespace qipu::rules {

template <Color kC>
[[gnu::always_inline]] inline bool Board::CapturesT(int p) const {
  // An opponent chain loses its last liberty at p exactly when its
  // pseudo-liberties equal its adjacencies to p, which are at most p's
  // opponent neighbours: usually no chain comes close, and the exact test
  // (without branches) is rarely needed.
  constexpr Color kOpp = Opponent(kC);
  const int opps = NbrCount(nbr_[p], kOpp);
  if (opps == 0) return false;
  const int n0 = p - kStride, n1 = p - 1, n2 = p + 1, n3 = p + kStride;
  const int i0 = chain_[n0], i1 = chain_[n1], i2 = chain_[n2], i3 = chain_[n3];
  // Empty points and walls are in the scratch chain, whose count is far
  // above any adjacency.
  const int l0 = libs_[i0], l1 = libs_[i1], l2 = libs_[i2], l3 = libs_[i3];
  if ((l0 > opps) & (l1 > opps) & (l2 > opps) & (l3 > opps)) return false;
  const int e01 = i0 == i1, e02 = i0 == i2, e03 = i0 == i3, e12 = i1 == i2,
            e13 = i1 == i3, e23 = i2 == i3;
  return ((color_[n0] == kOpp) & (l0 == 1 + e01 + e02 + e03)) |
         ((color_[n1] == kOpp) & (l1 == 1 + e01 + e12 + e13)) |
         ((color_[n2] == kOpp) & (l2 == 1 + e02 + e12 + e23)) |
         ((color_[n3] == kOpp) & (l3 == 1 + e03 + e13 + e23));
}

template <Color kC>
[[gnu::always_inline]] inline bool Board::CrowdedLegal(
    int p, bool multi_stone_suicide) const {
  // No empty neighbour: every neighbour is a stone or a wall. Legal only if
  // it captures, or joins a chain that keeps another liberty. A chain's
  // only liberty is p exactly when its pseudo-liberties equal its number
  // of adjacencies to p. Walls belong to the scratch chain, whose
  // kScratchLibs exceed any adjacency count, and are not colour kC: they
  // never make the move legal.
  const int n0 = p - kStride, n1 = p - 1, n2 = p + 1, n3 = p + kStride;
  const int i0 = chain_[n0], i1 = chain_[n1], i2 = chain_[n2], i3 = chain_[n3];
  const int l0 = libs_[i0], l1 = libs_[i1], l2 = libs_[i2], l3 = libs_[i3];
  // A chain has at most as many adjacencies to p as p has neighbours of
  // its colour. When every chain has more pseudo-liberties than that, none
  // loses its last one here: legal exactly when joining an own chain.
  const unsigned nbr = nbr_[p];
  const int blacks = NbrCount(nbr, Color::kBlack);
  const int whites = NbrCount(nbr, Color::kWhite);
  const int most = blacks > whites ? blacks : whites;
  if ((l0 > most) & (l1 > most) & (l2 > most) & (l3 > most)) {
    return (nbr & NbrMask(kC)) != 0;
  }
  return CrowdedLegalExact<kC>(p, nbr, multi_stone_suicide);
}

template <Color kC>
[[gnu::noinline]] bool Board::CrowdedLegalExact(
    intptr_t p, unsigned nbr, bool multi_stone_suicide) const {
  // The exact test, without branches (its outcome is data-dependent), out
  // of line: the scan loop it would otherwise be inlined into has no
  // registers to spare.
  const intptr_t i0 = chain_[p - kStride], i1 = chain_[p - 1],
                 i2 = chain_[p + 1], i3 = chain_[p + kStride];
  const unsigned e01 = i0 == i1, e02 = i0 == i2, e03 = i0 == i3, e12 = i1 == i2,
                 e13 = i1 == i3, e23 = i2 == i3;
  // Pseudo-liberties of each neighbour's chain away from p.
  const int r0 = libs_[i0] - static_cast<int>(1 + e01 + e02 + e03);
  const int r1 = libs_[i1] - static_cast<int>(1 + e01 + e12 + e13);
  const int r2 = libs_[i2] - static_cast<int>(1 + e02 + e12 + e23);
  const int r3 = libs_[i3] - static_cast<int>(1 + e03 + e13 + e23);
  const unsigned zero =
      (r0 == 0) | (r1 == 0) << 1 | (r2 == 0) << 2 | (r3 == 0) << 3;
  const unsigned own = (nbr >> Shift(kC)) & 0xF;
  const unsigned opp = (nbr >> Shift(Opponent(kC))) & 0xF;
  // Captures, or joins a chain that keeps a liberty (walls are no own
  // neighbours).
  return ((opp & zero) | (own & ~zero)) != 0 ||
         (multi_stone_suicide & (own != 0));
}

MoveCheck Board::CheckCrowded(Point p, Color c,
                              bool multi_stone_suicide) const {
  const bool legal = c == Color::kBlack
                         ? CrowdedLegal<Color::kBlack>(p, multi_stone_suicide)
                         : CrowdedLegal<Color::kWhite>(p, multi_stone_suicide);
  return legal ? MoveCheck::kLegal : MoveCheck::kSuicide;
}

template <Color kC>
[[gnu::always_inline]] inline bool Board::EyeDiagonals(int p) const {
  // Weights: an opponent stone 2, a wall 1. A point has 0, 2 or 3 wall
  // diagonals, so "at most one opponent diagonal, none with a wall" is a
  // weight sum of at most 3.
  static constexpr uint8_t kWeight[4] = {0, kC == Color::kWhite ? 2 : 0,
                                         kC == Color::kBlack ? 2 : 0, 1};
  const int sum = kWeight[static_cast<int>(color_[p - kStride - 1])] +
                  kWeight[static_cast<int>(color_[p - kStride + 1])] +
                  kWeight[static_cast<int>(color_[p + kStride - 1])] +
                  kWeight[static_cast<int>(color_[p + kStride + 1])];
  return sum <= 3;
}

bool Board::DiagonalsAllowEye(Point p, Color c) const {
  return c == Color::kBlack ? EyeDiagonals<Color::kBlack>(p)
                            : EyeDiagonals<Color::kWhite>(p);
}

template <Color kC>
[[gnu::always_inline]] inline bool Board::CrowdedAcceptable(
    int p, unsigned nbr, bool multi_stone_suicide) const {
  if ((nbr & NbrMask(Opponent(kC))) == 0 && EyeDiagonals<kC>(p)) {
    return false;  // Own eye.
  }
  if (p == ko_point_) return false;
  return CrowdedLegal<kC>(p, multi_stone_suicide);
}

template <Color kC>
inline int Board::ScanLightT(int start, int count,
                             bool multi_stone_suicide) const {
  // A point with an empty neighbour is neither eye-like nor suicide, and
  // is not the ko point (whose neighbours are all stones or walls when it
  // is set, until the next move): accepted on one load.
  int i = start;
  for (int k = 0; k < count; ++k) {
    const int p = empty_[i];
    const unsigned nbr = nbr_[p];
    if ((nbr & kEmptyMask) != 0) {
      assert(p != ko_point_);
      return i;
    }
    if (CrowdedAcceptable<kC>(p, nbr, multi_stone_suicide)) return i;
    if (++i == num_empty_) i = 0;
  }
  return -1;
}

int Board::ScanLight(Color c, int start, int count,
                     bool multi_stone_suicide) const {
  return c == Color::kBlack
             ? ScanLightT<Color::kBlack>(start, count, multi_stone_suicide)
             : ScanLightT<Color::kWhite>(start, count, multi_stone_suicide);
}

void Board::MergeChains(Point a, Point b) {
  // The bigger chain absorbs the smaller, a on ties; selected without a
  // branch (which one is bigger is a coin toss in a playout).
  const int swap = -static_cast<int>(size_[a] < size_[b]);
  const Point big = static_cast<Point>(a ^ ((a ^ b) & swap));
  const Point small = static_cast<Point>(a ^ b ^ big);
  // Relabel the smaller chain's stones, then splice the circular lists.
  Point s = small;
  do {
    chain_[s] = big;
    s = next_[s];
  } while (s != small);
  const Point next = next_[big];
  next_[big] = next_[small];
  next_[small] = next;
  libs_[big] = static_cast<int16_t>(libs_[big] + libs_[small]);
  size_[big] = static_cast<int16_t>(size_[big] + size_[small]);
}

template <Color kC>
int Board::RemoveChainOf(int head, RemovedStones* removed) {
  const int size = size_[head];
  const auto& keys = zobrist_internal::kTables.stone[PlayerIndex(kC)];
  Hash128 h = hash_;
  int s = head;
  do {
    const int next = next_[s];
    color_[s] = Color::kEmpty;
    chain_[s] = kScratch;
    h ^= keys[s];
    AddEmpty(static_cast<Point>(s));
    if (removed != nullptr) {
      removed->points[removed->count++] = static_cast<Point>(s);
    }
    // Every neighbour's chain gains a pseudo-liberty; empty points and
    // walls (and stones of this chain already removed) feed the scratch
    // chain, stones of this chain not yet removed its dead head. For the
    // neighbour in direction d, s lies in direction 3 - d.
    for (int d = 0; d < 4; ++d) {
      const int n = s + kDirs[d];
      nbr_[n] = nbr_[n] + NbrBit(Color::kEmpty, 3 - d) - NbrBit(kC, 3 - d);
      ++libs_[chain_[n]];
    }
    s = next;
  } while (s != head);
  hash_ = h;
  stones_[PlayerIndex(kC)] =
      static_cast<int16_t>(stones_[PlayerIndex(kC)] - size);
  return size;
}

template <Color kC>
[[gnu::always_inline]] inline bool Board::Guarded(
    intptr_t p, unsigned nbr, bool some_zero, const RepeatGuard& guard) const {
  // Called by PlayAt() once the neighbours' chains have lost the liberty
  // p, nothing else changed yet.
  constexpr Color kOpp = Opponent(kC);
  const auto& own_keys = zobrist_internal::kTables.stone[PlayerIndex(kC)];
  uint64_t lo = hash_.lo ^ own_keys[p].lo;
  bool removes = false;
  if (!some_zero) [[likely]] {
    // Nothing is captured and no own chain is left without liberties: a
    // suicide only as a lone stone without any.
    if ((nbr & (kEmptyMask | NbrMask(kC))) == 0) return false;
  } else {
    const intptr_t n[4] = {p - kStride, p - 1, p + 1, p + kStride};
    const intptr_t cs[4] = {chain_[n[0]], chain_[n[1]], chain_[n[2]],
                            chain_[n[3]]};
    const unsigned e01 = cs[0] == cs[1], e02 = cs[0] == cs[2],
                   e03 = cs[0] == cs[3], e12 = cs[1] == cs[2],
                   e13 = cs[1] == cs[3], e23 = cs[2] == cs[3];
    const unsigned first =
        1u | (!e01 << 1) | ((!e02 & !e12) << 2) | ((!e03 & !e13 & !e23) << 3);
    const unsigned zero = (libs_[cs[0]] == 0) | (libs_[cs[1]] == 0) << 1 |
                          (libs_[cs[2]] == 0) << 2 | (libs_[cs[3]] == 0) << 3;
    unsigned dead = (nbr >> Shift(kOpp)) & first & zero;
    if (dead == 0) {
      // A suicide: no liberty, and every own neighbour's chain has none
      // left either.
      const unsigned own = (nbr >> Shift(kC)) & 0xF;
      if ((nbr & kEmptyMask) == 0 && (own & ~zero) == 0) return false;
    } else {
      removes = true;
      const auto& opp_keys = zobrist_internal::kTables.stone[PlayerIndex(kOpp)];
      do {
        const intptr_t head = cs[std::countr_zero(dead)];
        dead &= dead - 1;
        intptr_t s = head;
        do {
          lo ^= opp_keys[s].lo;
          s = next_[s];
        } while (s != head);
      } while (dead != 0);
    }
  }
  return guard.filter == nullptr || !(removes || guard.check_quiet) ||
         !((guard.filter[(lo >> 6) & guard.mask] >> (lo & 63)) & 1);
}

template <Color kC, bool kGuarded>
[[gnu::always_inline]] inline bool Board::PlayAt(intptr_t p, intptr_t index,
                                                 RemovedStones* removed,
                                                 const RepeatGuard& guard) {
  assert(color_[p] == Color::kEmpty && empty_[index] == p);
  constexpr Color kOpp = Opponent(kC);
  const unsigned nbr = nbr_[p];

  // Each neighbour's chain loses the pseudo-liberty p (the scratch chain
  // for empty points and walls): no test of the neighbour's colour. A
  // chain met twice is decremented twice, through store-to-load
  // forwarding. Only a chain left at zero can be captured.
  const intptr_t n0 = p - kStride, n1 = p - 1, n2 = p + 1, n3 = p + kStride;
  const int r0 = --libs_[chain_[n0]];
  const int r1 = --libs_[chain_[n1]];
  const int r2 = --libs_[chain_[n2]];
  const int r3 = --libs_[chain_[n3]];
  // Counters never go below zero, so a zero shows as a sign bit here.
  const bool some_zero = ((r0 - 1) | (r1 - 1) | (r2 - 1) | (r3 - 1)) < 0;
  if constexpr (kGuarded) {
    if (!Guarded<kC>(p, nbr, some_zero, guard)) [[unlikely]] {
      ++libs_[chain_[n0]];
      ++libs_[chain_[n1]];
      ++libs_[chain_[n2]];
      ++libs_[chain_[n3]];
      return false;
    }
  }
  ko_point_ = kNoPoint;

  // RemoveEmpty(p), knowing its index.
  const intptr_t last = empty_[--num_empty_];
  empty_[index] = static_cast<Point>(last);
  empty_index_[last] = static_cast<int16_t>(index);

  // The neighbour in direction d sees p in direction 3 - d turn from empty
  // to kC.
  nbr_[n0] = nbr_[n0] + NbrBit(kC, 3) - NbrBit(Color::kEmpty, 3);
  nbr_[n1] = nbr_[n1] + NbrBit(kC, 2) - NbrBit(Color::kEmpty, 2);
  nbr_[n2] = nbr_[n2] + NbrBit(kC, 1) - NbrBit(Color::kEmpty, 1);
  nbr_[n3] = nbr_[n3] + NbrBit(kC, 0) - NbrBit(Color::kEmpty, 0);

  color_[p] = kC;
  const int libs_p = NbrCount(nbr, Color::kEmpty);
  hash_ ^= zobrist_internal::kTables.stone[PlayerIndex(kC)][p];
  ++stones_[PlayerIndex(kC)];

  // Merges in direction order. The first is MergeChains(p, h) for the
  // single stone p, written out: one stone to relabel, no loop, the
  // bigger chain picked without a branch.
  chain_[p] = static_cast<Point>(p);
  next_[p] = static_cast<Point>(p);
  size_[p] = 1;
  libs_[p] = static_cast<int16_t>(libs_p);
  if (const unsigned own = (nbr >> Shift(kC)) & 0xF; own != 0) {
    const intptr_t h = chain_[p + kDirs[std::countr_zero(own)]];
    const intptr_t h_size = size_[h];
    // All ones when h has more than one stone.
    const intptr_t h_bigger = -static_cast<intptr_t>(h_size > 1);
    const intptr_t big = p ^ ((p ^ h) & h_bigger);
    const intptr_t small = p ^ h ^ big;
    chain_[small] = static_cast<Point>(big);
    next_[small] = next_[big];
    next_[big] = static_cast<Point>(small);
    libs_[big] = static_cast<int16_t>(libs_[h] + libs_p);
    size_[big] = static_cast<int16_t>(h_size + 1);
    for (unsigned rest = own & (own - 1); rest != 0; rest &= rest - 1) {
      const intptr_t n = p + kDirs[std::countr_zero(rest)];
      if (chain_[n] != chain_[p]) MergeChains(chain_[p], chain_[n]);
    }
  }

  // Captures in direction order, each chain once.
  PlayInfo info;
  if (some_zero && (nbr & NbrMask(kOpp))) [[unlikely]] {
    const intptr_t cs[4] = {chain_[n0], chain_[n1], chain_[n2], chain_[n3]};
    const unsigned e01 = cs[0] == cs[1], e02 = cs[0] == cs[2],
                   e03 = cs[0] == cs[3], e12 = cs[1] == cs[2],
                   e13 = cs[1] == cs[3], e23 = cs[2] == cs[3];
    const unsigned first =
        1u | (!e01 << 1) | ((!e02 & !e12) << 2) | ((!e03 & !e13 & !e23) << 3);
    const unsigned opp = (nbr >> Shift(kOpp)) & first;
    const unsigned dead = ((opp & 1) & (libs_[cs[0]] == 0)) |
                          ((opp >> 1) & 1 & (libs_[cs[1]] == 0)) << 1 |
                          ((opp >> 2) & 1 & (libs_[cs[2]] == 0)) << 2 |
                          ((opp >> 3) & 1 & (libs_[cs[3]] == 0)) << 3;
    intptr_t captured_point = kNoPoint;
    for (unsigned left = dead; left != 0; left &= left - 1) {
      const int d = std::countr_zero(left);
      captured_point = p + kDirs[d];
      info.captured = static_cast<int16_t>(info.captured +
                                           RemoveChainOf<kOpp>(cs[d], removed));
    }
    const intptr_t head = chain_[p];
    if (info.captured == 1 && size_[head] == 1 && libs_[head] == 1) {
      ko_point_ = static_cast<Point>(captured_point);
      info.ko_capture = true;
    }
  }
  const intptr_t head = chain_[p];
  if (libs_[head] == 0) [[unlikely]] {
    info.suicided = static_cast<int16_t>(RemoveChainOf<kC>(head, removed));
  }
  libs_[kScratch] = kScratchLibs;
  last_play_ = info;
  return true;
}

void Board::Play(Point p, Color c, RemovedStones* removed) {
  if (c == Color::kBlack) {
    PlayAt<Color::kBlack>(p, empty_index_[p], removed);
  } else {
    PlayAt<Color::kWhite>(p, empty_index_[p], removed);
  }
}

template <Color kC>
Board::LightScan Board::ScanLightPlayT(int start, int count,
                                       bool multi_stone_suicide,
                                       const uint64_t* filter,
                                       uint64_t filter_mask,
                                       bool quiet_unfiltered) {
  LightScan out;
  int i = start;
  for (int k = 0; k < count; ++k) {
    const int p = empty_[i];
    const unsigned nbr = nbr_[p];
    if ((nbr & kEmptyMask) != 0 ||
        CrowdedAcceptable<kC>(p, nbr, multi_stone_suicide)) {
      out.index = i;
      if (filter == nullptr) {
        PlayAt<kC>(p, i, nullptr);
      } else if (!PlayAt<kC, true>(
                     p, i, nullptr,
                     RepeatGuard{filter, filter_mask, !quiet_unfiltered})) {
        // Game::CheckBoardLegal() decides (a suicide only gets here when
        // legal).
        return out;
      }
      out.played = static_cast<Point>(p);
      return out;
    }
    if (++i == num_empty_) i = 0;
  }
  return out;
}

Board::LightScan Board::ScanLightPlay(Color c, int start, int count,
                                      bool multi_stone_suicide,
                                      const uint64_t* filter,
                                      uint64_t filter_mask,
                                      bool quiet_unfiltered) {
  return c == Color::kBlack
             ? ScanLightPlayT<Color::kBlack>(start, count, multi_stone_suicide,
                                             filter, filter_mask,
                                             quiet_unfiltered)
             : ScanLightPlayT<Color::kWhite>(start, count, multi_stone_suicide,
                                             filter, filter_mask,
                                             quiet_unfiltered);
}

bool Board::PlayChecked(Point p, Color c, const uint64_t* filter,
                        uint64_t filter_mask, bool check_quiet) {
  if (color_[p] != Color::kEmpty || p == ko_point_) return false;
  const RepeatGuard guard{filter, filter_mask, check_quiet};
  return c == Color::kBlack
             ? PlayAt<Color::kBlack, true>(p, empty_index_[p], nullptr, guard)
             : PlayAt<Color::kWhite, true>(p, empty_index_[p], nullptr, guard);
}

template <Color kC>
inline Point Board::PlayLightT(int start) {
  // ScanLightT() and PlayAt() fused: the candidate's index and point are
  // already at hand when it is played.
  const int n = num_empty_;
  if (n == 0) {
    Pass();
    return kPass;
  }
  int i = start;
  int p;
  for (;;) {
    p = empty_[i];
    const unsigned nbr = nbr_[p];
    if ((nbr & kEmptyMask) != 0) break;
    if (CrowdedAcceptable<kC>(p, nbr)) break;
    if (++i == n) i = 0;
    if (i == start) [[unlikely]] {
      Pass();
      return kPass;
    }
  }
  PlayAt<kC>(p, i, nullptr);
  return static_cast<Point>(p);
}

Point Board::PlayLight(Color c, int start) {
  return c == Color::kBlack ? PlayLightT<Color::kBlack>(start)
                            : PlayLightT<Color::kWhite>(start);
}

template <Color kC>
inline bool Board::PlayLightDraw(Rng& now, Rng& after, uint64_t& ahead) {
  const int n = num_empty_;
  // No random draw on a full board (LightMove() makes none either).
  int start = 0;
  if (n > 0) {
    start = static_cast<int>(Rng::Scale(ahead, static_cast<uint32_t>(n)));
    now = after;
    ahead = after.Next();
  }
  return PlayLightT<kC>(start) == kPass;
}

int Board::PlayLightGame(Color to_play, Rng& rng, int max_moves) {
  // The generator lives in registers, one draw ahead: `ahead` is what the
  // next rng.Next() returns and `after` the state it leaves, computed while
  // the previous move is still being played (the draw heads the critical
  // path of each move). Only draws actually used advance the state. The
  // loop is unrolled by two so that each move's colour is a constant.
  Rng now = rng;
  Rng after = rng;
  uint64_t ahead = after.Next();
  int passes = 0;
  int plies = 0;
  if (to_play == Color::kWhite && plies < max_moves) {
    passes = PlayLightDraw<Color::kWhite>(now, after, ahead) ? 1 : 0;
    ++plies;
  }
  while (plies < max_moves && passes < 2) {
    passes = PlayLightDraw<Color::kBlack>(now, after, ahead) ? passes + 1 : 0;
    ++plies;
    if (plies >= max_moves || passes >= 2) break;
    passes = PlayLightDraw<Color::kWhite>(now, after, ahead) ? passes + 1 : 0;
    ++plies;
  }
  rng = now;
  return plies;
}

bool Board::CapturesNear(Point p, Color c) const {
  return c == Color::kBlack ? CapturesT<Color::kBlack>(p)
                            : CapturesT<Color::kWhite>(p);
}

template <Color kC>
MovePreview Board::PreviewT(int p) const {
  constexpr Color kOpp = Opponent(kC);
  const auto& own_keys = zobrist_internal::kTables.stone[PlayerIndex(kC)];
  const auto& opp_keys = zobrist_internal::kTables.stone[PlayerIndex(kOpp)];
  MovePreview out;
  Hash128 h = hash_ ^ own_keys[p];
  const int n[4] = {p - kStride, p - 1, p + 1, p + kStride};
  // Chains of the neighbours (the scratch chain for empty points and
  // walls), and which neighbours start a chain not met before.
  const int i0 = chain_[n[0]], i1 = chain_[n[1]], i2 = chain_[n[2]],
            i3 = chain_[n[3]];
  const int e01 = i0 == i1, e02 = i0 == i2, e03 = i0 == i3, e12 = i1 == i2,
            e13 = i1 == i3, e23 = i2 == i3;
  const int ids[4] = {i0, i1, i2, i3};
  const int adj[4] = {1 + e01 + e02 + e03, 1 + e01 + e12 + e13,
                      1 + e02 + e12 + e23, 1 + e03 + e13 + e23};
  const bool first[4] = {true, !e01, !e02 && !e12, !e03 && !e13 && !e23};
  const int empty_nbrs = NbrCount(nbr_[p], Color::kEmpty);
  bool own_libs = empty_nbrs > 0;
  bool friendly = false;
  for (int d = 0; d < 4; ++d) {
    const Color nc = color_[n[d]];
    if (nc == kC) {
      friendly = true;
      own_libs |= libs_[ids[d]] > adj[d];
    } else if (nc == kOpp && first[d] && libs_[ids[d]] == adj[d]) {
      out.captured = static_cast<int16_t>(out.captured + size_[ids[d]]);
      int s = ids[d];
      do {
        h ^= opp_keys[s];
        s = next_[s];
      } while (s != ids[d]);
    }
  }
  if (out.captured == 0 && !own_libs) {
    // Legal multi-stone suicide: the new chain disappears with the stone.
    h ^= own_keys[p];
    out.suicided = 1;
    for (int d = 0; d < 4; ++d) {
      if (color_[n[d]] != kC || !first[d]) continue;
      out.suicided = static_cast<int16_t>(out.suicided + size_[ids[d]]);
      int s = ids[d];
      do {
        h ^= own_keys[s];
        s = next_[s];
      } while (s != ids[d]);
    }
  }
  out.ko_capture = out.captured == 1 && !friendly && empty_nbrs == 0;
  out.hash = h;
  return out;
}

MovePreview Board::Preview(Point p, Color c) const {
  return c == Color::kBlack ? PreviewT<Color::kBlack>(p)
                            : PreviewT<Color::kWhite>(p);
}

}  // namespace qipu::rules
