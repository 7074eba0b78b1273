// backend/query_args.h: the one mapping from argument names to request
// fields that `qipu query` and the HTTP API share.
#include "backend/query_args.h"

#include <set>
#include <string>

#include "gtest/gtest.h"

namespace qipu::backend {
namespace {

TEST(QueryArgs, BuildsTheRequests) {
  auto req = OpeningsFromArgs({{"size", "13"},
                               {"moves", "D4, Q16;pass  B:K10"},
                               {"setup", "B:D4 W:K10"},
                               {"to-play", "white"},
                               {"examples", "5"},
                               {"limit", "7"},
                               {"komi", "6.5"},
                               {"from", "20200101"},
                               {"job", "4"}},
                              "--");
  ASSERT_TRUE(req.ok()) << req.status();
  EXPECT_EQ(req->filter().width(), 13u);
  EXPECT_EQ(req->filter().height(), 13u);
  ASSERT_EQ(req->moves_size(), 4);
  EXPECT_EQ(req->moves(3), "B:K10");
  EXPECT_EQ(req->setup_size(), 2);
  EXPECT_EQ(req->to_play(), qipu::v1::COLOR_WHITE);
  EXPECT_EQ(req->examples(), 5u);
  EXPECT_EQ(req->limit(), 7u);
  EXPECT_TRUE(req->filter().has_komi());
  EXPECT_DOUBLE_EQ(req->filter().komi(), 6.5);
  EXPECT_EQ(req->filter().date_from(), 20200101u);
  EXPECT_EQ(req->filter().source(), "job:4");
  auto wh = FilterFromArgs({{"size", "9x13"}}, "");
  ASSERT_TRUE(wh.ok());
  EXPECT_EQ(wh->width(), 9u);
  EXPECT_EQ(wh->height(), 13u);
  auto defaults = CyclesFromArgs({}, "");
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->examples(), 3u);
}

TEST(QueryArgs, ErrorsNameTheArgumentAsSpelt) {
  const std::pair<QueryArgs, std::string> cases[] = {
      {{{"size", "x"}}, "size"},
      {{{"komi", "seven"}}, "komi"},
      {{{"limit", "1001"}}, "limit"},
      {{{"examples", "0"}}, "examples"},
      {{{"to-play", "X"}}, "to-play"},
      {{{"from", "2020"}}, "from"},
      {{{"handicap", "-1"}}, "handicap"},
      {{{"job", "1"}, {"source", "a"}}, "job"},
  };
  for (const auto& [args, name] : cases) {
    for (const std::string prefix : {"--", ""}) {
      auto r = OpeningsFromArgs(args, prefix);
      ASSERT_FALSE(r.ok()) << name;
      EXPECT_TRUE(absl::IsInvalidArgument(r.status()));
      EXPECT_EQ(
          std::string(r.status().message()).rfind(prefix + name + ": ", 0), 0u)
          << r.status();
    }
  }
}

TEST(QueryArgs, UnknownAndRepeatedNames) {
  EXPECT_TRUE(CheckQueryArgs(QueryKind::kOpenings,
                             {{"moves", "Q16"}, {"size", "19"}}, "")
                  .ok());
  const absl::Status unknown =
      CheckQueryArgs(QueryKind::kKo, {{"moves", "Q16"}}, "--");
  EXPECT_TRUE(absl::IsInvalidArgument(unknown));
  EXPECT_NE(unknown.message().find("--moves: unknown"), std::string::npos);
  EXPECT_NE(unknown.message().find("--size"), std::string::npos);
  const absl::Status twice =
      CheckQueryArgs(QueryKind::kKo, {{"size", "9"}, {"size", "19"}}, "");
  EXPECT_NE(twice.message().find("size: given twice"), std::string::npos);
  // Every kind has its arguments; names are unique.
  std::set<std::string> names;
  for (const QueryArgSpec& s : QueryArgSpecs()) {
    EXPECT_TRUE(names.insert(s.name).second) << s.name;
  }
  EXPECT_EQ(QueryArgSpecsOf(QueryKind::kGame).size(), 1u);
  EXPECT_GE(QueryArgSpecsOf(QueryKind::kPattern).size(), 15u);
}

TEST(QueryArgs, EngineFieldsRenamed) {
  EXPECT_EQ(
      NameArgsInStatus(absl::InvalidArgumentError("filter.komi: bad"), "--")
          .message(),
      "--komi: bad");
  EXPECT_EQ(NameArgsInStatus(absl::InvalidArgumentError("to_play: neither"), "")
                .message(),
            "to-play: neither");
  EXPECT_EQ(NameArgsInStatus(absl::InvalidArgumentError("filter.date: x"), "")
                .message(),
            "from/to: x");
  const absl::Status other = absl::UnavailableError("moves are fine");
  EXPECT_EQ(NameArgsInStatus(other, "--"), other);
}

TEST(QueryArgs, PatternArguments) {
  auto p = PatternArgsFromArgs({{"pattern", "XO./.*x/o.X"},
                                {"placement", "corner"},
                                {"anchor", "A19"},
                                {"colour-swap", "1"},
                                {"page-size", "50"},
                                {"size", "19"}},
                               "");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->rows.size(), 3u);
  EXPECT_EQ(p->placement, "corner");
  EXPECT_TRUE(p->colour_swap);
  EXPECT_EQ(p->page_size, 50u);
  EXPECT_EQ(p->filter.width(), 19u);
  for (const QueryArgs& bad :
       {QueryArgs{}, QueryArgs{{"pattern", "XQ"}},
        QueryArgs{{"pattern", "XO/X"}},
        QueryArgs{{"pattern", "X"}, {"placement", "middle"}},
        QueryArgs{{"pattern", "X"}, {"page-size", "5000"}},
        QueryArgs{{"pattern", "X"}, {"colour-swap", "maybe"}}}) {
    EXPECT_TRUE(absl::IsInvalidArgument(PatternArgsFromArgs(bad, "").status()));
  }
}

}  // namespace
}  // namespace qipu::backend
