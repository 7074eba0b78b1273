// The opening indexer: symmetric openings fold together, moves are named
// in the canonical frame, a position counts once per game.
#include "store/indexer.h"

#include "gtest/gtest.h"
#include "rules/game.h"
#include "rules/playout.h"
#include "rules/rules.h"
#include "rules/symmetry.h"
#include "store/keys.h"
#include "store/position_value.h"

namespace qipu::store {
namespace {

using rules::Color;
using rules::MakePoint;

rules::GameRecord Game9(std::vector<rules::Point> moves) {
  rules::GameRecord r;
  r.width = r.height = 9;
  Color c = Color::kBlack;
  for (rules::Point p : moves) {
    r.moves.push_back({c, p});
    c = rules::Opponent(c);
  }
  return r;
}

TEST(Indexer, MirroredOpeningsShareKeysAndMoveNames) {
  // C3 then G7, and its mirror image G7 then C3... as Black's first move
  // C3 (2,6) and G3 (6,6) are images of each other.
  auto a = IndexGame(Game9({MakePoint(2, 6), MakePoint(6, 2)}), 2, 10,
                     rules::Winner::kBlack, GameId::SelfPlay(1, 0));
  auto b = IndexGame(Game9({MakePoint(6, 6), MakePoint(2, 2)}), 2, 10,
                     rules::Winner::kWhite, GameId::SelfPlay(1, 1));
  ASSERT_EQ(a.size(), 3u);
  ASSERT_EQ(b.size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(a[i].position, b[i].position) << i;
  ASSERT_EQ(a[0].delta.continuations.size(), 1u);
  EXPECT_EQ(a[0].delta.continuations[0].move, b[0].delta.continuations[0].move);
  EXPECT_EQ(a[0].delta.reached.black, 1u);
  EXPECT_EQ(b[0].delta.reached.white, 1u);
  // The last indexed position has no continuation.
  EXPECT_TRUE(a[2].delta.continuations.empty());
}

TEST(Indexer, DepthLimitsAndSideToMoveMatters) {
  auto g = IndexGame(Game9({MakePoint(4, 4), rules::kPass, rules::kPass}), 3, 1,
                     rules::Winner::kBlack, GameId::SelfPlay(1, 0));
  ASSERT_EQ(g.size(), 2u);
  // After a pass the board is the same but the side to move is not.
  auto p = IndexGame(Game9({MakePoint(4, 4), rules::kPass}), 2, 5,
                     rules::Winner::kBlack, GameId::SelfPlay(1, 0));
  ASSERT_EQ(p.size(), 3u);
  EXPECT_NE(p[1].position, p[2].position);
  EXPECT_EQ(p[1].delta.continuations[0].move, 0);  // pass
}

TEST(Indexer, RepeatedPositionCountsOncePerGame) {
  // Two passes and back: B pass, W pass would end the game in play, but
  // the indexer counts what it is given; positions 0 and 2 are equal.
  auto g = IndexGame(Game9({rules::kPass, rules::kPass}), 2, 5,
                     rules::Winner::kDraw, GameId::SelfPlay(1, 0));
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].delta.reached.games, 1u);
}

TEST(Indexer, HandicapSetupGivesWhiteTheMove) {
  rules::GameRecord r;
  r.width = r.height = 9;
  r.handicap = 2;
  rules::SetupStep s;
  s.black = {MakePoint(2, 6), MakePoint(6, 2)};
  r.setup.push_back(s);
  r.moves.push_back({Color::kWhite, MakePoint(4, 4)});
  auto g = IndexGame(r, 1, 5, rules::Winner::kWhite, GameId::SelfPlay(1, 0));
  ASSERT_EQ(g.size(), 2u);
  rules::Board b(9, 9);
  b.SetStone(MakePoint(2, 6), Color::kBlack);
  b.SetStone(MakePoint(6, 2), Color::kBlack);
  EXPECT_EQ(g[0].position,
            rules::SymmetricHasher(b).Canonical(Color::kWhite).key);
}

TEST(Indexer, BoardsOfOtherSizesInBetweenChangeNothing) {
  const rules::GameRecord small =
      Game9({MakePoint(2, 2), MakePoint(6, 6), MakePoint(4, 4)});
  const auto first =
      IndexGame(small, 3, 10, rules::Winner::kBlack, GameId::SelfPlay(1, 0));
  rules::GameRecord big;
  big.width = big.height = 19;
  big.moves = {{Color::kBlack, MakePoint(3, 3)},
               {Color::kWhite, MakePoint(15, 15)}};
  rules::GameRecord wide;
  wide.width = 13;
  wide.height = 7;
  wide.moves = {{Color::kBlack, MakePoint(12, 6)}};
  EXPECT_EQ(IndexGame(big, 2, 10, rules::Winner::kWhite, GameId::SelfPlay(1, 1))
                .size(),
            3u);
  EXPECT_EQ(
      IndexGame(wide, 1, 10, rules::Winner::kWhite, GameId::SelfPlay(1, 2))
          .size(),
      2u);
  const auto again =
      IndexGame(small, 3, 10, rules::Winner::kBlack, GameId::SelfPlay(1, 0));
  ASSERT_EQ(again.size(), first.size());
  for (size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(again[i].position, first[i].position) << i;
    EXPECT_EQ(again[i].delta, first[i].delta) << i;
  }
}

// IndexGameOps() writes, entry for entry, the keys and encoded values of
// what IndexGame() finds (the ingest path encodes without building
// PositionValues): random games on several boards, depths beyond the
// game's length, both winners and a draw, a self-play id and an imported
// one with full-width halves (the longest example encoding).
TEST(Indexer, IndexGameOpsEncodesExactlyWhatIndexGameFinds) {
  rules::Rng rng(2024);
  const GameId ids[] = {
      GameId::SelfPlay(3, 141),
      GameId{GameId::Kind::kImported, ~uint64_t{0}, uint64_t{1} << 63}};
  const rules::Winner winners[] = {rules::Winner::kBlack, rules::Winner::kWhite,
                                   rules::Winner::kDraw};
  int checked = 0;
  for (int size : {5, 9, 19}) {
    for (int g = 0; g < 6; ++g) {
      rules::Game game(size, size, *rules::PresetRules("chinese"));
      rules::FullPlayout(game, rng);
      rules::GameRecord record;
      record.width = record.height = size;
      record.moves = game.moves();
      const int plies = static_cast<int>(record.moves.size());
      const int depth = g % 2 == 0 ? 30 : plies + 5;
      const GameId& id = ids[g % 2];
      const rules::Winner winner = winners[g % 3];
      const auto expected = IndexGame(record, plies, depth, winner, id);
      PositionOps ops;
      IndexGameOps(record, plies, depth, winner, id, 17, 20261204, &ops);
      ASSERT_EQ(ops.size(), expected.size());
      size_t i = 0;
      ops.ForEach([&](absl::string_view key, absl::string_view value) {
        ASSERT_LT(i, expected.size());
        const IndexedPosition& e = expected[i++];
        EXPECT_EQ(key,
                  PositionKey({e.width, e.height, e.position, 17, 20261204}));
        EXPECT_EQ(value, EncodePositionValue(e.delta))
            << size << "x" << size << " game " << g << " entry " << i;
        ++checked;
      });
      EXPECT_EQ(i, expected.size());
    }
  }
  EXPECT_GT(checked, 200);
}

}  // namespace
}  // namespace qipu::store
