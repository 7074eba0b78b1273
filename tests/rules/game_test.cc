// Game: repetition and cycles (spec section 3, arts. 6 and 20). Real
// positions -- basic ko, triple ko, quadruple ko, eternal life (長生),
// sending two returning one (打二还一), a double ko with a pass -- drawn
// as diagrams and played move by move through Game::TryPlay under every ko
// setting (pure simple ko included: the cycle is recorded as continued and
// the game goes on), checking verdicts, cycle records and the end of the
// game.
#include "rules/game.h"

#include <vector>

#include "gtest/gtest.h"
#include "rules/diagram.h"
#include "rules/result.h"
#include "rules/rules.h"
#include "tests/rules/reference_board.h"  // PrintTo for the records

namespace qipu::rules {
namespace {

// A game set up with the position of `diagram`, `to_play` to move.
Game GameOf(const char* diagram, const Rules& rules,
            Color to_play = Color::kBlack) {
  auto board = BoardFromDiagram(diagram);
  EXPECT_TRUE(board.ok()) << board.status();
  std::vector<Point> black;
  std::vector<Point> white;
  for (int y = 0; y < board->height(); ++y) {
    for (int x = 0; x < board->width(); ++x) {
      if (board->at(At(x, y)) == Color::kBlack) black.push_back(At(x, y));
      if (board->at(At(x, y)) == Color::kWhite) white.push_back(At(x, y));
    }
  }
  Game game(board->width(), board->height(), rules);
  EXPECT_TRUE(game.ApplySetup(black, white, {}, to_play).ok());
  return game;
}

Rules WithKo(KoRule ko, CycleRule cycle = CycleRule::kNone) {
  Rules r;
  r.ko = ko;
  r.cycle = cycle;
  return r;
}

// Plays `moves` (board points or kPass) in order; each must be legal.
void PlayAll(Game& game, const std::vector<Point>& moves) {
  for (Point p : moves) {
    const MoveVerdict v = game.TryPlay(p);
    ASSERT_TRUE(v.legal()) << "move " << game.num_moves() + 1 << ": "
                           << IllegalReasonName(v.reason);
  }
}

// The basic ko of board_test.cc, with room around it.
constexpr char kBasicKo[] = R"(
  . X O . .
  X O . O .
  . X O . .
  . . . . .
  . . . . .
)";

TEST(Game, BasicKoRetakeIsKoNotACycle) {
  for (KoRule ko :
       {KoRule::kSimple, KoRule::kPositional, KoRule::kSituational}) {
    Game game = GameOf(kBasicKo, WithKo(ko, CycleRule::kNoResult));
    ASSERT_TRUE(game.TryPlay(At(2, 1)).legal());  // Black takes the ko
    EXPECT_EQ(game.ko_captures(), 1);
    EXPECT_EQ(game.captures(Color::kBlack), 1);
    const MoveVerdict v = game.TryPlay(At(1, 1));
    EXPECT_EQ(v.reason, IllegalReason::kKo) << KoRuleName(ko);
    // The immediate retake is the board's ko rule, not a cycle record.
    EXPECT_TRUE(game.cycles().empty()) << KoRuleName(ko);
    EXPECT_EQ(game.to_play(), Color::kWhite);
    EXPECT_FALSE(game.over());
  }
}

TEST(Game, KoMayBeRetakenAfterAnExchange) {
  Game game = GameOf(kBasicKo, Rules{});
  PlayAll(game, {At(2, 1), At(4, 4), At(4, 3)});  // ko, threat, answer
  const MoveVerdict v = game.TryPlay(At(1, 1));
  EXPECT_TRUE(v.legal());
  EXPECT_FALSE(v.completes_cycle);
  EXPECT_EQ(game.ko_captures(), 2);
  EXPECT_EQ(game.captures(Color::kWhite), 1);
}

TEST(Game, PassesNeverCountAsRepetitions) {
  // Under positional superko a pass leaves the board as it was: still
  // legal, and two passes end the game by counting, not as a cycle.
  Game game = GameOf(kBasicKo, WithKo(KoRule::kPositional));
  ASSERT_TRUE(game.TryPlay(At(2, 1)).legal());
  EXPECT_TRUE(game.Check(kPass).legal());
  ASSERT_TRUE(game.TryPlay(kPass).legal());
  EXPECT_TRUE(game.Check(Color::kBlack, kPass).legal());
  ASSERT_TRUE(game.TryPlay(kPass).legal());
  EXPECT_TRUE(game.over());
  EXPECT_EQ(game.result().reason, EndReason::kScore);
  EXPECT_TRUE(game.cycles().empty());

  // Under the cycle rule too, passes alone never make a cycle.
  Game chinese = GameOf(kBasicKo, Rules{});
  PlayAll(chinese, {kPass, At(4, 4), kPass});
  EXPECT_FALSE(chinese.over());
  EXPECT_TRUE(chinese.cycles().empty());
}

// Three kos between two living groups (eye space in columns 1 and 8):
// the upper and lower kos Black can take, the middle one White can.
constexpr char kTripleKo[] = R"(
  . X X X O O O .
  . X X O . O O .
  . X X X O O O .
  . X X X O O O .
  . X X . X O O .
  . X X X O O O .
  . X X X O O O .
  . X X O . O O .
  . X X X O O O .
)";

