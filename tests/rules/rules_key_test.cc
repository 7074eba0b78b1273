// RulesKey: the text of a rule set. A complete key is stored (the
// configuration buckets' rules_key, the QR property), so its text is
// pinned byte for byte here for every preset and for custom rules; Parse()
// reads every such text back to the same key; a partial key (a query
// filter's rules) matches the keys that agree on the axes it names.
#include "rules/rules_key.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "rules/rules.h"

namespace qipu::rules {
namespace {

// The stored text of each preset: a data format, never to change.
TEST(RulesKey, GoldenTextOfEveryPreset) {
  const std::vector<std::pair<std::string, std::string>> golden = {
      {"chinese",
       "ko=simple cycle=no-result suicide=0 komi=7.5 dame=half hcomp=full "
       "cap=0"},
      {"chinese-superko",
       "ko=situational cycle=no-result suicide=0 komi=7.5 dame=half "
       "hcomp=full cap=0"},
      {"tromp-taylor",
       "ko=positional cycle=none suicide=1 komi=7.5 dame=none hcomp=none "
       "cap=0"},
      {"aga",
       "ko=situational cycle=none suicide=0 komi=7.5 dame=none "
       "hcomp=minus-one cap=0"},
      {"new-zealand",
       "ko=situational cycle=none suicide=1 komi=7 dame=none hcomp=none "
       "cap=0"},
  };
  ASSERT_EQ(PresetNames().size(), golden.size());
  for (size_t i = 0; i < golden.size(); ++i) {
    const auto& [name, text] = golden[i];
    EXPECT_EQ(PresetNames()[i], name);
    auto r = PresetRules(name);
    ASSERT_TRUE(r.ok()) << name;
    EXPECT_EQ(RulesKey(*r).Text(), text) << name;
  }
}

TEST(RulesKey, GoldenTextOfCustomRules) {
  Rules r;
  r.cycle = CycleRule::kDraw;
  r.komi = -3.5;
  r.move_cap = 400;
  EXPECT_EQ(RulesKey(r).Text(),
            "ko=simple cycle=draw suicide=0 komi=-3.5 dame=half hcomp=full "
            "cap=400");
  r.cycle = CycleRule::kReplay;
  r.komi = 0;
  r.multi_stone_suicide = true;
  r.handicap_compensation = HandicapCompensation::kNone;
  EXPECT_EQ(RulesKey(r).Text(),
            "ko=simple cycle=replay suicide=1 komi=0 dame=half hcomp=none "
            "cap=400");
  r.komi = 1000;
  EXPECT_NE(RulesKey(r).Text().find(" komi=1000 "), std::string::npos);
  r.komi = -999.5;
  EXPECT_NE(RulesKey(r).Text().find(" komi=-999.5 "), std::string::npos);
}

// Every axis value and every komi a rule set may have reads back.
TEST(RulesKey, CompleteKeysRoundTrip) {
  int checked = 0;
  for (KoRule ko :
       {KoRule::kSimple, KoRule::kPositional, KoRule::kSituational}) {
    for (CycleRule cycle : {CycleRule::kNone, CycleRule::kNoResult,
                            CycleRule::kDraw, CycleRule::kReplay}) {
      for (DameRule dame : {DameRule::kHalf, DameRule::kNone}) {
        for (HandicapCompensation h :
             {HandicapCompensation::kNone, HandicapCompensation::kFull,
              HandicapCompensation::kMinusOne}) {
          for (double komi : {-1000.0, -0.5, 0.0, 0.5, 6.5, 7.0, 375.5}) {
            Rules r;
            r.ko = ko;
            r.cycle = cycle;
            r.dame = dame;
            r.handicap_compensation = h;
            r.komi = komi;
            r.multi_stone_suicide = checked % 2 == 1;
            r.move_cap = checked % 3 == 0 ? 0 : checked;
            const RulesKey key(r);
            EXPECT_TRUE(key.complete());
            auto back = RulesKey::Parse(key.Text());
            ASSERT_TRUE(back.ok()) << key.Text() << ": " << back.status();
            EXPECT_EQ(*back, key) << key.Text();
            EXPECT_EQ(back->Text(), key.Text());
            auto rules = back->ToRules();
            ASSERT_TRUE(rules.ok()) << rules.status();
            EXPECT_EQ(*rules, r) << key.Text();
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_EQ(checked, 3 * 4 * 2 * 3 * 7);
}

TEST(RulesKey, PartialKeysReadCommasOrSpacesInAnyOrder) {
  auto k = RulesKey::Parse("cycle=draw, ko=positional");
  ASSERT_TRUE(k.ok()) << k.status();
  EXPECT_EQ(k->ko, KoRule::kPositional);
  EXPECT_EQ(k->cycle, CycleRule::kDraw);
  EXPECT_FALSE(k->multi_stone_suicide.has_value());
  EXPECT_FALSE(k->complete());
  EXPECT_EQ(k->Text(), "ko=positional cycle=draw");
  auto missing = k->ToRules();
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(missing.status().message().find("suicide, komi, dame, hcomp, cap"),
            std::string::npos)
      << missing.status();

  auto empty = RulesKey::Parse(" ,, ");
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(*empty, RulesKey());
  EXPECT_EQ(empty->Text(), "");
}

TEST(RulesKey, MatchedByKeysThatAgreeOnTheAxesItNames) {
  const RulesKey chinese(*PresetRules("chinese"));
  const RulesKey tromp(*PresetRules("tromp-taylor"));
  EXPECT_TRUE(RulesKey().MatchedBy(chinese));
  EXPECT_TRUE(RulesKey::Parse("ko=simple")->MatchedBy(chinese));
  EXPECT_FALSE(RulesKey::Parse("ko=simple")->MatchedBy(tromp));
  EXPECT_TRUE(RulesKey::Parse("suicide=1 dame=none")->MatchedBy(tromp));
  EXPECT_FALSE(RulesKey::Parse("suicide=1 dame=half")->MatchedBy(tromp));
  EXPECT_TRUE(RulesKey::Parse("cap=0")->MatchedBy(tromp));
  // An axis the other key lacks does not match.
  EXPECT_FALSE(RulesKey::Parse("ko=simple")->MatchedBy(RulesKey()));
  // A preset without komi and cap matches the preset at any komi and cap.
  Rules other_komi = *PresetRules("chinese");
  other_komi.komi = 6.5;
  other_komi.move_cap = 200;
  EXPECT_FALSE(chinese.MatchedBy(RulesKey(other_komi)));
  EXPECT_TRUE(chinese.WithoutKomiAndCap().MatchedBy(RulesKey(other_komi)));
  EXPECT_EQ(chinese.WithoutKomiAndCap().Text(),
            "ko=simple cycle=no-result suicide=0 dame=half hcomp=full");
}

TEST(RulesKey, BadTokensAreInvalidArgumentQuotingTheTokenAndSayingWhy) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"japanese",
       "'japanese' is not axis=value with axis ko, cycle, "
       "suicide, komi, dame, hcomp, cap"},
      {"ko=simple speed=9", "'speed=9' is not axis=value"},
      {"ko=superko", "'ko=superko': unknown ko rule 'superko'"},
      {"cycle=sometimes", "'cycle=sometimes': unknown cycle rule"},
      {"suicide=yes", "'suicide=yes': suicide is 0 or 1"},
      {"komi=6.3", "'komi=6.3': komi 6.3 is not a multiple of 0.5"},
      {"komi=lots", "'komi=lots': komi is a number of points"},
      {"dame=all", "'dame=all': dame is half or none"},
      {"hcomp=some", "'hcomp=some': hcomp is none, full or minus-one"},
      {"cap=-1", "'cap=-1': cap is a number of moves (0 = default)"},
      {"cap=x", "'cap=x': cap is a number of moves"},
      {"ko=simple,ko=simple", "'ko=simple': ko is given twice"},
  };
  for (const auto& [text, why] : bad) {
    auto k = RulesKey::Parse(text);
    ASSERT_FALSE(k.ok()) << text;
    EXPECT_EQ(k.status().code(), absl::StatusCode::kInvalidArgument) << text;
    EXPECT_NE(k.status().message().find(why), std::string::npos)
        << text << ": " << k.status();
  }
}

}  // namespace
}  // namespace qipu::rules
