// Results: SGF RE values both ways (including the messy ones real records
// carry), Chinese stone margins (1 stone = 2 points, quarters as vulgar
// fractions), and the names of winners and end reasons.
#include "rules/result.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/rules/reference_board.h"  // PrintTo for GameResult

namespace qipu::rules {
namespace {

GameResult Score(Winner w, double margin) {
  return GameResult{w, EndReason::kScore, margin};
}

TEST(Result, ToSgf) {
  EXPECT_EQ(ResultToSgf(Score(Winner::kBlack, 3.5)), "B+3.5");
  EXPECT_EQ(ResultToSgf(Score(Winner::kWhite, 0.5)), "W+0.5");
  EXPECT_EQ(ResultToSgf(Score(Winner::kWhite, 12)), "W+12");
  EXPECT_EQ(ResultToSgf(Score(Winner::kBlack, -1)), "B+");  // unknown margin
  EXPECT_EQ(ResultToSgf({Winner::kBlack, EndReason::kResign, 0}), "B+R");
  EXPECT_EQ(ResultToSgf({Winner::kWhite, EndReason::kTime, 0}), "W+T");
  EXPECT_EQ(ResultToSgf({Winner::kWhite, EndReason::kForfeit, 0}), "W+F");
  EXPECT_EQ(ResultToSgf(Score(Winner::kDraw, 0)), "Draw");
  EXPECT_EQ(ResultToSgf({Winner::kDraw, EndReason::kCycle, 0}), "Draw");
  EXPECT_EQ(ResultToSgf({Winner::kNone, EndReason::kCycle, 0}), "Void");
  EXPECT_EQ(ResultToSgf({Winner::kNone, EndReason::kMoveLimit, 0}), "Void");
  EXPECT_EQ(ResultToSgf({Winner::kNone, EndReason::kVoid, 0}), "Void");
  EXPECT_EQ(ResultToSgf({Winner::kNone, EndReason::kUnknown, 0}), "?");
}

TEST(Result, InStones) {
  // 1 stone = 2 points; margins are multiples of 1/4 stone.
  EXPECT_EQ(ResultInStones(Score(Winner::kBlack, 0.5)),
            "Black wins by ¼ stone");
  EXPECT_EQ(ResultInStones(Score(Winner::kBlack, 1)), "Black wins by ½ stone");
  EXPECT_EQ(ResultInStones(Score(Winner::kBlack, 1.5)),
            "Black wins by ¾ stone");
  EXPECT_EQ(ResultInStones(Score(Winner::kWhite, 2)), "White wins by 1 stone");
  EXPECT_EQ(ResultInStones(Score(Winner::kWhite, 2.5)),
            "White wins by 1¼ stones");
  EXPECT_EQ(ResultInStones(Score(Winner::kWhite, 7.5)),
            "White wins by 3¾ stones");
  EXPECT_EQ(ResultInStones(Score(Winner::kBlack, 10)),
            "Black wins by 5 stones");
  EXPECT_EQ(ResultInStones(Score(Winner::kBlack, 361)),
            "Black wins by 180½ stones");
  EXPECT_EQ(ResultInStones(Score(Winner::kWhite, -1)), "White wins");
  // Margins records carry that are no quarter stones stay in points.
  EXPECT_EQ(ResultInStones(*ParseSgfResult("B+0.02")),
            "Black wins by 0.02 points");
  EXPECT_EQ(ResultInStones(*ParseSgfResult("B+0.75")),
            "Black wins by 0.75 points");
  EXPECT_EQ(ResultInStones(*ParseSgfResult("W+0.0")), "White wins by 0 points");
  EXPECT_EQ(ResultInStones({Winner::kBlack, EndReason::kResign, 0}),
            "Black wins by resignation");
  EXPECT_EQ(ResultInStones({Winner::kWhite, EndReason::kTime, 0}),
            "White wins on time");
  EXPECT_EQ(ResultInStones({Winner::kBlack, EndReason::kForfeit, 0}),
            "Black wins by forfeit");
  EXPECT_EQ(ResultInStones(Score(Winner::kDraw, 0)), "Draw");
  EXPECT_EQ(ResultInStones({Winner::kNone, EndReason::kCycle, 0}), "No result");
  EXPECT_EQ(ResultInStones({Winner::kNone, EndReason::kUnknown, 0}), "Unknown");
}

TEST(Result, SpecEquivalenceOfPointsAndStones) {
  // Spec section 5: B+1.5 is "Black wins by 3/4 stone".
  auto r = ParseSgfResult("B+1.5");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(ResultInStones(*r), "Black wins by ¾ stone");
}

TEST(Result, ParsesCanonicalValues) {
  EXPECT_EQ(*ParseSgfResult("B+3.5"), Score(Winner::kBlack, 3.5));
  EXPECT_EQ(*ParseSgfResult("W+0.5"), Score(Winner::kWhite, 0.5));
  EXPECT_EQ(*ParseSgfResult("W+12"), Score(Winner::kWhite, 12));
  EXPECT_EQ(*ParseSgfResult("B+R"),
            (GameResult{Winner::kBlack, EndReason::kResign, 0}));
  EXPECT_EQ(*ParseSgfResult("W+T"),
            (GameResult{Winner::kWhite, EndReason::kTime, 0}));
  EXPECT_EQ(*ParseSgfResult("B+F"),
            (GameResult{Winner::kBlack, EndReason::kForfeit, 0}));
  EXPECT_EQ(*ParseSgfResult("0"), Score(Winner::kDraw, 0));
  EXPECT_EQ(*ParseSgfResult("Draw"), Score(Winner::kDraw, 0));
  EXPECT_EQ(*ParseSgfResult("Void"),
            (GameResult{Winner::kNone, EndReason::kVoid, 0}));
  EXPECT_EQ(*ParseSgfResult("?"),
            (GameResult{Winner::kNone, EndReason::kUnknown, 0}));
}

TEST(Result, ParsesMessyValues) {
  struct Case {
    const char* re;
    GameResult want;
  };
  const GameResult b_resign{Winner::kBlack, EndReason::kResign, 0};
  const GameResult w_resign{Winner::kWhite, EndReason::kResign, 0};
  const GameResult w_time{Winner::kWhite, EndReason::kTime, 0};
  const GameResult b_forfeit{Winner::kBlack, EndReason::kForfeit, 0};
  const std::vector<Case> cases = {
      {"b+r", b_resign},
      {"B+Resign", b_resign},
      {"B+resignation", b_resign},
      {" W+R ", w_resign},
      {"W+R\n", w_resign},
      {"W+Time", w_time},
      {"w+t", w_time},
      {"B+Forfeit", b_forfeit},
      {"B+3.50", Score(Winner::kBlack, 3.5)},  // Fox
      {"B+0.75", Score(Winner::kBlack, 0.75)},
      {"W+0.0", Score(Winner::kWhite, 0)},
      {"b+7", Score(Winner::kBlack, 7)},
      {"W+ 2.5", Score(Winner::kWhite, 2.5)},
      {"B+", Score(Winner::kBlack, -1)},
      {"w+", Score(Winner::kWhite, -1)},
      {"draw", Score(Winner::kDraw, 0)},
      {"DRAW", Score(Winner::kDraw, 0)},
      {"Jigo", Score(Winner::kDraw, 0)},
      {"void", {Winner::kNone, EndReason::kVoid, 0}},
      {"No Result", {Winner::kNone, EndReason::kVoid, 0}},
      {"", {Winner::kNone, EndReason::kUnknown, 0}},
      {"  ", {Winner::kNone, EndReason::kUnknown, 0}},
      {"unknown", {Winner::kNone, EndReason::kUnknown, 0}},
  };
  for (const Case& c : cases) {
    auto r = ParseSgfResult(c.re);
    ASSERT_TRUE(r.ok()) << "'" << c.re << "': " << r.status();
    EXPECT_EQ(*r, c.want) << "'" << c.re << "'";
  }
}

// Issue 16: a result that names the winner keeps it, whatever the reason
// says; the reason is kept as written.
TEST(Result, KeepsAPlainWinnerWithAReasonSgfDoesNotDefine) {
  struct Case {
    const char* re;
    Winner winner;
    EndReason reason;
    // *other_reason after parsing.
    const char* text;
  };
  const std::vector<Case> cases = {
      {"W+Illegal", Winner::kWhite, EndReason::kIllegal, ""},
      {"B+Illegal", Winner::kBlack, EndReason::kIllegal, ""},
      {"b+illegal", Winner::kBlack, EndReason::kIllegal, ""},
      {"W+Illegal move", Winner::kWhite, EndReason::kIllegal, ""},
      {"W+J", Winner::kWhite, EndReason::kOther, "J"},
      {"B+AW", Winner::kBlack, EndReason::kOther, "AW"},
      {"W+ Adjudicated ", Winner::kWhite, EndReason::kOther, "Adjudicated"},
      {"B+abc", Winner::kBlack, EndReason::kOther, "abc"},
      {"B+R+T", Winner::kBlack, EndReason::kOther, "R+T"},
      {"B+3.5 points", Winner::kBlack, EndReason::kOther, "3.5 points"},
      {"W", Winner::kWhite, EndReason::kOther, ""},
      {"B", Winner::kBlack, EndReason::kOther, ""},
      {" w ", Winner::kWhite, EndReason::kOther, ""},
      // The standard reasons, for contrast: no text.
      {"W+R", Winner::kWhite, EndReason::kResign, ""},
      {"B+T", Winner::kBlack, EndReason::kTime, ""},
      {"W+F", Winner::kWhite, EndReason::kForfeit, ""},
      {"B+ R", Winner::kBlack, EndReason::kResign, ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.re);
    std::string text = "stale";
    auto r = ParseSgfResult(c.re, &text);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->winner, c.winner);
    EXPECT_EQ(r->reason, c.reason);
    EXPECT_EQ(r->margin, 0);
    EXPECT_EQ(text, c.text);
    EXPECT_EQ(IsNonStandardSgfReason(r->reason),
              c.reason == EndReason::kIllegal || c.reason == EndReason::kOther);
    // Written back, it reads the same.
    std::string again;
    auto back = ParseSgfResult(ResultToSgf(*r, text), &again);
    ASSERT_TRUE(back.ok()) << ResultToSgf(*r, text);
    EXPECT_EQ(*back, *r);
    EXPECT_EQ(again, text);
  }
  EXPECT_EQ(ResultToSgf({Winner::kWhite, EndReason::kIllegal, 0}), "W+Illegal");
  EXPECT_EQ(ResultToSgf({Winner::kBlack, EndReason::kOther, 0}, "AW"), "B+AW");
  EXPECT_EQ(ResultToSgf({Winner::kWhite, EndReason::kOther, 0}), "W");
  EXPECT_EQ(ResultInStones({Winner::kWhite, EndReason::kIllegal, 0}),
            "White wins by an illegal move");
  EXPECT_EQ(ResultInStones({Winner::kBlack, EndReason::kOther, 0}),
            "Black wins");
  // Only results that name no winner stay unknown (or are errors).
  for (const char* re : {"?", "", "  ", "unknown"}) {
    auto r = ParseSgfResult(re);
    ASSERT_TRUE(r.ok()) << re;
    EXPECT_EQ(r->winner, Winner::kNone) << re;
    EXPECT_EQ(r->reason, EndReason::kUnknown) << re;
  }
  auto v = ParseSgfResult("Void");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->reason, EndReason::kVoid);
  for (const char* re : {"garbage", "Black", "X+3", "+3.5"}) {
    EXPECT_FALSE(ParseSgfResult(re).ok()) << re;
  }
}

