// One game between two players (match/match.h, match/play_match.h), with
// scripted players and a fake time source (Driver::now): the clock's seed
// rules as a referee applies them (a move of exactly the period uses it,
// art. 22.5's loss or pass), forfeits and failures, the count of games
// between qipu's policies as played, and art. 21.4's disputes over dead
// stones played out.
#include "match/match.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "gtp/time_settings.h"
#include "match/match_record.h"
#include "match/play_match.h"
#include "match/player.h"
#include "policy/spec.h"
#include "rules/coord.h"
#include "rules/sgf_writer.h"

namespace qipu::match {
namespace {

using rules::Color;
using ::testing::HasSubstr;

constexpr Color kB = Color::kBlack;
constexpr Color kW = Color::kWhite;

// A fake wall clock: a time the players advance as they "think".
struct FakeTime {
  absl::Time now = absl::UnixEpoch();
};

// A player that answers from a script: each move a vertex ("c3", "pass",
// "resign", "error") and the seconds it takes; after the script, passes
// taking no time. Its dead stones are fixed (std::nullopt: no view).
class ScriptedPlayer final : public Player {
 public:
  struct Step {
    std::string vertex;
    double seconds = 0;
  };
  ScriptedPlayer(FakeTime* time, int size, std::vector<Step> steps,
                 DeadStoneView dead = std::nullopt)
      : time_(time),
        size_(size),
        steps_(std::move(steps)),
        dead_(std::move(dead)) {}

  std::string spec() const override { return "scripted"; }
  PlayerKind kind() const override { return PlayerKind::kEngine; }
  absl::Status NewGame(const rules::Game&, const gtp::TimeSettings&) override {
    return absl::OkStatus();
  }
  absl::StatusOr<policy::MoveChoice> Choose(const rules::Game&,
                                            const MoveRequest& r) override {
    requests.push_back(r);
    Step s{"pass", 0};
    if (next_ < steps_.size()) s = steps_[next_++];
    time_->now +=
        absl::Milliseconds(static_cast<int64_t>(s.seconds * 1000 + 0.5));
    if (s.vertex == "error") return absl::UnavailableError("engine crashed");
    absl::StatusOr<rules::Point> p =
        rules::ParseGtpPoint(s.vertex, size_, size_);
    if (!p.ok()) return p.status();
    policy::MoveChoice c;
    c.point = *p;
    return c;
  }
  absl::StatusOr<DeadStoneView> DeadStones(const rules::Game&) override {
    ++dead_asked;
    return dead_;
  }

  std::vector<MoveRequest> requests;
  int dead_asked = 0;