// Black takes ko 1, White ko 2, Black ko 3, White retakes ko 1, Black
// ko 2, White ko 3: the whole board is back, Black to move.
const std::vector<Point> kTripleKoCycle = {At(4, 1), At(3, 4), At(4, 7),
                                           At(3, 1), At(4, 4), At(3, 7)};

TEST(Game, TripleKoEndsWithNoResult) {
  Game game = GameOf(kTripleKo, Rules{});  // chinese
  for (int i = 0; i < 5; ++i) {
    const MoveVerdict v = game.TryPlay(kTripleKoCycle[i]);
    ASSERT_TRUE(v.legal()) << i;
    EXPECT_FALSE(v.completes_cycle) << i;
  }
  const MoveVerdict v = game.Check(kTripleKoCycle[5]);
  ASSERT_TRUE(v.legal());
  EXPECT_TRUE(v.completes_cycle);
  game.Play(game.to_play(), kTripleKoCycle[5], v);
  EXPECT_TRUE(game.over());
  EXPECT_EQ(game.result(), (GameResult{Winner::kNone, EndReason::kCycle, 0}));
  EXPECT_EQ(ResultToSgf(game.result()), "Void");
  EXPECT_EQ(ResultInStones(game.result()), "No result");
  EXPECT_EQ(game.ended_at(), 6);
  EXPECT_EQ(game.ko_captures(), 6);
  ASSERT_EQ(game.cycles().size(), 1u);
  const CycleRecord want{
      CycleClass::kTripleKo, CycleOutcome::kNoResult, 1, 6, 3, 3, At(3, 7)};
  EXPECT_EQ(game.cycles()[0], want);
  EXPECT_EQ(game.TryPlay(At(0, 0)).reason, IllegalReason::kGameOver);
}

TEST(Game, TripleKoOutcomeFollowsTheCycleRule) {
  Rules draw = WithKo(KoRule::kSimple, CycleRule::kDraw);
  Game drawn = GameOf(kTripleKo, draw);
  PlayAll(drawn, kTripleKoCycle);
  EXPECT_EQ(drawn.result(), (GameResult{Winner::kDraw, EndReason::kCycle, 0}));
  EXPECT_EQ(ResultToSgf(drawn.result()), "Draw");
  ASSERT_EQ(drawn.cycles().size(), 1u);
  EXPECT_EQ(drawn.cycles()[0].outcome, CycleOutcome::kDraw);

  Game replay = GameOf(kTripleKo, WithKo(KoRule::kSimple, CycleRule::kReplay));
  PlayAll(replay, kTripleKoCycle);
  EXPECT_EQ(replay.result().winner, Winner::kNone);
  EXPECT_EQ(replay.result().reason, EndReason::kCycle);
  ASSERT_EQ(replay.cycles().size(), 1u);
  EXPECT_EQ(replay.cycles()[0].outcome, CycleOutcome::kReplay);
  EXPECT_EQ(replay.cycles()[0].cls, CycleClass::kTripleKo);
}

