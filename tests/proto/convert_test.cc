// proto <-> rules conversions: every enum pair both ways (every domain
// value round-trips to the proto value of the same name; every proto value
// maps or is refused); the packed point lists of every board width
// round-trip; a self-play game converted directly (SelfPlayToProto) is the
// same message as its record converted (RecordToGame), with and without
// handicap stones, and reads back (SelfPlayFromProto) as its record and
// claims; unknown enum values in a game are refused, naming the field.
#include "proto/convert.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "rules/coord.h"
#include "rules/game.h"
#include "rules/rules.h"
#include "rules/scoring.h"
#include "rules/selfplay.h"

namespace qipu::wire {
namespace {

// The proto name a domain value must map to: `prefix` plus the domain
// name in capitals, '-' as '_' ("no-result" -> "CYCLE_RULE_NO_RESULT").
std::string ProtoName(const std::string& prefix, std::string domain_name) {
  for (char& c : domain_name) {
    c = c == '-' ? '_' : static_cast<char>(std::toupper(c));
  }
  return prefix + domain_name;
}

// Checks one enum pair exhaustively. `domain` lists every domain value and
// `name` names it as the proto value it must map to. Every domain value
// goes to that proto value and back; every proto value the enum defines
// either maps back to a domain value that goes to it, or is refused, and
// so are values beyond the enum; ToProto hits no value twice.
template <typename Domain, typename Proto>
void CheckEnumPair(const std::vector<Domain>& domain,
                   const google::protobuf::EnumDescriptor* descriptor,
                   Proto (*to_proto)(Domain),
                   absl::StatusOr<Domain> (*from_proto)(Proto),
                   const std::function<std::string(Domain)>& name) {
  SCOPED_TRACE(descriptor->name());
  std::vector<int> hit;
  for (Domain d : domain) {
    const Proto p = to_proto(d);
    const auto* value = descriptor->FindValueByNumber(p);
    ASSERT_NE(value, nullptr) << static_cast<int>(d);
    EXPECT_EQ(value->name(), name(d));
    auto back = from_proto(p);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, d) << value->name();
    EXPECT_EQ(std::count(hit.begin(), hit.end(), p), 0) << value->name();
    hit.push_back(p);
  }
  for (int i = 0; i < descriptor->value_count(); ++i) {
    const auto* value = descriptor->value(i);
    auto d = from_proto(static_cast<Proto>(value->number()));
    if (d.ok()) {
      EXPECT_EQ(to_proto(*d), value->number()) << value->name();
    } else {
      EXPECT_EQ(d.status().code(), absl::StatusCode::kInvalidArgument);
      EXPECT_TRUE(absl::StrContains(d.status().message(),
                                    std::to_string(value->number())))
          << d.status();
    }
  }
  for (int n : {-1, descriptor->value_count(), 77, 1 << 20}) {
    EXPECT_FALSE(from_proto(static_cast<Proto>(n)).ok()) << n;
  }
}

TEST(Convert, RuleEnumsMapByName) {
  CheckEnumPair<rules::KoRule, qipu::v1::KoRule>(
      {rules::KoRule::kSimple, rules::KoRule::kPositional,
       rules::KoRule::kSituational},
      qipu::v1::KoRule_descriptor(), KoRuleToProto, KoRuleFromProto,
      [](rules::KoRule k) {
        return ProtoName("KO_RULE_", rules::KoRuleName(k));
      });
  CheckEnumPair<rules::CycleRule, qipu::v1::CycleRule>(
      {rules::CycleRule::kNone, rules::CycleRule::kNoResult,
       rules::CycleRule::kDraw, rules::CycleRule::kReplay},
      qipu::v1::CycleRule_descriptor(), CycleRuleToProto, CycleRuleFromProto,
      [](rules::CycleRule c) {
        return ProtoName("CYCLE_RULE_", rules::CycleRuleName(c));
      });
  CheckEnumPair<rules::DameRule, qipu::v1::DameRule>(
      {rules::DameRule::kHalf, rules::DameRule::kNone},
      qipu::v1::DameRule_descriptor(), DameRuleToProto, DameRuleFromProto,
      [](rules::DameRule d) {
        return ProtoName("DAME_RULE_", rules::DameRuleName(d));
      });
  CheckEnumPair<rules::HandicapCompensation, qipu::v1::HandicapCompensation>(
      {rules::HandicapCompensation::kNone, rules::HandicapCompensation::kFull,
       rules::HandicapCompensation::kMinusOne},
      qipu::v1::HandicapCompensation_descriptor(), HandicapCompensationToProto,
      HandicapCompensationFromProto, [](rules::HandicapCompensation h) {
        return ProtoName("HANDICAP_COMPENSATION_",
                         rules::HandicapCompensationName(h));
      });
}

TEST(Convert, GameEnumsMapByName) {
  CheckEnumPair<rules::CycleClass, qipu::v1::CycleClass>(
      {rules::CycleClass::kTripleKo, rules::CycleClass::kQuadrupleKo,
       rules::CycleClass::kEternalLife,
       rules::CycleClass::kSendingTwoReturningOne, rules::CycleClass::kOther},
      qipu::v1::CycleClass_descriptor(), CycleClassToProto, CycleClassFromProto,
      [](rules::CycleClass c) {
        return ProtoName("CYCLE_CLASS_", rules::CycleClassName(c));
      });
  CheckEnumPair<rules::CycleOutcome, qipu::v1::CycleOutcome>(
      {rules::CycleOutcome::kNoResult, rules::CycleOutcome::kDraw,
       rules::CycleOutcome::kReplay, rules::CycleOutcome::kPreventedSuperko,
       rules::CycleOutcome::kPreventedCycleRule,
       rules::CycleOutcome::kContinued,
       rules::CycleOutcome::kContinuedInRecord},
      qipu::v1::CycleOutcome_descriptor(), CycleOutcomeToProto,
      CycleOutcomeFromProto, [](rules::CycleOutcome o) {
        return ProtoName("CYCLE_OUTCOME_", rules::CycleOutcomeName(o));
      });
  // Colours, winners and end reasons are named differently on each side.
  CheckEnumPair<rules::Color, qipu::v1::Color>(
      {rules::Color::kEmpty, rules::Color::kBlack, rules::Color::kWhite},
      qipu::v1::Color_descriptor(), ColorToProto, ColorFromProto,
      [](rules::Color c) {
        return std::string(c == rules::Color::kBlack   ? "COLOR_BLACK"
                           : c == rules::Color::kWhite ? "COLOR_WHITE"
                                                       : "COLOR_UNSPECIFIED");
      });
  EXPECT_EQ(ColorToProto(rules::Color::kWall), qipu::v1::COLOR_UNSPECIFIED);
  CheckEnumPair<rules::Winner, qipu::v1::Winner>(
      {rules::Winner::kNone, rules::Winner::kBlack, rules::Winner::kWhite,
       rules::Winner::kDraw},
      qipu::v1::Winner_descriptor(), WinnerToProto, WinnerFromProto,
      [](rules::Winner w) {
        const std::string n = rules::WinnerName(w);
        return n == "B"   ? std::string("WINNER_BLACK")
               : n == "W" ? std::string("WINNER_WHITE")
                          : ProtoName("WINNER_", n);
      });
  EXPECT_FALSE(WinnerFromProto(qipu::v1::WINNER_UNSPECIFIED).ok());
  CheckEnumPair<rules::EndReason, qipu::v1::EndReason>(
      {rules::EndReason::kNotOver, rules::EndReason::kScore,
       rules::EndReason::kResign, rules::EndReason::kTime,
       rules::EndReason::kForfeit, rules::EndReason::kCycle,
       rules::EndReason::kMoveLimit, rules::EndReason::kUnknown,
       rules::EndReason::kVoid, rules::EndReason::kIllegal,
       rules::EndReason::kOther},
      qipu::v1::EndReason_descriptor(), EndReasonToProto, EndReasonFromProto,
      [](rules::EndReason r) {
        return r == rules::EndReason::kNotOver
                   ? std::string("END_REASON_UNSPECIFIED")
                   : ProtoName("END_REASON_", rules::EndReasonName(r));
      });
}

TEST(Convert, ProtoCycleNamesAreTheRulesNames) {
  EXPECT_STREQ(CycleClassName(qipu::v1::CYCLE_CLASS_TRIPLE_KO), "triple_ko");
  EXPECT_STREQ(CycleClassName(qipu::v1::CYCLE_CLASS_UNSPECIFIED), "?");
  EXPECT_STREQ(CycleClassName(static_cast<qipu::v1::CycleClass>(9)), "?");
  EXPECT_STREQ(CycleOutcomeName(qipu::v1::CYCLE_OUTCOME_PREVENTED_CYCLE_RULE),
               "prevented-cycle-rule");
  EXPECT_STREQ(CycleOutcomeName(qipu::v1::CYCLE_OUTCOME_CONTINUED),
               "continued");
  EXPECT_STREQ(CycleOutcomeName(qipu::v1::CYCLE_OUTCOME_CONTINUED_IN_RECORD),
               "continued-in-record");
  EXPECT_STREQ(CycleOutcomeName(qipu::v1::CYCLE_OUTCOME_UNSPECIFIED), "?");
}

// An imported record's notes (rules/replay.h) round-trip through their
// stored form; a stored note that does not read is refused, not guessed.
TEST(Convert, RuleBreachesAndCutsRoundTrip) {
  for (const rules::IllegalReason rule :
       {rules::IllegalReason::kKo, rules::IllegalReason::kSuperko,
        rules::IllegalReason::kCycle, rules::IllegalReason::kSuicide,
        rules::IllegalReason::kGameOver}) {
    rules::RuleBreach b;
    b.move = 12;
    b.played = {rules::Color::kWhite, rules::MakePoint(3, 4)};
    b.rule = rule;
    if (rule == rules::IllegalReason::kGameOver) {
      b.ended_by = rules::EndReason::kScore;
      b.ended_at = 11;
    }
    if (rule == rules::IllegalReason::kCycle) {
      b.cycle = {.cls = rules::CycleClass::kSendingTwoReturningOne,
                 .outcome = rules::CycleOutcome::kContinuedInRecord,
                 .first_move = 10,
                 .period = 3,
                 .black_captures = 1,
                 .white_captures = 2,
                 .point = rules::MakePoint(3, 4)};
    }
    auto back = BreachFromProto(BreachToProto(b, 9), 9, 9);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, b) << rules::IllegalReasonName(rule);
  }
  qipu::v1::RuleBreach unknown;
  unknown.set_move(3);
  unknown.set_color(qipu::v1::COLOR_BLACK);
  EXPECT_FALSE(BreachFromProto(unknown, 9, 9).ok());
  unknown.set_rule(qipu::v1::RECORD_RULE_KO);
  unknown.set_point(82);
  EXPECT_FALSE(BreachFromProto(unknown, 9, 9).ok());

