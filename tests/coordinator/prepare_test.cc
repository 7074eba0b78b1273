// PrepareSelfPlay: a worker's game is accepted only when every claim
// matches what the rules give; each kind of lie is named.
#include "coordinator/prepare.h"

#include "absl/time/clock.h"
#include "core_fixture.h"
#include "rules/coord.h"

namespace qipu::coordinator {
namespace {

class PrepareTest : public CoreTest {
 protected:
  void SetUp() override {
    CoreTest::SetUp();
    job_ = jobs_->Submit(50, Config(9)).value();
    info_ = jobs_->Find(job_).value();
  }
  std::string Reject(const qipu::v1::Game& g) {
    auto p = PrepareSelfPlay(g, info_, absl::Now());
    EXPECT_FALSE(p.ok());
    if (p.ok()) return "";
    EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
    return std::string(p.status().message());
  }
  uint64_t job_ = 0;
  JobInfo info_;
};

TEST_F(PrepareTest, ValidGamesAreAcceptedAndIndexed) {
  for (uint64_t i = 0; i < 20; ++i) {
    const qipu::v1::Game g = Play(job_, i);
    auto p = PrepareSelfPlay(g, info_, absl::Now());
    ASSERT_TRUE(p.ok()) << i << ": " << p.status();
    EXPECT_EQ(p->id, store::GameId::SelfPlay(job_, i));
    EXPECT_EQ(p->config_id, info_.config_id);
    EXPECT_EQ(p->position_ops.size(), std::min<size_t>(21, g.num_moves() + 1));
    EXPECT_EQ(p->facts.id, p->id);
    EXPECT_EQ(p->facts.moves, static_cast<int>(g.num_moves()));
    qipu::v1::Game stored;
    ASSERT_TRUE(stored.ParseFromString(p->value));
    EXPECT_FALSE(stored.provenance().qipu_version().empty());
    EXPECT_GT(stored.provenance().stored_unix_micros(), 0);
  }
}

TEST_F(PrepareTest, IllegalMoveIsNamed) {
  qipu::v1::Game g = Play(job_, 1);
  // Replay the second move onto the first one's point.
  std::string moves = g.moves();
  ASSERT_GE(moves.size(), 2u);
  moves[1] = moves[0];
  g.set_moves(moves);
  EXPECT_NE(Reject(g).find("move 2 is illegal (occupied)"), std::string::npos);
}

TEST_F(PrepareTest, WrongClaimsAreNamed) {
  const qipu::v1::Game good = Play(job_, 2);
  qipu::v1::Game g = good;
  g.mutable_result()->set_winner(good.result().winner() ==
                                         qipu::v1::WINNER_BLACK
                                     ? qipu::v1::WINNER_WHITE
                                     : qipu::v1::WINNER_BLACK);
  EXPECT_NE(Reject(g).find("result"), std::string::npos);
  g = good;
  g.mutable_result()->set_margin(good.result().margin() + 1);
  EXPECT_NE(Reject(g).find("result"), std::string::npos);
  g = good;
  g.set_ko_captures(good.ko_captures() + 1);
  EXPECT_NE(Reject(g).find("ko captures"), std::string::npos);
  g = good;
  g.mutable_area()->set_black(good.area().black() + 1);
  EXPECT_NE(Reject(g).find("area"), std::string::npos);
  g = good;
  g.mutable_provenance()->set_seed(good.provenance().seed() + 1);
  EXPECT_NE(Reject(g).find("seed"), std::string::npos);
  g = good;
  g.mutable_provenance()->set_game_index(50);
  EXPECT_NE(Reject(g).find("outside job"), std::string::npos);
  g = good;
  g.mutable_rules()->set_komi(6.5);
  EXPECT_NE(Reject(g).find("rules"), std::string::npos);
  g = good;
  g.set_width(13);
  g.set_height(13);
  EXPECT_NE(Reject(g).find("board size"), std::string::npos);
  g = good;
  g.set_num_moves(good.num_moves() + 1);
  EXPECT_NE(Reject(g).find("num_moves"), std::string::npos);
  g = good;
  g.set_moves(good.moves().substr(0, good.moves().size() - 2));
  g.set_num_moves(good.num_moves() - 2);
  EXPECT_NE(Reject(g).find("but the rules do not end it"), std::string::npos);
  g = good;
  g.add_cycles()->CopyFrom(qipu::v1::Cycle());
  EXPECT_NE(Reject(g).find("cycle: unknown class or outcome"),
            std::string::npos);
  g = good;
  g.add_setup()->set_black(std::string(1, '\x05'));
  EXPECT_NE(Reject(g).find("setup"), std::string::npos);
}

TEST_F(PrepareTest, GarbageFieldsAreErrorsNotCrashes) {
  qipu::v1::Game g = Play(job_, 3);
  g.set_moves(std::string("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 11));
  EXPECT_NE(Reject(g).find("moves: packed points truncated"),
            std::string::npos);
  g = Play(job_, 3);
  g.set_moves(std::string(1, '\x7f'));  // point 127 > 81
  g.set_num_moves(1);
  EXPECT_NE(Reject(g).find("off the"), std::string::npos);
  g = Play(job_, 3);
  g.mutable_rules()->set_ko(static_cast<qipu::v1::KoRule>(77));
  EXPECT_NE(Reject(g).find("rules.ko"), std::string::npos);
  g = Play(job_, 3);
  g.mutable_result()->set_reason(static_cast<qipu::v1::EndReason>(99));
  EXPECT_NE(Reject(g).find("result.reason is unspecified or unknown"),
            std::string::npos);
}

TEST(DayOf, ParsesSgfDates) {
  EXPECT_EQ(DayOfSgfDate("2018-05-03"), 20180503u);
  EXPECT_EQ(DayOfSgfDate("2018-05-03,04"), 20180503u);
  EXPECT_EQ(DayOfSgfDate("1975"), 19750000u);
  EXPECT_EQ(DayOfSgfDate("1975-11"), 19751100u);
  EXPECT_EQ(DayOfSgfDate(""), 0u);
  EXPECT_EQ(DayOfSgfDate("unknown"), 0u);
  EXPECT_EQ(DayOf(absl::FromUnixSeconds(0)), 19700101u);
}

}  // namespace
}  // namespace qipu::coordinator
