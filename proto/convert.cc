#include "proto/convert.h"

#include <array>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/utility/utility.h"
#include "base/varint.h"
#include "rules/coord.h"

namespace qipu::wire {
namespace {

// UnpackPoints()' way out of its fast path: the varint at data[*pos]
// (longer than two bytes, or truncated) through GetVarint64(), for its
// error; advances *pos past the bytes read. Takes the string, not a
// pointer into it: UnpackPoints()' loop then keeps no pointer of its own.
bool GetLongVarint(const std::string& data, size_t* pos, uint64_t* v) {
  absl::string_view rest = absl::string_view(data).substr(*pos);
  const bool ok = base::GetVarint64(&rest, v);
  *pos = data.size() - rest.size();
  return ok;
}

// "<n> is not a <what>", for a proto enum value FromProto refuses.
absl::Status NotA(int value, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(value, " is not a ", what));
}

// `s` with "<field>: " before its message.
absl::Status InField(absl::string_view field, const absl::Status& s) {
  return absl::InvalidArgumentError(absl::StrCat(field, ": ", s.message()));
}

}  // namespace

qipu::v1::KoRule KoRuleToProto(rules::KoRule k) {
  switch (k) {
    case rules::KoRule::kSimple:
      return qipu::v1::KO_RULE_SIMPLE;
    case rules::KoRule::kPositional:
      return qipu::v1::KO_RULE_POSITIONAL;
    case rules::KoRule::kSituational:
      return qipu::v1::KO_RULE_SITUATIONAL;
  }
  return qipu::v1::KO_RULE_UNSPECIFIED;
}

absl::StatusOr<rules::KoRule> KoRuleFromProto(qipu::v1::KoRule k) {
  switch (k) {
    case qipu::v1::KO_RULE_SIMPLE:
      return rules::KoRule::kSimple;
    case qipu::v1::KO_RULE_POSITIONAL:
      return rules::KoRule::kPositional;
    case qipu::v1::KO_RULE_SITUATIONAL:
      return rules::KoRule::kSituational;
    default:
      return NotA(k, "ko rule");
  }
}

qipu::v1::CycleRule CycleRuleToProto(rules::CycleRule c) {
  switch (c) {
    case rules::CycleRule::kNone:
      return qipu::v1::CYCLE_RULE_NONE;
    case rules::CycleRule::kNoResult:
      return qipu::v1::CYCLE_RULE_NO_RESULT;
    case rules::CycleRule::kDraw:
      return qipu::v1::CYCLE_RULE_DRAW;
    case rules::CycleRule::kReplay:
      return qipu::v1::CYCLE_RULE_REPLAY;
  }
  return qipu::v1::CYCLE_RULE_UNSPECIFIED;
}

absl::StatusOr<rules::CycleRule> CycleRuleFromProto(qipu::v1::CycleRule c) {
  switch (c) {
    case qipu::v1::CYCLE_RULE_NONE:
      return rules::CycleRule::kNone;
    case qipu::v1::CYCLE_RULE_NO_RESULT:
      return rules::CycleRule::kNoResult;
    case qipu::v1::CYCLE_RULE_DRAW:
      return rules::CycleRule::kDraw;
    case qipu::v1::CYCLE_RULE_REPLAY:
      return rules::CycleRule::kReplay;
    default:
      return NotA(c, "cycle rule");
  }
}

qipu::v1::DameRule DameRuleToProto(rules::DameRule d) {
  switch (d) {
    case rules::DameRule::kHalf:
      return qipu::v1::DAME_RULE_HALF;
    case rules::DameRule::kNone:
      return qipu::v1::DAME_RULE_NONE;
  }
  return qipu::v1::DAME_RULE_UNSPECIFIED;
}

absl::StatusOr<rules::DameRule> DameRuleFromProto(qipu::v1::DameRule d) {
  switch (d) {
    case qipu::v1::DAME_RULE_HALF:
      return rules::DameRule::kHalf;
    case qipu::v1::DAME_RULE_NONE:
      return rules::DameRule::kNone;
    default:
      return NotA(d, "dame rule");
  }
}

qipu::v1::HandicapCompensation HandicapCompensationToProto(
    rules::HandicapCompensation h) {
  switch (h) {
    case rules::HandicapCompensation::kNone:
      return qipu::v1::HANDICAP_COMPENSATION_NONE;
    case rules::HandicapCompensation::kFull:
      return qipu::v1::HANDICAP_COMPENSATION_FULL;
    case rules::HandicapCompensation::kMinusOne:
      return qipu::v1::HANDICAP_COMPENSATION_MINUS_ONE;
  }
  return qipu::v1::HANDICAP_COMPENSATION_UNSPECIFIED;
}

