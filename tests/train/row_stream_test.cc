// RowStream over a real RocksDB store in a temp dir: cursors encode and
// decode (and refuse other requests' and damaged bytes), the rows do not
// depend on the batch size, mixing is a permutation of the game-order rows
// drawn from the seed, max_rows stops mid-chunk and resumes there, the
// recent window counts only selected games, damaged games are skipped; a
// GameOrder (the games' own order) sets the order of games, cursors and
// recency weights.
#include "train/row_stream.h"

#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "gtest/gtest.h"
#include "proto/convert.h"
#include "rules/diagram.h"
#include "store/keys.h"
#include "tests/common/temp_dir.h"
#include "tests/train/stored_game.h"
#include "train/game_order.h"
#include "train/npz_writer.h"

namespace qipu::train {
namespace {

using testing::StoredGame;

class RowStreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store::StoreOptions options;
    options.sync = false;
    auto s = store::Store::Open(dir_.path() + "/db", options);
    ASSERT_TRUE(s.ok()) << s.status();
    store_ = *std::move(s);
    for (uint64_t i = 0; i < kGames; ++i) {
      const qipu::v1::Game g = StoredGame(10 + static_cast<int>(i % 7));
      ASSERT_TRUE(store_
                      ->Put(store::Records::kGames,
                            store::GameKey(store::GameId::SelfPlay(3, i)),
                            g.SerializeAsString())
                      .ok());
    }
  }

  // Every row of a stream from `start`, and its cursors.
  RowBatch All(const StreamOptions& o, const StreamPosition& start = {},
               std::vector<std::string>* cursors = nullptr,
               const GameFilter& filter = nullptr) {
    RowStream stream(*store_, filter, o, kKey, start);
    RowBatch all(o.rows.pos_len);
    RowBatch batch(o.rows.pos_len);
    for (;;) {
      absl::StatusOr<bool> more = stream.Next(&batch);
      EXPECT_TRUE(more.ok()) << more.status();
      if (!more.ok() || !*more) break;
      EXPECT_LE(batch.rows(), o.batch_size);
      for (int r = 0; r < batch.rows(); ++r) all.AppendRowFrom(batch, r);
      if (cursors != nullptr) cursors->push_back(stream.cursor());
    }
    return all;
  }

  static std::vector<std::tuple<uint64_t, uint64_t>> Keys(const RowBatch& b) {
    std::vector<std::tuple<uint64_t, uint64_t>> out;
    for (int r = 0; r < b.rows(); ++r) {
      const uint64_t* id = &b.row_ids()[static_cast<size_t>(r) * 5];
      out.emplace_back(id[2], id[3]);
    }
    return out;
  }

  static std::string Bytes(const RowBatch& b) {
    std::string out;
    for (const NpyArray& a : BatchArrays(b)) {
      out.append(reinterpret_cast<const char*>(a.data.data()), a.data.size());
    }
    return out;
  }

  static constexpr uint64_t kGames = 30;
  static constexpr uint64_t kKey = 0x1234;
  test_util::TempDir dir_{"row-stream"};
  std::unique_ptr<store::Store> store_;
};

TEST(StreamCursor, RoundTripsAndRefusesOtherRequestsAndDamage) {
  StreamPosition p;
  EXPECT_EQ(DecodeStreamCursor(EncodeStreamCursor(p, 5), 5).value(), p);
  p.done_through = store::GameId::SelfPlay(7, 99);
  p.chunk_last = store::GameId::SelfPlay(8, 3);
  p.chunk_rows_sent = 1234;
  const std::string c = EncodeStreamCursor(p, 5);
  EXPECT_EQ(DecodeStreamCursor(c, 5).value(), p);
  EXPECT_TRUE(absl::IsInvalidArgument(DecodeStreamCursor(c, 6).status()));
  for (size_t cut = 0; cut < c.size(); ++cut) {
    EXPECT_FALSE(DecodeStreamCursor(c.substr(0, cut), 5).ok()) << cut;
  }
  EXPECT_FALSE(DecodeStreamCursor(c + "x", 5).ok());
}

