// The tournament file of `qipu arena run` (arena/arena_file.h): a full
// file read into the tournament request and arena settings, defaults, and
// every kind of mistake refused with the file, the key and why.
#include "arena/arena_file.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace qipu::arena {
namespace {

using ::testing::HasSubstr;

constexpr char kFull[] = R"({
  // comments are allowed
  "name": "9x9 gauntlet",
  "system": "swiss",
  "rounds": 5,
  "board_size": 9,
  "rules": "chinese",
  "komi": 7.5,
  "clock": "byoyomi:60+3x10",
  "illegal_moves": "chinese",
  "concurrency": 3,
  "seed": 42,
  "index_depth": 30,
  "entrants": [
    {"name": "rand", "spec": "random"},
    {"name": "mcts", "spec": "mcts:playouts=100", "rating": 1500},
    {"name": "engine", "spec": "gtp:/usr/games/gnugo --mode gtp --level 1"}
  ]
})";

TEST(ArenaFileTest, ReadsEveryField) {
  auto f = ParseArenaFile(kFull, "t.json");
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->create.name(), "9x9 gauntlet");
  EXPECT_EQ(f->create.system(), qipu::v1::TOURNAMENT_SYSTEM_SWISS);
  EXPECT_EQ(f->create.rounds(), 5u);
  const qipu::v1::ArenaSettings& a = f->create.arena();
  EXPECT_EQ(a.size(), 9u);
  EXPECT_EQ(a.rules(), "chinese");
  EXPECT_EQ(a.komi(), 7.5);
  EXPECT_EQ(a.time(), "byoyomi:60+3x10");
  EXPECT_EQ(a.illegal(), "chinese");
  EXPECT_EQ(a.concurrency(), 3u);
  EXPECT_EQ(a.seed(), 42u);
  EXPECT_EQ(a.index_depth(), 30u);
  ASSERT_EQ(a.entrants_size(), 3);
  EXPECT_EQ(a.entrants(1).name(), "mcts");
  EXPECT_EQ(a.entrants(1).spec(), "mcts:playouts=100");
  ASSERT_EQ(f->entrants.size(), 3u);
  EXPECT_EQ(f->entrants[1].rating, 1500);
}

TEST(ArenaFileTest, Defaults) {
  auto f = ParseArenaFile(
      R"({"name": "x", "entrants": [{"name": "a", "spec": "random"},
                                    {"name": "b", "spec": "random"}]})",
      "t.json");
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->create.system(), qipu::v1::TOURNAMENT_SYSTEM_ROUND_ROBIN);
  const qipu::v1::ArenaSettings& a = f->create.arena();
  EXPECT_EQ(a.size(), 19u);
  EXPECT_EQ(a.time(), "none");
  EXPECT_EQ(a.illegal(), "forfeit");
  EXPECT_EQ(a.concurrency(), 1u);
  EXPECT_EQ(a.index_depth(), 60u);
}

// Each bad file and a fragment the error must contain.
struct Bad {
  const char* text;
  const char* error;
};

TEST(ArenaFileTest, RefusesMistakesWithWhereAndWhy) {
  const Bad bad[] = {
      {"{\"name\": \"x\",\n \"entrants\": [}", "t.json: not JSON"},
      {"[1, 2]", "must be a JSON object"},
      {R"({"entrants": []})", "\"name\": missing"},
      {R"({"name": "x", "systen": "swiss"})", "\"systen\": unknown key"},
      {R"({"name": "x", "system": "ladder"})", "\"system\": system 'ladder'"},
      {R"({"name": "x", "board_size": 40})",
       "\"board_size\": 40 is out of range"},
      {R"({"name": "x", "board_size": "9"})",
       "\"board_size\": must be an integer"},
      {R"({"name": "x", "rules": "klingon"})", "\"rules\""},
      {R"({"name": "x", "komi": 7.3})", "\"komi\""},
      {R"({"name": "x", "handicap": 1})", "\"handicap\": must be 0 or 2..9"},
      {R"({"name": "x", "clock": "soon"})", "\"clock\""},
      {R"({"name": "x", "illegal_moves": "lenient"})", "\"illegal_moves\""},
      {R"({"name": "x", "concurrency": 0})",
       "\"concurrency\": 0 is out of range"},
      {R"({"name": "x"})", "\"entrants\": required"},
      {R"({"name": "x", "entrants": [{"name": "a", "spec": "random"}]})",
       "at least 2 entrants"},
      {R"({"name": "x", "entrants": [{"name": "a", "spec": "random"},
                                     {"name": "a", "spec": "random"}]})",
       "entrants[1]: the name \"a\" is taken"},
      {R"({"name": "x", "entrants": [{"name": "a", "spec": "randomm"},
                                     {"name": "b", "spec": "random"}]})",
       "entrants[0]: \"spec\""},
      {R"({"name": "x", "entrants": [{"name": "a"},
                                     {"name": "b", "spec": "random"}]})",
       "entrants[0]: \"spec\": missing"},
      {R"({"name": "x", "entrants": [{"name": "a", "spec": "random", "x": 1},
                                     {"name": "b", "spec": "random"}]})",
       "entrants[0]: \"x\": unknown key"},
      {R"({"name": "x", "entrants": ["a", "b"]})",
       "entrants[0]: must be an object"},
  };
  for (const Bad& b : bad) {
    auto f = ParseArenaFile(b.text, "t.json");
    ASSERT_FALSE(f.ok()) << b.text;
    EXPECT_EQ(f.status().code(), absl::StatusCode::kInvalidArgument) << b.text;
    EXPECT_THAT(std::string(f.status().message()), HasSubstr(b.error))
        << b.text;
    EXPECT_THAT(std::string(f.status().message()), HasSubstr("t.json"))
        << b.text;
  }
}

TEST(ArenaFileTest, MissingFileIsNotFound) {
  auto f = ReadArenaFile("/nonexistent/dir/t.json");
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(f.status().message()),
              HasSubstr("/nonexistent/dir/t.json"));
}

}  // namespace
}  // namespace qipu::arena