absl::StatusOr<rules::HandicapCompensation> HandicapCompensationFromProto(
    qipu::v1::HandicapCompensation h) {
  switch (h) {
    case qipu::v1::HANDICAP_COMPENSATION_NONE:
      return rules::HandicapCompensation::kNone;
    case qipu::v1::HANDICAP_COMPENSATION_FULL:
      return rules::HandicapCompensation::kFull;
    case qipu::v1::HANDICAP_COMPENSATION_MINUS_ONE:
      return rules::HandicapCompensation::kMinusOne;
    default:
      return NotA(h, "compensation rule");
  }
}

qipu::v1::CycleClass CycleClassToProto(rules::CycleClass c) {
  switch (c) {
    case rules::CycleClass::kTripleKo:
      return qipu::v1::CYCLE_CLASS_TRIPLE_KO;
    case rules::CycleClass::kQuadrupleKo:
      return qipu::v1::CYCLE_CLASS_QUADRUPLE_KO;
    case rules::CycleClass::kEternalLife:
      return qipu::v1::CYCLE_CLASS_ETERNAL_LIFE;
    case rules::CycleClass::kSendingTwoReturningOne:
      return qipu::v1::CYCLE_CLASS_SENDING_TWO_RETURNING_ONE;
    case rules::CycleClass::kOther:
      return qipu::v1::CYCLE_CLASS_OTHER;
  }
  return qipu::v1::CYCLE_CLASS_UNSPECIFIED;
}

absl::StatusOr<rules::CycleClass> CycleClassFromProto(qipu::v1::CycleClass c) {
  switch (c) {
    case qipu::v1::CYCLE_CLASS_TRIPLE_KO:
      return rules::CycleClass::kTripleKo;
    case qipu::v1::CYCLE_CLASS_QUADRUPLE_KO:
      return rules::CycleClass::kQuadrupleKo;
    case qipu::v1::CYCLE_CLASS_ETERNAL_LIFE:
      return rules::CycleClass::kEternalLife;
    case qipu::v1::CYCLE_CLASS_SENDING_TWO_RETURNING_ONE:
      return rules::CycleClass::kSendingTwoReturningOne;
    case qipu::v1::CYCLE_CLASS_OTHER:
      return rules::CycleClass::kOther;
    default:
      return NotA(c, "cycle class");
  }
}

qipu::v1::CycleOutcome CycleOutcomeToProto(rules::CycleOutcome o) {
  switch (o) {
    case rules::CycleOutcome::kNoResult:
      return qipu::v1::CYCLE_OUTCOME_NO_RESULT;
    case rules::CycleOutcome::kDraw:
      return qipu::v1::CYCLE_OUTCOME_DRAW;
    case rules::CycleOutcome::kReplay:
      return qipu::v1::CYCLE_OUTCOME_REPLAY;
    case rules::CycleOutcome::kPreventedSuperko:
      return qipu::v1::CYCLE_OUTCOME_PREVENTED_SUPERKO;
    case rules::CycleOutcome::kPreventedCycleRule:
      return qipu::v1::CYCLE_OUTCOME_PREVENTED_CYCLE_RULE;
    case rules::CycleOutcome::kContinued:
      return qipu::v1::CYCLE_OUTCOME_CONTINUED;
    case rules::CycleOutcome::kContinuedInRecord:
      return qipu::v1::CYCLE_OUTCOME_CONTINUED_IN_RECORD;
  }
  return qipu::v1::CYCLE_OUTCOME_UNSPECIFIED;
}

absl::StatusOr<rules::CycleOutcome> CycleOutcomeFromProto(
    qipu::v1::CycleOutcome o) {
  switch (o) {
    case qipu::v1::CYCLE_OUTCOME_NO_RESULT:
      return rules::CycleOutcome::kNoResult;
    case qipu::v1::CYCLE_OUTCOME_DRAW:
      return rules::CycleOutcome::kDraw;
    case qipu::v1::CYCLE_OUTCOME_REPLAY:
      return rules::CycleOutcome::kReplay;
    case qipu::v1::CYCLE_OUTCOME_PREVENTED_SUPERKO:
      return rules::CycleOutcome::kPreventedSuperko;
    case qipu::v1::CYCLE_OUTCOME_PREVENTED_CYCLE_RULE:
      return rules::CycleOutcome::kPreventedCycleRule;
    case qipu::v1::CYCLE_OUTCOME_CONTINUED:
      return rules::CycleOutcome::kContinued;
    case qipu::v1::CYCLE_OUTCOME_CONTINUED_IN_RECORD:
      return rules::CycleOutcome::kContinuedInRecord;
    default:
      return NotA(o, "cycle outcome");
  }
}

qipu::v1::Color ColorToProto(rules::Color c) {
  switch (c) {
    case rules::Color::kBlack:
      return qipu::v1::COLOR_BLACK;
    case rules::Color::kWhite:
      return qipu::v1::COLOR_WHITE;
    case rules::Color::kEmpty:
    case rules::Color::kWall:
      return qipu::v1::COLOR_UNSPECIFIED;
  }
  return qipu::v1::COLOR_UNSPECIFIED;
}

