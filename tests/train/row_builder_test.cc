// RowBuilder: planes and targets of hand-made positions (liberties, a basic
// ko, a sending-two-returning-one under superko / the cycle rule / pure
// simple ko, the last moves, area, a handicap game, a 9x9 game padded to
// 19), the symmetries applied consistently to every plane and target, and
// the seeded sampling.
#include "train/row_builder.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rules/diagram.h"
#include "rules/scoring.h"
#include "rules/symmetry.h"
#include "train/area_map.h"
#include "train/row_layout.h"

namespace qipu::train {
namespace {

using rules::At;
using rules::Color;
using rules::kPass;
using rules::Move;
using rules::Point;

// A game starting from the position of `diagram` (`to_play` to move) with
// `moves` alternating from `to_play`.
TrainingGame GameFrom(const char* diagram, const rules::Rules& rules,
                      const std::vector<Point>& moves,
                      Color to_play = Color::kBlack) {
  TrainingGame g;
  absl::StatusOr<rules::Board> board = rules::BoardFromDiagram(diagram);
  EXPECT_TRUE(board.ok()) << board.status();
  g.record.width = board->width();
  g.record.height = board->height();
  rules::SetupStep step;
  for (int y = 0; y < board->height(); ++y) {
    for (int x = 0; x < board->width(); ++x) {
      if (board->at(At(x, y)) == Color::kBlack) step.black.push_back(At(x, y));
      if (board->at(At(x, y)) == Color::kWhite) step.white.push_back(At(x, y));
    }
  }
  step.to_play = to_play;
  g.record.setup.push_back(step);
  Color c = to_play;
  for (Point p : moves) {
    g.record.moves.push_back(Move{c, p});
    c = rules::Opponent(c);
  }
  g.rules = rules;
  g.result = {rules::Winner::kBlack, rules::EndReason::kResign, 0};
  g.id = store::GameId::SelfPlay(7, 3);
  return g;
}

rules::Rules WithKo(rules::KoRule ko, rules::CycleRule cycle) {
  rules::Rules r;
  r.ko = ko;
  r.cycle = cycle;
  return r;
}

// Rows of every position of `game` under `options`.
RowBatch Rows(const TrainingGame& game, RowOptions options = {}) {
  RowBatch batch(options.pos_len);
  RowBuilder builder(options);
  absl::StatusOr<GameRowsInfo> info = builder.AddGame(game, &batch);
  EXPECT_TRUE(info.ok()) << info.status();
  return batch;
}

// The points (as "x,y") whose bit is set in channel c of row r.
std::set<std::string> Plane(const RowBatch& b, int r, int c) {
  std::set<std::string> out;
  for (int i = 0; i < b.shape().area(); ++i) {
    if (b.InputBit(r, c, i)) {
      out.insert(std::to_string(i % b.pos_len()) + "," +
                 std::to_string(i / b.pos_len()));
    }
  }
  return out;
}

using Points = std::set<std::string>;

constexpr char kLiberties[] = R"(
  X . O O .
  X . O . .
  . . . . .
  . X X . .
  . . . O X
)";

TEST(RowBuilder, StonesAndLibertiesFromTheSideToMove) {
  // White to move: own = white.
  const TrainingGame g =
      GameFrom(kLiberties, rules::Rules{}, {At(2, 2)}, Color::kWhite);
  const RowBatch b = Rows(g, RowOptions{.pos_len = 5});
  ASSERT_EQ(b.rows(), 1);
  EXPECT_EQ(Plane(b, 0, bin::kOwnStone), (Points{"2,0", "3,0", "2,1", "3,4"}));
  EXPECT_EQ(Plane(b, 0, bin::kOpponentStone),
            (Points{"0,0", "0,1", "1,3", "2,3", "4,4"}));
  // X (4,4) has one liberty, O (3,4) two, X (0,0)-(0,1) exactly three;
  // the other chains five and six, in no liberty plane (KataGo's plane 5
  // is exactly three).
  EXPECT_EQ(Plane(b, 0, bin::kLiberties1), (Points{"4,4"}));
  EXPECT_EQ(Plane(b, 0, bin::kLiberties2), (Points{"3,4"}));
  EXPECT_EQ(Plane(b, 0, bin::kLiberties3), (Points{"0,0", "0,1"}));
  EXPECT_EQ(Plane(b, 0, bin::kOnBoard).size(), 25u);
}

constexpr char kBasicKo[] = R"(
  . X O . .
  X O . O .
  . X O . .
  . . . . .
  . . . . .
)";

TEST(RowBuilder, KoBanIsTheSimpleKoPointUnderEveryKoRule) {
  for (rules::KoRule ko : {rules::KoRule::kSimple, rules::KoRule::kPositional,
                           rules::KoRule::kSituational}) {
    // Black takes the ko, White plays elsewhere, Black answers.
    const TrainingGame g =
        GameFrom(kBasicKo, WithKo(ko, rules::CycleRule::kNoResult),
                 {At(2, 1), At(4, 4), At(4, 3)});
    const RowBatch b = Rows(g, RowOptions{.pos_len = 5});
    ASSERT_EQ(b.rows(), 3) << rules::KoRuleName(ko);
    EXPECT_EQ(Plane(b, 0, bin::kKoBan), Points{});
    // White may not retake at once.
    EXPECT_EQ(Plane(b, 1, bin::kKoBan), (Points{"1,1"}));
    EXPECT_EQ(Plane(b, 2, bin::kKoBan), Points{});
  }
}

