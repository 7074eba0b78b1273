// The subcommands of the `qipu` tool. Each Add*Command() registers one
// subcommand (and its children) on `app`; when it runs, its callback
// stores the process exit status in `*exit_code` (0 success, 1 failure,
// 2 usage). Output conventions: `--json` prints machine-readable JSON on
// stdout (one object, or one per line for streams); errors go to stderr as
// "qipu <command>: <what>: <why>".
#ifndef QIPU_OPS_COMMANDS_H_
#define QIPU_OPS_COMMANDS_H_

#include "CLI/CLI.hpp"

namespace qipu::ops {

// `qipu bench playouts|...`: throughput benchmarks.
void AddBenchCommand(CLI::App& app, int* exit_code);

}  // namespace qipu::ops

#endif  // QIPU_OPS_COMMANDS_H_