absl::StatusOr<rules::Color> ColorFromProto(qipu::v1::Color c) {
  switch (c) {
    case qipu::v1::COLOR_UNSPECIFIED:
      return rules::Color::kEmpty;
    case qipu::v1::COLOR_BLACK:
      return rules::Color::kBlack;
    case qipu::v1::COLOR_WHITE:
      return rules::Color::kWhite;
    default:
      return NotA(c, "colour");
  }
}

qipu::v1::Winner WinnerToProto(rules::Winner w) {
  switch (w) {
    case rules::Winner::kNone:
      return qipu::v1::WINNER_NONE;
    case rules::Winner::kBlack:
      return qipu::v1::WINNER_BLACK;
    case rules::Winner::kWhite:
      return qipu::v1::WINNER_WHITE;
    case rules::Winner::kDraw:
      return qipu::v1::WINNER_DRAW;
  }
  return qipu::v1::WINNER_UNSPECIFIED;
}

absl::StatusOr<rules::Winner> WinnerFromProto(qipu::v1::Winner w) {
  switch (w) {
    case qipu::v1::WINNER_NONE:
      return rules::Winner::kNone;
    case qipu::v1::WINNER_BLACK:
      return rules::Winner::kBlack;
    case qipu::v1::WINNER_WHITE:
      return rules::Winner::kWhite;
    case qipu::v1::WINNER_DRAW:
      return rules::Winner::kDraw;
    default:
      return NotA(w, "winner");
  }
}

qipu::v1::EndReason EndReasonToProto(rules::EndReason r) {
  switch (r) {
    case rules::EndReason::kNotOver:
      return qipu::v1::END_REASON_UNSPECIFIED;
    case rules::EndReason::kScore:
      return qipu::v1::END_REASON_SCORE;
    case rules::EndReason::kResign:
      return qipu::v1::END_REASON_RESIGN;
    case rules::EndReason::kTime:
      return qipu::v1::END_REASON_TIME;
    case rules::EndReason::kForfeit:
      return qipu::v1::END_REASON_FORFEIT;
    case rules::EndReason::kCycle:
      return qipu::v1::END_REASON_CYCLE;
    case rules::EndReason::kMoveLimit:
      return qipu::v1::END_REASON_MOVE_LIMIT;
    case rules::EndReason::kUnknown:
      return qipu::v1::END_REASON_UNKNOWN;
    case rules::EndReason::kVoid:
      return qipu::v1::END_REASON_VOID;
    case rules::EndReason::kIllegal:
      return qipu::v1::END_REASON_ILLEGAL;
    case rules::EndReason::kOther:
      return qipu::v1::END_REASON_OTHER;
  }
  return qipu::v1::END_REASON_UNSPECIFIED;
}

absl::StatusOr<rules::EndReason> EndReasonFromProto(qipu::v1::EndReason r) {
  switch (r) {
    case qipu::v1::END_REASON_UNSPECIFIED:
      return rules::EndReason::kNotOver;
    case qipu::v1::END_REASON_SCORE:
      return rules::EndReason::kScore;
    case qipu::v1::END_REASON_RESIGN:
      return rules::EndReason::kResign;
    case qipu::v1::END_REASON_TIME:
      return rules::EndReason::kTime;
    case qipu::v1::END_REASON_FORFEIT:
      return rules::EndReason::kForfeit;
    case qipu::v1::END_REASON_CYCLE:
      return rules::EndReason::kCycle;
    case qipu::v1::END_REASON_MOVE_LIMIT:
      return rules::EndReason::kMoveLimit;
    case qipu::v1::END_REASON_UNKNOWN:
      return rules::EndReason::kUnknown;
    case qipu::v1::END_REASON_VOID:
      return rules::EndReason::kVoid;
    case qipu::v1::END_REASON_ILLEGAL:
      return rules::EndReason::kIllegal;
    case qipu::v1::END_REASON_OTHER:
      return rules::EndReason::kOther;
    default:
      return NotA(r, "end reason");
  }
}

const char* CycleClassName(qipu::v1::CycleClass c) {
  auto d = CycleClassFromProto(c);
  return d.ok() ? rules::CycleClassName(*d) : "?";
}

const char* CycleOutcomeName(qipu::v1::CycleOutcome o) {
  auto d = CycleOutcomeFromProto(o);
  return d.ok() ? rules::CycleOutcomeName(*d) : "?";
}

qipu::v1::RuleSet RulesToProto(const rules::Rules& r) {
  qipu::v1::RuleSet p;
  p.set_preset(rules::PresetName(r));
  p.set_ko(KoRuleToProto(r.ko));
  p.set_cycle(CycleRuleToProto(r.cycle));
  p.set_multi_stone_suicide(r.multi_stone_suicide);
  p.set_komi(r.komi);
  p.set_dame(DameRuleToProto(r.dame));
  p.set_handicap_compensation(
      HandicapCompensationToProto(r.handicap_compensation));
  p.set_move_cap(static_cast<uint32_t>(r.move_cap));
  return p;
}