constexpr char kSendingTwo[] = R"(
  . X . X . .
  O O X X . .
  . O X . . .
  O O X . . .
  . O X . . .
  . O X . . .
)";

TEST(RowBuilder, KoBanUnderSuperkoAndTheCycleRule) {
  // Black sends two, White takes them; may Black take one back at (1, 0)?
  const std::vector<Point> moves = {At(0, 0), At(2, 0), At(5, 5), At(5, 4)};
  struct Case {
    rules::KoRule ko;
    rules::CycleRule cycle;
    Points banned;
  };
  const Case cases[] = {
      // Positional superko: the return repeats the board.
      {rules::KoRule::kPositional, rules::CycleRule::kNone, {"1,0"}},
      // Situational: the earlier board had White to move, not Black.
      {rules::KoRule::kSituational, rules::CycleRule::kNone, {}},
      // Art. 20: an unbalanced cycle is forbidden.
      {rules::KoRule::kSimple, rules::CycleRule::kNoResult, {"1,0"}},
      // Pure simple ko: legal (two stones were taken, no ko point).
      {rules::KoRule::kSimple, rules::CycleRule::kNone, {}},
  };
  for (const Case& c : cases) {
    const TrainingGame g = GameFrom(kSendingTwo, WithKo(c.ko, c.cycle), moves);
    const RowBatch b = Rows(g, RowOptions{.pos_len = 6});
    ASSERT_EQ(b.rows(), 4);
    EXPECT_EQ(Plane(b, 2, bin::kKoBan), c.banned)
        << rules::KoRuleName(c.ko) << " " << rules::CycleRuleName(c.cycle);
    EXPECT_EQ(b.global_inputs()[2 * kNumGlobalInputs + gin::kSuperko],
              c.ko == rules::KoRule::kSimple ? 0.0f : 1.0f);
    const float* q = &b.qipu_inputs()[2 * kNumQipuGlobalInputs];
    EXPECT_EQ(q[qin::kCycleRule],
              c.cycle == rules::CycleRule::kNone ? 0.0f : 1.0f);
  }
}

constexpr char kEmpty5[] = R"(
  . . . . .
  . . . . .
  . . . . .
  . . . . .
  . . . . .
)";

TEST(RowBuilder, LastFiveMovesAndPasses) {
  const TrainingGame g = GameFrom(
      kEmpty5, rules::Rules{},
      {At(0, 0), At(1, 1), kPass, At(2, 2), At(3, 3), At(4, 4), At(0, 4)});
  const RowBatch b = Rows(g, RowOptions{.pos_len = 5});
  ASSERT_EQ(b.rows(), 7);
  // Before Black's 7th move: W (4,4), B (3,3), W (2,2), B pass, W (1,1).
  EXPECT_EQ(Plane(b, 6, bin::kLastMove1 + 0), (Points{"4,4"}));
  EXPECT_EQ(Plane(b, 6, bin::kLastMove1 + 1), (Points{"3,3"}));
  EXPECT_EQ(Plane(b, 6, bin::kLastMove1 + 2), (Points{"2,2"}));
  EXPECT_EQ(Plane(b, 6, bin::kLastMove1 + 3), Points{});
  EXPECT_EQ(Plane(b, 6, bin::kLastMove1 + 4), (Points{"1,1"}));
  const float* gi = &b.global_inputs()[6 * kNumGlobalInputs];
  EXPECT_EQ(gi[gin::kPass1 + 3], 1.0f);
  EXPECT_EQ(gi[gin::kPass1 + 0] + gi[gin::kPass1 + 1] + gi[gin::kPass1 + 2] +
                gi[gin::kPass1 + 4],
            0.0f);
  EXPECT_EQ(gi[gin::kPassEndsGame], 0.0f);
  // After Black's pass a pass by White would end the game.
  const float* gi3 = &b.global_inputs()[3 * kNumGlobalInputs];
  EXPECT_EQ(gi3[gin::kPass1], 1.0f);
  EXPECT_EQ(gi3[gin::kPassEndsGame], 1.0f);
  // The first row has no history at all.
  for (int i = 0; i < bin::kNumLastMoves; ++i) {
    EXPECT_EQ(Plane(b, 0, bin::kLastMove1 + i), Points{});
  }
  // Turn and moves played.
  EXPECT_EQ(b.global_targets()[6 * kNumGlobalTargets + gtg::kTurn], 6.0f);
  EXPECT_EQ(b.qipu_inputs()[6 * kNumQipuGlobalInputs + qin::kMovesPlayed],
            6.0f);
}