TEST(Result, RejectsWhatItCannotRead) {
  // Values that name no winner, and numbers that are no margin (which
  // contradict the winner they follow).
  for (const char* re : {"X+3", "B-3", "B+-3", "B+nan", "B+inf", "W+1e9",
                         "Black", "+3.5", "B3.5", "garbage", "Void?"}) {
    auto r = ParseSgfResult(re);
    ASSERT_FALSE(r.ok()) << re;
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(r.status().message().find(std::string("'") + re + "'"),
              std::string::npos)
        << r.status();
  }
}

TEST(Result, RoundTripsThroughSgf) {
  const std::vector<GameResult> results = {
      Score(Winner::kBlack, 0.5),
      Score(Winner::kWhite, 7.5),
      Score(Winner::kBlack, 180.5),
      Score(Winner::kWhite, -1),
      Score(Winner::kDraw, 0),
      {Winner::kBlack, EndReason::kResign, 0},
      {Winner::kWhite, EndReason::kTime, 0},
      {Winner::kWhite, EndReason::kForfeit, 0},
      {Winner::kNone, EndReason::kVoid, 0},
      {Winner::kNone, EndReason::kUnknown, 0},
  };
  for (const GameResult& r : results) {
    auto back = ParseSgfResult(ResultToSgf(r));
    ASSERT_TRUE(back.ok()) << ResultToSgf(r);
    EXPECT_EQ(*back, r) << ResultToSgf(r);
  }
  // Cycle and move-limit outcomes are written as Void and read back as a
  // plain void: the reason lives in qipu's own properties, not in RE.
  auto v = ParseSgfResult(ResultToSgf({Winner::kNone, EndReason::kCycle, 0}));
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->reason, EndReason::kVoid);
}