absl::StatusOr<rules::Rules> RulesFromProto(const qipu::v1::RuleSet& p) {
  rules::Rules r;
  auto ko = KoRuleFromProto(p.ko());
  if (!ko.ok()) return InField("rules.ko", ko.status());
  auto cycle = CycleRuleFromProto(p.cycle());
  if (!cycle.ok()) return InField("rules.cycle", cycle.status());
  auto dame = DameRuleFromProto(p.dame());
  if (!dame.ok()) return InField("rules.dame", dame.status());
  auto hcomp = HandicapCompensationFromProto(p.handicap_compensation());
  if (!hcomp.ok())
    return InField("rules.handicap_compensation", hcomp.status());
  if (absl::Status s = rules::ValidateKomi(p.komi()); !s.ok()) {
    return InField("rules.komi", s);
  }
  if (p.move_cap() > 100000) {
    return absl::InvalidArgumentError(
        absl::StrCat("rules.move_cap: ", p.move_cap(), " exceeds 100000"));
  }
  r.ko = *ko;
  r.cycle = *cycle;
  r.multi_stone_suicide = p.multi_stone_suicide();
  r.komi = p.komi();
  r.dame = *dame;
  r.handicap_compensation = *hcomp;
  r.move_cap = static_cast<int>(p.move_cap());
  return r;
}

void PackPoint(rules::Point p, int width, std::string* out) {
  base::PutVarint64(out,
                    p == rules::kPass ? 0 : rules::DenseIndex(p, width) + 1);
}

std::string PackPoints(const std::vector<rules::Point>& points, int width) {
  std::string out;
  out.reserve(points.size() * 2);
  for (rules::Point p : points) PackPoint(p, width, &out);
  return out;
}

absl::StatusOr<std::vector<rules::Point>> UnpackPoints(const std::string& data,
                                                       int width, int height,
                                                       bool allow_pass) {
  // Dense index -> point for this width, built once per width and thread
  // (a division per point was most of this function).
  thread_local int table_width = 0;
  thread_local std::array<rules::Point, rules::kMaxPoints> point_of;
  if (table_width != width) {
    for (int i = 0; i < rules::kMaxPoints; ++i) {
      point_of[i] = rules::FromDenseIndex(i, width);
    }
    table_width = width;
  }
  // One point per byte at most; filled by index, trimmed at the end. The
  // usual one- and two-byte varints are decoded without a branch on their
  // length (moves on a big board are a random mix of both); longer ones,
  // never a point, take GetVarint64() to the error they deserve.
  const size_t n = data.size();
  const char* const d = data.data();
  const uint64_t points = static_cast<uint64_t>(width) * height;
  std::vector<rules::Point> out(n);
  size_t count = 0;
  size_t pos = 0;
  while (pos < n) {
    uint64_t v;
    uint32_t v14;
    if (const size_t len = base::DecodeVarint14(d, n, pos, &v14); len != 0)
        [[likely]] {
      v = v14;
      pos += len;
    } else if (!GetLongVarint(data, &pos, &v)) {
      return absl::InvalidArgumentError(
          absl::StrCat("packed points truncated at byte ", pos));
    }
    if (v - 1 >= points) [[unlikely]] {  // 0 (a pass) or off the board
      if (v == 0) {
        if (!allow_pass) {
          return absl::InvalidArgumentError(
              absl::StrCat("pass in a setup point list at item ", count + 1));
        }
        out[count++] = rules::kPass;
        continue;
      }
      return absl::InvalidArgumentError(
          absl::StrCat("point ", v, " at item ", count + 1, " is off the ",
                       width, "x", height, " board"));
    }
    out[count++] = point_of[v - 1];
  }
  out.resize(count);
  return out;
}

qipu::v1::Cycle CycleToProto(const rules::CycleRecord& c, int width) {
  qipu::v1::Cycle p;
  p.set_cls(CycleClassToProto(c.cls));
  p.set_first_move(static_cast<uint32_t>(c.first_move));
  p.set_period(static_cast<uint32_t>(c.period));
  p.set_black_captures(static_cast<uint32_t>(c.black_captures));
  p.set_white_captures(static_cast<uint32_t>(c.white_captures));
  p.set_outcome(CycleOutcomeToProto(c.outcome));
  p.set_point(
      c.point == rules::kPass || c.point == rules::kNoPoint
          ? 0
          : static_cast<uint32_t>(rules::DenseIndex(c.point, width) + 1));
  return p;
}

