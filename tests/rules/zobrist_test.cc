// Zobrist keys: golden values. Position keys are stored in the database,
// so the keys are part of qipu's data format: if one of these constants
// changes, every stored hash is invalid. Never update them without bumping
// store/keys.h's format version and migrating.
#include "rules/zobrist.h"

#include <set>
#include <string>

#include "gtest/gtest.h"
#include "rules/board.h"
#include "rules/coord.h"
#include "rules/symmetry.h"
#include "tests/rules/reference_board.h"

namespace qipu::rules {
namespace {

Point Gtp(const char* name, int size) {
  auto p = ParseGtpPoint(name, size, size);
  EXPECT_TRUE(p.ok()) << p.status();
  return *p;
}

TEST(Zobrist, GeneratorIsSplitMix64) {
  // The published first output of SplitMix64 from state 0.
  uint64_t state = 0;
  EXPECT_EQ(zobrist_internal::SplitMix64(state), 0xE220A8397B1DCDAFULL);
  EXPECT_EQ(state, 0x9E3779B97F4A7C15ULL);
  EXPECT_EQ(zobrist_internal::kSeed, 0x7169707500007a6fULL);
}

TEST(Zobrist, GoldenStoneKeys) {
  EXPECT_EQ(StoneKey(Color::kBlack, MakePoint(0, 0)).ToHex(),
            "4535c3218cafe9a42848f4e75348438f");
  EXPECT_EQ(StoneKey(Color::kWhite, MakePoint(18, 18)).ToHex(),
            "2dc88e31343beb9a10134f8497d0eab2");
  EXPECT_EQ(StoneKey(Color::kBlack, Gtp("D4", 19)).ToHex(),
            "3e860bc81ad9184c37bdd4a50a9e05f0");
  EXPECT_EQ(StoneKey(Color::kWhite, MakePoint(24, 24)).ToHex(),
            "c3d9e9399277d9bc1cbf9fd3fa01f50b");
  // Cell 0 (a wall) is the very first pair drawn from the generator.
  EXPECT_EQ(StoneKey(Color::kBlack, 0).ToHex(),
            "89dcba67b49d80122abe248e9cd6cd0a");
}

TEST(Zobrist, GoldenWhiteToPlayKey) {
  EXPECT_EQ(WhiteToPlayKey().ToHex(), "7269784405dd079f74bac8143b9e9a9a");
}

TEST(Zobrist, GoldenHashAfterAFixedSequence) {
  // 19x19: a quiet opening.
  Board b19(19, 19);
  Color c = Color::kBlack;
  for (const char* m :
       {"Q16", "D4", "Q3", "D16", "C3", "D3", "C4", "D5", "R17", "E17"}) {
    b19.Play(Gtp(m, 19), c);
    c = Opponent(c);
  }
  EXPECT_EQ(b19.hash().ToHex(), "5205fbe81566e49aa24bfa21ebfe4a52");
  // 9x9 with a capture: Black B1 takes White's A1.
  Board b9(9, 9);
  c = Color::kBlack;
  for (const char* m : {"A2", "A1", "B1", "J9", "E5", "D5"}) {
    b9.Play(Gtp(m, 9), c);
    c = Opponent(c);
  }
  ASSERT_EQ(b9.at(Gtp("A1", 9)), Color::kEmpty);
  EXPECT_EQ(b9.hash().ToHex(), "866539e624bc0d28bd086b29b845ee3f");
  EXPECT_EQ((b9.hash() ^ WhiteToPlayKey()).ToHex(),
            "f40c41a221610ab7c9b2a33d83db74a5");
  // The same stones set up directly hash the same.
  Board setup(9, 9);
  for (const char* m : {"A2", "B1", "E5"}) {
    setup.SetStone(Gtp(m, 9), Color::kBlack);
  }
  for (const char* m : {"J9", "D5"}) setup.SetStone(Gtp(m, 9), Color::kWhite);
  EXPECT_EQ(setup.hash(), b9.hash());
  EXPECT_EQ(ReferenceBoard(b9).Hash(), b9.hash());
}

TEST(Zobrist, KeysAreDistinctAndNonZero) {
  std::set<Hash128> seen;
  for (Color c : {Color::kBlack, Color::kWhite}) {
    for (int p = 0; p < kNumCells; ++p) {
      const Hash128& k = StoneKey(c, static_cast<Point>(p));
      EXPECT_NE(k.hi, 0u);
      EXPECT_NE(k.lo, 0u);
      seen.insert(k);
    }
  }
  seen.insert(WhiteToPlayKey());
  EXPECT_EQ(seen.size(), static_cast<size_t>(2 * kNumCells + 1));
}

TEST(Zobrist, KeysDoNotDependOnTheBoardSize) {
  // One padded layout for every size: the same point has the same key,
  // so a 9x9 position hashes the same wherever it is stored.
  Board small(9, 9);
  Board big(19, 19);
  Board wide(25, 4);
  for (Board* b : {&small, &big, &wide}) {
    b->Play(MakePoint(2, 3), Color::kBlack);
    b->Play(MakePoint(4, 1), Color::kWhite);
  }
  EXPECT_EQ(small.hash(), big.hash());
  EXPECT_EQ(small.hash(), wide.hash());
  EXPECT_EQ(small.hash(), StoneKey(Color::kBlack, MakePoint(2, 3)) ^
                              StoneKey(Color::kWhite, MakePoint(4, 1)));
}

TEST(Zobrist, EmptyBoardHashesToZero) {
  EXPECT_EQ(Board(19, 19).hash(), Hash128{});
  EXPECT_EQ(Board(2, 2).hash(), Hash128{});
  EXPECT_EQ(SymmetricHasher(Board(9, 9)).Canonical(Color::kBlack).key,
            Hash128{});
  EXPECT_EQ(SymmetricHasher(Board(9, 9)).Canonical(Color::kWhite).key,
            WhiteToPlayKey());
}

TEST(Zobrist, Hash128OrderAndHex) {
  const Hash128 a{1, 2};
  const Hash128 b{1, 3};
  const Hash128 c{2, 0};
  EXPECT_LT(a, b);
  EXPECT_LT(b, c);
  EXPECT_EQ(a ^ a, Hash128{});
  EXPECT_EQ((a ^ c), (Hash128{3, 2}));
  EXPECT_EQ(Hash128{}.ToHex(), std::string(32, '0'));
  EXPECT_EQ((Hash128{0xABCDEFULL, 0x1ULL}).ToHex(),
            "0000000000abcdef0000000000000001");
}

TEST(Zobrist, TablesAreComputedAtCompileTime) {
  // No global initialisation at run time: the tables are constexpr.
  static_assert(zobrist_internal::kTables.stone[0][0].hi != 0);
  static_assert(zobrist_internal::kTables.white_to_play.lo ==
                0x74bac8143b9e9a9aULL);
  EXPECT_EQ(&StoneKey(Color::kWhite, 5),
            &zobrist_internal::kTables.stone[1][5]);
}

}  // namespace
}  // namespace qipu::rules