TEST(Result, Names) {
  EXPECT_STREQ(WinnerName(Winner::kNone), "none");
  EXPECT_STREQ(WinnerName(Winner::kBlack), "B");
  EXPECT_STREQ(WinnerName(Winner::kWhite), "W");
  EXPECT_STREQ(WinnerName(Winner::kDraw), "draw");
  const std::vector<std::pair<EndReason, const char*>> reasons = {
      {EndReason::kNotOver, "not-over"},
      {EndReason::kScore, "score"},
      {EndReason::kResign, "resign"},
      {EndReason::kTime, "time"},
      {EndReason::kForfeit, "forfeit"},
      {EndReason::kCycle, "cycle"},
      {EndReason::kMoveLimit, "move-limit"},
      {EndReason::kUnknown, "unknown"},
      {EndReason::kVoid, "void"},
      {EndReason::kIllegal, "illegal"},
      {EndReason::kOther, "other"},
  };
  for (const auto& [r, name] : reasons) EXPECT_STREQ(EndReasonName(r), name);
}

// RecordResult: the RE text read once, with what it means beside it.
TEST(RecordResult, ReadKeepsTheTextAndItsMeaning) {
  const RecordResult b = RecordResult::Read("  b+3.5 ");
  EXPECT_EQ(b.text, "b+3.5");  // trimmed, otherwise as written
  EXPECT_EQ(b.value, Score(Winner::kBlack, 3.5));
  EXPECT_TRUE(b.understood);
  EXPECT_EQ(b.other_reason, "");
  EXPECT_EQ(b.Sgf(), "B+3.5");

  const RecordResult j = RecordResult::Read("W+J");
  EXPECT_EQ(j.value, (GameResult{Winner::kWhite, EndReason::kOther, 0}));
  EXPECT_EQ(j.other_reason, "J");
  EXPECT_EQ(j.Sgf(), "W+J");
  EXPECT_EQ(RecordResult::Read("W").Sgf(), "W");
  EXPECT_EQ(RecordResult::Read("B+Illegal").value.reason, EndReason::kIllegal);

  // No RE, "?": unknown but understood; the default is the same.
  for (const char* unknown : {"", "?", "  "}) {
    const RecordResult u = RecordResult::Read(unknown);
    EXPECT_EQ(u.value.reason, EndReason::kUnknown) << unknown;
    EXPECT_TRUE(u.understood) << unknown;
  }
  EXPECT_EQ(RecordResult::Read(""), RecordResult());
  EXPECT_EQ(RecordResult().Sgf(), "?");
  EXPECT_EQ(RecordResult::Read("?").Sgf(), "?");

  // Text that names no winner, or no margin: not understood, unknown, and
  // written back as it was.
  for (const char* bad : {"Black won", "B+-3", "+3.5"}) {
    const RecordResult r = RecordResult::Read(bad);
    EXPECT_FALSE(r.understood) << bad;
    EXPECT_EQ(r.value.reason, EndReason::kUnknown) << bad;
    EXPECT_EQ(r.text, bad);
    EXPECT_EQ(r.Sgf(), bad);
  }
}