absl::StatusOr<rules::CycleRecord> CycleFromProto(const qipu::v1::Cycle& p,
                                                  int width, int height) {
  auto cls = CycleClassFromProto(p.cls());
  auto outcome = CycleOutcomeFromProto(p.outcome());
  if (!cls.ok() || !outcome.ok()) {
    return absl::InvalidArgumentError("cycle: unknown class or outcome");
  }
  if (p.point() == 0 || p.point() > static_cast<uint32_t>(width * height) ||
      p.period() == 0 || p.first_move() == 0) {
    return absl::InvalidArgumentError("cycle: bad point, period or first move");
  }
  rules::CycleRecord c;
  c.cls = *cls;
  c.outcome = *outcome;
  c.first_move = static_cast<int>(p.first_move());
  c.period = static_cast<int>(p.period());
  c.black_captures = static_cast<int>(p.black_captures());
  c.white_captures = static_cast<int>(p.white_captures());
  c.point = rules::FromDenseIndex(static_cast<int>(p.point() - 1), width);
  return c;
}

namespace {

uint32_t PointToProto(rules::Point p, int width) {
  return p == rules::kPass || p == rules::kNoPoint
             ? 0
             : static_cast<uint32_t>(rules::DenseIndex(p, width) + 1);
}

}  // namespace

qipu::v1::RuleBreach BreachToProto(const rules::RuleBreach& b, int width) {
  qipu::v1::RuleBreach p;
  p.set_move(static_cast<uint32_t>(b.move));
  p.set_point(PointToProto(b.played.point, width));
  p.set_color(ColorToProto(b.played.color));
  switch (b.rule) {
    case rules::IllegalReason::kKo:
      p.set_rule(qipu::v1::RECORD_RULE_KO);
      break;
    case rules::IllegalReason::kSuperko:
      p.set_rule(qipu::v1::RECORD_RULE_SUPERKO);
      break;
    case rules::IllegalReason::kCycle:
      p.set_rule(qipu::v1::RECORD_RULE_CYCLE);
      break;
    case rules::IllegalReason::kSuicide:
      p.set_rule(qipu::v1::RECORD_RULE_SUICIDE);
      break;
    case rules::IllegalReason::kGameOver:
      p.set_rule(qipu::v1::RECORD_RULE_GAME_END);
      break;
    default:
      break;
  }
  if (b.ended_by != rules::EndReason::kNotOver) {
    p.set_ended_by(EndReasonToProto(b.ended_by));
    p.set_ended_at(static_cast<uint32_t>(b.ended_at));
  }
  if (b.cycle.period > 0) *p.mutable_cycle() = CycleToProto(b.cycle, width);
  return p;
}

absl::StatusOr<rules::RuleBreach> BreachFromProto(const qipu::v1::RuleBreach& p,
                                                  int width, int height) {
  rules::RuleBreach b;
  b.move = static_cast<int>(p.move());
  auto colour = ColorFromProto(p.color());
  if (!colour.ok() || *colour == rules::Color::kEmpty) {
    return absl::InvalidArgumentError("breach: no colour");
  }
  b.played.color = *colour;
  if (p.point() > static_cast<uint32_t>(width * height) || p.move() == 0) {
    return absl::InvalidArgumentError("breach: bad point or move");
  }
  b.played.point = p.point() == 0 ? rules::kPass
                                  : rules::FromDenseIndex(
                                        static_cast<int>(p.point() - 1), width);
  switch (p.rule()) {
    case qipu::v1::RECORD_RULE_KO:
      b.rule = rules::IllegalReason::kKo;
      break;
    case qipu::v1::RECORD_RULE_SUPERKO:
      b.rule = rules::IllegalReason::kSuperko;
      break;
    case qipu::v1::RECORD_RULE_CYCLE:
      b.rule = rules::IllegalReason::kCycle;
      break;
    case qipu::v1::RECORD_RULE_SUICIDE:
      b.rule = rules::IllegalReason::kSuicide;
      break;
    case qipu::v1::RECORD_RULE_GAME_END:
      b.rule = rules::IllegalReason::kGameOver;
      break;
    default:
      return absl::InvalidArgumentError("breach: unknown rule");
  }
  if (p.ended_by() != qipu::v1::END_REASON_UNSPECIFIED) {
    auto ended = EndReasonFromProto(p.ended_by());
    if (!ended.ok()) return ended.status();
    b.ended_by = *ended;
    b.ended_at = static_cast<int>(p.ended_at());
  }
  if (p.has_cycle()) {
    auto c = CycleFromProto(p.cycle(), width, height);
    if (!c.ok()) return c.status();
    b.cycle = *c;
  }
  return b;
}

qipu::v1::RecordCut CutToProto(const rules::RecordCut& c, int width,
                               int recorded_moves) {
  qipu::v1::RecordCut p;
  p.set_move(static_cast<uint32_t>(c.move));
  p.set_reason(c.reason == rules::IllegalReason::kOccupied
                   ? qipu::v1::CUT_REASON_OCCUPIED
                   : qipu::v1::CUT_REASON_OFF_BOARD);
  p.set_color(ColorToProto(c.played.color));
  p.set_point(PointToProto(c.played.point, width));
  p.set_value(c.value);
  p.set_recorded_moves(static_cast<uint32_t>(recorded_moves));
  return p;
}

