#include "tests/rules/rule_variants.h"

namespace qipu::rules {

std::vector<std::pair<std::string, Rules>> AllRuleVariants() {
  std::vector<std::pair<std::string, Rules>> out;
  for (const char* name :
       {"chinese", "chinese-superko", "tromp-taylor", "aga", "new-zealand"}) {
    out.emplace_back(name, *PresetRules(name));
  }
  Rules r;
  r.cycle = CycleRule::kDraw;
  out.emplace_back("simple+draw", r);
  r.cycle = CycleRule::kReplay;
  out.emplace_back("simple+replay", r);
  r.cycle = CycleRule::kNone;
  out.emplace_back("simple only", r);
  r.ko = KoRule::kPositional;
  out.emplace_back("positional", r);
  r.ko = KoRule::kSituational;
  r.multi_stone_suicide = true;
  out.emplace_back("situational+suicide", r);
  r = Rules{};
  r.multi_stone_suicide = true;
  out.emplace_back("chinese+suicide", r);
  r = Rules{};
  r.move_cap = 17;
  out.emplace_back("chinese cap 17", r);
  r.move_cap = 60;
  r.ko = KoRule::kPositional;
  r.komi = 0;
  out.emplace_back("positional cap 60 komi 0", r);
  return out;
}

}  // namespace qipu::rules