TEST(Game, TripleKoUnderSuperkoIsPrevented) {
  for (KoRule ko : {KoRule::kPositional, KoRule::kSituational}) {
    Game game = GameOf(kTripleKo, WithKo(ko));
    PlayAll(game, {kTripleKoCycle.begin(), kTripleKoCycle.begin() + 5});
    // Check() reports the cycle without recording it; TryPlay records it.
    const MoveVerdict checked = game.Check(kTripleKoCycle[5]);
    EXPECT_EQ(checked.reason, IllegalReason::kSuperko);
    EXPECT_TRUE(game.cycles().empty());
    const MoveVerdict v = game.TryPlay(kTripleKoCycle[5]);
    EXPECT_EQ(v.reason, IllegalReason::kSuperko) << KoRuleName(ko);
    EXPECT_FALSE(v.completes_cycle);
    ASSERT_EQ(game.cycles().size(), 1u);
    const CycleRecord want{CycleClass::kTripleKo,
                           CycleOutcome::kPreventedSuperko,
                           1,
                           6,
                           3,
                           3,
                           At(3, 7)};
    EXPECT_EQ(game.cycles()[0], want);
    EXPECT_FALSE(game.over());
    EXPECT_EQ(game.num_moves(), 5);
    EXPECT_EQ(game.to_play(), Color::kWhite);
  }
}

TEST(Game, TripleKoWithoutCycleRuleRunsToTheMoveCap) {
  Rules r = WithKo(KoRule::kSimple, CycleRule::kNone);
  r.move_cap = 20;
  Game game = GameOf(kTripleKo, r);
  for (int i = 0; i < 20; ++i) {
    const MoveVerdict v = game.TryPlay(kTripleKoCycle[i % 6]);
    ASSERT_TRUE(v.legal()) << i;
    // From move 6 on every move recreates the position of six moves ago.
    EXPECT_EQ(v.completes_cycle, i >= 5) << i;
  }
  EXPECT_TRUE(game.over());
  EXPECT_EQ(game.result(),
            (GameResult{Winner::kNone, EndReason::kMoveLimit, 0}));
  // The loop played round and round is one cycle, recorded where it first
  // completed (moves 7 to 20 only go on repeating it).
  ASSERT_EQ(game.cycles().size(), 1u);
  const CycleRecord want{
      CycleClass::kTripleKo, CycleOutcome::kContinued, 1, 6, 3, 3, At(3, 7)};
  EXPECT_EQ(game.cycles()[0], want);
  EXPECT_EQ(game.ko_captures(), 20);
}

// Four kos: the first and third White-held, the second and fourth
// Black-held.
constexpr char kQuadrupleKo[] = R"(
  . X X X O O O .
  . X X O . O O .
  . X X X O O O .
  . X X X O O O .
  . X X . X O O .
  . X X X O O O .
  . X X X O O O .
  . X X O . O O .
  . X X X O O O .
  . X X X O O O .
  . X X . X O O .
  . X X X O O O .
)";

TEST(Game, QuadrupleKoEndsWithNoResult) {
  Game game = GameOf(kQuadrupleKo, Rules{});
  // Each ko taken and retaken once, no side ever retaking at once.
  const std::vector<Point> cycle = {At(4, 1), At(3, 4), At(4, 7),  At(3, 10),
                                    At(4, 4), At(3, 1), At(4, 10), At(3, 7)};
  PlayAll(game, cycle);
  EXPECT_TRUE(game.over());
  EXPECT_EQ(game.ended_at(), 8);
  EXPECT_EQ(game.result().reason, EndReason::kCycle);
  ASSERT_EQ(game.cycles().size(), 1u);
  const CycleRecord want{
      CycleClass::kQuadrupleKo, CycleOutcome::kNoResult, 1, 8, 4, 4, At(3, 7)};
  EXPECT_EQ(game.cycles()[0], want);
}

// Eternal life (長生), after Sensei's Library: Black's corner has a false
// eye. Black 1 at a (0,0) sacrifices two stones, White 2 at b (2,0) must
// take them, Black 3 at x (1,0) takes back two, White 4 throws in again at
// y (3,0): the position of the diagram, Black to move.
constexpr char kEternalLife[] = R"(
  . X . O X . .
  O O X X X . .
  . O X . . . .
  O O X . . . .
  . O X . . . .
)";