TEST(RowBuilder, HistoryStartsAfterASetup) {
  TrainingGame g = GameFrom(kEmpty5, rules::Rules{},
                            {At(0, 0), At(1, 1), At(2, 2), At(3, 3)});
  rules::SetupStep later;
  later.before_move = 2;
  later.black = {At(4, 0)};
  g.record.setup.push_back(later);
  const RowBatch b = Rows(g, RowOptions{.pos_len = 5});
  ASSERT_EQ(b.rows(), 4);
  EXPECT_EQ(Plane(b, 1, bin::kLastMove1), (Points{"0,0"}));
  EXPECT_EQ(Plane(b, 2, bin::kLastMove1), Points{});
  EXPECT_EQ(Plane(b, 3, bin::kLastMove1), (Points{"2,2"}));
  EXPECT_EQ(Plane(b, 3, bin::kLastMove1 + 1), Points{});
  EXPECT_EQ(Plane(b, 3, bin::kOpponentStone), (Points{"0,0", "2,2", "4,0"}));
}

TEST(AreaMap, PointsAddUpToTheAreaCount) {
  constexpr char kDiagram[] = R"(
    . X O . .
    X X O . .
    . . O O O
    X X X O .
    . . X O .
  )";
  absl::StatusOr<rules::Board> board = rules::BoardFromDiagram(kDiagram);
  ASSERT_TRUE(board.ok());
  AreaMap area;
  ComputeArea(*board, &area);
  int black = 0;
  int white = 0;
  int dame = 0;
  for (int y = 0; y < 5; ++y) {
    for (int x = 0; x < 5; ++x) {
      const Color c = area[At(x, y)];
      black += c == Color::kBlack;
      white += c == Color::kWhite;
      dame += c == Color::kEmpty;
    }
  }
  const rules::AreaCount count =
      rules::CountArea(*board, rules::DameRule::kHalf);
  EXPECT_EQ(black, count.black_stones + count.black_territory);
  EXPECT_EQ(white, count.white_stones + count.white_territory);
  EXPECT_EQ(dame, count.dame);
  EXPECT_EQ(area[At(0, 0)], Color::kBlack);
  EXPECT_EQ(area[At(4, 4)], Color::kWhite);
  // (0,2) and (1,2) reach both colours: dame.
  EXPECT_EQ(area[At(0, 2)], Color::kEmpty);
  EXPECT_EQ(dame, 2);
}

constexpr char kColumns[] = R"(
  . X . O .
  . X . O .
  . X . O .
  . X . O .
  . X . O .
)";

TEST(RowBuilder, AreaPlanesLeaveDameToNobody) {
  const TrainingGame g =
      GameFrom(kColumns, rules::Rules{}, {At(0, 0)}, Color::kWhite);
  const RowBatch b = Rows(g, RowOptions{.pos_len = 5});
  ASSERT_EQ(b.rows(), 1);
  // White to move: own area is columns 3-4, the opponent's 0-1; column 2
  // is dame (half a point each under dame=half: in neither plane).
  EXPECT_EQ(Plane(b, 0, bin::kOwnArea).size(), 10u);
  EXPECT_TRUE(Plane(b, 0, bin::kOwnArea).count("4,2"));
  EXPECT_EQ(Plane(b, 0, bin::kOpponentArea).size(), 10u);
  EXPECT_TRUE(Plane(b, 0, bin::kOpponentArea).count("0,2"));
  EXPECT_FALSE(Plane(b, 0, bin::kOwnArea).count("2,2"));
  EXPECT_FALSE(Plane(b, 0, bin::kOpponentArea).count("2,2"));
}

constexpr char kFinal[] = R"(
  . X O . .
  . X O . .
  . X O . .
  . X O . .
  . X O . .
)";

// kFinal played out: Black 10 points, White 15, komi 7.5: W+12.5.
TrainingGame CountedGame() {
  TrainingGame g =
      GameFrom(kFinal, rules::Rules{},
               {At(0, 0), At(4, 4), At(0, 2), At(3, 0), kPass, kPass});
  g.result = {rules::Winner::kWhite, rules::EndReason::kScore, 12.5};
  return g;
}

TEST(RowBuilder, PolicyTargetsAreOneHotWithPassLast) {
  const RowBatch b = Rows(CountedGame(), RowOptions{.pos_len = 7});
  ASSERT_EQ(b.rows(), 6);
  const int size = b.shape().policy_size();
  ASSERT_EQ(size, 50);
  auto policy = [&](int r, int c) {
    std::vector<int> nonzero;
    for (int i = 0; i < size; ++i) {
      const int16_t v = b.policy_targets()[(r * 2 + c) * size + i];
      if (v != 0) nonzero.push_back(i * 100 + v);
    }
    return nonzero;
  };
  // Move (4, 4) has index 4 * 7 + 4 = 32 (value 1); the pass is 49.
  EXPECT_EQ(policy(0, 0), (std::vector<int>{0 * 100 + 1}));
  EXPECT_EQ(policy(0, 1), (std::vector<int>{32 * 100 + 1}));
  EXPECT_EQ(policy(1, 0), (std::vector<int>{32 * 100 + 1}));
  EXPECT_EQ(policy(4, 0), (std::vector<int>{49 * 100 + 1}));
  EXPECT_EQ(policy(4, 1), (std::vector<int>{49 * 100 + 1}));
  // The last row has no next move: uniform, weight 0.
  EXPECT_EQ(policy(5, 1).size(), static_cast<size_t>(size));
  EXPECT_EQ(b.global_targets()[5 * kNumGlobalTargets + gtg::kNextPolicyWeight],
            0.0f);
  EXPECT_EQ(b.global_targets()[4 * kNumGlobalTargets + gtg::kNextPolicyWeight],
            1.0f);
}

