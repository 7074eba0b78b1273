// A GoogleTest binary for the test harness's own test
// (tests/common/run_pytest_test.py), not registered with ctest: one test
// that passes and two that skip, one with a reason the test's list of
// allowed skips holds and one with a reason it does not. Run with CI=true,
// qipu_gtest_main (gtest_main.cc) must fail the second skip only.
#include "gtest/gtest.h"

namespace {

TEST(SkipSample, Passes) { EXPECT_EQ(1 + 1, 2); }

TEST(SkipSample, SkipsWithAListedReason) {
  GTEST_SKIP() << "the sample's listed reason";
}

TEST(SkipSample, SkipsWithAnUnlistedReason) {
  GTEST_SKIP() << "the sample's unlisted reason";
}

}  // namespace