TEST(Game, EternalLifeEndsWithNoResult) {
  Game game = GameOf(kEternalLife, Rules{});
  PlayAll(game, {At(0, 0), At(2, 0), At(1, 0)});
  EXPECT_EQ(game.captures(Color::kWhite), 2);
  EXPECT_EQ(game.captures(Color::kBlack), 2);
  const MoveVerdict v = game.TryPlay(At(3, 0));
  ASSERT_TRUE(v.legal());
  EXPECT_TRUE(v.completes_cycle);
  EXPECT_TRUE(game.over());
  EXPECT_EQ(game.result(), (GameResult{Winner::kNone, EndReason::kCycle, 0}));
  ASSERT_EQ(game.cycles().size(), 1u);
  const CycleRecord want{
      CycleClass::kEternalLife, CycleOutcome::kNoResult, 1, 4, 2, 2, At(3, 0)};
  EXPECT_EQ(game.cycles()[0], want);
  EXPECT_EQ(game.ko_captures(), 0);
}

TEST(Game, EternalLifeUnderPositionalSuperkoIsPrevented) {
  Game game = GameOf(kEternalLife, *PresetRules("tromp-taylor"));
  PlayAll(game, {At(0, 0), At(2, 0), At(1, 0)});
  const MoveVerdict v = game.TryPlay(At(3, 0));
  EXPECT_EQ(v.reason, IllegalReason::kSuperko);
  ASSERT_EQ(game.cycles().size(), 1u);
  EXPECT_EQ(game.cycles()[0].cls, CycleClass::kEternalLife);
  EXPECT_EQ(game.cycles()[0].outcome, CycleOutcome::kPreventedSuperko);
  // White must play elsewhere; the game goes on.
  EXPECT_TRUE(game.TryPlay(At(6, 4)).legal());
  EXPECT_FALSE(game.over());
}

// Sending two returning one (打二还一): Black 1 at a (0,0) makes two
// stones in atari, White 2 at b (2,0) takes them, Black 3 at x (1,0)
// takes the one stone back. The board is the diagram again, but now with
// White to move: an odd cycle with captures 1 against 2.
constexpr char kSendingTwo[] = R"(
  . X . X . .
  O O X X . .
  . O X . . .
  O O X . . .
  . O X . . .
  . O X . . .
)";

TEST(Game, SendingTwoReturningOneIsIllegalUnderTheCycleRule) {
  Game game = GameOf(kSendingTwo, Rules{});
  PlayAll(game, {At(0, 0), At(2, 0)});
  EXPECT_EQ(game.captures(Color::kWhite), 2);
  const MoveVerdict v = game.TryPlay(At(1, 0));
  EXPECT_EQ(v.reason, IllegalReason::kCycle);
  EXPECT_FALSE(v.completes_cycle);
  ASSERT_EQ(game.cycles().size(), 1u);
  const CycleRecord want{CycleClass::kSendingTwoReturningOne,
                         CycleOutcome::kPreventedCycleRule,
                         1,
                         3,
                         1,
                         2,
                         At(1, 0)};
  EXPECT_EQ(game.cycles()[0], want);
  EXPECT_FALSE(game.over());
  EXPECT_EQ(game.to_play(), Color::kBlack);
  // Black plays elsewhere instead.
  EXPECT_TRUE(game.TryPlay(At(5, 5)).legal());
}