 private:
  FakeTime* time_;
  int size_;
  std::vector<Step> steps_;
  size_t next_ = 0;
  DeadStoneView dead_;
};

MatchOptions Options(int size, const char* time) {
  MatchOptions o;
  o.width = o.height = size;
  o.rules.komi = 0.5;
  absl::StatusOr<gtp::TimeSettings> t = gtp::ParseTimeSettings(time);
  EXPECT_TRUE(t.ok()) << t.status();
  if (t.ok()) o.time = *t;
  return o;
}

Match Play(ScriptedPlayer& b, ScriptedPlayer& w, const MatchOptions& o,
           FakeTime* time) {
  Driver d;
  d.now = [time] { return time->now; };
  absl::StatusOr<Match> m = PlayMatch(b, w, o, d);
  EXPECT_TRUE(m.ok()) << m.status();
  return *std::move(m);
}

rules::Point At(const char* v, int size) {
  return *rules::ParseGtpPoint(v, size, size);
}

TEST(Match, ByoYomiMoveOfExactlyThePeriodUsesItAndTheLastLoses) {
  FakeTime t;
  // Black: 59.999 s (free), 60 s (a period used), 60 s (the last: lost).
  ScriptedPlayer b(&t, 5, {{"c3", 59.999}, {"b2", 60}, {"d4", 60}});
  ScriptedPlayer w(&t, 5, {{"a1", 1}, {"e5", 1}, {"a5", 1}});
  const Match m = Play(b, w, Options(5, "byoyomi:0+2x60"), &t);
  const MatchOutcome& out = m.outcome();
  EXPECT_EQ(out.end, End::kTime);
  EXPECT_EQ(out.result.winner, rules::Winner::kWhite);
  EXPECT_EQ(out.result.reason, rules::EndReason::kTime);
  EXPECT_EQ(out.moves(), 4);  // c3 a1 b2 e5; d4 never played
  EXPECT_TRUE(out.clocks[0].flagged);
  EXPECT_THAT(out.detail, HasSubstr("time ran out at move 5"));
  // What Black was told before each move: 2 periods, then 2, then 1.
  ASSERT_EQ(b.requests.size(), 3u);
  EXPECT_EQ(b.requests[1].left.stones, 2);
  EXPECT_EQ(b.requests[2].left.stones, 1);
  EXPECT_EQ(b.requests[2].time_to_flag, absl::Seconds(60));
  EXPECT_EQ(rules::ResultToSgf(out.result), "W+T");
}

TEST(Match, LastPeriodRunOutIsAPassUnderArt225Option) {
  FakeTime t;
  ScriptedPlayer b(&t, 5, {{"c3", 60}, {"b2", 60}, {"d4", 1}});
  ScriptedPlayer w(&t, 5, {{"a1", 1}, {"e5", 1}, {"a5", 1}});
  const Match m = Play(b, w, Options(5, "byoyomi:0+2x60,pass"), &t);
  const MatchOutcome& out = m.outcome();
  // b2 ran out of the last period: a pass; play went on (d4 played).
  ASSERT_GE(out.moves(), 5);
  EXPECT_EQ(out.game.moves()[2].point, rules::kPass);
  EXPECT_EQ(out.game.moves()[4].point, At("d4", 5));
  EXPECT_FALSE(out.clocks[0].flagged);
  ASSERT_FALSE(out.comments.empty());
  EXPECT_EQ(out.comments[0].move, 2);
  EXPECT_THAT(out.comments[0].text, HasSubstr("art. 22.5"));
  EXPECT_EQ(out.end, End::kCount);
  EXPECT_THAT(rules::WriteSgf(MatchRecord(out, {})), HasSubstr("art. 22.5"));
}

TEST(Match, CanadianCarriesTimeIntoTheNextBlock) {
  FakeTime t;
  // 2 moves in 10 s: 3 + 4, then the next block has 13 s: 12.999 is in
  // time, and the block after it 10.001 s: 10.001 runs out.
  ScriptedPlayer b(
      &t, 5, {{"c3", 3}, {"b2", 4}, {"d4", 12.999}, {"b4", 0}, {"d2", 10.001}});
  ScriptedPlayer w(&t, 5, {{"a1", 0}, {"e5", 0}, {"a5", 0}, {"e1", 0}});
  const Match m = Play(b, w, Options(5, "canadian:0+2/10"), &t);
  const MatchOutcome& out = m.outcome();
  EXPECT_EQ(out.end, End::kTime);
  EXPECT_EQ(out.moves(), 8);
  ASSERT_EQ(b.requests.size(), 5u);
  EXPECT_EQ(b.requests[2].time_to_flag, absl::Seconds(13));
  EXPECT_EQ(b.requests[4].time_to_flag,
            absl::Seconds(10) + absl::Milliseconds(1));
}

TEST(Match, AnEngineFailureLosesOrVoids) {
  FakeTime t;
  ScriptedPlayer b(&t, 5, {{"c3", 0}, {"error", 0}});
  ScriptedPlayer w(&t, 5, {{"a1", 0}});
  Match m = Play(b, w, Options(5, "none"), &t);
  EXPECT_EQ(m.outcome().end, End::kEngineFailure);
  EXPECT_EQ(rules::ResultToSgf(m.result()), "W+F");
  EXPECT_TRUE(m.outcome().failed[0]);

  FakeTime t2;
  ScriptedPlayer b2(&t2, 5, {{"c3", 0}, {"error", 0}});
  ScriptedPlayer w2(&t2, 5, {{"a1", 0}});
  MatchOptions o = Options(5, "none");
  o.failure = FailureRule::kNoResult;
  Match n = Play(b2, w2, o, &t2);
  EXPECT_EQ(n.result().winner, rules::Winner::kNone);
}

TEST(Match, IllegalMoveForfeitsOrIsVoid) {
  FakeTime t;
  ScriptedPlayer b(&t, 5, {{"c3", 0}, {"a1", 0}});
  ScriptedPlayer w(&t, 5, {{"a1", 0}});
  Match m = Play(b, w, Options(5, "none"), &t);
  EXPECT_EQ(m.outcome().end, End::kIllegalMove);
  EXPECT_EQ(rules::ResultToSgf(m.result()), "W+Illegal");

  FakeTime t2;
  ScriptedPlayer b2(&t2, 5, {{"c3", 0}, {"a1", 0}});
  ScriptedPlayer w2(&t2, 5, {{"a1", 0}});
  MatchOptions o = Options(5, "none");
  o.illegal = IllegalMovePolicy::kChinese;
  Match n = Play(b2, w2, o, &t2);
  // Art. 19: void, a pass; the game goes on to two passes.
  EXPECT_EQ(n.outcome().end, End::kCount);
  EXPECT_EQ(n.game().moves()[2].point, rules::kPass);
  ASSERT_EQ(n.outcome().illegal_moves.size(), 1u);
  EXPECT_TRUE(n.outcome().illegal_moves[0].voided);
}

TEST(Match, PoliciesCountTheBoardAsPlayed) {
  absl::StatusOr<std::unique_ptr<Player>> a = MakePlayer("random", 1);
  absl::StatusOr<std::unique_ptr<Player>> b = MakePlayer("random", 2);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_FALSE(SettlesDeadStones(**a, **b));
  MatchOptions o = Options(7, "none");
  o.rules.komi = 7.5;
  absl::StatusOr<Match> m = PlayMatch(**a, **b, o);
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_EQ(m->outcome().end, End::kCount);
  EXPECT_EQ(m->result().counting, rules::Counting::kAsPlayed);
  EXPECT_EQ(m->result(), m->game().result());
  EXPECT_TRUE(m->outcome().dead_stones.empty());
}

// A 5x5 position: Black's wall on column c (and d3), White's on column
// b, and a White stone at e3 inside Black's area.
std::vector<ScriptedPlayer::Step> BlackWall() {
  return {{"c1", 0}, {"c2", 0}, {"c3", 0}, {"c4", 0}, {"c5", 0}, {"d3", 0}};
}
std::vector<ScriptedPlayer::Step> WhiteStones() {
  return {{"b1", 0}, {"b2", 0}, {"b3", 0}, {"b4", 0}, {"b5", 0}, {"e3", 0}};
}

TEST(Match, DeadStonesAgreedComeOff) {
  FakeTime t;
  const std::vector<rules::Point> dead = {At("e3", 5)};
  ScriptedPlayer b(&t, 5, BlackWall(), dead);
  ScriptedPlayer w(&t, 5, WhiteStones(), dead);
  MatchOptions o = Options(5, "none");
  o.dead_stones = DeadStoneRule::kSettle;
  const Match m = Play(b, w, o, &t);
  const MatchOutcome& out = m.outcome();
  ASSERT_EQ(out.end, End::kCount);
  EXPECT_EQ(out.result.counting, rules::Counting::kAgreed);
  EXPECT_EQ(out.dead_stones, dead);
  // Black: 15 (c..e columns), White 10 (a..b): B+4.5 with komi 0.5; as
  // played (e3 alive) it is less.
  EXPECT_EQ(rules::ResultToSgf(out.result), "B+4.5");
  EXPECT_NE(out.result.margin, out.game.result().margin);
  EXPECT_THAT(MatchComment(out), HasSubstr("agreed"));
  EXPECT_EQ(rules::ScoringText(out.result), "counted, dead stones agreed");
}

// Art. 21.4: disputed, play resumes with the side that calls the stones
// dead moving first; actual play settles it.
TEST(Match, DisputedDeadStonesArePlayedOut) {
  FakeTime t;
  std::vector<ScriptedPlayer::Step> bs = BlackWall();
  // The first two passes are moves 13 and 14; Black then resumes and
  // captures e3 (e2, e4) while White passes, and both pass again.
  bs.push_back({"pass", 0});
  bs.push_back({"e2", 0});
  bs.push_back({"e4", 0});
  ScriptedPlayer b(&t, 5, bs, std::vector<rules::Point>{At("e3", 5)});
  ScriptedPlayer w(&t, 5, WhiteStones(), std::vector<rules::Point>{});
  MatchOptions o = Options(5, "none");
  o.dead_stones = DeadStoneRule::kSettle;
  const Match m = Play(b, w, o, &t);
  const MatchOutcome& out = m.outcome();
  ASSERT_EQ(out.disputes.size(), 1u) << out.detail;
  EXPECT_EQ(out.disputes[0].first, kB);
  EXPECT_EQ(out.disputes[0].moves, 14);
  EXPECT_EQ(b.dead_asked, 2);
  EXPECT_EQ(w.dead_asked, 2);
  // The play-out: Black moved first after the passes and captured e3.
  ASSERT_GT(out.moves(), 14);
  EXPECT_EQ(out.game.moves()[14].color, kB);
  EXPECT_EQ(out.game.moves()[14].point, At("e2", 5));
  EXPECT_EQ(out.game.board().at(At("e3", 5)), Color::kEmpty);
  EXPECT_EQ(out.end, End::kCount);
  EXPECT_EQ(out.result.counting, rules::Counting::kPlayedOut);
  EXPECT_EQ(rules::ResultToSgf(out.result), "B+4.5");
  EXPECT_THAT(MatchComment(out), HasSubstr("after the play-out"));
  // The record says where play resumed and why.
  ASSERT_EQ(out.comments.size(), 1u);
  EXPECT_EQ(out.comments[0].move, 14);
  EXPECT_THAT(out.comments[0].text, HasSubstr("Black first (art. 21.4)"));
  EXPECT_THAT(rules::WriteSgf(MatchRecord(out, {})), HasSubstr("art. 21.4"));
}

TEST(Match, NoViewOnEitherSideIsQipusJudgement) {
  FakeTime t;
  ScriptedPlayer b(&t, 5, BlackWall());
  ScriptedPlayer w(&t, 5, WhiteStones());
  MatchOptions o = Options(5, "none");
  o.dead_stones = DeadStoneRule::kSettle;
  const Match m = Play(b, w, o, &t);
  EXPECT_EQ(m.result().counting, rules::Counting::kJudged);
  EXPECT_EQ(m.outcome().dead_stones, std::vector<rules::Point>{At("e3", 5)});
}

}  // namespace
}  // namespace qipu::match
