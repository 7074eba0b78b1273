// The opening indexer: symmetric openings fold together, moves are named
// in the canonical frame, a position counts once per game, and the side to
// move is the colour of the next recorded move (same-colour runs, passes,
// setups).
#include "store/indexer.h"

#include <algorithm>
#include <vector>

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

// The canonical key of `points` (black, then white) with `to_play` to move
// on a 9x9 board.
rules::Hash128 Key9(std::vector<rules::Point> black,
                    std::vector<rules::Point> white, Color to_play) {
  rules::Board b(9, 9);
  for (rules::Point p : black) b.SetStone(p, Color::kBlack);
  for (rules::Point p : white) b.SetStone(p, Color::kWhite);
  return rules::SymmetricHasher(b).Canonical(to_play).key;
}

TEST(Indexer, SameColourRunFilesEachMoveUnderItsRealColour) {
  // A free-placement handicap given as moves: B C3, B G7, then W E5.
  const rules::Point c3 = MakePoint(2, 6), g7 = MakePoint(6, 2),
                     e5 = MakePoint(4, 4);
  rules::GameRecord r;
  r.width = r.height = 9;
  r.moves = {{Color::kBlack, c3}, {Color::kBlack, g7}, {Color::kWhite, e5}};
  auto g = IndexGame(r, 3, 10, rules::Winner::kWhite, GameId::SelfPlay(1, 0));
  ASSERT_EQ(g.size(), 4u);
  EXPECT_EQ(g[0].position, Key9({}, {}, Color::kBlack));
  // After B C3 Black moves again: "Black to move", continuation G7.
  EXPECT_EQ(g[1].position, Key9({c3}, {}, Color::kBlack));
  EXPECT_NE(g[1].position, Key9({c3}, {}, Color::kWhite));
  ASSERT_EQ(g[1].delta.continuations.size(), 1u);
  EXPECT_EQ(g[2].position, Key9({c3, g7}, {}, Color::kWhite));
  // The record's end: the natural side, the opponent of the last move.
  EXPECT_EQ(g[3].position, Key9({c3, g7}, {e5}, Color::kBlack));
  EXPECT_TRUE(g[3].delta.continuations.empty());

  // Cut by the depth after B C3: the last position is the one Black moves
  // from again (as the full walk filed it), with no continuation.
  auto cut = IndexGame(r, 3, 1, rules::Winner::kWhite, GameId::SelfPlay(1, 0));
  ASSERT_EQ(cut.size(), 2u);
  EXPECT_EQ(cut[1].position, g[1].position);
  EXPECT_TRUE(cut[1].delta.continuations.empty());

  // The record ends inside the run: White would move next.
  auto ended =
      IndexGame(r, 2, 10, rules::Winner::kWhite, GameId::SelfPlay(1, 0));
  ASSERT_EQ(ended.size(), 3u);
  EXPECT_EQ(ended[2].position, Key9({c3, g7}, {}, Color::kWhite));
  // Cut by `plies` (the rules ended the game or refused the next move):
  // the next recorded move still names the side, as with the depth.
  auto refused =
      IndexGame(r, 1, 10, rules::Winner::kWhite, GameId::SelfPlay(1, 0));
  ASSERT_EQ(refused.size(), 2u);
  EXPECT_EQ(refused[1].position, g[1].position);
  EXPECT_TRUE(refused[1].delta.continuations.empty());
}

TEST(Indexer, PassesAndSetupsGiveWayToTheRecordedColour) {
  const rules::Point c3 = MakePoint(2, 6), e5 = MakePoint(4, 4);
  // An explicit pass keeps the colours alternating: B C3, W pass, B E5.
  rules::GameRecord p;
  p.width = p.height = 9;
  p.moves = {
      {Color::kBlack, c3}, {Color::kWhite, rules::kPass}, {Color::kBlack, e5}};
  auto g = IndexGame(p, 3, 10, rules::Winner::kBlack, GameId::SelfPlay(1, 0));
  ASSERT_EQ(g.size(), 4u);
  EXPECT_EQ(g[1].position, Key9({c3}, {}, Color::kWhite));
  EXPECT_EQ(g[1].delta.continuations[0].move, 0);  // pass
  EXPECT_EQ(g[2].position, Key9({c3}, {}, Color::kBlack));

  // A root setup with PL[W] whose record has Black move first: the record
  // wins (Black to move), and without moves PL decides.
  rules::GameRecord s;
  s.width = s.height = 9;
  rules::SetupStep step;
  step.black = {c3};
  step.to_play = Color::kWhite;
  s.setup.push_back(step);
  s.moves = {{Color::kBlack, e5}};
  auto first =
      IndexGame(s, 1, 10, rules::Winner::kBlack, GameId::SelfPlay(1, 0));
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0].position, Key9({c3}, {}, Color::kBlack));
  s.moves.clear();
  auto none =
      IndexGame(s, 0, 10, rules::Winner::kBlack, GameId::SelfPlay(1, 0));
  ASSERT_EQ(none.size(), 1u);
  EXPECT_EQ(none[0].position, Key9({c3}, {}, Color::kWhite));
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