TEST(Game, SendingTwoReturningOneUnderSuperko) {
  // Positional superko forbids the return outright.
  Game positional = GameOf(kSendingTwo, WithKo(KoRule::kPositional));
  PlayAll(positional, {At(0, 0), At(2, 0)});
  const MoveVerdict v = positional.TryPlay(At(1, 0));
  EXPECT_EQ(v.reason, IllegalReason::kSuperko);
  ASSERT_EQ(positional.cycles().size(), 1u);
  EXPECT_EQ(positional.cycles()[0].cls, CycleClass::kSendingTwoReturningOne);
  EXPECT_EQ(positional.cycles()[0].outcome, CycleOutcome::kPreventedSuperko);

  // Situational superko allows it (White is to move now, Black was then),
  // but not sending two again after White passes: that situation, White
  // to move after Black 1, has occurred.
  Game situational = GameOf(kSendingTwo, WithKo(KoRule::kSituational));
  PlayAll(situational, {At(0, 0), At(2, 0), At(1, 0), kPass});
  EXPECT_TRUE(situational.cycles().empty());
  const MoveVerdict again = situational.TryPlay(At(0, 0));
  EXPECT_EQ(again.reason, IllegalReason::kSuperko);
  ASSERT_EQ(situational.cycles().size(), 1u);
  const CycleRecord want{CycleClass::kSendingTwoReturningOne,
                         CycleOutcome::kPreventedSuperko,
                         2,
                         4,
                         1,
                         2,
                         At(0, 0)};
  EXPECT_EQ(situational.cycles()[0], want);

  // Plain simple ko has no objection at all: the return is recorded as a
  // continued cycle; sending two again after White's pass goes on
  // repeating the same cycle, which is not recorded again.
  Game simple = GameOf(kSendingTwo, WithKo(KoRule::kSimple));
  PlayAll(simple, {At(0, 0), At(2, 0), At(1, 0), kPass, At(0, 0), At(2, 0)});
  ASSERT_EQ(simple.cycles().size(), 1u);
  EXPECT_EQ(simple.cycles()[0].cls, CycleClass::kSendingTwoReturningOne);
  EXPECT_EQ(simple.cycles()[0].outcome, CycleOutcome::kContinued);
  EXPECT_FALSE(simple.over());
}

// kSendingTwo with room on the right for White's moves elsewhere.
constexpr char kSendingTwoWide[] = R"(
  . X . X . . . . .
  O O X X . . . . .
  . O X . . . . . .
  O O X . . . . . .
  . O X . . . . . .
  . O X . . . . . .
)";

TEST(Game, SendingTwoReturningOneUnderPureSimpleKoIsRecordedAndPlayedOn) {
  // --cycle none: simple ko and no cycle rule.
  Game game = GameOf(kSendingTwoWide, WithKo(KoRule::kSimple));
  PlayAll(game, {At(0, 0), At(2, 0)});
  EXPECT_TRUE(game.cycles().empty());
  // Black 3 takes one back: the board of the diagram again.
  const MoveVerdict v = game.TryPlay(At(1, 0));
  ASSERT_TRUE(v.legal());
  EXPECT_TRUE(v.completes_cycle);
  const CycleRecord first{CycleClass::kSendingTwoReturningOne,
                          CycleOutcome::kContinued,
                          1,
                          3,
                          1,
                          2,
                          At(1, 0)};
  EXPECT_EQ(v.cycle, first);
  ASSERT_EQ(game.cycles().size(), 1u);
  EXPECT_EQ(game.cycles()[0], first);
  EXPECT_FALSE(game.over());
  EXPECT_EQ(game.to_play(), Color::kWhite);
  EXPECT_EQ(game.captures(Color::kBlack), 1);
  EXPECT_EQ(game.captures(Color::kWhite), 2);

  // White passes and the loop is played again: every move recreates an
  // earlier position, the same repetition going on -- not a new record.
  PlayAll(game, {kPass, At(0, 0), At(2, 0), At(1, 0)});
  EXPECT_EQ(game.cycles().size(), 1u);

  // White 8 plays elsewhere: a new position ends the repetition. Sending
  // two and returning one from there is a new cycle (moves 9 to 11).
  PlayAll(game, {At(8, 5), At(0, 0), At(2, 0)});
  EXPECT_EQ(game.cycles().size(), 1u);
  PlayAll(game, {At(1, 0)});
  ASSERT_EQ(game.cycles().size(), 2u);
  const CycleRecord second{CycleClass::kSendingTwoReturningOne,
                           CycleOutcome::kContinued,
                           9,
                           3,
                           1,
                           2,
                           At(1, 0)};
  EXPECT_EQ(game.cycles()[1], second);
  EXPECT_FALSE(game.over());
  EXPECT_EQ(game.num_moves(), 11);

  // Check() reports a repetition without recording it; a pass carries
  // the repetition on, so playing it records nothing either.
  PlayAll(game, {kPass});
  const MoveVerdict checked = game.Check(At(0, 0));
  EXPECT_TRUE(checked.legal());
  EXPECT_TRUE(checked.completes_cycle);
  EXPECT_EQ(checked.cycle.outcome, CycleOutcome::kContinued);
  EXPECT_EQ(game.cycles().size(), 2u);
  PlayAll(game, {At(0, 0)});
  EXPECT_EQ(game.cycles().size(), 2u);
}

