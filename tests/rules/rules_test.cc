// Rules: the presets and every axis -- names both ways, komi validation,
// the move cap, the canonical key used in configuration, and the mapping
// from SGF RU values.
#include "rules/rules.h"

#include <limits>
#include <set>
#include <string>

#include "gtest/gtest.h"
#include "rules/rules_key.h"

namespace qipu::rules {
namespace {

TEST(Rules, DefaultIsTheChinesePreset) {
  const Rules r;
  EXPECT_EQ(r.ko, KoRule::kSimple);
  EXPECT_EQ(r.cycle, CycleRule::kNoResult);
  EXPECT_FALSE(r.multi_stone_suicide);
  EXPECT_EQ(r.komi, 7.5);
  EXPECT_EQ(r.dame, DameRule::kHalf);
  EXPECT_EQ(r.handicap_compensation, HandicapCompensation::kFull);
  EXPECT_EQ(r.move_cap, 0);
  EXPECT_EQ(*PresetRules("chinese"), r);
  EXPECT_EQ(PresetName(r), "chinese");
}

TEST(Rules, Presets) {
  const Rules tt = *PresetRules("tromp-taylor");
  EXPECT_EQ(tt.ko, KoRule::kPositional);
  EXPECT_EQ(tt.cycle, CycleRule::kNone);
  EXPECT_TRUE(tt.multi_stone_suicide);
  EXPECT_EQ(tt.dame, DameRule::kNone);
  EXPECT_EQ(tt.handicap_compensation, HandicapCompensation::kNone);

  const Rules superko = *PresetRules("chinese-superko");
  EXPECT_EQ(superko.ko, KoRule::kSituational);
  EXPECT_FALSE(superko.multi_stone_suicide);
  EXPECT_EQ(superko.dame, DameRule::kHalf);

  const Rules aga = *PresetRules("aga");
  EXPECT_EQ(aga.ko, KoRule::kSituational);
  EXPECT_EQ(aga.handicap_compensation, HandicapCompensation::kMinusOne);
  EXPECT_FALSE(aga.multi_stone_suicide);

  const Rules nz = *PresetRules("new-zealand");
  EXPECT_EQ(nz.ko, KoRule::kSituational);
  EXPECT_TRUE(nz.multi_stone_suicide);
  EXPECT_EQ(nz.komi, 7);

  // Every preset is distinct and names itself.
  std::set<std::string> keys;
  for (const char* name :
       {"chinese", "chinese-superko", "tromp-taylor", "aga", "new-zealand"}) {
    auto r = PresetRules(name);
    ASSERT_TRUE(r.ok()) << name;
    EXPECT_EQ(PresetName(*r), name);
    keys.insert(RulesKey(*r).Text());
  }
  EXPECT_EQ(keys.size(), 5u);
}

TEST(Rules, PresetNamesAreCaseInsensitiveAndErrorsListTheKnownOnes) {
  EXPECT_EQ(*PresetRules("Chinese"), Rules{});
  EXPECT_EQ(*PresetRules("TROMP-TAYLOR"), *PresetRules("tromp-taylor"));
  auto bad = PresetRules("japanese");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("'japanese'"), std::string::npos);
  EXPECT_NE(bad.status().message().find("tromp-taylor"), std::string::npos);
}

TEST(Rules, ChangingAnAxisMakesACustomRuleSet) {
  Rules r;
  r.komi = 6.5;
  EXPECT_EQ(PresetName(r), "custom");
  r = Rules{};
  r.move_cap = 100;
  EXPECT_EQ(PresetName(r), "custom");
  r = Rules{};
  r.cycle = CycleRule::kDraw;
  EXPECT_EQ(PresetName(r), "custom");
}

TEST(Rules, AxisNamesRoundTrip) {
  for (KoRule k :
       {KoRule::kSimple, KoRule::kPositional, KoRule::kSituational}) {
    EXPECT_EQ(*ParseKoRule(KoRuleName(k)), k);
  }
  for (CycleRule c : {CycleRule::kNone, CycleRule::kNoResult, CycleRule::kDraw,
                      CycleRule::kReplay}) {
    EXPECT_EQ(*ParseCycleRule(CycleRuleName(c)), c);
  }
  EXPECT_STREQ(KoRuleName(KoRule::kSituational), "situational");
  EXPECT_STREQ(CycleRuleName(CycleRule::kNoResult), "no-result");
  EXPECT_STREQ(DameRuleName(DameRule::kHalf), "half");
  EXPECT_STREQ(DameRuleName(DameRule::kNone), "none");
  EXPECT_STREQ(HandicapCompensationName(HandicapCompensation::kMinusOne),
               "minus-one");
  EXPECT_STREQ(HandicapCompensationName(HandicapCompensation::kFull), "full");
  EXPECT_STREQ(HandicapCompensationName(HandicapCompensation::kNone), "none");

  auto bad_ko = ParseKoRule("superko");
  ASSERT_FALSE(bad_ko.ok());
  EXPECT_NE(bad_ko.status().message().find("positional"), std::string::npos);
  auto bad_cycle = ParseCycleRule("void");
  ASSERT_FALSE(bad_cycle.ok());
  EXPECT_NE(bad_cycle.status().message().find("no-result"), std::string::npos);
}

TEST(Rules, KomiMustBeAFiniteMultipleOfAHalf) {
  for (double k : {7.5, 7.0, 0.0, -3.5, 6.5, 1000.0, -1000.0}) {
    EXPECT_TRUE(ValidateKomi(k).ok()) << k;
  }
  for (double k : {7.25, 0.1, 3.75, 1000.5, -2000.0,
                   std::numeric_limits<double>::infinity(),
                   std::numeric_limits<double>::quiet_NaN()}) {
    const absl::Status s = ValidateKomi(k);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << k;
  }
}

TEST(Rules, MoveCapDefaultsToThreeTimesTheArea) {
  Rules r;
  EXPECT_EQ(MoveCap(r, 19, 19), 1083);
  EXPECT_EQ(MoveCap(r, 9, 9), 243);
  EXPECT_EQ(MoveCap(r, 7, 3), 63);
  r.move_cap = 50;
  EXPECT_EQ(MoveCap(r, 19, 19), 50);
}

TEST(Rules, RulesKeyIsStable) {
  // Used in configuration keys: the exact text is a format.
  EXPECT_EQ(RulesKey(Rules{}).Text(),
            "ko=simple cycle=no-result suicide=0 komi=7.5 dame=half "
            "hcomp=full cap=0");
  EXPECT_EQ(RulesKey(*PresetRules("tromp-taylor")).Text(),
            "ko=positional cycle=none suicide=1 komi=7.5 dame=none "
            "hcomp=none cap=0");
  Rules r = *PresetRules("new-zealand");
  r.move_cap = 400;
  EXPECT_EQ(RulesKey(r).Text(),
            "ko=situational cycle=none suicide=1 komi=7 dame=none "
            "hcomp=none cap=400");
}

TEST(Rules, FromSgf) {
  std::string note;
  EXPECT_EQ(RulesFromSgf("Chinese", &note), Rules{});
  EXPECT_EQ(note, "");
  EXPECT_EQ(RulesFromSgf("CN", &note), Rules{});
  EXPECT_EQ(RulesFromSgf("", &note), Rules{});
  EXPECT_EQ(RulesFromSgf(" AGA ", &note), *PresetRules("aga"));
  EXPECT_EQ(RulesFromSgf("NZ", &note), *PresetRules("new-zealand"));
  EXPECT_EQ(RulesFromSgf("New Zealand", &note), *PresetRules("new-zealand"));
  EXPECT_EQ(RulesFromSgf("Tromp-Taylor", &note), *PresetRules("tromp-taylor"));
  EXPECT_EQ(RulesFromSgf("tromp_taylor", &note), *PresetRules("tromp-taylor"));
  EXPECT_EQ(note, "");
  // Territory rules are not implemented: replayed under chinese, noted.
  for (const char* ru : {"Japanese", "Korean", "GOE", "whatever"}) {
    note.clear();
    EXPECT_EQ(RulesFromSgf(ru, &note), Rules{}) << ru;
    EXPECT_NE(note.find(ru), std::string::npos) << note;
    EXPECT_NE(note.find("chinese"), std::string::npos) << note;
  }
  EXPECT_EQ(RulesFromSgf("Japanese", nullptr), Rules{});
}

}  // namespace
}  // namespace qipu::rules
