// Rule sets covering every rule axis (ko, cycle outcome, suicide, move
// cap, komi), for tests that compare fast paths with careful ones.
#ifndef QIPU_TESTS_RULES_RULE_VARIANTS_H_
#define QIPU_TESTS_RULES_RULE_VARIANTS_H_

#include <string>
#include <utility>
#include <vector>

#include "rules/rules.h"

namespace qipu::rules {

// Every preset, then simple ko with each cycle outcome and none,
// positional and situational superko, multi-stone suicide under simple
// and situational ko, and small move caps; each with a name for messages.
std::vector<std::pair<std::string, Rules>> AllRuleVariants();

}  // namespace qipu::rules

#endif  // QIPU_TESTS_RULES_RULE_VARIANTS_H_