absl::StatusOr<rules::RecordCut> CutFromProto(const qipu::v1::RecordCut& p,
                                              int width, int height) {
  rules::RecordCut c;
  c.move = static_cast<int>(p.move());
  auto colour = ColorFromProto(p.color());
  if (!colour.ok()) return colour.status();
  c.played.color = *colour;
  if (p.point() > static_cast<uint32_t>(width * height)) {
    return absl::InvalidArgumentError("cut: point off the board");
  }
  c.played.point = p.point() == 0 ? rules::kNoPoint
                                  : rules::FromDenseIndex(
                                        static_cast<int>(p.point() - 1), width);
  c.reason = p.reason() == qipu::v1::CUT_REASON_OCCUPIED
                 ? rules::IllegalReason::kOccupied
                 : rules::IllegalReason::kOffBoard;
  c.value = p.value();
  return c;
}

qipu::v1::Result ResultToProto(const rules::GameResult& r) {
  qipu::v1::Result p;
  p.set_winner(WinnerToProto(r.winner));
  p.set_reason(EndReasonToProto(r.reason));
  p.set_margin(r.margin);
  switch (r.counting) {
    case rules::Counting::kJudged:
      p.set_counting(qipu::v1::COUNTING_JUDGED);
      break;
    case rules::Counting::kAgreed:
      p.set_counting(qipu::v1::COUNTING_AGREED);
      break;
    case rules::Counting::kPlayedOut:
      p.set_counting(qipu::v1::COUNTING_PLAYED_OUT);
      break;
    case rules::Counting::kUnknown:
    case rules::Counting::kAsPlayed:
      break;
  }
  return p;
}

absl::StatusOr<rules::GameResult> ResultFromProto(const qipu::v1::Result& p) {
  rules::GameResult r;
  auto winner = WinnerFromProto(p.winner());
  if (!winner.ok()) {
    return absl::InvalidArgumentError("result.winner is unspecified");
  }
  auto reason = EndReasonFromProto(p.reason());
  if (!reason.ok() || *reason == rules::EndReason::kNotOver) {
    return absl::InvalidArgumentError(
        "result.reason is unspecified or unknown");
  }
  r.winner = *winner;
  r.reason = *reason;
  r.margin = p.margin();
  switch (p.counting()) {
    case qipu::v1::COUNTING_AS_PLAYED:
      r.counting = rules::Counting::kAsPlayed;
      break;
    case qipu::v1::COUNTING_JUDGED:
      r.counting = rules::Counting::kJudged;
      break;
    case qipu::v1::COUNTING_AGREED:
      r.counting = rules::Counting::kAgreed;
      break;
    case qipu::v1::COUNTING_PLAYED_OUT:
      r.counting = rules::Counting::kPlayedOut;
      break;
    default:
      break;
  }
  return r;
}

qipu::v1::Area AreaToProto(const rules::AreaCount& a) {
  qipu::v1::Area p;
  p.set_black(a.black);
  p.set_white(a.white);
  p.set_dame(a.dame);
  return p;
}

namespace {

// GameToRecord() into *out, a default-constructed record: built in place,
// so that SelfPlayFromProto() moves no record around.
absl::Status DecodeGame(const qipu::v1::Game& g, rules::GameRecord* out) {
  rules::GameRecord& r = *out;
  if (absl::Status s = rules::ValidateSize(static_cast<int>(g.width()),
                                           static_cast<int>(g.height()));
      !s.ok()) {
    return s;
  }
  r.width = static_cast<int>(g.width());
  r.height = static_cast<int>(g.height());
  if (g.handicap() > 9) {
    return absl::InvalidArgumentError(
        absl::StrCat("handicap ", g.handicap(), " exceeds 9"));
  }
  r.handicap = static_cast<int>(g.handicap());
  for (const qipu::v1::Setup& s : g.setup()) {
    rules::SetupStep step;
    step.before_move = static_cast<int>(s.before_move());
    auto black = UnpackPoints(s.black(), r.width, r.height, false);
    auto white = UnpackPoints(s.white(), r.width, r.height, false);
    auto empty = UnpackPoints(s.empty(), r.width, r.height, false);
    for (const auto* st : {&black, &white, &empty}) {
      if (!st->ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat("setup: ", st->status().message()));
      }
    }
    auto to_play = ColorFromProto(s.to_play());
    if (!to_play.ok()) return InField("setup.to_play", to_play.status());
    step.black = *std::move(black);
    step.white = *std::move(white);
    step.empty = *std::move(empty);
    step.to_play = *to_play;
    r.setup.push_back(std::move(step));
  }
  auto points = UnpackPoints(g.moves(), r.width, r.height, true);
  if (!points.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("moves: ", points.status().message()));
  }
  if (points->size() != g.num_moves()) {
    return absl::InvalidArgumentError(
        absl::StrCat("moves: ", points->size(),
                     " packed moves but num_moves says ", g.num_moves()));
  }
  auto first = ColorFromProto(g.first_color());
  if (!first.ok()) return InField("first_color", first.status());
  rules::Color c = *first;
  if (c == rules::Color::kEmpty) {
    c = (g.handicap() >= 2) ? rules::Color::kWhite : rules::Color::kBlack;
  }
  size_t same = 0;
  r.moves.reserve(points->size());
  for (size_t i = 0; i < points->size(); ++i) {
    if (i > 0) {
      if (same < static_cast<size_t>(g.same_color_moves_size()) &&
          g.same_color_moves(same) == i) {
        ++same;
      } else {
        c = rules::Opponent(c);
      }
    }
    r.moves.push_back(rules::Move{c, (*points)[i]});
  }
  if (same != static_cast<size_t>(g.same_color_moves_size())) {
    return absl::InvalidArgumentError(
        "same_color_moves: indices must increase and lie within the moves");
  }
  const qipu::v1::Meta& m = g.meta();
  r.black_player = m.black_player();
  r.white_player = m.white_player();
  r.black_rank = m.black_rank();
  r.white_rank = m.white_rank();
  r.date = m.date();
  r.event = m.event();
  // The game's own result beside the RE its record wrote (an unreadable
  // stored result reads as unknown).
  auto result = ResultFromProto(g.result());
  r.result = rules::RecordResult::Stored(
      result.ok() ? *result
                  : rules::GameResult{rules::Winner::kNone,
                                      rules::EndReason::kUnknown, 0},
      m.record_result());
  r.komi = g.rules().komi();
  r.has_komi = true;
  r.rules = g.rules().preset();
  return absl::OkStatus();
}