  rules::RecordCut c{.move = 4,
                     .played = {rules::Color::kBlack, rules::MakePoint(2, 2)},
                     .reason = rules::IllegalReason::kOccupied,
                     .value = ""};
  qipu::v1::RecordCut p = CutToProto(c, 9, 5);
  EXPECT_EQ(p.recorded_moves(), 5u);
  auto cut = CutFromProto(p, 9, 9);
  ASSERT_TRUE(cut.ok());
  EXPECT_EQ(*cut, c);
  rules::RecordCut unread{.move = 3,
                          .played = {rules::Color::kWhite, rules::kNoPoint},
                          .reason = rules::IllegalReason::kOffBoard,
                          .value = "jj"};
  cut = CutFromProto(CutToProto(unread, 9, 3), 9, 9);
  ASSERT_TRUE(cut.ok());
  EXPECT_EQ(*cut, unread);
}

TEST(Convert, UnknownEnumValuesInMessagesAreRefusedByField) {
  qipu::v1::RuleSet rs = RulesToProto(rules::Rules{});
  rs.set_cycle(static_cast<qipu::v1::CycleRule>(9));
  EXPECT_EQ(RulesFromProto(rs).status().message(),
            "rules.cycle: 9 is not a cycle rule");
  rs = RulesToProto(rules::Rules{});
  rs.set_dame(qipu::v1::DAME_RULE_UNSPECIFIED);
  EXPECT_EQ(RulesFromProto(rs).status().message(),
            "rules.dame: 0 is not a dame rule");
  qipu::v1::Result r;
  r.set_winner(qipu::v1::WINNER_BLACK);
  EXPECT_EQ(ResultFromProto(r).status().message(),
            "result.reason is unspecified or unknown");
  qipu::v1::Game g;
  g.set_width(9);
  g.set_height(9);
  g.set_first_color(static_cast<qipu::v1::Color>(5));
  EXPECT_EQ(GameToRecord(g).status().message(),
            "first_color: 5 is not a colour");
  g.set_first_color(qipu::v1::COLOR_WHITE);
  g.add_setup()->set_to_play(static_cast<qipu::v1::Color>(3));
  EXPECT_EQ(GameToRecord(g).status().message(),
            "setup.to_play: 3 is not a colour");
}

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

        // The upload reads back as its record and claims.
        qipu::v1::Game upload;
        SelfPlayToProto(game, spec, outcome, 3, "w", &upload);
        auto u = SelfPlayFromProto(upload);
        ASSERT_TRUE(u.ok()) << u.status();
        EXPECT_EQ(u->record.moves, game.moves());
        EXPECT_EQ(u->record.setup.size(), handicap > 0 ? 1u : 0u);
        EXPECT_EQ(u->record.handicap, game.handicap());
        EXPECT_EQ(u->claims.rules, spec.rules);
        EXPECT_EQ(u->claims.result, game.result());
        EXPECT_EQ(u->claims.area_black, game.Area().black);
        EXPECT_EQ(u->claims.area_white, game.Area().white);
        EXPECT_EQ(u->claims.area_dame, game.Area().dame);
        EXPECT_EQ(u->claims.cycles, game.cycles());
        EXPECT_EQ(u->claims.voided_cycles, outcome.voided_cycles);
        EXPECT_EQ(u->claims.ko_captures,
                  static_cast<uint32_t>(game.ko_captures()));
        EXPECT_EQ(u->claims.job, 3u);
        EXPECT_EQ(u->claims.index, index);
        EXPECT_EQ(u->claims.seed, outcome.seed);
        EXPECT_EQ(u->claims.attempt, static_cast<uint32_t>(outcome.attempt));
        EXPECT_EQ(u->worker, "w");
      }
    }
  }
}

TEST(Convert, RecordNotesAreStoredAsText) {
  rules::GameRecord r;
  r.width = r.height = 9;
  r.moves = {rules::Move{rules::Color::kBlack, rules::MakePoint(4, 4)}};
  r.notes.push_back({.kind = rules::NoteKind::kFoxKomi,
                     .value = "375",
                     .where = {3, 1, 4},
                     .komi = 7.5,
                     .stones = true});
  r.notes.push_back({.kind = rules::NoteKind::kNoCharset});
  qipu::v1::Game g;
  RecordToGame(r, &g);
  ASSERT_EQ(g.meta().normalised_size(), 2);
  EXPECT_EQ(g.meta().normalised(0),
            "KM[375] at byte 3 (line 1, column 4) read as komi 7.5 (Fox: 3.75 "
            "stones)");
  EXPECT_EQ(g.meta().normalised(1),
            "no CA[] charset given: text read as UTF-8");
  // BoardToGame leaves Meta alone.
  qipu::v1::Game board;
  BoardToGame(r, &board);
  EXPECT_FALSE(board.has_meta());
  EXPECT_EQ(board.moves(), g.moves());
}

}  // namespace
}  // namespace qipu::wire
