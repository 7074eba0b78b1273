// ReplayRecord(): a historical record replayed as it was played. Hand-made
// records of each kind a game of record may hold -- a ko retaken at once,
// a sending-two-returning-one cycle under the art. 20 cycle rule, the same
// repetition under superko, a suicide, moves after two passes, an
// occupied point, a move the reader could not read -- and, over many
// seeded random and corrupted records under every rule variant, two
// oracles: a record the rules accept replays exactly as Replay() does,
// and any record leaves the board a plain Board::Play() of its moves up to
// the cut leaves (no rule consulted), breaking rules where Replay()
// refused.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rules/board.h"
#include "rules/coord.h"
#include "rules/game.h"
#include "rules/playout.h"
#include "rules/record.h"
#include "rules/replay.h"
#include "rules/rules.h"
#include "tests/rules/rule_variants.h"

namespace qipu::rules {
namespace {

using ::testing::HasSubstr;

// SGF-style point "ab" (x = a, y = b from the top).
Point P(const char* s) { return MakePoint(s[0] - 'a', s[1] - 'a'); }
Move B(const char* s) { return {Color::kBlack, P(s)}; }
Move W(const char* s) { return {Color::kWhite, P(s)}; }

// A 9x9 record of `moves` after a root setup of `black` and `white`.
GameRecord Record(std::vector<const char*> black,
                  std::vector<const char*> white, std::vector<Move> moves) {
  GameRecord r;
  r.width = r.height = 9;
  if (!black.empty() || !white.empty()) {
    SetupStep s;
    for (const char* p : black) s.black.push_back(P(p));
    for (const char* p : white) s.white.push_back(P(p));
    s.to_play = Color::kBlack;
    r.setup.push_back(s);
  }
  r.moves = std::move(moves);
  return r;
}

// Black sends two stones (aa next to its ba) into White's capture at ca,
// and takes one back at ba: the board after setup again (rules spec,
// sending two returning one). White's ab bb and Black's da cb db stay.
GameRecord SendingTwo() {
  return Record({"ba", "da", "cb", "db"}, {"ab", "bb"},
                {B("aa"), W("ca"), B("ba"), W("ee"), B("gg")});
}

TEST(ReplayRecord, ACycleTheCycleRuleForbidsIsPlayedAndNoted) {
  const GameRecord r = SendingTwo();
  // Replay() refuses move 3 under chinese rules (art. 20)...
  const auto strict = Replay(r, Rules{});
  ASSERT_TRUE(strict.ok()) << strict.status();
  EXPECT_FALSE(strict->legal);
  EXPECT_EQ(strict->illegal_move, 3);
  EXPECT_EQ(strict->illegal_reason, IllegalReason::kCycle);
  // ... the record plays it and goes on.
  const auto rep = ReplayRecord(r, Rules{});
  ASSERT_TRUE(rep.ok()) << rep.status();
  EXPECT_EQ(rep->played, 5);
  EXPECT_EQ(rep->cut.move, 0);
  ASSERT_EQ(rep->breaches.size(), 1u);
  const RuleBreach& b = rep->breaches[0];
  EXPECT_EQ(b.move, 3);
  EXPECT_EQ(b.played, B("ba"));
  EXPECT_EQ(b.rule, IllegalReason::kCycle);
  EXPECT_EQ(b.cycle.cls, CycleClass::kSendingTwoReturningOne);
  EXPECT_EQ(b.cycle.outcome, CycleOutcome::kContinuedInRecord);
  EXPECT_EQ(b.cycle.white_captures, 2);
  EXPECT_EQ(b.cycle.black_captures, 1);
  ASSERT_EQ(rep->cycles.size(), 1u);
  EXPECT_EQ(rep->cycles[0], b.cycle);
  EXPECT_FALSE(rep->legal);
  EXPECT_EQ(rep->illegal_move, 3);
  EXPECT_EQ(RuleBreachText(b, Rules{}, 9),
            "move 3 (B B9) completes a sending_two_returning_one cycle (from "
            "move 1), which the art. 20 cycle rule of chinese rules forbids");
  // Under positional superko the same move is a superko breach (not under
  // situational superko: Black moved in the first position, White moves
  // in its return).
  EXPECT_TRUE(ReplayRecord(r, PresetRules("chinese-superko").value())
                  ->breaches.empty());
  const Rules superko = PresetRules("tromp-taylor").value();
  const auto sk = ReplayRecord(r, superko);
  ASSERT_TRUE(sk.ok());
  ASSERT_EQ(sk->breaches.size(), 1u);
  EXPECT_EQ(sk->breaches[0].rule, IllegalReason::kSuperko);
  EXPECT_THAT(RuleBreachText(sk->breaches[0], superko, 9),
              HasSubstr("repeats an earlier position (a "
                        "sending_two_returning_one cycle from move 1), which "
                        "positional superko of tromp-taylor rules forbids"));
  // Played round twice: two breaches, two cycles.
  GameRecord twice = r;
  twice.moves = {B("aa"), W("ca"), B("ba"), W("ee"),
                 B("aa"), W("ca"), B("ba"), W("gg")};
  const auto t = ReplayRecord(twice, Rules{});
  ASSERT_TRUE(t.ok());
  ASSERT_EQ(t->breaches.size(), 2u);
  EXPECT_EQ(t->breaches[1].move, 7);
  EXPECT_EQ(t->cycles.size(), 2u);
  EXPECT_EQ(t->played, 8);
}

TEST(ReplayRecord, KoRetakeSuicideAndMovesAfterTheEndAreNoted) {
  // A basic ko: White's bb inside Black's ba ab bc, Black takes it at cb
  // inside White's ca db cc, White retakes at once.
  const GameRecord k2 = Record({"ba", "ab", "bc"}, {"ca", "db", "cc", "bb"},
                               {B("cb"), W("bb"), B("ee")});
  const auto strict = Replay(k2, Rules{});
  ASSERT_TRUE(strict.ok());
  ASSERT_FALSE(strict->legal);
  EXPECT_EQ(strict->illegal_reason, IllegalReason::kKo);
  EXPECT_EQ(strict->illegal_move, 2);
  const auto rk = ReplayRecord(k2, Rules{});
  ASSERT_TRUE(rk.ok());
  EXPECT_EQ(rk->played, 3);
  ASSERT_EQ(rk->breaches.size(), 1u);
  EXPECT_EQ(rk->breaches[0].rule, IllegalReason::kKo);
  EXPECT_EQ(rk->breaches[0].move, 2);
  EXPECT_EQ(RuleBreachText(rk->breaches[0], Rules{}, 9),
            "move 2 (W B8) retakes a ko at once, which the ko rule of chinese "
            "rules forbids");

  // A single-stone suicide at aa: the board is as before it.
  const GameRecord su = Record({}, {"ba", "ab"}, {B("aa"), W("ee")});
  const auto rs = ReplayRecord(su, Rules{});
  ASSERT_TRUE(rs.ok());
  ASSERT_EQ(rs->breaches.size(), 1u);
  EXPECT_EQ(rs->breaches[0].rule, IllegalReason::kSuicide);
  EXPECT_EQ(rs->played, 2);
  Game g(9, 9, Rules{});
  ASSERT_TRUE(ReplayRecordInto(su, Rules{}, &g).ok());
  EXPECT_EQ(g.board().at(P("aa")), Color::kEmpty);
  EXPECT_EQ(g.board().at(P("ee")), Color::kWhite);
  EXPECT_EQ(RuleBreachText(rs->breaches[0], Rules{}, 9),
            "move 1 (B A9) is a suicide, which the suicide rule of chinese "
            "rules forbids");

  // Two passes end the game; the record goes on (a dispute resumed).
  const GameRecord passes = Record({}, {},
                                   {B("cc"),
                                    {Color::kWhite, kPass},
                                    {Color::kBlack, kPass},
                                    W("gg"),
                                    B("ee")});
  const auto rp = ReplayRecord(passes, Rules{});
  ASSERT_TRUE(rp.ok());
  EXPECT_EQ(rp->played, 5);
  ASSERT_EQ(rp->breaches.size(), 1u);
  EXPECT_EQ(rp->breaches[0].rule, IllegalReason::kGameOver);
  EXPECT_EQ(rp->breaches[0].ended_by, EndReason::kScore);
  EXPECT_EQ(rp->breaches[0].ended_at, 3);
  EXPECT_EQ(rp->ended_at, 0);
  EXPECT_EQ(RuleBreachText(rp->breaches[0], Rules{}, 9),
            "move 4 (W G3) is played after chinese rules ended the game at "
            "move 3 (two passes)");
}

TEST(ReplayRecord, ABalancedCycleThatEndsTheGameContinuesInTheRecord) {
  // Pure ko fights under the cycle rule end the game at a balanced cycle;
  // random small-board games find them. A record that goes on after one
  // reopens the game: the cycle becomes continued-in-record.
  int found = 0;
  for (int i = 0; i < 400 && found < 5; ++i) {
    Rng rng(GameSeed(31, static_cast<uint64_t>(i)));
    Game played(4, 4, Rules{});
    FullPlayout(played, rng);
    if (played.result().reason != EndReason::kCycle) continue;
    ++found;
    GameRecord r;
    r.width = r.height = 4;
    r.moves = played.moves();
    const int ended = static_cast<int>(r.moves.size());
    r.moves.push_back({Opponent(r.moves.back().color), kPass});
    const auto rep = ReplayRecord(r, Rules{});
    ASSERT_TRUE(rep.ok());
    EXPECT_EQ(rep->played, ended + 1);
    ASSERT_FALSE(rep->breaches.empty());
    const RuleBreach& b = rep->breaches.back();
    EXPECT_EQ(b.rule, IllegalReason::kGameOver);
    EXPECT_EQ(b.ended_by, EndReason::kCycle);
    EXPECT_EQ(b.ended_at, ended);
    EXPECT_EQ(b.cycle.outcome, CycleOutcome::kContinuedInRecord);
    EXPECT_EQ(rep->cycles.back().outcome, CycleOutcome::kContinuedInRecord);
    EXPECT_THAT(RuleBreachText(b, Rules{}, 4),
                HasSubstr(absl::StrCat("ended the game at move ", ended)));
  }
  EXPECT_GT(found, 0);
}

TEST(ReplayRecord, AMoveTheBoardCannotTakeCutsTheRecord) {
  const GameRecord r =
      Record({}, {}, {B("cc"), W("gg"), B("ee"), W("cc"), B("ff")});
  const auto rep = ReplayRecord(r, Rules{});
  ASSERT_TRUE(rep.ok());
  EXPECT_EQ(rep->played, 3);
  EXPECT_TRUE(rep->breaches.empty());
  EXPECT_EQ(rep->cut.move, 4);
  EXPECT_EQ(rep->cut.reason, IllegalReason::kOccupied);
  EXPECT_EQ(rep->cut.played, W("cc"));
  EXPECT_EQ(RecordCutText(rep->cut, 9),
            "cut at move 4 (W C7): the point is occupied");
  // A move the reader could not read: the cut is the reader's.
  GameRecord unread = Record({}, {}, {B("cc"), W("gg")});
  unread.unread = {.move = 3,
                   .color = Color::kBlack,
                   .value = "jj",
                   .off_board = true,
                   .reason = "SGF point 'jj' is off the 9x9 board"};
  const auto ru = ReplayRecord(unread, Rules{});
  ASSERT_TRUE(ru.ok());
  EXPECT_EQ(ru->played, 2);
  EXPECT_EQ(ru->cut.move, 3);
  EXPECT_EQ(ru->cut.reason, IllegalReason::kOffBoard);
  EXPECT_EQ(ru->cut.value, "jj");
  EXPECT_EQ(RecordCutText(ru->cut, 9, unread.unread.reason),
            "cut at move 3 (B[jj]): SGF point 'jj' is off the 9x9 board");
}

// The board a plain Board::Play() of the first `n` moves leaves: no rule.
Board PlainBoard(const GameRecord& r, int n) {
  Board b(r.width, r.height);
  for (int k = 0; k < n; ++k) {
    const Move& m = r.moves[k];
    if (m.point == kPass) {
      b.Pass();
    } else {
      b.Play(m.point, m.color);
    }
  }
  return b;
}

TEST(ReplayRecord, RandomAndCorruptedRecordsUnderEveryRuleVariant) {
  const auto variants = AllRuleVariants();
  Game game(2, 2, Rules{});
  int legal = 0, noted = 0, cut = 0;
  for (int i = 0; i < 1200; ++i) {
    Rng rng(GameSeed(33, static_cast<uint64_t>(i)));
    const int w = 2 + static_cast<int>(rng.Below(6));
    const int h = i % 3 == 0 ? w : 2 + static_cast<int>(rng.Below(6));
    const auto& [name, rules] =
        variants[rng.Below(static_cast<uint32_t>(variants.size()))];
    // A game under other rules than the record's (so that it breaks
    // them), then corrupted now and then.
    const auto& other =
        variants[rng.Below(static_cast<uint32_t>(variants.size()))].second;
    Game played(w, h, other);
    FullPlayout(played, rng);
    GameRecord r;
    r.width = w;
    r.height = h;
    r.moves = played.moves();
    if (!r.moves.empty() && rng.Below(3) == 0) {
      const int k =
          static_cast<int>(rng.Below(static_cast<uint32_t>(r.moves.size())));
      r.moves[k].point =
          MakePoint(static_cast<int>(rng.Below(static_cast<uint32_t>(w))),
                    static_cast<int>(rng.Below(static_cast<uint32_t>(h))));
    }
    const std::string where = absl::StrCat(name, " ", w, "x", h, " ", i);
    const auto strict = Replay(r, rules);
    const auto rep = ReplayRecordInto(r, rules, &game);
    ASSERT_TRUE(strict.ok() && rep.ok()) << where;
    if (strict->legal && strict->played < static_cast<int>(r.moves.size())) {
      // The rules ended the game and the record went on: reopened.
      ASSERT_FALSE(rep->breaches.empty()) << where;
      EXPECT_EQ(rep->breaches[0].rule, IllegalReason::kGameOver) << where;
      EXPECT_EQ(rep->breaches[0].move, strict->played + 1) << where;
      EXPECT_EQ(rep->breaches[0].ended_at, strict->ended_at) << where;
      ++noted;
    } else if (strict->legal) {
      ++legal;
      // What the rules accept replays the same either way.
      EXPECT_TRUE(rep->legal) << where;
      EXPECT_TRUE(rep->breaches.empty()) << where;
      EXPECT_EQ(rep->played, strict->played) << where;
      EXPECT_EQ(rep->cycles, strict->cycles) << where;
      EXPECT_EQ(rep->ended_at, strict->ended_at) << where;
      EXPECT_EQ(rep->ko_captures, strict->ko_captures) << where;
    } else {
      EXPECT_FALSE(rep->legal) << where;
      EXPECT_EQ(rep->illegal_move, strict->illegal_move) << where;
      const IllegalReason why = strict->illegal_reason;
      if (why == IllegalReason::kOccupied || why == IllegalReason::kOffBoard) {
        EXPECT_EQ(rep->cut.move, strict->illegal_move) << where;
        EXPECT_TRUE(rep->breaches.empty()) << where;
      } else {
        ASSERT_FALSE(rep->breaches.empty()) << where;
        EXPECT_EQ(rep->breaches[0].move, strict->illegal_move) << where;
        EXPECT_EQ(rep->breaches[0].rule, why) << where;
      }
      noted += rep->cut.move == 0;
      cut += rep->cut.move != 0;
    }
    // Every move up to the cut is on the board, as a plain board has it.
    const int upto = rep->cut.move == 0 ? static_cast<int>(r.moves.size())
                                        : rep->cut.move - 1;
    EXPECT_EQ(rep->played, upto) << where;
    EXPECT_EQ(game.board().hash(), PlainBoard(r, upto).hash()) << where;
    if (rep->cut.move != 0) {
      EXPECT_NE(PlainBoard(r, upto).at(r.moves[upto].point), Color::kEmpty)
          << where;
    }
    for (const CycleRecord& c : rep->cycles) {
      EXPECT_NE(c.outcome, CycleOutcome::kPreventedSuperko) << where;
      EXPECT_NE(c.outcome, CycleOutcome::kPreventedCycleRule) << where;
    }
    if (HasFailure()) return;
  }
  EXPECT_GT(legal, 200);
  EXPECT_GT(noted, 100);
  EXPECT_GT(cut, 100);
}

}  // namespace
}  // namespace qipu::rules
