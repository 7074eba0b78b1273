#include "base/grpc_status.h"

#include "spdlog/spdlog.h"

namespace qipu::base {

void LogServerFailure(absl::string_view what, const absl::Status& s) {
  if (s.ok() || IsCallersFault(s.code())) return;
  spdlog::error("{}: {}", std::string(what), s.ToString());
}

}  // namespace qipu::base
