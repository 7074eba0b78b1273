// proto <-> rules conversions: the packed point lists of every board width
// round-trip; a self-play game converted directly (SelfPlayToProto) is the
// same message as its record converted (RecordToGame), with and without
// handicap stones.
#include "proto/convert.h"

#include <string>
#include <vector>

#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "rules/coord.h"
#include "rules/game.h"
#include "rules/rules.h"
#include "rules/scoring.h"
#include "rules/selfplay.h"

namespace qipu::wire {
namespace {

TEST(Convert, PackedPointsRoundTripOnEveryWidth) {
  for (int w = rules::kMinSize; w <= rules::kMaxSize; w += 1) {
    const int h = w == rules::kMaxSize      ? 2
                  : w + 1 > rules::kMaxSize ? w
                                            : w + 1;
    std::vector<rules::Point> points = {rules::kPass};
    for (int i = 0; i < w * h; ++i)
      points.push_back(rules::FromDenseIndex(i, w));
    points.push_back(rules::kPass);
    auto back = UnpackPoints(PackPoints(points, w), w, h, /*allow_pass=*/true);
    ASSERT_TRUE(back.ok()) << w << "x" << h << ": " << back.status();
    EXPECT_EQ(*back, points) << w << "x" << h;
  }
  // Off the board, and a pass where none is allowed.
  EXPECT_FALSE(
      UnpackPoints(PackPoints({rules::MakePoint(0, 3)}, 9), 9, 3, true).ok());
  EXPECT_FALSE(UnpackPoints(PackPoints({rules::kPass}, 9), 9, 9, false).ok());
}

// Varints the fast path leaves to the general decoder: longer than two
// bytes (never a point), cut off at the end, or over-long.
TEST(Convert, PackedPointsBeyondTwoBytesAreClearErrors) {
  // 3 (one byte), 300 (two), then 2^14 + 1 (three bytes): off the board.
  auto off =
      UnpackPoints(std::string("\x03\xac\x02\x81\x80\x01", 6), 19, 19, true);
  ASSERT_FALSE(off.ok());
  EXPECT_NE(off.status().message().find("point 16385 at item 3"),
            absl::string_view::npos)
      << off.status();
  // A two-byte varint whose second byte is missing.
  auto cut = UnpackPoints(std::string("\x03\xac", 2), 19, 19, true);
  ASSERT_FALSE(cut.ok());
  EXPECT_NE(cut.status().message().find("truncated at byte 2"),
            absl::string_view::npos)
      << cut.status();
  // Eleven continuation bytes: no varint at all.
  auto endless = UnpackPoints(std::string(11, '\x80') + "\x01", 19, 19, true);
  ASSERT_FALSE(endless.ok());
  EXPECT_NE(endless.status().message().find("truncated at byte 10"),
            absl::string_view::npos)
      << endless.status();
  // A point that is a multi-byte varint but still small decodes (the
  // general decoder takes it): 5 as "\x85\x80\x00".
  auto padded = UnpackPoints(std::string("\x85\x80\x00", 3), 9, 9, true);
  ASSERT_TRUE(padded.ok()) << padded.status();
  EXPECT_EQ(*padded, (std::vector<rules::Point>{rules::FromDenseIndex(4, 9)}));
}

TEST(Convert, SelfPlayGamesConvertLikeTheirRecords) {
  for (int size : {9, 13, 19}) {
    for (int handicap : {0, 4}) {
      for (uint64_t index = 0; index < 5; ++index) {
        rules::SelfPlaySpec spec;
        spec.width = spec.height = size;
        spec.rules = *rules::PresetRules("chinese");
        spec.handicap = handicap;
        spec.job_seed = 5;
        spec.index = index;
        rules::Game game(size, size, spec.rules);
        rules::SelfPlayOutcome outcome;
        ASSERT_TRUE(rules::PlaySelfPlay(spec, &game, &outcome).ok());
        qipu::v1::Game direct;
        SelfPlayToProto(game, spec, outcome, 3, "w", &direct);
        std::vector<rules::Point> stones;
        if (handicap > 0) stones = *rules::FixedHandicap(size, size, handicap);
        qipu::v1::Game via_record;
        RecordToGame(RecordOfGame(game, stones), &via_record);
        via_record.clear_meta();
        // Compare what both set: the board, setup and moves.
        direct.clear_rules();
        direct.clear_result();
        direct.clear_area();
        direct.clear_cycles();
        direct.clear_voided_cycles();
        direct.clear_ko_captures();
        direct.clear_provenance();
        EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(
            direct, via_record))
            << size << " h" << handicap << " #" << index;
        auto record = GameToRecord(direct);
        ASSERT_TRUE(record.ok()) << record.status();
        EXPECT_EQ(record->moves, game.moves());
      }
    }
  }
}

}  // namespace
}  // namespace qipu::wire
