#include "report/rules_json.h"

#include "rules/coord.h"

namespace qipu::report {

nlohmann::json RulesJson(const rules::Rules& r) {
  return {{"preset", rules::PresetName(r)},
          {"ko", rules::KoRuleName(r.ko)},
          {"cycle", rules::CycleRuleName(r.cycle)},
          {"suicide", r.multi_stone_suicide},
          {"komi", r.komi},
          {"dame", rules::DameRuleName(r.dame)},
          {"hcomp", rules::HandicapCompensationName(r.handicap_compensation)},
          {"move_cap", r.move_cap}};
}

nlohmann::json CycleJson(const rules::CycleRecord& c, int height) {
  return {{"class", rules::CycleClassName(c.cls)},
          {"first_move", c.first_move},
          {"period", c.period},
          {"black_captures", c.black_captures},
          {"white_captures", c.white_captures},
          {"outcome", rules::CycleOutcomeName(c.outcome)},
          {"move", rules::GtpPoint(c.point, height)}};
}

nlohmann::json AreaJson(const rules::AreaCount& a) {
  return {{"black", a.black}, {"white", a.white}, {"dame", a.dame}};
}

}  // namespace qipu::report
