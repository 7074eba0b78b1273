// Time controls' text forms (gtp/time_settings.h): what tournament files,
// `qipu play` and reports say, read back; SGF's OT; bad text refused with
// what was expected.
#include "gtp/time_settings.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace qipu::gtp {
namespace {

using ::testing::HasSubstr;

TimeSettings Parse(const char* text) {
  absl::StatusOr<TimeSettings> t = ParseTimeSettings(text);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *t : TimeSettings{};
}

TEST(TimeSettings, TextFormsReadBack) {
  for (const char* text : {"none", "absolute:1800", "byoyomi:600+3x30",
                           "byoyomi:0+1x1", "canadian:600+25/300",
                           "byoyomi:60+3x10,pass", "canadian:0+5/60,pass"}) {
    SCOPED_TRACE(text);
    EXPECT_EQ(TimeSettingsText(Parse(text)), text);
  }
  EXPECT_EQ(Parse("byoyomi:600+3x30"),
            (TimeSettings{TimeSystem::kJapanese, 600, 30, 3}));
  EXPECT_EQ(Parse("canadian:600+25/300"),
            (TimeSettings{TimeSystem::kCanadian, 600, 300, 25}));
  EXPECT_EQ(
      Parse("byoyomi:60+3x10,pass"),
      (TimeSettings{TimeSystem::kJapanese, 60, 10, 3, LastPeriod::kPass}));
  EXPECT_EQ(OvertimeText(Parse("byoyomi:600+3x30")), "3x30 byo-yomi");
  EXPECT_EQ(OvertimeText(Parse("canadian:600+25/300")), "25/300 Canadian");
  EXPECT_THAT(OvertimeText(Parse("byoyomi:600+3x30,pass")),
              HasSubstr("a pass"));
  EXPECT_EQ(OvertimeText(Parse("absolute:60")), "");
}

TEST(TimeSettings, BadTextSaysWhatWasExpected) {
  for (const char* bad :
       {"", "absolute", "absolute:0", "absolute:-5", "byoyomi:600+3x0",
        "byoyomi:600+0x30", "byoyomi:600", "canadian:600+25x300",
        "fischer:60+5", "absolute:99999999", "byoyomi:1+2x3x4",
        "absolute:60,pass", "none,pass", "byoyomi:60+3x10,passs"}) {
    SCOPED_TRACE(bad);
    absl::StatusOr<TimeSettings> t = ParseTimeSettings(bad);
    ASSERT_FALSE(t.ok());
    EXPECT_TRUE(absl::IsInvalidArgument(t.status()));
    EXPECT_FALSE(t.status().message().empty());
  }
  EXPECT_FALSE(ValidateTimeSettings({TimeSystem::kCanadian, 0, 0, 5}).ok());
  EXPECT_FALSE(
      ValidateTimeSettings({TimeSystem::kAbsolute, 60, 0, 0, LastPeriod::kPass})
          .ok());
  EXPECT_TRUE(ValidateTimeSettings({}).ok());
}

}  // namespace
}  // namespace qipu::gtp