// A legal record of light-policy moves whose colour repeats the previous
// one about a third of the time (runs of one colour, passes included),
// ending at two passes or 2 * size * size plies.
rules::GameRecord RandomRunsRecord(int size, rules::Rng& rng) {
  rules::GameRecord r;
  r.width = r.height = size;
  rules::Board b(size, size);
  Color c = Color::kBlack;
  int passes = 0;
  for (int k = 0; k < 2 * size * size && passes < 2; ++k) {
    if (k > 0 && rng.Below(3) != 0) c = rules::Opponent(c);
    const rules::Point p = rules::LightMove(b, c, rng);
    r.moves.push_back({c, p});
    if (p == rules::kPass) {
      b.Pass();
      ++passes;
    } else {
      b.Play(p, c);
      passes = 0;
    }
  }
  return r;
}

// Over records with same-colour runs, each indexed position is the board
// before move k with the colour of move k to move (rebuilt here from a
// fresh board at every ply, the last one with the opponent of the last
// move), first occurrences only.
TEST(Indexer, KeysCarryTheColourOfTheNextRecordedMove) {
  rules::Rng rng(16);
  int runs = 0;
  for (int g = 0; g < 12; ++g) {
    const rules::GameRecord r = RandomRunsRecord(9, rng);
    const int n = static_cast<int>(r.moves.size());
    const auto got = IndexGame(r, n, n, rules::Winner::kBlack,
                               GameId::SelfPlay(1, static_cast<uint64_t>(g)));
    std::vector<rules::Hash128> want;
    rules::Board b(9, 9);
    for (int k = 0; k <= n; ++k) {
      const Color side =
          k < n ? r.moves[k].color : rules::Opponent(r.moves[n - 1].color);
      const rules::Hash128 key = rules::SymmetricHasher(b).Canonical(side).key;
      if (std::find(want.begin(), want.end(), key) == want.end()) {
        want.push_back(key);
      }
      if (k == n) break;
      if (k > 0 && r.moves[k].color == r.moves[k - 1].color) ++runs;
      if (r.moves[k].point == rules::kPass) {
        b.Pass();
      } else {
        b.Play(r.moves[k].point, r.moves[k].color);
      }
    }
    ASSERT_EQ(got.size(), want.size()) << g;
    for (size_t i = 0; i < want.size(); ++i) {
      EXPECT_EQ(got[i].position, want[i]) << g << " " << i;
    }
  }
  EXPECT_GT(runs, 100);
}

// The position index's recovery re-indexes a stored game with plies =
// depth = the plies indexed (store/position_index.cc): over records with
// same-colour runs, that gives the same entries as the first indexing with
// the replay's plies and the import's depth, whichever of the two cut it.
TEST(Indexer, EntriesDependOnPliesAndDepthOnlyThroughThePliesIndexed) {
  rules::Rng rng(1616);
  int compared = 0;
  for (int g = 0; g < 16; ++g) {
    const rules::GameRecord r = RandomRunsRecord(9, rng);
    const int size = static_cast<int>(r.moves.size());
    for (const auto& [plies, depth] :
         {std::pair{size, 7}, std::pair{size, 8}, std::pair{5, 30},
          std::pair{6, 6}, std::pair{size - 1, size + 4}}) {
      const int n = std::min(plies, depth);
      PositionOps first, recovered;
      IndexGameOps(r, plies, depth, rules::Winner::kBlack,
                   GameId::SelfPlay(3, 1), 2, 20200101, &first);
      IndexGameOps(r, n, n, rules::Winner::kBlack, GameId::SelfPlay(3, 1), 2,
                   20200101, &recovered);
      ASSERT_EQ(first.size(), recovered.size()) << g << " " << plies;
      EXPECT_EQ(*first.mutable_bytes(), *recovered.mutable_bytes())
          << g << " " << plies << " " << depth;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 80);
}

// IndexGameOps() writes, entry for entry, the keys and encoded values of
// what IndexGame() finds (the ingest path encodes without building
// PositionValues): random games on several boards, depths beyond the
// game's length, both winners and a draw, a self-play id and an imported
// one with full-width halves (the longest example encoding); records with
// same-colour runs too.
TEST(Indexer, IndexGameOpsEncodesExactlyWhatIndexGameFinds) {
  rules::Rng rng(2024);
  const GameId ids[] = {
      GameId::SelfPlay(3, 141),
      GameId{GameId::Kind::kImported, ~uint64_t{0}, uint64_t{1} << 63}};
  const rules::Winner winners[] = {rules::Winner::kBlack, rules::Winner::kWhite,
                                   rules::Winner::kDraw};
  int checked = 0;
  for (int size : {5, 9, 19}) {
    for (int g = 0; g < 8; ++g) {
      rules::GameRecord record;
      if (g < 6) {
        rules::Game game(size, size, *rules::PresetRules("chinese"));
        rules::FullPlayout(game, rng);
        record.width = record.height = size;
        record.moves = game.moves();
      } else {
        record = RandomRunsRecord(size, rng);
      }
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
  EXPECT_GT(checked, 300);
}

}  // namespace
}  // namespace qipu::store
