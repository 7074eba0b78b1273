// JSON renderings of rules-core values for --json output.
#ifndef QIPU_REPORT_RULES_JSON_H_
#define QIPU_REPORT_RULES_JSON_H_

#include "nlohmann/json.hpp"
#include "rules/game.h"
#include "rules/rules.h"
#include "rules/scoring.h"

namespace qipu::report {

// {"preset", "ko", "cycle", "suicide", "komi", "dame", "hcomp", "move_cap"}.
nlohmann::json RulesJson(const rules::Rules& r);
// {"class", "first_move", "period", "black_captures", "white_captures",
//  "outcome", "move"} with the move as a GTP vertex.
nlohmann::json CycleJson(const rules::CycleRecord& c, int height);
// {"black", "white", "dame"} (totals with the dame rule applied; dame is
// the number of shared points).
nlohmann::json AreaJson(const rules::AreaCount& a);

}  // namespace qipu::report

#endif  // QIPU_REPORT_RULES_JSON_H_
