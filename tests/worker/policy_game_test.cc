// Tests of worker/policy_game.h and its use by worker/game_runner.h: jobs
// whose colours play mcts, pattern or random through policy::Policy give
// the same games for the same job seed and index on any thread count,
// carry their policies and the root visits of every search, end the way
// the rules say; PolicySeed() and the packed visits round-trip.
#include "worker/policy_game.h"

#include <map>
#include <vector>

#include "gtest/gtest.h"
#include "proto/search_visits.h"
#include "qipu/v1/game.pb.h"
#include "rules/replay.h"
#include "tests/worker/test_util.h"
#include "worker/game_runner.h"

namespace qipu::worker {
namespace {

using testing::Config;

// Plays `indices` of job 3 with config `c` on `threads` threads.
std::map<uint64_t, qipu::v1::Game> PlayLease(
    const qipu::v1::JobConfig& c, const std::vector<uint64_t>& indices,
    int threads) {
  GameQueue queue(indices.size() + 1);
  GameRunnerOptions o;
  o.threads = threads;
  o.worker = "t";
  Lease l;
  l.lease_id = "L";
  l.job = 3;
  l.config = c;
  l.indices = indices;
  auto runner = GameRunner::Create(o, l, &queue);
  EXPECT_TRUE(runner.ok()) << runner.status();
  if (!runner.ok()) return {};
  (*runner)->Start();
  EXPECT_TRUE((*runner)->Wait().ok());
  std::vector<FinishedGame> games;
  queue.PopBatch(1 << 20, absl::ZeroDuration(), &games);
  std::map<uint64_t, qipu::v1::Game> out;
  for (const FinishedGame& g : games) {
    EXPECT_TRUE(out[g.key.index].ParseFromString(g.game));
  }
  return out;
}

TEST(PolicyGame, MctsAgainstRandomIsReproducibleAndKeepsItsSearches) {
  qipu::v1::JobConfig c = Config(7, 99);
  c.set_black_policy("mcts:playouts=30");
  c.set_white_policy("random");
  const std::vector<uint64_t> indices = {0, 1, 2, 7};
  const auto one = PlayLease(c, indices, 1);
  const auto two = PlayLease(c, indices, 2);
  ASSERT_EQ(one.size(), indices.size());
  ASSERT_EQ(two.size(), indices.size());
  for (uint64_t i : indices) {
    const qipu::v1::Game& g = one.at(i);
    EXPECT_EQ(g.SerializeAsString(), two.at(i).SerializeAsString()) << i;
    EXPECT_EQ(g.provenance().black_policy(), "mcts:playouts=30");
    EXPECT_EQ(g.provenance().white_policy(), "random");
    EXPECT_EQ(g.provenance().policy(), "mcts:playouts=30 vs random");
    auto searches =
        wire::UnpackSearches(g.search_visits(), 7, 7, g.num_moves());
    ASSERT_TRUE(searches.ok()) << searches.status();
    ASSERT_FALSE(searches->empty());
    auto record = wire::GameToRecord(g);
    ASSERT_TRUE(record.ok());
    for (const wire::MoveSearch& s : *searches) {
      // Only Black searches; its root visits sum to its playouts at
      // least (more when its tree was reused).
      EXPECT_EQ(record->moves[s.move].color, rules::Color::kBlack);
      uint32_t sum = 0;
      for (const wire::PointVisits& v : s.visits) sum += v.visits;
      EXPECT_GT(sum, 0u);
      EXPECT_GE(sum, 30u);
      EXPECT_GE(s.visits.front().visits, s.visits.back().visits);
    }
    // The rules replay the game to the end the worker claims, unless a
    // policy ended it (mcts resigns a lost game).
    auto report = rules::Replay(*record, *wire::RulesFromProto(g.rules()));
    ASSERT_TRUE(report.ok());
    EXPECT_TRUE(report->legal);
    if (g.result().reason() == qipu::v1::END_REASON_RESIGN) {
      EXPECT_EQ(report->ended_at, 0);
      EXPECT_EQ(g.result().winner(), qipu::v1::WINNER_WHITE) << i;
    } else {
      EXPECT_EQ(report->ended_at, static_cast<int>(g.num_moves()));
      EXPECT_EQ(wire::ResultToProto(report->rules_result).SerializeAsString(),
                g.result().SerializeAsString());
    }
  }
  EXPECT_NE(one.at(0).moves(), one.at(1).moves());
}

TEST(PolicyGame, OnePolicyForBothColoursIsStoredAsOneSpec) {
  qipu::v1::JobConfig c = Config(7, 5);
  c.set_policy("pattern");
  const auto games = PlayLease(c, {0, 1}, 2);
  ASSERT_EQ(games.size(), 2u);
  for (const auto& [i, g] : games) {
    EXPECT_EQ(g.provenance().policy(), "pattern");
    EXPECT_TRUE(g.provenance().black_policy().empty());
    EXPECT_TRUE(g.search_visits().empty());
    EXPECT_GT(g.num_moves(), 0u);
  }
}

TEST(PolicyGame, PolicySeedsDifferByColourAndGame) {
  EXPECT_NE(PolicySeed(1, rules::Color::kBlack),
            PolicySeed(1, rules::Color::kWhite));
  EXPECT_NE(PolicySeed(1, rules::Color::kBlack),
            PolicySeed(2, rules::Color::kBlack));
  EXPECT_EQ(PolicySeed(7, rules::Color::kWhite),
            PolicySeed(7, rules::Color::kWhite));
}

TEST(SearchVisits, PackedVisitsRoundTripAndBadBytesAreRefused) {
  const std::vector<wire::MoveSearch> searches = {
      {0, {{rules::MakePoint(2, 2), 20}, {rules::kPass, 3}}},
      {4, {{rules::MakePoint(0, 6), 1}}},
  };
  const std::string packed = wire::PackSearches(searches, 7);
  // Two bytes of header and two per pair (small numbers).
  EXPECT_EQ(packed.size(), 2u + 4u + 2u + 2u);
  auto back = wire::UnpackSearches(packed, 7, 7, 5);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, searches);
  EXPECT_FALSE(wire::UnpackSearches(packed, 7, 7, 4).ok());  // move 4 of 4
  EXPECT_FALSE(wire::UnpackSearches(packed.substr(0, 5), 7, 7, 5).ok());
  // A point off a 2x2 board.
  EXPECT_FALSE(wire::UnpackSearches(packed, 2, 2, 5).ok());
  // Move indices must increase; a point at most once; visits above 0.
  std::string twice = wire::PackSearches({searches[1], searches[1]}, 7);
  EXPECT_FALSE(wire::UnpackSearches(twice, 7, 7, 5).ok());
  const std::string dup("\x00\x02\x01\x05\x01\x06", 6);
  EXPECT_FALSE(wire::UnpackSearches(dup, 7, 7, 5).ok());
  const std::string zero("\x00\x01\x01\x00", 4);
  EXPECT_FALSE(wire::UnpackSearches(zero, 7, 7, 5).ok());
  EXPECT_TRUE(wire::UnpackSearches("", 7, 7, 0)->empty());
}

}  // namespace
}  // namespace qipu::worker
