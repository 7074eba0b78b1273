// Process setup for qipu binaries: one spdlog logger to stderr, configured
// once per process in main(), and process-wide library defaults.
#ifndef QIPU_BASE_LOGGING_H_
#define QIPU_BASE_LOGGING_H_

#include <string>

#include "absl/status/status.h"

namespace qipu::base {

// Installs the default spdlog logger for `program` writing to stderr with
// timestamps and level, at `level` ("trace", "debug", "info", "warn",
// "error", "off"). Call once from main() before other threads start.
// InvalidArgument for an unknown level (the logger is still installed, at
// "info").
absl::Status InitLogging(const std::string& program, const std::string& level);

// Process-wide defaults, first thing in main(): absl's mutex deadlock
// detection off. Debian's Abseil enables it; its lock-graph bookkeeping
// costs about 0.5% of a loaded coordinator's CPU, and qipu's lock order is
// covered by thread-safety annotations and the sanitizer test build.
void SetProcessDefaults();

}  // namespace qipu::base

#endif  // QIPU_BASE_LOGGING_H_
