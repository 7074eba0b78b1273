#include "rules/player_name.h"

#include "gtest/gtest.h"

namespace qipu::rules {
namespace {

TEST(PlayerName, FoldsCaseSpacingAndFullWidth) {
  EXPECT_EQ(FoldText("Ke Jie"), "ke jie");
  EXPECT_EQ(FoldText("  KE   JIE "), "ke jie");
  EXPECT_EQ(FoldText("ＫＥ　ＪＩＥ"), "ke jie");
  EXPECT_EQ(FoldText("Ke_Jie"), "ke jie");
  EXPECT_EQ(FoldText("柯 洁"), "柯洁");
  EXPECT_EQ(FoldText("柯洁"), "柯洁");
  EXPECT_EQ(FoldText("Ke\tJie"), "ke jie");
  EXPECT_EQ(FoldText(""), "");
  // Invalid UTF-8 becomes U+FFFD (keys are stored in proto strings).
  EXPECT_EQ(FoldText("a\xff b"), "a\uFFFDb");
}

TEST(PlayerName, SplitsRanksOffNames) {
  PlayerName a = ParsePlayerName("Ke Jie 9p", "");
  EXPECT_EQ(a.written, "Ke Jie 9p");
  EXPECT_EQ(a.key, "ke jie");
  EXPECT_EQ(a.rank, "9p");
  PlayerName b = ParsePlayerName("柯洁 九段", "");
  EXPECT_EQ(b.key, "柯洁");
  EXPECT_EQ(b.rank, "9p");
  PlayerName c = ParsePlayerName("柯洁九段", "");
  EXPECT_EQ(c.key, "柯洁");
  EXPECT_EQ(c.rank, "9p");
  PlayerName d = ParsePlayerName("ＫＥ　ＪＩＥ", "");
  EXPECT_EQ(d.key, "ke jie");
  EXPECT_EQ(d.rank, "");
  PlayerName e = ParsePlayerName("Lee Sedol (9d)", "");
  EXPECT_EQ(e.key, "lee sedol");
  EXPECT_EQ(e.rank, "9d");
  PlayerName f = ParsePlayerName("guest 3 kyu", "");
  EXPECT_EQ(f.key, "guest");
  EXPECT_EQ(f.rank, "3k");
  PlayerName g = ParsePlayerName("신진서 9단", "");
  EXPECT_EQ(g.key, "신진서");
  EXPECT_EQ(g.rank, "9p");
  PlayerName h = ParsePlayerName("Amateur 业余5段", "");
  EXPECT_EQ(h.key, "amateur");
  EXPECT_EQ(h.rank, "5d");
}

TEST(PlayerName, RankFieldWinsAndTitlesSplit) {
  PlayerName a = ParsePlayerName("Ke Jie 9p", "8p");
  EXPECT_EQ(a.rank, "8p");
  EXPECT_EQ(a.key, "ke jie");
  PlayerName b = ParsePlayerName("Iyama Yuta Meijin", "9段");
  EXPECT_EQ(b.key, "iyama yuta");
  EXPECT_EQ(b.title, "meijin");
  EXPECT_EQ(b.rank, "9p");
  // A title word that begins a name stays in it.
  PlayerName c = ParsePlayerName("Honinbo Shusaku", "");
  EXPECT_EQ(c.key, "honinbo shusaku");
  // A name that is only a rank (or a title) keeps it as its key.
  EXPECT_EQ(ParsePlayerName("9p", "").key, "9p");
  EXPECT_EQ(ParsePlayerName("Meijin", "").key, "meijin");
  // An unreadable rank field is ignored; a name's rank is used.
  PlayerName d = ParsePlayerName("Gu Li 9p", "pro");
  EXPECT_EQ(d.rank, "9p");
}

TEST(PlayerName, CanonicalRanks) {
  EXPECT_EQ(CanonicalRank("9p"), "9p");
  EXPECT_EQ(CanonicalRank("9P"), "9p");
  EXPECT_EQ(CanonicalRank("P9"), "9p");
  EXPECT_EQ(CanonicalRank("P9段"), "9p");
  EXPECT_EQ(CanonicalRank("P7段"), "7p");
  EXPECT_EQ(CanonicalRank("９段"), "9p");
  EXPECT_EQ(CanonicalRank("九段"), "9p");
  EXPECT_EQ(CanonicalRank("5d"), "5d");
  EXPECT_EQ(CanonicalRank("5 dan"), "5d");
  EXPECT_EQ(CanonicalRank("3k"), "3k");
  EXPECT_EQ(CanonicalRank("三级"), "3k");
  EXPECT_EQ(CanonicalRank("二十級"), "20k");
  EXPECT_EQ(CanonicalRank("[2k]"), "2k");
  EXPECT_EQ(CanonicalRank("10p"), "");
  EXPECT_EQ(CanonicalRank("31k"), "");
  EXPECT_EQ(CanonicalRank("0d"), "");
  EXPECT_EQ(CanonicalRank("Jie"), "");
  EXPECT_EQ(CanonicalRank(""), "");
  EXPECT_EQ(CanonicalRank("d"), "");
}

TEST(PlayerName, RanksOrderKyuDanPro) {
  EXPECT_EQ(RankOrder("30k"), 1);
  EXPECT_EQ(RankOrder("1k"), 30);
  EXPECT_LT(RankOrder("1k"), RankOrder("1d"));
  EXPECT_LT(RankOrder("9d"), RankOrder("1p"));
  EXPECT_EQ(RankOrder("9p"), 48);
  EXPECT_EQ(RankOrder(""), 0);
  EXPECT_EQ(RankOrder("9x"), 0);
}

}  // namespace
}  // namespace qipu::rules
