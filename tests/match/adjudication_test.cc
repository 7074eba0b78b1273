// Illegal-move rulings and warnings at the count (match/adjudication.h).
#include "match/adjudication.h"

#include <string>

#include "gtest/gtest.h"

namespace qipu::match {
namespace {

using rules::EndReason;
using rules::GameResult;
using rules::IllegalReason;
using rules::Winner;

TEST(Adjudication, ForfeitLosesOnAnyIllegalMove) {
  for (IllegalReason r :
       {IllegalReason::kOccupied, IllegalReason::kSuicide, IllegalReason::kKo,
        IllegalReason::kSuperko, IllegalReason::kCycle}) {
    const IllegalMoveRuling ruling =
        RuleOnIllegalMove(IllegalMovePolicy::kForfeit, r, 0);
    EXPECT_TRUE(ruling.loses);
    EXPECT_FALSE(ruling.void_as_pass);
    EXPECT_FALSE(ruling.warning);
  }
}

TEST(Adjudication, ChineseVoidsTheMoveAndWarnsAKoRetake) {
  const IllegalMovePolicy chinese = IllegalMovePolicy::kChinese;
  IllegalMoveRuling r = RuleOnIllegalMove(chinese, IllegalReason::kSuicide, 0);
  EXPECT_TRUE(r.void_as_pass);
  EXPECT_FALSE(r.warning);
  EXPECT_FALSE(r.loses);
  EXPECT_EQ(std::string(r.article), "19");
  r = RuleOnIllegalMove(chinese, IllegalReason::kOccupied, 1);
  EXPECT_TRUE(r.void_as_pass);
  EXPECT_FALSE(r.loses);
  r = RuleOnIllegalMove(chinese, IllegalReason::kSuperko, 1);
  EXPECT_TRUE(r.void_as_pass);
  EXPECT_FALSE(r.warning);
  EXPECT_EQ(std::string(r.article), "20");
  // Art. 18.3: the ko retake is void and warned...
  r = RuleOnIllegalMove(chinese, IllegalReason::kKo, 0);
  EXPECT_TRUE(r.void_as_pass);
  EXPECT_TRUE(r.warning);
  EXPECT_FALSE(r.loses);
  EXPECT_EQ(std::string(r.article), "18.3");
  // ... and art. 24.2: the second warning loses.
  r = RuleOnIllegalMove(chinese, IllegalReason::kKo, 1);
  EXPECT_TRUE(r.warning);
  EXPECT_TRUE(r.loses);
  EXPECT_FALSE(r.void_as_pass);
  EXPECT_EQ(std::string(r.article), "24.2");
}

TEST(Adjudication, EachWarningCostsAStoneAtTheCount) {
  const GameResult b15{Winner::kBlack, EndReason::kScore, 1.5};
  // A stone is two points: Black's warning turns B+1.5 into W+0.5.
  EXPECT_EQ(DeductWarnings(b15, 1, 0),
            (GameResult{Winner::kWhite, EndReason::kScore, 0.5}));
  EXPECT_EQ(DeductWarnings(b15, 0, 1),
            (GameResult{Winner::kBlack, EndReason::kScore, 3.5}));
  EXPECT_EQ(DeductWarnings(b15, 1, 1), b15);
  EXPECT_EQ(DeductWarnings(b15, 0, 0), b15);
  // Integral komi: a draw can come of it, and go.
  EXPECT_EQ(DeductWarnings({Winner::kWhite, EndReason::kScore, 2}, 0, 1),
            (GameResult{Winner::kDraw, EndReason::kScore, 0}));
  EXPECT_EQ(DeductWarnings({Winner::kDraw, EndReason::kScore, 0}, 0, 1),
            (GameResult{Winner::kBlack, EndReason::kScore, 2}));
  // Only a count changes.
  const GameResult resign{Winner::kWhite, EndReason::kResign, 0};
  EXPECT_EQ(DeductWarnings(resign, 0, 1), resign);
  const GameResult cycle{Winner::kNone, EndReason::kCycle, 0};
  EXPECT_EQ(DeductWarnings(cycle, 1, 0), cycle);
}

TEST(Adjudication, PolicyNames) {
  EXPECT_EQ(*ParseIllegalMovePolicy("forfeit"), IllegalMovePolicy::kForfeit);
  EXPECT_EQ(*ParseIllegalMovePolicy("chinese"), IllegalMovePolicy::kChinese);
  EXPECT_EQ(std::string(IllegalMovePolicyName(IllegalMovePolicy::kChinese)),
            "chinese");
  EXPECT_TRUE(
      absl::IsInvalidArgument(ParseIllegalMovePolicy("japanese").status()));
}

}  // namespace
}  // namespace qipu::match