// SelfPlayFromProto() into *u, default-constructed.
absl::Status DecodeUpload(const qipu::v1::Game& g, SelfPlayUpload* u) {
  if (absl::Status s = DecodeGame(g, &u->record); !s.ok()) return s;
  const int w = u->record.width;
  const int h = u->record.height;
  rules::SelfPlayClaims& c = u->claims;
  auto rules = RulesFromProto(g.rules());
  if (!rules.ok()) return rules.status();
  c.rules = *rules;
  auto result = ResultFromProto(g.result());
  if (!result.ok()) return result.status();
  c.result = *result;
  c.area_black = g.area().black();
  c.area_white = g.area().white();
  c.area_dame = g.area().dame();
  c.cycles.reserve(static_cast<size_t>(g.cycles_size()));
  for (const qipu::v1::Cycle& p : g.cycles()) {
    auto cycle = CycleFromProto(p, w, h);
    if (!cycle.ok()) return cycle.status();
    c.cycles.push_back(*cycle);
  }
  c.ko_captures = g.ko_captures();
  const qipu::v1::Provenance& prov = g.provenance();
  c.job = prov.job();
  c.index = prov.game_index();
  c.attempt = prov.attempt();
  c.seed = prov.seed();
  c.voided_cycles.reserve(static_cast<size_t>(g.voided_cycles_size()));
  for (const qipu::v1::Cycle& p : g.voided_cycles()) {
    auto cycle = CycleFromProto(p, w, h);
    if (!cycle.ok()) return cycle.status();
    c.voided_cycles.push_back(*cycle);
  }
  u->worker = prov.worker();
  u->policy = prov.policy();
  u->black_policy = prov.black_policy();
  u->white_policy = prov.white_policy();
  u->result_detail = g.result().detail();
  u->illegal_point = g.result().illegal_point();
  if (!g.result().dead_stones().empty()) {
    auto dead = UnpackPoints(g.result().dead_stones(), u->record.width,
                             u->record.height, /*allow_pass=*/false);
    if (!dead.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("result.dead_stones: ", dead.status().message()));
    }
    u->dead_stones = *std::move(dead);
  }
  u->search_visits = g.search_visits();
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<rules::GameRecord> GameToRecord(const qipu::v1::Game& g) {
  rules::GameRecord r;
  if (absl::Status s = DecodeGame(g, &r); !s.ok()) return s;
  return r;
}

namespace {

// Moves, num_moves, first_color and same_color_moves of *g from `moves`.
// Writes the varints straight into the field's buffer (a dense index is
// below 2^14: at most two bytes).
void PackMoves(const std::vector<rules::Move>& moves, int width,
               qipu::v1::Game* g) {
  const size_t n = moves.size();
  const rules::Move* m = moves.data();
  std::string* packed = g->mutable_moves();
  packed->resize(n * 2);
  char* const begin = packed->data();
  char* out = begin;
  // EncodeVarint14() always writes two bytes and the cursor advances by the
  // varint's length: no branch on it (a random mix of 1 and 2 bytes on
  // boards above 11x11). out <= begin + 2i at move i, so the writes stay
  // inside.
  for (size_t i = 0; i < n; ++i) {
    const rules::Point p = m[i].point;
    const uint32_t v =
        p == rules::kPass
            ? 0
            : static_cast<uint32_t>(rules::DenseIndex(p, width) + 1);
    out = base::EncodeVarint14(out, v);
  }
  packed->resize(static_cast<size_t>(out - begin));
  g->clear_same_color_moves();
  for (size_t i = 1; i < n; ++i) {
    if (m[i].color == m[i - 1].color) {
      g->add_same_color_moves(static_cast<uint32_t>(i));
    }
  }
  g->set_num_moves(static_cast<uint32_t>(n));
  g->set_first_color(n == 0 ? qipu::v1::COLOR_UNSPECIFIED
                            : ColorToProto(m[0].color));
}

}  // namespace

