// GameSource over a real RocksDB store in a temp dir: games in key order,
// the filter, resuming after the last game handed out, and rows built from
// what it hands out.
#include "train/game_source.h"

#include <vector>

#include "gtest/gtest.h"
#include "proto/convert.h"
#include "rules/diagram.h"
#include "store/keys.h"
#include "tests/common/temp_dir.h"
#include "tests/train/stored_game.h"

namespace qipu::train {
namespace {

using testing::StoredGame;

TEST(GameSource, FiltersAndResumes) {
  test_util::TempDir dir("train-source");
  store::StoreOptions options;
  options.sync = false;
  auto store = store::Store::Open(dir.path() + "/db", options);
  ASSERT_TRUE(store.ok()) << store.status();
  const std::vector<store::GameId> ids = {store::GameId::SelfPlay(1, 0),
                                          store::GameId::SelfPlay(1, 1),
                                          store::GameId::SelfPlay(2, 0)};
  for (size_t i = 0; i < ids.size(); ++i) {
    const qipu::v1::Game g =
        StoredGame(5 + static_cast<int>(i), i == 1 ? rules::KoRule::kPositional
                                                   : rules::KoRule::kSimple);
    ASSERT_TRUE((*store)
                    ->Put(store::Records::kGames, store::GameKey(ids[i]),
                          g.SerializeAsString())
                    .ok());
  }
  // Simple-ko games only.
  const GameFilter simple = [](const store::GameId&, const qipu::v1::Game& g) {
    return g.rules().ko() == qipu::v1::KO_RULE_SIMPLE;
  };
  GameSource source(**store, simple);
  TrainingGame game;
  std::vector<store::GameId> seen;
  RowBatch batch(9);
  RowBuilder builder(RowOptions{.pos_len = 9});
  for (;;) {
    absl::StatusOr<bool> more = source.Next(&game);
    ASSERT_TRUE(more.ok()) << more.status();
    if (!*more) break;
    seen.push_back(game.id);
    ASSERT_TRUE(builder.AddGame(game, &batch).ok());
  }
  EXPECT_EQ(seen, (std::vector<store::GameId>{ids[0], ids[2]}));
  EXPECT_EQ(source.read(), 3);
  EXPECT_EQ(source.dropped(), 1);
  EXPECT_EQ(batch.rows(), 5 + 7);

  // Resumed after the first game: the rest, nothing twice.
  GameSource resumed(**store, nullptr, ids[0]);
  seen.clear();
  for (;;) {
    absl::StatusOr<bool> more = resumed.Next(&game);
    ASSERT_TRUE(more.ok()) << more.status();
    if (!*more) break;
    seen.push_back(game.id);
  }
  EXPECT_EQ(seen, (std::vector<store::GameId>{ids[1], ids[2]}));
  EXPECT_EQ(resumed.last(), ids[2]);
  EXPECT_EQ(game.rules.ko, rules::KoRule::kSimple);
  EXPECT_EQ(game.record.moves.size(), 7u);
}

}  // namespace
}  // namespace qipu::train
