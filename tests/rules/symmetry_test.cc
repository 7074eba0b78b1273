// Symmetry: the 8 transforms of a square board (4 of a rectangle), their
// inverses, the incremental image hashes, canonical keys equal across all
// images of a position (and different with the other side to move), and
// canonical moves on symmetric positions.
#include "rules/symmetry.h"

#include <set>
#include <vector>

#include "gtest/gtest.h"
#include "rules/board.h"
#include "rules/coord.h"
#include "rules/diagram.h"
#include "rules/playout.h"
#include "tests/rules/reference_board.h"  // PrintTo for Hash128

namespace qipu::rules {
namespace {

struct Dims {
  int width;
  int height;
};
constexpr Dims kDims[] = {{2, 2}, {9, 9}, {19, 19}, {25, 25},
                          {7, 3}, {3, 7}, {25, 2},  {13, 19}};

std::vector<Point> BoardPoints(int width, int height) {
  std::vector<Point> out;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) out.push_back(MakePoint(x, y));
  }
  return out;
}

// Board b with every stone moved by transform t.
Board Transformed(const Board& b, int t) {
  Board out(b.width(), b.height());
  for (Point p : BoardPoints(b.width(), b.height())) {
    if (b.at(p) != Color::kEmpty) {
      out.SetStone(TransformPoint(t, p, b.width(), b.height()), b.at(p));
    }
  }
  return out;
}

// A random position on a width x height board (light playout moves).
Board RandomBoard(int width, int height, uint64_t seed, int moves) {
  Board b(width, height);
  Rng rng(seed);
  Color c = Color::kBlack;
  for (int i = 0; i < moves; ++i) {
    const Point p = LightMove(b, c, rng);
    if (p == kPass) break;
    b.Play(p, c);
    c = Opponent(c);
  }
  return b;
}

TEST(Symmetry, TransformsAreTheDihedralGroup) {
  // On 9x9, C2 (x=2, y=7) has 8 distinct images; the named ones check the
  // bit meanings (1 mirrors x, 2 mirrors y, 4 transposes first).
  const Point p = MakePoint(2, 7);
  std::set<Point> images;
  for (int t = 0; t < 8; ++t) images.insert(TransformPoint(t, p, 9, 9));
  EXPECT_EQ(images.size(), 8u);
  EXPECT_EQ(TransformPoint(0, p, 9, 9), p);
  EXPECT_EQ(TransformPoint(1, p, 9, 9), MakePoint(6, 7));
  EXPECT_EQ(TransformPoint(2, p, 9, 9), MakePoint(2, 1));
  EXPECT_EQ(TransformPoint(3, p, 9, 9), MakePoint(6, 1));
  EXPECT_EQ(TransformPoint(4, p, 9, 9), MakePoint(7, 2));
  EXPECT_EQ(TransformPoint(5, p, 9, 9), MakePoint(1, 2));
  EXPECT_EQ(TransformPoint(7, p, 9, 9), MakePoint(1, 6));
  EXPECT_EQ(NumSymmetries(9, 9), 8);
  EXPECT_EQ(NumSymmetries(9, 7), 4);
  // Passes, resignations and "no point" are fixed points.
  for (int t = 0; t < 8; ++t) {
    EXPECT_EQ(TransformPoint(t, kPass, 9, 9), kPass);
    EXPECT_EQ(TransformPoint(t, kResign, 9, 9), kResign);
    EXPECT_EQ(TransformPoint(t, kNoPoint, 9, 9), kNoPoint);
  }
}

TEST(Symmetry, EveryTransformIsABijectionWithItsInverse) {
  for (const Dims& d : kDims) {
    const std::vector<Point> all = BoardPoints(d.width, d.height);
    for (int t = 0; t < NumSymmetries(d.width, d.height); ++t) {
      const int inv = InverseTransform(t);
      ASSERT_LT(inv, NumSymmetries(d.width, d.height));
      std::set<Point> image;
      for (Point p : all) {
        const Point q = TransformPoint(t, p, d.width, d.height);
        ASSERT_GE(PointX(q), 0);
        ASSERT_LT(PointX(q), d.width);
        ASSERT_GE(PointY(q), 0);
        ASSERT_LT(PointY(q), d.height);
        EXPECT_EQ(TransformPoint(inv, q, d.width, d.height), p)
            << d.width << "x" << d.height << " t=" << t;
        image.insert(q);
      }
      EXPECT_EQ(image.size(), all.size());
    }
  }
  // Transposition composed with a mirror is its own inverse only for the
  // diagonal reflections (4 and 7); the quarter turns (5, 6) swap.
  EXPECT_EQ(InverseTransform(4), 4);
  EXPECT_EQ(InverseTransform(7), 7);
  EXPECT_EQ(InverseTransform(5), 6);
  EXPECT_EQ(InverseTransform(6), 5);
  for (int t = 0; t < 4; ++t) EXPECT_EQ(InverseTransform(t), t);
}

TEST(Symmetry, ImageHashesAreTheHashesOfTheTransformedBoards) {
  for (const Dims& d : kDims) {
    const Board b = RandomBoard(d.width, d.height, d.width * 31 + d.height,
                                d.width * d.height / 2);
    const SymmetricHasher h(b);
    for (int t = 0; t < NumSymmetries(d.width, d.height); ++t) {
      EXPECT_EQ(h.image(t), Transformed(b, t).hash())
          << d.width << "x" << d.height << " t=" << t;
    }
    EXPECT_EQ(h.image(0), b.hash());
  }
}