TEST(Game, ContinuedCyclesPerGameAreCapped) {
  // Ten separate repetitions (each after a new White move elsewhere): the
  // first kMaxContinuedCycles are recorded, the game goes on regardless.
  Game game = GameOf(kSendingTwoWide, WithKo(KoRule::kSimple));
  const int rounds = kMaxContinuedCycles + 2;
  for (int i = 0; i < rounds; ++i) {
    PlayAll(game, {At(0, 0), At(2, 0), At(1, 0), At(6 + i % 3, i / 3)});
    ASSERT_FALSE(game.over()) << i;
  }
  ASSERT_EQ(static_cast<int>(game.cycles().size()), kMaxContinuedCycles);
  for (int i = 0; i < kMaxContinuedCycles; ++i) {
    EXPECT_EQ(game.cycles()[i].first_move, 4 * i + 1) << i;
    EXPECT_EQ(game.cycles()[i].outcome, CycleOutcome::kContinued) << i;
  }
  EXPECT_EQ(game.num_moves(), 4 * rounds);
}

// Two kos, one for each side, and a pass: Black takes ko 1, White ko 2,
// Black passes, White retakes ko 1, Black retakes ko 2 -- the board of
// the start with White to move, captures 2 against 2.
constexpr char kDoubleKo[] = R"(
  . X X X O O O .
  . X X O . O O .
  . X X X O O O .
  . X X X O O O .
  . X X . X O O .
  . X X X O O O .
)";

TEST(Game, DoubleKoWithAPassIsABalancedOtherCycle) {
  const std::vector<Point> moves = {At(4, 1), At(3, 4), kPass, At(3, 1),
                                    At(4, 4)};
  Game game = GameOf(kDoubleKo, Rules{});
  PlayAll(game, moves);
  EXPECT_TRUE(game.over());
  ASSERT_EQ(game.cycles().size(), 1u);
  const CycleRecord want{
      CycleClass::kOther, CycleOutcome::kNoResult, 1, 5, 2, 2, At(4, 4)};
  EXPECT_EQ(game.cycles()[0], want);

  // The same board with the other player to move: a new situation.
  Game situational = GameOf(kDoubleKo, WithKo(KoRule::kSituational));
  PlayAll(situational, moves);
  EXPECT_FALSE(situational.over());
  EXPECT_TRUE(situational.cycles().empty());

  Game positional = GameOf(kDoubleKo, WithKo(KoRule::kPositional));
  PlayAll(positional, {moves.begin(), moves.begin() + 4});
  EXPECT_EQ(positional.TryPlay(At(4, 4)).reason, IllegalReason::kSuperko);
}

TEST(Game, SuicidedStonesCountAsCapturesInCycles) {
  // 2x2, multi-stone suicide allowed: White fills the board while Black
  // passes, and the last stone removes all four -- the empty board again.
  // The four stones count for Black, as they do in captures(): the cycle
  // is unbalanced (Black 4, White 0; board moves 0 against 4).
  const std::vector<Point> moves = {kPass, At(0, 0), kPass, At(1, 0),
                                    kPass, At(0, 1), kPass};
  Game tt(2, 2, *PresetRules("tromp-taylor"));
  PlayAll(tt, moves);
  const MoveVerdict v = tt.TryPlay(At(1, 1));
  EXPECT_EQ(v.reason, IllegalReason::kSuperko);
  // The most recent empty board is the one after Black's first pass.
  const CycleRecord want{CycleClass::kOther,
                         CycleOutcome::kPreventedSuperko,
                         2,
                         7,
                         4,
                         0,
                         At(1, 1)};
  ASSERT_EQ(tt.cycles().size(), 1u);
  EXPECT_EQ(tt.cycles()[0], want);

  // Under the cycle rule the unbalanced cycle is illegal; it must not end
  // the game as a balanced one.
  Rules chinese_suicide;
  chinese_suicide.multi_stone_suicide = true;
  Game game(2, 2, chinese_suicide);
  PlayAll(game, moves);
  const MoveVerdict c = game.TryPlay(At(1, 1));
  EXPECT_EQ(c.reason, IllegalReason::kCycle);
  EXPECT_FALSE(c.completes_cycle);
  EXPECT_FALSE(game.over());

  // Without any repetition rule the suicide is simply played, and the
  // unbalanced cycle recorded as continued.
  Rules simple = chinese_suicide;
  simple.cycle = CycleRule::kNone;
  Game plain(2, 2, simple);
  PlayAll(plain, moves);
  ASSERT_TRUE(plain.TryPlay(At(1, 1)).legal());
  EXPECT_EQ(plain.captures(Color::kBlack), 4);
  EXPECT_EQ(plain.board().num_empty(), 4);
  ASSERT_EQ(plain.cycles().size(), 1u);
  CycleRecord continued = want;
  continued.outcome = CycleOutcome::kContinued;
  EXPECT_EQ(plain.cycles()[0], continued);
  EXPECT_FALSE(plain.over());
}