void ExpectTransformed(const RowBatch& plain, const RowBatch& t, int r,
                       int width, int height);

TEST(RowBuilder, SearchedMovesTargetTheirVisits) {
  TrainingGame g = CountedGame();
  // Move 1 (White's 4,4) was searched: 30 visits there, 12 at (1,1), 3 on
  // the pass; a count above int16 is capped.
  g.searches = {{1, {{At(4, 4), 30}, {At(1, 1), 12}, {kPass, 3}}},
                {3, {{At(3, 0), 70000}}}};
  const RowBatch b = Rows(g, RowOptions{.pos_len = 7});
  const int size = b.shape().policy_size();
  auto at = [&](int r, int i) {
    return b.policy_targets()[(r * 2) * size + i];
  };
  EXPECT_EQ(at(1, 4 * 7 + 4), 30);
  EXPECT_EQ(at(1, 1 * 7 + 1), 12);
  EXPECT_EQ(at(1, 49), 3);
  int nonzero = 0;
  for (int i = 0; i < size; ++i) nonzero += at(1, i) != 0;
  EXPECT_EQ(nonzero, 3);
  EXPECT_EQ(at(3, 0 * 7 + 3), 32767);
  // Unsearched moves stay one-hot; the next-move channel always is.
  EXPECT_EQ(at(0, 0), 1);
  EXPECT_EQ(b.policy_targets()[(0 * 2 + 1) * size + 32], 1);
  // Under a symmetry the visits move with the board.
  g.id = store::GameId::SelfPlay(7, 5);
  const RowBatch t = Rows(g, RowOptions{.pos_len = 7, .symmetries = 8});
  const RowBatch plain = Rows(g, RowOptions{.pos_len = 7});
  for (int r = 0; r < t.rows(); ++r) ExpectTransformed(plain, t, r, 5, 5);
}

TEST(RowBuilder, ValueScoreAndOwnershipFromTheSideToMove) {
  const RowBatch b = Rows(CountedGame(), RowOptions{.pos_len = 5});
  ASSERT_EQ(b.rows(), 6);
  const int area = 25;
  const int mid = area + kExtraScoreRadius;
  for (int r = 0; r < 2; ++r) {
    const float* gt = &b.global_targets()[r * kNumGlobalTargets];
    const bool white = r == 1;
    EXPECT_EQ(gt[gtg::kWin], white ? 1.0f : 0.0f);
    EXPECT_EQ(gt[gtg::kLoss], white ? 0.0f : 1.0f);
    EXPECT_EQ(gt[gtg::kNoResult], 0.0f);
    EXPECT_EQ(gt[gtg::kScore], white ? 12.5f : -12.5f);
    EXPECT_EQ(gt[gtg::kFinalScore], white ? 12.5f : -12.5f);
    EXPECT_EQ(gt[gtg::kOwnershipWeight], 1.0f);
    EXPECT_EQ(gt[gtg::kSelfKomi], white ? 7.5f : -7.5f);
    EXPECT_EQ(b.global_inputs()[r * kNumGlobalInputs + gin::kSelfKomi],
              (white ? 7.5f : -7.5f) / 20.0f);
    EXPECT_EQ(gt[gtg::kGameFinished], 1.0f);
    EXPECT_EQ(gt[gtg::kDataVersion], 3.0f);
    const int8_t* own = &b.value_targets()[r * kNumValueChannels * area];
    // Columns 0-1 Black's, 2-4 White's.
    for (int y = 0; y < 5; ++y) {
      for (int x = 0; x < 5; ++x) {
        const int want = (x <= 1) != white ? 1 : -1;
        EXPECT_EQ(own[vtg::kOwnership * area + y * 5 + x], want);
        EXPECT_EQ(own[vtg::kAreaScoring * area + y * 5 + x], want * 120);
      }
    }
    // The score distribution: bin b stands for b - mid + 0.5.
    const int8_t* distr = &b.score_distribution()[r * b.shape().score_bins()];
    const int bin = (white ? 12 : -13) + mid;
    EXPECT_EQ(distr[bin], 100) << r;
  }
  const std::vector<uint64_t> ids(b.row_ids().begin(),
                                  b.row_ids().begin() + kNumRowIdColumns);
  EXPECT_EQ(ids, (std::vector<uint64_t>{1, 7, 3, 0, 0}));
}

// O (2,2) has 2 liberties and escapes either atari; Black's (3,3) makes it
// a ladder from both sides.
constexpr char kLadderToBe[] = R"(
  . . . . . . . . .
  . . X . . . . . .
  . X O . . . . . .
  . . . . . . . . .
  . . . . . . . . .
  . . . . . . . . .
  . . . . . . . . .
  . . . . . . . . .
  . . . . . . . . .
)";