TEST(Symmetry, ToggleKeepsImagesUpToDate) {
  // Follow a game stone by stone, removals included.
  Board b(9, 9);
  SymmetricHasher h(9, 9);
  Rng rng(7);
  Color c = Color::kBlack;
  for (int i = 0; i < 120; ++i) {
    const Point p = LightMove(b, c, rng);
    if (p == kPass) break;
    RemovedStones removed;
    b.Play(p, c, &removed);
    h.Toggle(c, p);
    for (int k = 0; k < removed.count; ++k) {
      h.Toggle(removed.points[k] == p ? c : Opponent(c), removed.points[k]);
    }
    c = Opponent(c);
  }
  const SymmetricHasher fresh(b);
  for (int t = 0; t < 8; ++t) EXPECT_EQ(h.image(t), fresh.image(t)) << t;
}

TEST(Symmetry, CanonicalKeyIsEqualAcrossAllImages) {
  for (const Dims& d : kDims) {
    const Board b = RandomBoard(d.width, d.height, d.width * 7 + d.height,
                                d.width * d.height / 3);
    const CanonicalKey k = SymmetricHasher(b).Canonical(Color::kBlack);
    // T_transform maps the board into the canonical frame.
    EXPECT_EQ(Transformed(b, k.transform).hash(), k.key);
    EXPECT_TRUE((k.minimizers >> k.transform) & 1);
    for (int t = 0; t < NumSymmetries(d.width, d.height); ++t) {
      const Board image = Transformed(b, t);
      const SymmetricHasher hi(image);
      EXPECT_EQ(hi.Canonical(Color::kBlack).key, k.key)
          << d.width << "x" << d.height << " t=" << t;
      const CanonicalKey kw = hi.Canonical(Color::kWhite);
      EXPECT_NE(kw.key, k.key);
      EXPECT_EQ(kw.key, k.key ^ WhiteToPlayKey());
    }
  }
}

TEST(Symmetry, SymmetricPositionsHaveSeveralMinimizers) {
  // The empty board and a lone stone at tengen are fixed by all 8.
  EXPECT_EQ(SymmetricHasher(Board(9, 9)).Canonical(Color::kBlack).minimizers,
            0xFF);
  Board tengen(9, 9);
  tengen.Play(MakePoint(4, 4), Color::kBlack);
  EXPECT_EQ(SymmetricHasher(tengen).Canonical(Color::kBlack).minimizers, 0xFF);
  // A stone on the main diagonal is fixed by the identity and the
  // transposition only.
  Board diag(9, 9);
  diag.Play(MakePoint(2, 2), Color::kBlack);
  const CanonicalKey k = SymmetricHasher(diag).Canonical(Color::kBlack);
  int bits = 0;
  for (int t = 0; t < 8; ++t) bits += (k.minimizers >> t) & 1;
  EXPECT_EQ(bits, 2);
  // On a rectangle only 4 transforms exist.
  EXPECT_EQ(SymmetricHasher(Board(7, 3)).Canonical(Color::kBlack).minimizers,
            0x0F);
}

TEST(Symmetry, CanonicalMoveNamesSymmetricMovesAlike) {
  // Black C3 and G7: fixed by the identity, the half turn (3), the
  // transposition (4) and the anti-diagonal reflection (7).
  auto b = BoardFromDiagram(R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . X . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . X . . . . . .
    . . . . . . . . .
    . . . . . . . . .
  )");
  ASSERT_TRUE(b.ok());
  const SymmetricHasher h(*b);
  const CanonicalKey k = h.Canonical(Color::kBlack);
  std::vector<int> fixed;
  for (int t = 0; t < 8; ++t) {
    if (Transformed(*b, t).hash() == b->hash()) fixed.push_back(t);
  }
  EXPECT_EQ(fixed, (std::vector<int>{0, 3, 4, 7}));
  int bits = 0;
  for (int t = 0; t < 8; ++t) bits += (k.minimizers >> t) & 1;
  EXPECT_EQ(bits, 4);
  // Moves related by a symmetry of the position get one name, the name
  // is one of their canonical-frame images, and unrelated moves differ.
  for (Point p : BoardPoints(9, 9)) {
    const Point name = h.CanonicalMove(k, p);
    for (int t : fixed) {
      EXPECT_EQ(h.CanonicalMove(k, TransformPoint(t, p, 9, 9)), name);
    }
    bool is_image = false;
    for (int t = 0; t < 8; ++t) {
      is_image |=
          ((k.minimizers >> t) & 1) && TransformPoint(t, p, 9, 9) == name;
    }
    EXPECT_TRUE(is_image) << GtpPoint(p, 9);
  }
  EXPECT_EQ(h.CanonicalMove(k, MakePoint(0, 0)),
            h.CanonicalMove(k, MakePoint(8, 8)));
  EXPECT_NE(h.CanonicalMove(k, MakePoint(0, 0)),
            h.CanonicalMove(k, MakePoint(8, 0)));
  EXPECT_EQ(h.CanonicalMove(k, kPass), kPass);
  EXPECT_EQ(h.CanonicalMove(k, kResign), kResign);
}

TEST(Symmetry, CanonicalMoveIsTheSameFromEveryImage) {
  for (const Dims& d : kDims) {
    const Board b = RandomBoard(d.width, d.height, d.width + d.height, 5);
    const SymmetricHasher h(b);
    const CanonicalKey k = h.Canonical(Color::kBlack);
    for (int t = 0; t < NumSymmetries(d.width, d.height); ++t) {
      const SymmetricHasher hi(Transformed(b, t));
      const CanonicalKey ki = hi.Canonical(Color::kBlack);
      for (Point p : BoardPoints(d.width, d.height)) {
        const Point q = TransformPoint(t, p, d.width, d.height);
        ASSERT_EQ(hi.CanonicalMove(ki, q), h.CanonicalMove(k, p))
            << d.width << "x" << d.height << " t=" << t;
      }
    }
  }
}

}  // namespace
}  // namespace qipu::rules
