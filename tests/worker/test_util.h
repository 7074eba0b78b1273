// Helpers shared by the worker tests: temporary directories, job configs,
// games played straight from the rules core, and file surgery for the
// spool's crash tests.
#ifndef QIPU_TESTS_WORKER_TEST_UTIL_H_
#define QIPU_TESTS_WORKER_TEST_UTIL_H_

#include <stdlib.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "proto/convert.h"
#include "qipu/v1/game.pb.h"
#include "qipu/v1/work.pb.h"
#include "rules/rules.h"
#include "rules/selfplay.h"
#include "tests/common/job_config.h"
#include "tests/common/temp_dir.h"
#include "worker/game_queue.h"

namespace qipu::worker::testing {

using ::qipu::test_util::TempDir;

// A job configuration: width x width board, chinese rules, light policy.
inline qipu::v1::JobConfig Config(int width, uint64_t seed,
                                  const char* preset = "chinese") {
  return test_util::SelfPlayConfig(width, seed, /*depth=*/8, preset);
}

// Game `index` of a job, played directly with the rules core, as the
// worker would upload it.
inline FinishedGame PlayOne(const qipu::v1::JobConfig& c, uint64_t job,
                            uint64_t index, const std::string& lease_id,
                            const std::string& worker = "test") {
  rules::SelfPlaySpec spec;
  spec.width = static_cast<int>(c.width());
  spec.height = static_cast<int>(c.height());
  spec.rules = *wire::RulesFromProto(c.rules());
  spec.handicap = static_cast<int>(c.handicap());
  spec.job_seed = c.seed();
  spec.index = index;
  rules::Game game(spec.width, spec.height, spec.rules);
  rules::SelfPlayOutcome outcome;
  EXPECT_TRUE(rules::PlaySelfPlay(spec, &game, &outcome).ok());
  qipu::v1::Game proto;
  wire::SelfPlayToProto(game, spec, outcome, job, worker, &proto);
  FinishedGame g;
  g.key = GameKey{job, index};
  g.lease_id = lease_id;
  proto.SerializeToString(&g.game);
  return g;
}

inline std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>());
}

inline void WriteAll(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << data;
}

}  // namespace qipu::worker::testing

#endif  // QIPU_TESTS_WORKER_TEST_UTIL_H_