TEST(RowBuilder, LadderPlanesNowAndOneAndTwoMovesAgo) {
  // Black (3,3), White (5,5), Black (7,7).
  const TrainingGame g =
      GameFrom(kLadderToBe, rules::Rules{}, {At(3, 3), At(5, 5), At(7, 7)});
  const RowBatch b = Rows(g, RowOptions{.pos_len = 9, .ladder_planes = true});
  ASSERT_EQ(b.rows(), 3);
  const Points none;
  const Points o{"2,2"};
  // Before Black's (3,3): no ladder anywhere (the setup cuts the history,
  // so planes 15 and 16 show the position itself).
  for (int c : {bin::kLadderedNow, bin::kLadderedBefore1, bin::kLadderedBefore2,
                bin::kLadderWorkingMoves}) {
    EXPECT_EQ(Plane(b, 0, c), none) << c;
  }
  // White to move after (3,3): its own O is laddered; working moves are
  // only marked on the opponent's chains.
  EXPECT_EQ(Plane(b, 1, bin::kLadderedNow), o);
  EXPECT_EQ(Plane(b, 1, bin::kLadderedBefore1), none);
  EXPECT_EQ(Plane(b, 1, bin::kLadderedBefore2), none);  // as plane 15
  EXPECT_EQ(Plane(b, 1, bin::kLadderWorkingMoves), none);
  // Black to move after White's (5,5): O laddered now and one move ago,
  // not two moves ago; Black's working moves are both liberties.
  EXPECT_EQ(Plane(b, 2, bin::kLadderedNow), o);
  EXPECT_EQ(Plane(b, 2, bin::kLadderedBefore1), o);
  EXPECT_EQ(Plane(b, 2, bin::kLadderedBefore2), none);
  EXPECT_EQ(Plane(b, 2, bin::kLadderWorkingMoves), (Points{"3,2", "2,3"}));
  // With positions sampled the planes are the same.
  const RowBatch s = Rows(g, RowOptions{.pos_len = 9,
                                        .seed = 1,
                                        .positions_per_game = 1,
                                        .ladder_planes = true});
  ASSERT_EQ(s.rows(), 1);
  const int turn = static_cast<int>(s.row_ids()[rid::kTurn]);
  for (int c = bin::kLadderedNow; c <= bin::kLadderWorkingMoves; ++c) {
    EXPECT_EQ(Plane(s, 0, c), Plane(b, turn, c)) << c;
  }
  // Not asked for: the planes stay 0.
  const RowBatch off = Rows(g, RowOptions{.pos_len = 9});
  for (int c = bin::kLadderedNow; c <= bin::kLadderWorkingMoves; ++c) {
    EXPECT_EQ(Plane(off, 2, c), none) << c;
  }
}

TEST(RowBuilder, KomiParityWaveAsKataGo) {
  // 19x19 (odd area: odd komi can draw): 7.5 is half a point above the
  // drawable 7, the top of the wave; Black's -7.5 its bottom.
  EXPECT_EQ(KomiParityWave(7.5f, 361), 0.5f);
  EXPECT_EQ(KomiParityWave(-7.5f, 361), -0.5f);
  EXPECT_EQ(KomiParityWave(7.0f, 361), 0.0f);
  EXPECT_EQ(KomiParityWave(6.0f, 361), 0.0f);
  EXPECT_EQ(KomiParityWave(6.5f, 361), -0.5f);
  // An even area (e.g. 4x4 or 20x20): even komi draw.
  EXPECT_EQ(KomiParityWave(0.5f, 16), 0.5f);
  EXPECT_EQ(KomiParityWave(7.5f, 400), -0.5f);
  // In the rows: global input 18 from the side to move's komi (7.5 on 5x5,
  // odd area, as on 19x19).
  const RowBatch b = Rows(CountedGame(), RowOptions{.pos_len = 5});
  EXPECT_EQ(b.global_inputs()[0 * kNumGlobalInputs + gin::kKomiParityWave],
            -0.5f);  // Black
  EXPECT_EQ(b.global_inputs()[1 * kNumGlobalInputs + gin::kKomiParityWave],
            0.5f);  // White
}

TEST(RowBuilder, HistoryMasksOnlyWhereHistoryIsShown) {
  const TrainingGame g = GameFrom(
      kEmpty5, rules::Rules{},
      {At(0, 0), At(1, 1), kPass, At(2, 2), At(3, 3), At(4, 4), At(0, 4)});
  const RowBatch b = Rows(g, RowOptions{.pos_len = 5});
  ASSERT_EQ(b.rows(), 7);
  for (int r = 0; r < 7; ++r) {
    for (int i = 0; i < bin::kNumLastMoves; ++i) {
      EXPECT_EQ(
          b.global_targets()[r * kNumGlobalTargets + gtg::kHistoryMask1 + i],
          i < r ? 1.0f : 0.0f)
          << r << " " << i;
    }
  }
}