TEST_F(RowStreamTest, BatchSizeDoesNotChangeTheRows) {
  StreamOptions o;
  o.rows.pos_len = 9;
  o.rows.symmetries = 8;
  o.rows.seed = 3;
  o.shuffle_window = 64;
  o.batch_size = 1;
  const std::string one = Bytes(All(o));
  o.batch_size = 37;
  EXPECT_EQ(Bytes(All(o)), one);
  o.batch_size = 4096;
  EXPECT_EQ(Bytes(All(o)), one);
  o.rows.seed = 4;
  EXPECT_NE(Bytes(All(o)), one);
}

TEST_F(RowStreamTest, APoolBuildsTheSameRows) {
  StreamOptions o;
  o.rows.pos_len = 9;
  o.rows.symmetries = 8;
  o.shuffle_window = 90;
  o.batch_size = 33;
  const std::string alone = Bytes(All(o));
  base::WorkPool pool(3, "test-pool");
  RowStream stream(*store_, nullptr, o, kKey, {}, &pool);
  RowBatch all(9);
  RowBatch batch(9);
  while (stream.Next(&batch).value_or(false)) {
    for (int r = 0; r < batch.rows(); ++r) all.AppendRowFrom(batch, r);
  }
  EXPECT_EQ(Bytes(all), alone);
}

TEST_F(RowStreamTest, MixingPermutesTheGameOrderRows) {
  StreamOptions o;
  o.rows.pos_len = 9;
  o.batch_size = 50;
  const RowBatch ordered = All(o);
  int expected = 0;
  for (uint64_t i = 0; i < kGames; ++i)
    expected += 10 + static_cast<int>(i % 7);
  EXPECT_EQ(ordered.rows(), expected);
  // Game order: games by index, turns ascending.
  auto a = Keys(ordered);
  EXPECT_TRUE(std::is_sorted(a.begin(), a.end()));
  o.shuffle_window = 100;
  const RowBatch mixed = All(o);
  auto b = Keys(mixed);
  EXPECT_NE(a, b);
  std::sort(b.begin(), b.end());
  EXPECT_EQ(a, b);
}

TEST_F(RowStreamTest, EveryCursorResumesWithTheRestOfTheStream) {
  StreamOptions o;
  o.rows.pos_len = 9;
  o.rows.positions_per_game = 5;
  o.shuffle_window = 40;
  o.batch_size = 7;
  std::vector<std::string> cursors;
  const RowBatch full = All(o, {}, &cursors);
  ASSERT_EQ(full.rows(), static_cast<int>(kGames) * 5);
  const std::string bytes = Bytes(full);
  for (size_t i = 0; i < cursors.size(); ++i) {
    auto p = DecodeStreamCursor(cursors[i], kKey);
    ASSERT_TRUE(p.ok()) << p.status();
    const RowBatch rest = All(o, *p);
    const size_t sent = (i + 1) * 7 < static_cast<size_t>(full.rows())
                            ? (i + 1) * 7
                            : static_cast<size_t>(full.rows());
    ASSERT_EQ(static_cast<size_t>(rest.rows()), full.rows() - sent) << i;
    // The rest is the tail of the full stream's bytes, member by member.
    RowBatch tail(9);
    for (int r = static_cast<int>(sent); r < full.rows(); ++r) {
      tail.AppendRowFrom(full, r);
    }
    EXPECT_EQ(Bytes(rest), Bytes(tail)) << i;
  }
}

TEST_F(RowStreamTest, MaxRowsStopsMidChunkAndTheCursorContinues) {
  StreamOptions o;
  o.rows.pos_len = 9;
  o.shuffle_window = 50;
  o.batch_size = 16;
  const RowBatch full = All(o);
  o.max_rows = 45;
  RowStream first(*store_, nullptr, o, kKey, {});
  RowBatch batch(9);
  RowBatch got(9);
  while (first.Next(&batch).value_or(false)) {
    for (int r = 0; r < batch.rows(); ++r) got.AppendRowFrom(batch, r);
  }
  EXPECT_EQ(got.rows(), 45);
  EXPECT_EQ(first.stats().rows, 45u);
  o.max_rows = 0;
  const RowBatch rest = All(o, first.position());
  for (int r = 0; r < rest.rows(); ++r) got.AppendRowFrom(rest, r);
  EXPECT_EQ(Bytes(got), Bytes(full));
}

