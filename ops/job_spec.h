// The flags that describe a self-play job (shared by `qipu job submit`
// and `qipu local`) and their translation into a SubmitJobRequest.
#ifndef QIPU_OPS_JOB_SPEC_H_
#define QIPU_OPS_JOB_SPEC_H_

#include <cstdint>
#include <optional>
#include <string>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"
#include "ops/cli_util.h"
#include "qipu/v1/work.pb.h"

namespace qipu::ops {

struct JobSpecFlags {
  uint64_t games = 1000;
  int size = 9;
  RuleFlags rules;
  int handicap = 0;
  std::string policy = "random";
  int index_depth = 30;
  // Random when not given (printed, so a run can be repeated).
  std::optional<uint64_t> seed;

  // Registers --games, --size, the rule flags, --handicap, --policy,
  // --index-depth and --seed on `cmd`.
  void Add(CLI::App* cmd);
  // The request; InvalidArgument names the bad flag. Draws the seed once.
  absl::StatusOr<qipu::v1::SubmitJobRequest> Request() const;
};

}  // namespace qipu::ops

#endif  // QIPU_OPS_JOB_SPEC_H_