TEST(Game, SetupRestartsTheRepetitionHistory) {
  // Black takes the ko, then a threat and its answer are played; a setup
  // removes those two stones. White's retake now recreates the first
  // position of the game -- but the history restarts at a setup, so under
  // positional superko it is legal.
  Game game = GameOf(kBasicKo, WithKo(KoRule::kPositional));
  PlayAll(game, {At(2, 1), At(4, 4), At(4, 3)});
  ASSERT_TRUE(
      game.ApplySetup({}, {}, {At(4, 4), At(4, 3)}, Color::kEmpty).ok());
  EXPECT_EQ(game.to_play(), Color::kWhite);
  const MoveVerdict v = game.TryPlay(At(1, 1));
  EXPECT_TRUE(v.legal()) << IllegalReasonName(v.reason);
  EXPECT_TRUE(game.cycles().empty());

  // A failed setup changes nothing.
  EXPECT_FALSE(game.ApplySetup({At(7, 7)}, {}, {}, Color::kWhite).ok());
  EXPECT_FALSE(game.ApplySetup({}, {At(0, 0)}, {}, Color::kWhite).ok());
  EXPECT_EQ(game.to_play(), Color::kBlack);
  EXPECT_EQ(game.board().at(At(0, 0)), Color::kEmpty);
}

TEST(Game, EveryCycleClassIsRecordedUnderPureSimpleKo) {
  struct Case {
    const char* diagram;
    std::vector<Point> moves;
    CycleRecord want;
  };
  const Case cases[] = {
      {kTripleKo,
       kTripleKoCycle,
       {CycleClass::kTripleKo, CycleOutcome::kContinued, 1, 6, 3, 3, At(3, 7)}},
      {kQuadrupleKo,
       {At(4, 1), At(3, 4), At(4, 7), At(3, 10), At(4, 4), At(3, 1), At(4, 10),
        At(3, 7)},
       {CycleClass::kQuadrupleKo, CycleOutcome::kContinued, 1, 8, 4, 4,
        At(3, 7)}},
      {kEternalLife,
       {At(0, 0), At(2, 0), At(1, 0), At(3, 0)},
       {CycleClass::kEternalLife, CycleOutcome::kContinued, 1, 4, 2, 2,
        At(3, 0)}},
      {kSendingTwo,
       {At(0, 0), At(2, 0), At(1, 0)},
       {CycleClass::kSendingTwoReturningOne, CycleOutcome::kContinued, 1, 3, 1,
        2, At(1, 0)}},
      {kDoubleKo,
       {At(4, 1), At(3, 4), kPass, At(3, 1), At(4, 4)},
       {CycleClass::kOther, CycleOutcome::kContinued, 1, 5, 2, 2, At(4, 4)}},
  };
  for (const Case& c : cases) {
    Game game = GameOf(c.diagram, WithKo(KoRule::kSimple));
    PlayAll(game, c.moves);
    ASSERT_EQ(game.cycles().size(), 1u) << CycleClassName(c.want.cls);
    EXPECT_EQ(game.cycles()[0], c.want);
    EXPECT_FALSE(game.over()) << CycleClassName(c.want.cls);
    EXPECT_EQ(CycleOutcomeName(game.cycles()[0].outcome),
              std::string("continued"));
  }
}

}  // namespace
}  // namespace qipu::rules