TEST(RowBuilder, TdTargetsAreTheOutcomeWithKataGosUnknownWeight) {
  const RowBatch b = Rows(CountedGame(), RowOptions{.pos_len = 5});
  for (int r = 0; r < b.rows(); ++r) {
    const float* gt = &b.global_targets()[r * kNumGlobalTargets];
    EXPECT_EQ(gt[gtg::kTdWeightComplement], 1.0f);  // TD value weight 0
    for (int g = 0; g < gtg::kNumTdGroups; ++g) {
      const float* td = gt + gtg::kTdTargets + 4 * g;
      EXPECT_EQ(td[0], gt[gtg::kWin]);
      EXPECT_EQ(td[1], gt[gtg::kLoss]);
      EXPECT_EQ(td[2], gt[gtg::kNoResult]);
      // The TD score heads train with the ownership weight (27 = 1 here):
      // the final score, never 0.
      EXPECT_EQ(td[3], gt[gtg::kFinalScore]);
      EXPECT_NE(td[3], 0.0f);
    }
    EXPECT_EQ(gt[gtg::kRowWeight], 1.0f);
  }
  // Without a count (resignation) the score is unknown: 27 = 0, td 0.
  TrainingGame resigned = CountedGame();
  resigned.result = {rules::Winner::kBlack, rules::EndReason::kResign, 0};
  const RowBatch c = Rows(resigned, RowOptions{.pos_len = 5});
  for (int r = 0; r < c.rows(); ++r) {
    const float* gt = &c.global_targets()[r * kNumGlobalTargets];
    EXPECT_EQ(gt[gtg::kOwnershipWeight], 0.0f);
    for (int g = 0; g < gtg::kNumTdGroups; ++g) {
      EXPECT_EQ(gt[gtg::kTdTargets + 4 * g + 3], 0.0f);
    }
  }
  // No search behind the moves: every q-value entry is 0 (0 visits).
  for (int16_t q : b.q_value_targets()) ASSERT_EQ(q, 0);
  EXPECT_EQ(b.q_value_targets().size(),
            static_cast<size_t>(b.rows()) * 3 * b.shape().policy_size());
}

TEST(RowBuilder, RowWeightsConstantOrByGameLength) {
  const RowBatch c =
      Rows(CountedGame(), RowOptions{.pos_len = 5, .row_weight = 0.5f});
  const RowBatch l = Rows(
      CountedGame(),
      RowOptions{.pos_len = 5, .weight_by_length = true, .row_weight = 2.0f});
  ASSERT_EQ(c.rows(), 6);
  ASSERT_EQ(l.rows(), 6);
  for (int r = 0; r < 6; ++r) {
    EXPECT_EQ(c.global_targets()[r * kNumGlobalTargets + gtg::kRowWeight],
              0.5f);
    // 2 * 100 / 6 rows.
    EXPECT_FLOAT_EQ(l.global_targets()[r * kNumGlobalTargets + gtg::kRowWeight],
                    200.0f / 6);
  }
  EXPECT_FALSE(ValidateRowOptions(RowOptions{.row_weight = 0}).ok());
}

TEST(RowBuilder, OwnershipOnlyWhenTheCountGivesTheStoredResult) {
  TrainingGame g = CountedGame();
  g.result = {rules::Winner::kBlack, rules::EndReason::kResign, 0};
  const RowBatch b = Rows(g, RowOptions{.pos_len = 5});
  const float* gt = &b.global_targets()[0];
  EXPECT_EQ(gt[gtg::kWin], 1.0f);  // Black to move, Black won
  EXPECT_EQ(gt[gtg::kScore], 0.0f);
  EXPECT_EQ(gt[gtg::kOwnershipWeight], 0.0f);
  for (int i = 0; i < kNumValueChannels * 25; ++i) {
    ASSERT_EQ(b.value_targets()[i], 0);
  }
  const int mid = 25 + kExtraScoreRadius;
  EXPECT_EQ(b.score_distribution()[mid - 1], 50);
  EXPECT_EQ(b.score_distribution()[mid], 50);
}

TEST(RowBuilder, DrawsAndVoidGames) {
  TrainingGame draw = CountedGame();
  draw.result = {rules::Winner::kDraw, rules::EndReason::kCycle, 0};
  const RowBatch d = Rows(draw, RowOptions{.pos_len = 5});
  EXPECT_EQ(d.global_targets()[gtg::kWin], 0.5f);
  EXPECT_EQ(d.global_targets()[gtg::kLoss], 0.5f);
  EXPECT_EQ(d.global_targets()[gtg::kNoResult], 0.0f);

  TrainingGame void_game = CountedGame();
  void_game.result = {rules::Winner::kNone, rules::EndReason::kMoveLimit, 0};
  RowBatch v(5);
  RowBuilder builder(RowOptions{.pos_len = 5});
  absl::StatusOr<GameRowsInfo> info = builder.AddGame(void_game, &v);
  ASSERT_TRUE(info.ok());
  EXPECT_TRUE(info->void_result);
  EXPECT_FALSE(info->ownership);
  EXPECT_EQ(v.global_targets()[gtg::kWin], 0.0f);
  EXPECT_EQ(v.global_targets()[gtg::kLoss], 0.0f);
  EXPECT_EQ(v.global_targets()[gtg::kNoResult], 1.0f);
  EXPECT_EQ(v.global_targets()[gtg::kHitMoveCap], 1.0f);
  EXPECT_EQ(v.global_targets()[gtg::kGameFinished], 0.0f);
}

