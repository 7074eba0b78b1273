// Coordinates: GTP vertices (columns A-Z skipping I, rows from the bottom,
// up to 25x25) and SGF points (letters from the top-left, "" and "tt"
// passes), both ways, with their errors; board-size checks; dense indices.
#include "rules/coord.h"

#include <string>

#include "gtest/gtest.h"
#include "rules/types.h"

namespace qipu::rules {
namespace {

TEST(Coord, ValidateSize) {
  for (int n : {2, 9, 13, 19, 25}) EXPECT_TRUE(ValidateSize(n, n).ok()) << n;
  EXPECT_TRUE(ValidateSize(2, 25).ok());
  EXPECT_TRUE(ValidateSize(25, 3).ok());
  for (auto [w, h] :
       {std::pair{1, 9}, {9, 1}, {26, 26}, {0, 0}, {-9, 9}, {19, 26}}) {
    const absl::Status s = ValidateSize(w, h);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << w << "x" << h;
    EXPECT_NE(s.message().find("not supported"), std::string::npos);
  }
}

TEST(Coord, GtpNamesOn19x19) {
  EXPECT_EQ(GtpPoint(MakePoint(0, 18), 19), "A1");
  EXPECT_EQ(GtpPoint(MakePoint(0, 0), 19), "A19");
  EXPECT_EQ(GtpPoint(MakePoint(3, 15), 19), "D4");
  EXPECT_EQ(GtpPoint(MakePoint(8, 18), 19), "J1");  // I is skipped
  EXPECT_EQ(GtpPoint(MakePoint(18, 0), 19), "T19");
  EXPECT_EQ(GtpPoint(MakePoint(15, 3), 19), "Q16");
  EXPECT_EQ(GtpPoint(kPass, 19), "pass");
  EXPECT_EQ(GtpPoint(kResign, 19), "resign");
  EXPECT_EQ(*ParseGtpPoint("D4", 19, 19), MakePoint(3, 15));
  EXPECT_EQ(*ParseGtpPoint("J1", 19, 19), MakePoint(8, 18));
  EXPECT_EQ(*ParseGtpPoint("T19", 19, 19), MakePoint(18, 0));
}

TEST(Coord, GtpParsingIsCaseAndSpaceInsensitive) {
  EXPECT_EQ(*ParseGtpPoint("d4", 19, 19), MakePoint(3, 15));
  EXPECT_EQ(*ParseGtpPoint("  q16\t", 19, 19), MakePoint(15, 3));
  EXPECT_EQ(*ParseGtpPoint("pass", 19, 19), kPass);
  EXPECT_EQ(*ParseGtpPoint("PASS", 9, 9), kPass);
  EXPECT_EQ(*ParseGtpPoint("Pass", 9, 9), kPass);
  EXPECT_EQ(*ParseGtpPoint("resign", 9, 9), kResign);
}

TEST(Coord, GtpUpTo25Columns) {
  // 25 columns: A..Z without I; Z is the 25th.
  EXPECT_EQ(GtpPoint(MakePoint(24, 0), 25), "Z25");
  EXPECT_EQ(GtpPoint(MakePoint(24, 24), 25), "Z1");
  EXPECT_EQ(*ParseGtpPoint("Z25", 25, 25), MakePoint(24, 0));
  EXPECT_EQ(*ParseGtpPoint("Y1", 25, 25), MakePoint(23, 24));
  // Rectangles: width from the letters, height from the numbers.
  EXPECT_EQ(*ParseGtpPoint("G2", 7, 2), MakePoint(6, 0));
  EXPECT_FALSE(ParseGtpPoint("H2", 7, 2).ok());
  EXPECT_FALSE(ParseGtpPoint("G3", 7, 2).ok());
}

TEST(Coord, GtpErrorsNameTheVertex) {
  struct Case {
    const char* text;
    const char* why;
  };
  for (const Case& c :
       {Case{"I5", "skip the letter I"}, Case{"i5", "skip the letter I"},
        Case{"", "not a GTP vertex"}, Case{"D", "not a GTP vertex"},
        Case{"4D", "not a GTP vertex"}, Case{"DD4", "not a GTP vertex"},
        Case{"D-4", "not a GTP vertex"}, Case{"D+4", "not a GTP vertex"},
        Case{"D4x", "not a GTP vertex"}, Case{"D 4", "not a GTP vertex"},
        Case{"?4", "not a GTP vertex"}, Case{"T20", "off the 19x19 board"},
        Case{"U1", "off the 19x19 board"}, Case{"A0", "off the 19x19 board"},
        Case{"Z1", "off the 19x19 board"}}) {
    auto p = ParseGtpPoint(c.text, 19, 19);
    ASSERT_FALSE(p.ok()) << c.text;
    EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(p.status().message().find(c.why), std::string::npos)
        << c.text << ": " << p.status();
    EXPECT_NE(p.status().message().find(std::string("'") + c.text + "'"),
              std::string::npos)
        << p.status();
  }
}

TEST(Coord, SgfPoints) {
  EXPECT_EQ(SgfPoint(MakePoint(0, 0)), "aa");
  EXPECT_EQ(SgfPoint(MakePoint(3, 15)), "dp");
  EXPECT_EQ(SgfPoint(MakePoint(18, 18)), "ss");
  EXPECT_EQ(SgfPoint(MakePoint(24, 24)), "yy");
  EXPECT_EQ(SgfPoint(kPass), "");
  EXPECT_EQ(*ParseSgfPoint("dp", 19, 19), MakePoint(3, 15));
  EXPECT_EQ(*ParseSgfPoint("ss", 19, 19), MakePoint(18, 18));
  EXPECT_EQ(*ParseSgfPoint("yy", 25, 25), MakePoint(24, 24));
  // The first letter is the column: "ba" is one step right of "aa".
  EXPECT_EQ(*ParseSgfPoint("ba", 9, 9), MakePoint(1, 0));
}

TEST(Coord, SgfPasses) {
  EXPECT_EQ(*ParseSgfPoint("", 19, 19), kPass);
  EXPECT_EQ(*ParseSgfPoint("tt", 19, 19), kPass);
  EXPECT_EQ(*ParseSgfPoint("tt", 9, 9), kPass);
  EXPECT_EQ(*ParseSgfPoint("tt", 13, 19), kPass);
  // From 20x20 on, tt is a point (FF[4]: the pass is [] only).
  EXPECT_EQ(*ParseSgfPoint("tt", 20, 20), MakePoint(19, 19));
  EXPECT_EQ(*ParseSgfPoint("tt", 25, 25), MakePoint(19, 19));
}

TEST(Coord, SgfErrorsNameTheValue) {
  for (const char* text : {"a", "abc", "a1", "1a", "a-", "??", "aA"}) {
    auto p = ParseSgfPoint(text, 19, 19);
    ASSERT_FALSE(p.ok()) << text;
    EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(p.status().message().find(std::string("'") + text + "'"),
              std::string::npos)
        << p.status();
  }
  // On the board's letters but off this board.
  for (const char* text : {"ta", "at", "zz", "ja"}) {
    auto p = ParseSgfPoint(text, 9, 9);
    ASSERT_FALSE(p.ok()) << text;
    EXPECT_NE(p.status().message().find("off the 9x9 board"), std::string::npos)
        << p.status();
  }
}

TEST(Coord, EveryPointRoundTripsOnEverySize) {
  for (int w = kMinSize; w <= kMaxSize; ++w) {
    for (int h : {kMinSize, 7, w, kMaxSize}) {
      for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
          const Point p = MakePoint(x, y);
          const std::string gtp = GtpPoint(p, h);
          auto back = ParseGtpPoint(gtp, w, h);
          ASSERT_TRUE(back.ok()) << gtp << ": " << back.status();
          ASSERT_EQ(*back, p) << gtp;
          const std::string sgf = SgfPoint(p);
          ASSERT_EQ(sgf.size(), 2u);
          auto sgf_back = ParseSgfPoint(sgf, w, h);
          ASSERT_TRUE(sgf_back.ok()) << sgf << ": " << sgf_back.status();
          ASSERT_EQ(*sgf_back, p) << sgf;
          ASSERT_EQ(FromDenseIndex(DenseIndex(p, w), w), p);
          ASSERT_EQ(DenseIndex(p, w), y * w + x);
        }
      }
    }
  }
}

TEST(Coord, PointLayoutIsTheSameForEverySize) {
  // The padded layout: one wall column shared by adjacent rows, a wall row
  // above and below; pass and resign are wall cells.
  EXPECT_EQ(MakePoint(0, 0), kStride + 1);
  EXPECT_EQ(PointX(MakePoint(24, 3)), 24);
  EXPECT_EQ(PointY(MakePoint(24, 3)), 3);
  EXPECT_EQ(MakePoint(kMaxSize - 1, kMaxSize - 1), kNumCells - kStride - 1);
  EXPECT_LT(kPass, MakePoint(0, 0));
  EXPECT_LT(kResign, MakePoint(0, 0));
  EXPECT_NE(kPass, kResign);
}

}  // namespace
}  // namespace qipu::rules
