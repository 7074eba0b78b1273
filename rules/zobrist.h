// 128-bit Zobrist hashing of positions. The keys come from a fixed seed
// through SplitMix64 at compile time: they are part of qipu's data format
// (position keys are stored in the database) and are pinned by a golden test
// (tests/rules/zobrist_test.cc). Never change the seed or the generator
// without bumping store/keys.h's format version.
#ifndef QIPU_RULES_ZOBRIST_H_
#define QIPU_RULES_ZOBRIST_H_

#include <array>
#include <cstdint>
#include <string>

#include "rules/types.h"

namespace qipu::rules {

// A 128-bit hash value. Trivially copyable; compares as (hi, lo).
struct Hash128 {
  uint64_t hi = 0;
  uint64_t lo = 0;

  constexpr Hash128& operator^=(const Hash128& o) {
    hi ^= o.hi;
    lo ^= o.lo;
    return *this;
  }
  friend constexpr Hash128 operator^(Hash128 a, const Hash128& b) {
    return a ^= b;
  }
  friend constexpr bool operator==(const Hash128&, const Hash128&) = default;
  friend constexpr auto operator<=>(const Hash128&, const Hash128&) = default;

  // 32 lowercase hex digits, hi first.
  std::string ToHex() const;
};

namespace zobrist_internal {

// SplitMix64 step: advances `state` and returns the next output.
constexpr uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// The fixed seed of all qipu Zobrist keys ("qipu-zob" in ASCII).
inline constexpr uint64_t kSeed = 0x7169707500007a6fULL;

struct Tables {
  // stone[player][cell]: key of a stone of that player on that cell. Wall
  // cells have keys too; no stone is ever placed there.
  std::array<std::array<Hash128, kNumCells>, 2> stone{};
  // XORed into a position key when White is to move.
  Hash128 white_to_play{};
};

constexpr Tables MakeTables() {
  Tables t;
  uint64_t state = kSeed;
  for (int player = 0; player < 2; ++player) {
    for (int cell = 0; cell < kNumCells; ++cell) {
      t.stone[player][cell].hi = SplitMix64(state);
      t.stone[player][cell].lo = SplitMix64(state);
    }
  }
  t.white_to_play.hi = SplitMix64(state);
  t.white_to_play.lo = SplitMix64(state);
  return t;
}

inline constexpr Tables kTables = MakeTables();

}  // namespace zobrist_internal

// Key of a stone of colour c at cell p. Precondition: c is a stone colour.
inline const Hash128& StoneKey(Color c, Point p) {
  return zobrist_internal::kTables.stone[PlayerIndex(c)][p];
}

// Key XORed into a position key when White is to move.
inline const Hash128& WhiteToPlayKey() {
  return zobrist_internal::kTables.white_to_play;
}

}  // namespace qipu::rules

#endif  // QIPU_RULES_ZOBRIST_H_