TEST(RowBuilder, HandicapGame) {
  TrainingGame g;
  g.record.width = 9;
  g.record.height = 9;
  g.record.handicap = 2;
  rules::SetupStep root;
  root.black = {At(2, 6), At(6, 2)};
  g.record.setup.push_back(root);
  g.record.moves = {Move{Color::kWhite, At(4, 4)},
                    Move{Color::kBlack, At(2, 2)}};
  g.rules = rules::Rules{};
  g.result = {rules::Winner::kBlack, rules::EndReason::kResign, 0};
  g.id = store::GameId::SelfPlay(1, 1);
  const RowBatch b = Rows(g, RowOptions{.pos_len = 9});
  ASSERT_EQ(b.rows(), 2);
  const double white_komi = 7.5 + rules::HandicapPoints(g.rules, 2);
  EXPECT_EQ(b.global_targets()[gtg::kSelfKomi], static_cast<float>(white_komi));
  EXPECT_EQ(b.global_targets()[kNumGlobalTargets + gtg::kSelfKomi],
            static_cast<float>(-white_komi));
  EXPECT_EQ(b.global_targets()[gtg::kHandicapStones], 2.0f);
  EXPECT_EQ(b.global_targets()[gtg::kMode], kModeHandicap);
  EXPECT_EQ(b.qipu_inputs()[qin::kHandicapStones], 2.0f);
  // White to move first: the handicap stones are the opponent's.
  EXPECT_EQ(Plane(b, 0, bin::kOpponentStone), (Points{"2,6", "6,2"}));
  EXPECT_EQ(Plane(b, 0, bin::kOwnStone), Points{});
  EXPECT_EQ(b.global_targets()[gtg::kLoss], 1.0f);
}

TEST(RowBuilder, NineByNinePaddedToNineteen) {
  TrainingGame g =
      GameFrom(R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
  )",
               rules::Rules{}, {At(3, 5), At(8, 8), At(0, 8), kPass, kPass});
  g.result = {rules::Winner::kBlack, rules::EndReason::kScore, 0};
  // Whatever the count, only check the geometry: every symmetry.
  for (int sym : {1, 8}) {
    const RowBatch b =
        Rows(g, RowOptions{.pos_len = 19, .symmetries = sym, .seed = 5});
    ASSERT_EQ(b.rows(), 5);
    EXPECT_EQ(b.shape().packed_channel_bytes(), 46);
    for (int r = 0; r < b.rows(); ++r) {
      Points on;
      for (int y = 0; y < 9; ++y) {
        for (int x = 0; x < 9; ++x) {
          on.insert(std::to_string(x) + "," + std::to_string(y));
        }
      }
      EXPECT_EQ(Plane(b, r, bin::kOnBoard), on);
      for (int c = 0; c < kNumBinaryChannels; ++c) {
        for (const std::string& p : Plane(b, r, c)) {
          EXPECT_TRUE(on.count(p)) << "channel " << c << " sets " << p;
        }
      }
      // Padding bits past 361 stay zero.
      for (int c = 0; c < kNumBinaryChannels; ++c) {
        const uint8_t last =
            b.packed_inputs()[r * b.shape().packed_row_bytes() + c * 46 + 45];
        EXPECT_EQ(last & 0x7F, 0);
      }
    }
    if (sym == 1) {
      // Black's first move (3, 5): 5 * 19 + 3; the pass is 361.
      EXPECT_EQ(b.policy_targets()[5 * 19 + 3], 1);
      EXPECT_EQ(b.policy_targets()[3 * 2 * 362 + 361], 1);
    }
  }
}

// Checks that row r of `t` (with its recorded symmetry) is row r of
// `plain` (symmetry 0) transformed, plane by plane and target by target.
void ExpectTransformed(const RowBatch& plain, const RowBatch& t, int r,
                       int width, int height) {
  const int sym = static_cast<int>(t.row_ids()[r * kNumRowIdColumns + 4]);
  const int L = plain.pos_len();
  const int area = plain.shape().area();
  const int size = plain.shape().policy_size();
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      int tx = x;
      int ty = y;
      TransformXY(sym, width, height, &tx, &ty);
      const int i = y * L + x;
      const int j = ty * L + tx;
      for (int c = 0; c < kNumBinaryChannels; ++c) {
        ASSERT_EQ(plain.InputBit(r, c, i), t.InputBit(r, c, j))
            << "row " << r << " symmetry " << sym << " channel " << c;
      }
      for (int c = 0; c < kNumPolicyChannels; ++c) {
        ASSERT_EQ(plain.policy_targets()[(r * 2 + c) * size + i],
                  t.policy_targets()[(r * 2 + c) * size + j]);
      }
      for (int c = 0; c < kNumValueChannels; ++c) {
        ASSERT_EQ(plain.value_targets()[(r * kNumValueChannels + c) * area + i],
                  t.value_targets()[(r * kNumValueChannels + c) * area + j]);
      }
    }
  }
  for (int c = 0; c < kNumPolicyChannels; ++c) {
    ASSERT_EQ(plain.policy_targets()[(r * 2 + c) * size + area],
              t.policy_targets()[(r * 2 + c) * size + area]);
  }
  for (int k = 0; k < kNumGlobalInputs; ++k) {
    ASSERT_EQ(plain.global_inputs()[r * kNumGlobalInputs + k],
              t.global_inputs()[r * kNumGlobalInputs + k]);
  }
  for (int k = 0; k < kNumGlobalTargets; ++k) {
    ASSERT_EQ(plain.global_targets()[r * kNumGlobalTargets + k],
              t.global_targets()[r * kNumGlobalTargets + k]);
  }
}