TEST(RecordResult, OfAResultIsItsSgfText) {
  for (const GameResult& g :
       {Score(Winner::kWhite, 0.5), Score(Winner::kDraw, 0),
        GameResult{Winner::kBlack, EndReason::kResign, 0},
        GameResult{Winner::kNone, EndReason::kCycle, 0},
        GameResult{Winner::kWhite, EndReason::kIllegal, 0}}) {
    const RecordResult r = RecordResult::Of(g);
    EXPECT_EQ(r.value, g);
    EXPECT_EQ(r.text, ResultToSgf(g));
    EXPECT_EQ(r.Sgf(), r.text);
    EXPECT_TRUE(r.understood);
  }
  const RecordResult other =
      RecordResult::Of({Winner::kBlack, EndReason::kOther, 0}, "AW");
  EXPECT_EQ(other.text, "B+AW");
  EXPECT_EQ(other.other_reason, "AW");
  // A reason text goes with kOther only.
  EXPECT_EQ(RecordResult::Of(Score(Winner::kBlack, 2), "AW").text, "B+2");
}

TEST(RecordResult, StoredTakesTheGamesResultAndTheTextAsWritten) {
  // A Fox margin in stones, normalised to points: the value is the
  // stored one, the text what the file said.
  const RecordResult fox =
      RecordResult::Stored(Score(Winner::kBlack, 1.5), "B+0.75");
  EXPECT_EQ(fox.text, "B+0.75");
  EXPECT_EQ(fox.Sgf(), "B+1.5");
  // A reason SGF does not define keeps its text when the text reads as
  // the stored result, and only then.
  const GameResult w_other{Winner::kWhite, EndReason::kOther, 0};
  EXPECT_EQ(RecordResult::Stored(w_other, "W+J").Sgf(), "W+J");
  EXPECT_EQ(RecordResult::Stored(w_other, "B+J").Sgf(), "W");
  EXPECT_EQ(RecordResult::Stored(w_other, "").Sgf(), "W");
  // Self-play: no text; the result's own RE.
  const RecordResult self =
      RecordResult::Stored({Winner::kNone, EndReason::kMoveLimit, 0}, "");
  EXPECT_EQ(self.text, "");
  EXPECT_EQ(self.Sgf(), "Void");
  // Unknown: the text as written, "?" without one.
  const GameResult unknown{Winner::kNone, EndReason::kUnknown, 0};
  EXPECT_EQ(RecordResult::Stored(unknown, "garbage").Sgf(), "garbage");
  EXPECT_FALSE(RecordResult::Stored(unknown, "garbage").understood);
  EXPECT_EQ(RecordResult::Stored(unknown, "").Sgf(), "?");
  EXPECT_TRUE(RecordResult::Stored(unknown, "?").understood);
}

}  // namespace
}  // namespace qipu::rules