TEST_F(RowStreamTest, TheRecentWindowCountsSelectedGamesOnly) {
  // Even game indices only; the last 4 of them are 22, 24, 26, 28.
  const GameFilter even = [](const store::GameId& id, const qipu::v1::Game&) {
    return id.lo % 2 == 0;
  };
  auto start = RecentWindowStart(*store_, even, 4);
  ASSERT_TRUE(start.ok()) << start.status();
  ASSERT_TRUE(start->has_value());
  EXPECT_EQ(**start, store::GameId::SelfPlay(3, 21));
  StreamOptions o;
  o.rows.pos_len = 9;
  o.rows.positions_per_game = 1;
  StreamPosition p;
  p.done_through = *start;
  std::set<uint64_t> games;
  for (const auto& [game, turn] : Keys(All(o, p, nullptr, even))) {
    games.insert(game);
  }
  EXPECT_EQ(games, (std::set<uint64_t>{22, 24, 26, 28}));
  // More than there are: from the start.
  auto all = RecentWindowStart(*store_, even, 1000);
  ASSERT_TRUE(all.ok());
  EXPECT_FALSE(all->has_value());
}

TEST_F(RowStreamTest, DamagedAndUnusableGamesAreSkippedAndCounted) {
  ASSERT_TRUE(store_
                  ->Put(store::Records::kGames,
                        store::GameKey(store::GameId::SelfPlay(4, 0)),
                        "not a game")
                  .ok());
  qipu::v1::Game big = StoredGame(3);
  big.set_width(19);
  big.set_height(19);
  ASSERT_TRUE(store_
                  ->Put(store::Records::kGames,
                        store::GameKey(store::GameId::SelfPlay(4, 1)),
                        big.SerializeAsString())
                  .ok());
  StreamOptions o;
  o.rows.pos_len = 9;
  RowStream stream(*store_, nullptr, o, kKey, {});
  RowBatch batch(9);
  while (stream.Next(&batch).value_or(false)) {
  }
  EXPECT_EQ(stream.stats().games_damaged, 1);
  EXPECT_EQ(stream.stats().games_unusable, 1);
  EXPECT_EQ(stream.stats().games_done, kGames + 1);
}

// Game i played at (kGames - i) seconds: the games' own order is the
// reverse of key order.
std::shared_ptr<const GameOrder> ReversedOrder(uint64_t games) {
  std::vector<OrderedGame> list;
  for (uint64_t i = 0; i < games; ++i) {
    list.push_back({static_cast<int64_t>(games - i) * 1000000,
                    store::GameId::SelfPlay(3, i)});
  }
  return std::make_shared<const GameOrder>(std::move(list));
}

TEST_F(RowStreamTest, AGameOrderOrdersGamesAndWeighsThemByRecency) {
  StreamOptions o;
  o.rows.pos_len = 9;
  o.rows.positions_per_game = 2;
  o.rows.weight_by_recency = true;
  o.rows.row_weight = 3.0f;
  o.batch_size = 5;
  o.order = ReversedOrder(kGames);
  RowBatch all = All(o);
  ASSERT_EQ(all.rows(), static_cast<int>(kGames) * 2);
  for (int r = 0; r < all.rows(); ++r) {
    const uint64_t game = all.row_ids()[static_cast<size_t>(r) * 5 + 2];
    // Rows in game order: game 29 first (rank 0), game 0 last.
    const uint64_t rank = static_cast<uint64_t>(r / 2);
    EXPECT_EQ(game, kGames - 1 - rank) << r;
    const float weight = all.global_targets(r)[gtg::kRowWeight];
    EXPECT_FLOAT_EQ(weight, 3.0f * 2.0f * static_cast<float>(rank + 1) /
                                static_cast<float>(kGames + 1))
        << r;
  }
  // Without a rank (key order) recency leaves the weight as it is.
  o.order = nullptr;
  RowBatch keyed = All(o);
  ASSERT_EQ(keyed.rows(), all.rows());
  EXPECT_EQ(keyed.row_ids()[2], 0u);
  EXPECT_FLOAT_EQ(keyed.global_targets(0)[gtg::kRowWeight], 3.0f);
}