TEST(RowBuilder, SymmetriesApplyToEveryPlaneAndTarget) {
  std::set<int> seen;
  for (uint64_t seed = 0; seed < 8; ++seed) {
    // A square board and a rectangular one (transposed within the pad).
    TrainingGame square = CountedGame();
    square.id = store::GameId::SelfPlay(seed, 1);
    TrainingGame wide = GameFrom(
        R"(
      . X . O . .
      . X . O . O
      X X . O O .
      . . . . . .
    )",
        rules::Rules{}, {At(0, 0), At(4, 3), At(2, 2), At(5, 2), At(0, 3)});
    wide.id = store::GameId::SelfPlay(seed, 2);
    for (const TrainingGame* g : {&square, &wide}) {
      const RowBatch plain = Rows(*g, RowOptions{.pos_len = 7, .seed = seed});
      const RowBatch t =
          Rows(*g, RowOptions{.pos_len = 7, .symmetries = 8, .seed = seed});
      ASSERT_EQ(plain.rows(), t.rows());
      for (int r = 0; r < t.rows(); ++r) {
        seen.insert(static_cast<int>(t.row_ids()[r * kNumRowIdColumns + 4]));
        ExpectTransformed(plain, t, r, g->record.width, g->record.height);
      }
    }
  }
  EXPECT_EQ(seen.size(), 8u);
}

TEST(RowBuilder, TransformMatchesTheRulesOnSquareBoards) {
  for (int t = 0; t < 8; ++t) {
    for (int y = 0; y < 9; ++y) {
      for (int x = 0; x < 9; ++x) {
        int tx = x;
        int ty = y;
        TransformXY(t, 9, 9, &tx, &ty);
        EXPECT_EQ(rules::MakePoint(tx, ty),
                  rules::TransformPoint(t, At(x, y), 9, 9));
      }
    }
  }
}

TEST(RowBuilder, SamplingIsSeededAndOrderFree) {
  TrainingGame g =
      GameFrom(kEmpty5, rules::Rules{},
               {At(0, 0), At(1, 1), At(2, 2), At(3, 3), At(4, 4), At(0, 4),
                At(1, 4), At(2, 4), At(3, 4), At(4, 3), At(0, 3), At(1, 3)});
  const RowOptions options{.pos_len = 5,
                           .symmetries = 8,
                           .seed = 11,
                           .positions_per_game = 4,
                           .min_move = 2};
  const RowBatch a = Rows(g, options);
  ASSERT_EQ(a.rows(), 4);
  std::vector<uint64_t> turns;
  for (int r = 0; r < 4; ++r) {
    turns.push_back(a.row_ids()[r * kNumRowIdColumns + 3]);
  }
  EXPECT_TRUE(std::is_sorted(turns.begin(), turns.end()));
  EXPECT_EQ(std::set<uint64_t>(turns.begin(), turns.end()).size(), 4u);
  EXPECT_GE(turns.front(), 2u);

  // The same game after another one gives the same rows.
  TrainingGame other = CountedGame();
  RowBatch both(5);
  RowBuilder builder(options);
  ASSERT_TRUE(builder.AddGame(other, &both).ok());
  const int first = both.rows();
  ASSERT_TRUE(builder.AddGame(g, &both).ok());
  ASSERT_EQ(both.rows(), first + 4);
  for (int r = 0; r < 4; ++r) {
    RowBatch one(5);
    one.AppendRowFrom(both, first + r);
    RowBatch mine(5);
    mine.AppendRowFrom(a, r);
    EXPECT_EQ(one.packed_inputs(), mine.packed_inputs());
    EXPECT_EQ(one.policy_targets(), mine.policy_targets());
    EXPECT_EQ(one.row_ids(), mine.row_ids());
  }
  // Another seed picks other turns or symmetries.
  RowOptions reseeded = options;
  reseeded.seed = 12;
  const RowBatch c = Rows(g, reseeded);
  EXPECT_NE(c.row_ids(), a.row_ids());
}

TEST(RowBuilder, BadOptionsAndBoardsAreRefused) {
  EXPECT_EQ(ValidateRowOptions({.pos_len = 1}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ValidateRowOptions({.pos_len = 26}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ValidateRowOptions({.symmetries = 4}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ValidateRowOptions({.positions_per_game = -1}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(ValidateRowOptions({}).ok());

  const TrainingGame g = CountedGame();  // 5x5
  RowBatch b(4);
  RowBuilder builder(RowOptions{.pos_len = 4});
  const absl::StatusOr<GameRowsInfo> info = builder.AddGame(g, &b);
  EXPECT_EQ(info.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(info.status().message().find("does not fit in pos_len 4"),
            std::string::npos)
      << info.status();
  EXPECT_EQ(b.rows(), 0);
}

}  // namespace
}  // namespace qipu::train
