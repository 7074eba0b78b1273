#include "base/logging.h"

#include <memory>

#include "absl/synchronization/mutex.h"
#include "spdlog/sinks/stdout_color_sinks.h"
#include "spdlog/spdlog.h"

namespace qipu::base {

absl::Status InitLogging(const std::string& program, const std::string& level) {
  auto logger = spdlog::stderr_color_mt(program);
  logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %n[%t] %v");
  spdlog::set_default_logger(logger);
  const auto lvl = spdlog::level::from_str(level);
  if (lvl == spdlog::level::off && level != "off") {
    spdlog::set_level(spdlog::level::info);
    return absl::InvalidArgumentError(
        "unknown log level '" + level +
        "' (trace, debug, info, warn, error, off)");
  }
  spdlog::set_level(lvl);
  return absl::OkStatus();
}

void SetProcessDefaults() {
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
}

}  // namespace qipu::base
