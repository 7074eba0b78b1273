// base/bearer.h: the one reading of `authorization` (gRPC metadata and
// the HTTP header alike).
#include "base/bearer.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace qipu::base {
namespace {

TEST(ParseBearer, TakesTheSchemeInAnyCaseAndTrimsTheToken) {
  for (const char* v : {"Bearer qipu_abc", "bearer qipu_abc", "BEARER qipu_abc",
                        "  Bearer   qipu_abc  ", "Bearer\tqipu_abc"}) {
    auto t = ParseBearer({v});
    ASSERT_TRUE(t.ok()) << v << ": " << t.status();
    EXPECT_EQ(*t, "qipu_abc") << v;
  }
}

TEST(ParseBearer, RefusesWhatIsNotExactlyOneBearerToken) {
  struct Case {
    std::vector<absl::string_view> values;
    const char* says;
  };
  for (const Case& c : std::vector<Case>{
           {{}, "no token"},
           {{"Bearer a", "Bearer a"}, "2 authorization headers"},
           {{"Bearer a", ""}, "2 authorization headers"},
           {{"Basic dXNlcjpwdw=="}, "scheme must be Bearer"},
           {{"qipu_secretsecret"}, "scheme must be Bearer"},
           {{"Bearer"}, "without a token"},
           {{"Bearer   "}, "without a token"},
           {{"Bearer a b"}, "blanks inside"},
       }) {
    auto t = ParseBearer(c.values);
    ASSERT_FALSE(t.ok()) << c.says;
    EXPECT_EQ(t.status().code(), absl::StatusCode::kUnauthenticated);
    EXPECT_NE(t.status().message().find(c.says), std::string::npos)
        << t.status();
  }
  // A bare token is not echoed (it would land in logs).
  auto bare = ParseBearer({"qipu_secretsecret"});
  EXPECT_EQ(bare.status().message().find("secret"), std::string::npos);
}

}  // namespace
}  // namespace qipu::base
