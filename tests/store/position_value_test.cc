// PositionValue encoding and merging, and the aggregate merge.
#include "store/position_value.h"

#include <algorithm>
#include <random>
#include <string>

#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "store/aggregate.h"
#include "store/keys.h"

namespace qipu::store {
namespace {

Continuation Cont(uint16_t move, rules::Winner w, GameId id) {
  Continuation c;
  c.move = move;
  c.outcome.Add(w);
  c.examples.push_back(id);
  return c;
}

TEST(PositionValue, RoundTrips) {
  PositionValue v;
  v.reached.Add(rules::Winner::kBlack);
  v.reached.Add(rules::Winner::kNone);
  v.continuations.push_back(
      Cont(0, rules::Winner::kNone, GameId::SelfPlay(1, 3)));
  v.continuations.push_back(
      Cont(5, rules::Winner::kBlack, GameId::SelfPlay(1, 2)));
  GameId imported;
  imported.kind = GameId::Kind::kImported;
  imported.hi = ~uint64_t{0};
  imported.lo = 0x0123456789abcdefULL;
  Continuation c = Cont(361, rules::Winner::kDraw, imported);
  c.outcome.Add(rules::Winner::kWhite);
  c.examples.push_back(GameId::SelfPlay(1ULL << 40, 1ULL << 33));
  v.continuations.push_back(c);
  auto back = DecodePositionValue(EncodePositionValue(v));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, v);
}

TEST(PositionValue, OneGameTakesFewBytes) {
  // Most index entries: one game reached the position and went on.
  PositionValue v;
  v.reached.Add(rules::Winner::kWhite);
  v.continuations.push_back(
      Cont(77, rules::Winner::kWhite, GameId::SelfPlay(12, 345678)));
  EXPECT_LE(EncodePositionValue(v).size(), 17u);
}

// The fast path's encoder writes exactly EncodePositionValue() of the
// delta it stands for, which decodes back to that delta: every winner,
// with and without a continuation, moves of one to three varint bytes, and
// ids from the shortest to the longest encoding.
TEST(PositionValue, OneGameValueEncoderWritesEncodePositionValuesBytes) {
  const GameId ids[] = {
      GameId::SelfPlay(0, 0), GameId::SelfPlay(12, 345678),
      GameId{GameId::Kind::kImported, ~uint64_t{0}, ~uint64_t{0}}};
  const rules::Winner winners[] = {rules::Winner::kNone, rules::Winner::kBlack,
                                   rules::Winner::kWhite, rules::Winner::kDraw};
  int checked = 0;
  for (const GameId& id : ids) {
    for (rules::Winner w : winners) {
      const OneGameValueEncoder encoder(w, id);
      for (int move : {-1, 0, 1, 127, 128, 361, 16383, 16384, 65535}) {
        const bool has_next = move >= 0;
        PositionValue v;
        v.reached.Add(w);
        if (has_next) {
          v.continuations.push_back(Cont(static_cast<uint16_t>(move), w, id));
        }
        char buf[OneGameValueEncoder::kMaxBytes + 1];
        buf[OneGameValueEncoder::kMaxBytes] = '!';
        const char* end = encoder.EncodeTo(
            buf, has_next, static_cast<uint16_t>(std::max(move, 0)));
        const std::string got(buf, static_cast<size_t>(end - buf));
        EXPECT_EQ(got, EncodePositionValue(v)) << "move " << move;
        EXPECT_EQ(buf[OneGameValueEncoder::kMaxBytes], '!');
        auto back = DecodePositionValue(got);
        ASSERT_TRUE(back.ok()) << back.status();
        EXPECT_EQ(*back, v);
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 3 * 4 * 9);
}

TEST(PositionValue, FieldEncodersStayWithinTheirMostBytes) {
  Outcome most;
  most.games = most.black = most.white = most.draws = ~uint64_t{0};
  char buf[kMaxOutcomeBytes];
  EXPECT_EQ(EncodeOutcome(buf, most), buf + kMaxOutcomeBytes);
  const GameId longest{GameId::Kind::kImported, ~uint64_t{0}, ~uint64_t{0}};
  char id[kMaxGameIdBytes];
  EXPECT_EQ(EncodeGameId(id, longest), id + kMaxGameIdBytes);
  Outcome one;
  one.Add(rules::Winner::kDraw);
  EXPECT_EQ(EncodeOutcome(buf, one), buf + 4);
  EXPECT_EQ(std::string(buf, 4), std::string("\x01\x00\x00\x01", 4));
}

TEST(PositionValue, CountsBeyondTheGamesAreRejected) {
  // games 1, black 1, white 1: more wins than games.
  EXPECT_FALSE(
      DecodePositionValue(std::string("\x01\x01\x01\x00\x00", 5)).ok());
  // games 2, black 1, white 0, draws 0 -> one void.
  auto v = DecodePositionValue(std::string("\x02\x01\x00\x00\x00", 5));
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->reached.voids, 1u);
}

TEST(PositionValue, MalformedInputIsAnErrorNotACrash) {
  PositionValue v;
  v.reached.Add(rules::Winner::kWhite);
  v.continuations.push_back(
      Cont(5, rules::Winner::kWhite, GameId::SelfPlay(1, 2)));
  const std::string good = EncodePositionValue(v);
  for (size_t n = 0; n < good.size(); ++n) {
    EXPECT_FALSE(DecodePositionValue(good.substr(0, n)).ok()) << n;
  }
  EXPECT_FALSE(DecodePositionValue(good + "x").ok());
  EXPECT_FALSE(DecodePositionValue(std::string(40, '\xff')).ok());
}

TEST(PositionValue, MergeAddsCountsByMoveAndKeepsFirstExamples) {
  PositionValue a;
  a.reached.Add(rules::Winner::kBlack);
  a.continuations.push_back(
      Cont(7, rules::Winner::kBlack, GameId::SelfPlay(1, 1)));
  PositionValue b;
  b.reached.Add(rules::Winner::kWhite);
  b.continuations.push_back(
      Cont(2, rules::Winner::kWhite, GameId::SelfPlay(1, 2)));
  b.continuations.push_back(
      Cont(7, rules::Winner::kWhite, GameId::SelfPlay(1, 3)));
  MergePositionValues(&a, b);
  EXPECT_EQ(a.reached.games, 2u);
  EXPECT_EQ(a.reached.black, 1u);
  EXPECT_EQ(a.reached.white, 1u);
  ASSERT_EQ(a.continuations.size(), 2u);
  EXPECT_EQ(a.continuations[0].move, 2);
  const Continuation& seven = a.continuations[1];
  EXPECT_EQ(seven.outcome.games, 2u);
  EXPECT_EQ(seven.examples, (std::vector<GameId>{GameId::SelfPlay(1, 1),
                                                 GameId::SelfPlay(1, 3)}));
  // Examples are capped.
  for (uint64_t i = 10; i < 20; ++i) {
    PositionValue c;
    c.continuations.push_back(
        Cont(7, rules::Winner::kDraw, GameId::SelfPlay(2, i)));
    MergePositionValues(&a, c);
  }
  EXPECT_EQ(a.continuations[1].examples.size(),
            static_cast<size_t>(kMaxExamples));
  EXPECT_EQ(a.continuations[1].outcome.draws, 10u);
}

TEST(PositionValue, MergeIsAssociative) {
  std::vector<PositionValue> parts;
  for (int i = 0; i < 6; ++i) {
    PositionValue v;
    v.reached.Add(i % 2 ? rules::Winner::kBlack : rules::Winner::kWhite);
    v.continuations.push_back(Cont(static_cast<uint16_t>(i % 3),
                                   rules::Winner::kBlack,
                                   GameId::SelfPlay(1, i)));
    parts.push_back(v);
  }
  PositionValue left;
  for (const auto& p : parts) MergePositionValues(&left, p);
  PositionValue x, y;
  for (int i = 0; i < 3; ++i) MergePositionValues(&x, parts[i]);
  for (int i = 3; i < 6; ++i) MergePositionValues(&y, parts[i]);
  MergePositionValues(&x, y);
  EXPECT_EQ(left, x);
}

TEST(Aggregate, FromGameAndMerge) {
  GameFacts f;
  f.id = GameId::SelfPlay(1, 1);
  f.result.winner = rules::Winner::kBlack;
  f.result.reason = rules::EndReason::kScore;
  f.result.margin = 3.5;
  f.moves = 123;
  f.ko_captures = 2;
  rules::CycleRecord c;
  c.cls = rules::CycleClass::kTripleKo;
  c.outcome = rules::CycleOutcome::kNoResult;
  f.cycles = {c, c};
  qipu::v1::AggregateStats a = AggregateFromGame(f);
  EXPECT_EQ(a.outcomes().black_wins(), 1u);
  EXPECT_EQ(a.black_margin(3), 1u);
  EXPECT_EQ(a.length(12), 1u);
  EXPECT_EQ(a.ko_histogram(2), 1u);
  ASSERT_EQ(a.cycles_size(), 1);
  EXPECT_EQ(a.cycles(0).cycles(), 2u);
  EXPECT_EQ(a.cycles(0).games(), 1u);
  GameFacts g = f;
  g.id = GameId::SelfPlay(1, 2);
  g.result.winner = rules::Winner::kWhite;
  g.ko_captures = 0;
  g.cycles.clear();
  MergeAggregates(&a, AggregateFromGame(g));
  EXPECT_EQ(a.outcomes().games(), 2u);
  EXPECT_EQ(a.games_with_ko(), 1u);
  EXPECT_EQ(a.ko_captures(), 2u);
  EXPECT_EQ(a.ko_histogram(0), 1u);
  EXPECT_EQ(a.white_margin(3), 1u);
  EXPECT_EQ(a.total_moves(), 246u);
  EXPECT_EQ(a.results_with_cycle().games(), 1u);
  EXPECT_EQ(a.cycles(0).examples_size(), 1);
}

// The ingest committer accumulates a batch with AggregateBuilder; the
// result must equal merging each game's delta, as the merge operator
// would.
TEST(Aggregate, BuilderEqualsMergingEachGame) {
  std::mt19937_64 rng(7);
  const rules::CycleClass classes[] = {rules::CycleClass::kTripleKo,
                                       rules::CycleClass::kEternalLife,
                                       rules::CycleClass::kOther};
  const rules::CycleOutcome outcomes[] = {
      rules::CycleOutcome::kNoResult, rules::CycleOutcome::kDraw,
      rules::CycleOutcome::kPreventedCycleRule,
      rules::CycleOutcome::kContinued};
  AggregateBuilder builder;
  qipu::v1::AggregateStats merged;
  for (int i = 0; i < 500; ++i) {
    GameFacts f;
    f.id = GameId::SelfPlay(3, static_cast<uint64_t>(i));
    f.result.winner = static_cast<rules::Winner>(rng() % 4);
    f.result.reason = static_cast<rules::EndReason>(rng() % 4);
    f.result.margin = static_cast<double>(rng() % 90) + 0.5;
    f.moves = static_cast<int>(rng() % 500);
    f.ko_captures = static_cast<int>(rng() % 4 == 0 ? rng() % 9 : 0);
    const int cycles = rng() % 10 == 0 ? static_cast<int>(rng() % 3) + 1 : 0;
    for (int c = 0; c < cycles; ++c) {
      rules::CycleRecord r;
      r.cls = classes[rng() % 3];
      r.outcome = outcomes[rng() % 4];
      f.cycles.push_back(r);
    }
    builder.Add(f);
    MergeAggregates(&merged, AggregateFromGame(f));
  }
  EXPECT_EQ(builder.games(), 500u);
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equivalent(
      builder.Build(), merged))
      << builder.Build().DebugString() << "\nvs\n"
      << merged.DebugString();
}

}  // namespace
}  // namespace qipu::store