TEST_F(RowStreamTest, CursorsOfAnOrderedStreamResumeInThatOrder) {
  StreamOptions o;
  o.rows.pos_len = 9;
  o.rows.positions_per_game = 5;
  o.shuffle_window = 40;
  o.batch_size = 7;
  o.order = ReversedOrder(kGames);
  std::vector<std::string> cursors;
  const RowBatch full = All(o, {}, &cursors);
  ASSERT_EQ(full.rows(), static_cast<int>(kGames) * 5);
  // Chunks follow the order: the first rows are of the newest-keyed games.
  EXPECT_GE(full.row_ids()[2], kGames - 10);
  for (size_t i = 0; i < cursors.size(); ++i) {
    auto p = DecodeStreamCursor(cursors[i], kKey);
    ASSERT_TRUE(p.ok()) << p.status();
    const RowBatch rest = All(o, *p);
    const size_t sent = std::min((i + 1) * 7, static_cast<size_t>(full.rows()));
    ASSERT_EQ(static_cast<size_t>(rest.rows()), full.rows() - sent) << i;
    RowBatch tail(9);
    for (int r = static_cast<int>(sent); r < full.rows(); ++r) {
      tail.AppendRowFrom(full, r);
    }
    EXPECT_EQ(Bytes(rest), Bytes(tail)) << i;
  }
}

TEST(GameOrderTest, ByTimeThenKeyWithImportsAtTheirRecordDate) {
  qipu::v1::Game self_play;
  self_play.mutable_provenance()->set_job(2);
  self_play.mutable_provenance()->set_stored_unix_micros(1700000000123456);
  EXPECT_EQ(GamePlayedMicros(self_play), 1700000000123456);
  qipu::v1::Game import;
  import.mutable_meta()->set_date_ymd(20240102);
  EXPECT_EQ(GamePlayedMicros(import), int64_t{1704153600} * 1000000);
  import.mutable_meta()->set_date_ymd(0);
  EXPECT_EQ(GamePlayedMicros(import), 0);

  const store::GameId a = store::GameId::SelfPlay(1, 5);
  const store::GameId b = store::GameId::SelfPlay(1, 2);
  const store::GameId c = store::GameId::SelfPlay(9, 0);
  const GameOrder order({{50, a}, {50, b}, {10, c}});
  ASSERT_EQ(order.size(), 3u);
  EXPECT_EQ(order.at(0).id, c);
  EXPECT_EQ(order.at(1).id, b);  // same time: key order
  EXPECT_EQ(order.at(2).id, a);
  EXPECT_EQ(order.RankOf(a), 2u);
  EXPECT_EQ(order.RankOf(store::GameId::SelfPlay(7, 7)), std::nullopt);
  EXPECT_DOUBLE_EQ(RecencyWeight(0, 3), 0.5);
  EXPECT_DOUBLE_EQ(RecencyWeight(2, 3), 1.5);
}

TEST(StreamOptionsCheck, RangesAreNamed) {
  StreamOptions o;
  EXPECT_TRUE(ValidateStreamOptions(o).ok());
  o.batch_size = 0;
  EXPECT_NE(ValidateStreamOptions(o).message().find("batch_size"),
            std::string::npos);
  o.batch_size = 1;
  o.shuffle_window = kMaxShuffleWindow + 1;
  EXPECT_NE(ValidateStreamOptions(o).message().find("shuffle_window"),
            std::string::npos);
}

}  // namespace
}  // namespace qipu::train
