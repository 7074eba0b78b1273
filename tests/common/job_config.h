// The self-play job configuration the test suites submit: a square board,
// a rule preset, the light ("random") policy. One definition for all of
// them.
#ifndef QIPU_TESTS_COMMON_JOB_CONFIG_H_
#define QIPU_TESTS_COMMON_JOB_CONFIG_H_

#include <cstdint>

#include "proto/convert.h"
#include "qipu/v1/work.pb.h"
#include "rules/rules.h"

namespace qipu::test_util {

// size x size, `preset` (a known preset name) with komi overridden when
// `komi` >= 0, `depth` plies indexed, base seed `seed`.
inline qipu::v1::JobConfig SelfPlayConfig(int size, uint64_t seed,
                                          int depth = 8,
                                          const char* preset = "chinese",
                                          double komi = -1) {
  qipu::v1::JobConfig c;
  c.set_width(static_cast<uint32_t>(size));
  c.set_height(static_cast<uint32_t>(size));
  rules::Rules r = *rules::PresetRules(preset);
  if (komi >= 0) r.komi = komi;
  *c.mutable_rules() = wire::RulesToProto(r);
  c.set_policy("random");
  c.set_index_depth(static_cast<uint32_t>(depth));
  c.set_seed(seed);
  return c;
}

}  // namespace qipu::test_util

#endif  // QIPU_TESTS_COMMON_JOB_CONFIG_H_
