// PrepareSelfPlay: a worker's game is accepted only when every claim
// matches what the rules give, and stored byte for byte as uploaded (less
// Meta, plus the coordinator's provenance); each kind of lie is refused
// with its own reason. PrepareImport: an illegal move is named in the
// message and as a number; notes are typed and stored as text.
#include "engine/prepare.h"

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "core_fixture.h"
#include "gmock/gmock.h"
#include "proto/convert.h"
#include "rules/coord.h"
#include "rules/record_note.h"
#include "rules/replay.h"
#include "rules/rules_key.h"
#include "store/game_id.h"

namespace qipu::coordinator {
namespace {

using ::testing::StartsWith;

class PrepareTest : public CoreTest {
 protected:
  void SetUp() override {
    CoreTest::SetUp();
    job_ = jobs_->Submit(50, Config(9)).value();
    info_ = jobs_->Find(job_).value();
  }
  // The message of the refusal of `g` (InvalidArgument expected).
  std::string Reject(const qipu::v1::Game& g) { return Reject(g, info_); }
  std::string Reject(const qipu::v1::Game& g, const engine::JobInfo& info) {
    auto p = engine::PrepareSelfPlay(g, info, absl::Now());
    EXPECT_FALSE(p.ok());
    if (p.ok()) return "";
    EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
    return std::string(p.status().message());
  }
  uint64_t job_ = 0;
  engine::JobInfo info_;
};

TEST_F(PrepareTest, ValidGamesAreAcceptedAndIndexed) {
  for (uint64_t i = 0; i < 20; ++i) {
    const qipu::v1::Game g = Play(job_, i);
    auto p = engine::PrepareSelfPlay(g, info_, absl::Now());
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

TEST_F(PrepareTest, StoredGameIsTheValidatedUpload) {
  // The stored bytes are the upload's, as the coordinator always stored
  // them: Meta dropped, the job's policy, the version and the time added.
  // (Rebuilt from the rules' record and claims, not copied: this pins the
  // stored format.)
  const absl::Time now = absl::FromUnixMicros(1700000000123456);
  for (uint64_t i = 0; i < 10; ++i) {
    qipu::v1::Game g = Play(job_, i);
    g.mutable_meta()->set_black_player("not stored");
    auto p = engine::PrepareSelfPlay(g, info_, now);
    ASSERT_TRUE(p.ok()) << i << ": " << p.status();
    qipu::v1::Game want = g;
    want.clear_meta();
    want.mutable_provenance()->set_policy(info_.config.policy());
    qipu::v1::Game got;
    ASSERT_TRUE(got.ParseFromString(p->value));
    EXPECT_FALSE(got.provenance().qipu_version().empty());
    EXPECT_EQ(got.provenance().stored_unix_micros(), 1700000000123456);
    want.mutable_provenance()->set_qipu_version(
        got.provenance().qipu_version());
    want.mutable_provenance()->set_stored_unix_micros(1700000000123456);
    EXPECT_EQ(p->value, want.SerializeAsString()) << i;
    // An upload already in the rules' terms is stored the same (its board
    // encoded again rather than copied).
    auto u = wire::SelfPlayFromProto(g);
    ASSERT_TRUE(u.ok()) << u.status();
    EXPECT_EQ(u->record.black_player, "not stored");
    auto q = engine::PrepareSelfPlay(*u, info_, now);
    ASSERT_TRUE(q.ok()) << q.status();
    EXPECT_EQ(q->value, p->value) << i;
    EXPECT_EQ(q->key, p->key);
    EXPECT_EQ(*q->position_ops.mutable_bytes(),
              *p->position_ops.mutable_bytes());
  }
}

TEST_F(PrepareTest, HandicapAndVoidedAttemptsAreStoredAsUploaded) {
  // 7x7 under the replay cycle rule with 2 handicap stones: balanced
  // cycles void attempts often enough to find one among the first games.
  qipu::v1::JobConfig cfg = Config(7);
  rules::Rules r = *rules::PresetRules("chinese");
  r.cycle = rules::CycleRule::kReplay;
  *cfg.mutable_rules() = wire::RulesToProto(r);
  cfg.set_handicap(2);
  const uint64_t job = jobs_->Submit(3000, cfg).value();
  const engine::JobInfo info = jobs_->Find(job).value();
  const absl::Time now = absl::FromUnixMicros(1700000000000000);
  bool voided = false;
  for (uint64_t i = 0; i < 3000 && !voided; ++i) {
    const qipu::v1::Game g = Play(job, i);
    if (i >= 5 && g.provenance().attempt() == 0) continue;
    voided = g.provenance().attempt() > 0;
    auto p = engine::PrepareSelfPlay(g, info, now);
    ASSERT_TRUE(p.ok()) << i << ": " << p.status();
    EXPECT_EQ(p->facts.cycles.size(),
              static_cast<size_t>(g.cycles_size() + g.voided_cycles_size()));
    qipu::v1::Game want = g;
    qipu::v1::Game got;
    ASSERT_TRUE(got.ParseFromString(p->value));
    want.mutable_provenance()->set_qipu_version(
        got.provenance().qipu_version());
    want.mutable_provenance()->set_stored_unix_micros(1700000000000000);
    EXPECT_EQ(p->value, want.SerializeAsString()) << i;
    if (voided) {
      // A voided attempt claimed away is refused.
      qipu::v1::Game lie = g;
      lie.clear_voided_cycles();
      EXPECT_EQ(
          Reject(lie, info),
          absl::StrCat("voided attempts: the game claims 0 but the rules "
                       "give ",
                       g.provenance().attempt(), " (the attempt number)"));
    }
  }
  EXPECT_TRUE(voided) << "no voided attempt in 3000 games";
}

TEST_F(PrepareTest, IllegalMoveIsNamed) {
  qipu::v1::Game g = Play(job_, 1);
  // Replay the second move onto the first one's point.
  std::string moves = g.moves();
  ASSERT_GE(moves.size(), 2u);
  moves[1] = moves[0];
  g.set_moves(moves);
  EXPECT_EQ(Reject(g), "move 2 is illegal (occupied)");
}

TEST_F(PrepareTest, WrongClaimsAreNamed) {
  const qipu::v1::Game good = Play(job_, 2);
  qipu::v1::Game g = good;
  g.mutable_result()->set_winner(good.result().winner() ==
                                         qipu::v1::WINNER_BLACK
                                     ? qipu::v1::WINNER_WHITE
                                     : qipu::v1::WINNER_BLACK);
  EXPECT_THAT(Reject(g), StartsWith("result: the game claims "));
  g = good;
  g.mutable_result()->set_margin(good.result().margin() + 1);
  EXPECT_THAT(Reject(g), StartsWith("result: the game claims "));
  g = good;
  g.set_ko_captures(good.ko_captures() + 1);
  EXPECT_EQ(
      Reject(g),
      absl::StrCat("ko captures: the game claims ", good.ko_captures() + 1,
                   " but the rules give ", good.ko_captures()));
  g = good;
  g.mutable_area()->set_black(good.area().black() + 1);
  EXPECT_EQ(Reject(g),
            absl::StrCat("area: the game claims ", good.area().black() + 1, "/",
                         good.area().white(), "/", good.area().dame(),
                         " but the rules give ", good.area().black(), "/",
                         good.area().white(), "/", good.area().dame()));
  g = good;
  g.mutable_provenance()->set_seed(good.provenance().seed() + 1);
  EXPECT_EQ(Reject(g),
            absl::StrCat("seed: the game claims ", good.provenance().seed() + 1,
                         " but the rules give ", good.provenance().seed()));
  g = good;
  g.mutable_provenance()->set_game_index(50);
  EXPECT_EQ(Reject(g),
            absl::StrCat("game index 50 is outside job ", job_, " (50 games)"));
  g = good;
  g.mutable_provenance()->set_job(job_ + 1);
  EXPECT_EQ(Reject(g),
            absl::StrCat("provenance.job ", job_ + 1, " is not job ", job_));
  g = good;
  g.mutable_provenance()->set_attempt(99);
  EXPECT_EQ(Reject(g), "provenance.attempt 99 is too large");
  g = good;
  g.mutable_rules()->set_komi(6.5);
  rules::Rules other = info_.rules;
  other.komi = 6.5;
  EXPECT_EQ(Reject(g),
            absl::StrCat("rules: the game claims ",
                         rules::RulesKey(other).Text(), " but the rules give ",
                         rules::RulesKey(info_.rules).Text(), " (the job's)"));
  g = good;
  g.set_width(13);
  g.set_height(13);
  EXPECT_EQ(Reject(g),
            "board size: the game claims 13x13 but the rules give 9x9 (the "
            "job's)");
  g = good;
  g.set_handicap(2);
  EXPECT_EQ(Reject(g),
            "handicap: the game claims 2 but the rules give 0 (the job's)");
  g = good;
  g.set_num_moves(good.num_moves() + 1);
  EXPECT_EQ(Reject(g), absl::StrCat("moves: ", good.num_moves(),
                                    " packed moves but num_moves says ",
                                    good.num_moves() + 1));
  g = good;
  g.set_moves(good.moves().substr(0, good.moves().size() - 2));
  g.set_num_moves(good.num_moves() - 2);
  EXPECT_EQ(Reject(g), absl::StrCat("the game has ", good.num_moves() - 2,
                                    " moves but the rules do not end it"));
  g = good;
  g.add_cycles()->CopyFrom(qipu::v1::Cycle());
  EXPECT_EQ(Reject(g), "cycle: unknown class or outcome");
  g = good;
  g.add_setup()->set_black(std::string(1, '\x05'));
  EXPECT_EQ(Reject(g),
            "setup: a self-play game may only set up its job's handicap "
            "stones");
  g = good;
  qipu::v1::Cycle* cycle = g.add_voided_cycles();
  cycle->set_cls(qipu::v1::CYCLE_CLASS_TRIPLE_KO);
  cycle->set_outcome(qipu::v1::CYCLE_OUTCOME_REPLAY);
  cycle->set_first_move(1);
  cycle->set_period(6);
  cycle->set_point(1);
  EXPECT_EQ(Reject(g),
            "voided attempts: the game claims 1 but the rules give 0 (the "
            "attempt number)");
}

TEST_F(PrepareTest, GarbageFieldsAreErrorsNotCrashes) {
  qipu::v1::Game g = Play(job_, 3);
  g.set_moves(std::string("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 11));
  EXPECT_THAT(Reject(g), StartsWith("moves: packed points truncated at byte"));
  g = Play(job_, 3);
  g.set_moves(std::string(1, '\x7f'));  // point 127 > 81
  g.set_num_moves(1);
  EXPECT_EQ(Reject(g), "moves: point 127 at item 1 is off the 9x9 board");
  g = Play(job_, 3);
  g.mutable_rules()->set_ko(static_cast<qipu::v1::KoRule>(77));
  EXPECT_EQ(Reject(g), "rules.ko: 77 is not a ko rule");
  g = Play(job_, 3);
  g.mutable_result()->set_reason(static_cast<qipu::v1::EndReason>(99));
  EXPECT_EQ(Reject(g), "result.reason is unspecified or unknown");
  g = Play(job_, 3);
  g.mutable_result()->set_winner(qipu::v1::WINNER_UNSPECIFIED);
  EXPECT_EQ(Reject(g), "result.winner is unspecified");
  g = Play(job_, 3);
  g.set_first_color(static_cast<qipu::v1::Color>(7));
  EXPECT_EQ(Reject(g), "first_color: 7 is not a colour");
  g = Play(job_, 3);
  g.set_width(0);
  EXPECT_EQ(Reject(g), "board size 0x9 is not supported (2..25 on each side)");
}

TEST_F(PrepareTest, ImportRefusalNamesTheIllegalMove) {
  rules::GameRecord r;
  r.width = r.height = 9;
  r.moves = {{rules::Color::kBlack, rules::MakePoint(4, 4)},
             {rules::Color::kWhite, rules::MakePoint(2, 2)},
             {rules::Color::kBlack, rules::MakePoint(2, 2)}};
  engine::ImportContext ctx;
  ctx.now = absl::Now();
  ctx.strict = true;
  int move = -1;
  auto p = engine::PrepareImport(r, ctx, configs_.get(), &move);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(p.status().message(),
            "move 3 is illegal under chinese rules (occupied)");
  EXPECT_EQ(move, 3);
  // A legal record: no move named, the reader's and the import's notes.
  r.moves.pop_back();
  r.rules = "Japanese";
  r.result = rules::RecordResult::Read("Black won");
  r.notes.push_back({.kind = rules::NoteKind::kNoCharset});
  p = engine::PrepareImport(r, ctx, configs_.get(), &move);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(move, 0);
  ASSERT_EQ(p->notes.size(), 3u);
  EXPECT_EQ(p->notes[1].kind, rules::NoteKind::kRulesNotImplemented);
  EXPECT_EQ(p->notes[1].value, "Japanese");
  EXPECT_EQ(p->notes[2].kind, rules::NoteKind::kResultNotUnderstood);
  EXPECT_EQ(p->notes[2].value, "Black won");
  qipu::v1::Game stored;
  ASSERT_TRUE(stored.ParseFromString(p->game.value));
  ASSERT_EQ(stored.meta().normalised_size(), 3);
  EXPECT_EQ(stored.meta().normalised(0),
            "no CA[] charset given: text read as UTF-8");
  EXPECT_EQ(stored.meta().normalised(1),
            "rules 'Japanese' are not implemented; replayed under chinese");
  EXPECT_EQ(stored.meta().normalised(2),
            "RE[Black won] not understood; result unknown");
  EXPECT_EQ(stored.meta().record_result(), "Black won");
  EXPECT_EQ(stored.result().reason(), qipu::v1::END_REASON_UNKNOWN);
  // A caller that normalised the result (the value) keeps the RE as
  // written (the text).
  r.result = rules::RecordResult::Read("B+0.75");
  r.result.value.margin = 1.5;
  p = engine::PrepareImport(r, ctx, configs_.get());
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_TRUE(stored.ParseFromString(p->game.value));
  EXPECT_EQ(stored.meta().record_result(), "B+0.75");
  EXPECT_DOUBLE_EQ(stored.result().margin(), 1.5);
}

// A record is history: without --strict, a record with a move its rules
// forbid is stored whole with the breach, one that cannot go on is stored
// cut; each in a configuration of its own ("noted", "cut"), indexed over
// the moves stored, the record's result kept. The content id is the whole
// record's either way.
TEST_F(PrepareTest, ImportKeepsRecordsNotedOrCut) {
  engine::ImportContext ctx;
  ctx.now = absl::Now();
  ctx.index_depth = 60;
  auto at = [](const char* s) {
    return rules::MakePoint(s[0] - 'a', s[1] - 'a');
  };
  // The occupied point at move 4: cut there.
  rules::GameRecord occupied;
  occupied.width = occupied.height = 9;
  occupied.moves = {{rules::Color::kBlack, at("cc")},
                    {rules::Color::kWhite, at("gg")},
                    {rules::Color::kBlack, at("ee")},
                    {rules::Color::kWhite, at("cc")},
                    {rules::Color::kBlack, at("ff")}};
  occupied.result = rules::RecordResult::Read("W+3.5");
  int move = -1;
  auto p = engine::PrepareImport(occupied, ctx, configs_.get(), &move);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(move, 0);
  EXPECT_EQ(p->kept, "cut");
  EXPECT_EQ(p->kept_move, 4);
  EXPECT_EQ(p->kept_note, "cut at move 4 (W C7): the point is occupied");
  qipu::v1::Game g;
  ASSERT_TRUE(g.ParseFromString(p->game.value));
  EXPECT_EQ(g.num_moves(), 3u);
  EXPECT_EQ(g.cut().move(), 4u);
  EXPECT_EQ(g.cut().reason(), qipu::v1::CUT_REASON_OCCUPIED);
  EXPECT_EQ(g.cut().recorded_moves(), 5u);
  EXPECT_EQ(g.result().winner(), qipu::v1::WINNER_WHITE);
  EXPECT_DOUBLE_EQ(g.result().margin(), 3.5);
  EXPECT_EQ(p->game.index_plies, 3u);
  EXPECT_EQ(p->game.id, store::ContentId(occupied));
  auto config = configs_->Get(p->game.config_id);
  ASSERT_TRUE(config.has_value());
  EXPECT_EQ(config->record(), "cut");
  // Under --strict it is refused, as before.
  ctx.strict = true;
  EXPECT_FALSE(
      engine::PrepareImport(occupied, ctx, configs_.get(), &move).ok());
  EXPECT_EQ(move, 4);
  ctx.strict = false;

  // A single-stone suicide at move 1: stored whole, noted.
  rules::GameRecord suicide;
  suicide.width = suicide.height = 9;
  suicide.setup.push_back({.before_move = 0, .white = {at("ba"), at("ab")}});
  suicide.moves = {{rules::Color::kBlack, at("aa")},
                   {rules::Color::kWhite, at("ee")},
                   {rules::Color::kBlack, at("gg")}};
  p = engine::PrepareImport(suicide, ctx, configs_.get(), &move);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->kept, "noted");
  EXPECT_EQ(p->kept_move, 1);
  ASSERT_TRUE(g.ParseFromString(p->game.value));
  EXPECT_EQ(g.num_moves(), 3u);
  EXPECT_FALSE(g.has_cut());
  ASSERT_EQ(g.breaches_size(), 1);
  EXPECT_EQ(g.breaches(0).move(), 1u);
  EXPECT_EQ(g.breaches(0).rule(), qipu::v1::RECORD_RULE_SUICIDE);
  EXPECT_EQ(g.breaches(0).color(), qipu::v1::COLOR_BLACK);
  EXPECT_EQ(p->game.index_plies, 3u);
  config = configs_->Get(p->game.config_id);
  ASSERT_TRUE(config.has_value());
  EXPECT_EQ(config->record(), "noted");
  // The stored breach reads back as the note.
  auto back = wire::BreachFromProto(g.breaches(0), 9, 9);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(rules::RuleBreachText(*back, rules::Rules{}, 9),
            "move 1 (B A9) is a suicide, which the suicide rule of chinese "
            "rules forbids");

  // A clean record: the configuration of before (no record dimension).
  suicide.moves[0].point = at("cc");
  p = engine::PrepareImport(suicide, ctx, configs_.get(), &move);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->kept, "");
  config = configs_->Get(p->game.config_id);
  ASSERT_TRUE(config.has_value());
  EXPECT_EQ(config->record(), "");
  ASSERT_TRUE(g.ParseFromString(p->game.value));
  EXPECT_EQ(g.breaches_size(), 0);
  EXPECT_FALSE(g.has_cut());
}

TEST(DayOf, ParsesSgfDates) {
  EXPECT_EQ(engine::DayOfSgfDate("2018-05-03"), 20180503u);
  EXPECT_EQ(engine::DayOfSgfDate("2018-05-03,04"), 20180503u);
  EXPECT_EQ(engine::DayOfSgfDate("1975"), 19750000u);
  EXPECT_EQ(engine::DayOfSgfDate("1975-11"), 19751100u);
  EXPECT_EQ(engine::DayOfSgfDate(""), 0u);
  EXPECT_EQ(engine::DayOfSgfDate("unknown"), 0u);
  EXPECT_EQ(engine::DayOf(absl::FromUnixSeconds(0)), 19700101u);
}

}  // namespace
}  // namespace qipu::coordinator