void BoardToGame(const rules::GameRecord& r, qipu::v1::Game* g) {
  g->set_width(static_cast<uint32_t>(r.width));
  g->set_height(static_cast<uint32_t>(r.height));
  g->set_handicap(static_cast<uint32_t>(r.handicap));
  g->clear_setup();
  for (const rules::SetupStep& s : r.setup) {
    qipu::v1::Setup* p = g->add_setup();
    p->set_before_move(static_cast<uint32_t>(s.before_move));
    p->set_black(PackPoints(s.black, r.width));
    p->set_white(PackPoints(s.white, r.width));
    p->set_empty(PackPoints(s.empty, r.width));
    p->set_to_play(ColorToProto(s.to_play));
  }
  PackMoves(r.moves, r.width, g);
}

void RecordToGame(const rules::GameRecord& r, qipu::v1::Game* g) {
  BoardToGame(r, g);
  qipu::v1::Meta* m = g->mutable_meta();
  m->set_black_player(r.black_player);
  m->set_white_player(r.white_player);
  m->set_black_rank(r.black_rank);
  m->set_white_rank(r.white_rank);
  m->set_date(r.date);
  m->set_event(r.event);
  m->set_record_result(r.result.text);
  m->clear_normalised();
  for (const rules::RecordNote& n : r.notes) {
    m->add_normalised(rules::NoteText(n));
  }
}

absl::StatusOr<SelfPlayUpload> SelfPlayFromProto(const qipu::v1::Game& g) {
  // One return object, built in place (no copy or move of the record).
  absl::StatusOr<SelfPlayUpload> out(absl::in_place);
  if (absl::Status s = DecodeUpload(g, &*out); !s.ok()) out = std::move(s);
  return out;
}

rules::GameRecord RecordOfGame(const rules::Game& game,
                               const std::vector<rules::Point>& handicap) {
  rules::GameRecord r;
  r.width = game.width();
  r.height = game.height();
  r.handicap = game.handicap();
  if (!handicap.empty()) {
    rules::SetupStep s;
    s.black = handicap;
    r.setup.push_back(std::move(s));
  }
  r.moves = game.moves();
  return r;
}

rules::SelfPlaySpec SelfPlaySpecFor(const qipu::v1::JobConfig& config,
                                    const rules::Rules& rules, uint64_t index) {
  rules::SelfPlaySpec spec;
  spec.width = static_cast<int>(config.width());
  spec.height = static_cast<int>(config.height());
  spec.rules = rules;
  spec.handicap = static_cast<int>(config.handicap());
  spec.job_seed = config.seed();
  spec.index = index;
  return spec;
}

void SelfPlayToProto(const rules::Game& game, const rules::SelfPlaySpec& spec,
                     const rules::SelfPlayOutcome& outcome, uint64_t job,
                     const std::string& worker, qipu::v1::Game* out) {
  out->Clear();
  std::vector<rules::Point> stones;
  if (spec.handicap > 0) {
    auto h = rules::FixedHandicap(spec.width, spec.height, spec.handicap);
    if (h.ok()) stones = *h;
  }
  out->set_width(static_cast<uint32_t>(game.width()));
  out->set_height(static_cast<uint32_t>(game.height()));
  out->set_handicap(static_cast<uint32_t>(game.handicap()));
  if (!stones.empty()) {
    qipu::v1::Setup* setup = out->add_setup();
    setup->set_black(PackPoints(stones, game.width()));
    setup->set_to_play(ColorToProto(rules::Color::kEmpty));
  }
  PackMoves(game.moves(), game.width(), out);
  *out->mutable_rules() = RulesToProto(game.rules());
  *out->mutable_result() = ResultToProto(game.result());
  *out->mutable_area() = AreaToProto(game.Area());
  for (const rules::CycleRecord& c : game.cycles()) {
    *out->add_cycles() = CycleToProto(c, spec.width);
  }
  for (const rules::CycleRecord& c : outcome.voided_cycles) {
    *out->add_voided_cycles() = CycleToProto(c, spec.width);
  }
  out->set_ko_captures(static_cast<uint32_t>(game.ko_captures()));
  qipu::v1::Provenance* p = out->mutable_provenance();
  p->set_job(job);
  p->set_game_index(spec.index);
  p->set_seed(outcome.seed);
  p->set_attempt(static_cast<uint32_t>(outcome.attempt));
  p->set_worker(worker);
  p->set_policy("random");
}

}  // namespace qipu::wire
