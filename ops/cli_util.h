// Small helpers shared by the qipu subcommands: gRPC channels with
// deadlines, terminal detection, a stderr progress bar, aligned tables,
// file reading, and rule flags resolved into rules::Rules.
#ifndef QIPU_OPS_CLI_UTIL_H_
#define QIPU_OPS_CLI_UTIL_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"
#include "grpcpp/channel.h"
#include "grpcpp/client_context.h"
#include "rules/record.h"
#include "rules/rules.h"

namespace qipu::ops {

// An insecure channel to `address` ("HOST:PORT") with qipu's message size
// limits. Never fails here; errors show on the first call.
std::shared_ptr<grpc::Channel> Dial(const std::string& address);

// Sets a deadline `seconds` from now on `ctx`.
void SetDeadline(grpc::ClientContext* ctx, double seconds);

// True when file descriptor `fd` is a terminal.
bool IsTerminal(int fd);

// Reads a whole file. NotFound / PermissionDenied / Unavailable name it.
absl::StatusOr<std::string> ReadFile(const std::string& path);

// A one-line progress bar on stderr, drawn only when stderr is a terminal.
// Not thread-safe: call from one thread.
class ProgressBar {
 public:
  // `total` may be 0 when unknown.
  ProgressBar(std::string label, uint64_t total);
  ~ProgressBar();
  // Redraws (at most ~10 times a second) with `done` of `total`, and a
  // short free-form suffix.
  void Update(uint64_t done, const std::string& suffix = "");
  // Draws the final state and ends the line.
  void Finish();

 private:
  std::string label_;
  uint64_t total_;
  bool enabled_;
  bool finished_ = false;
  uint64_t last_done_ = 0;
  std::string last_suffix_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

// Prints rows as a left-aligned table with a header row and a rule.
void PrintTable(const std::vector<std::string>& header,
                const std::vector<std::vector<std::string>>& rows);

// Rule flags: --rules NAME, --ko, --cycle, --suicide, --komi.
struct RuleFlags {
  std::string preset;
  std::string ko;
  std::string cycle;
  bool suicide = false;
  std::optional<double> komi;

  // Registers the flags on `cmd`.
  void Add(CLI::App* cmd);
  // The rules: the preset (when given), else `fallback`; then the axis
  // overrides. InvalidArgument names the flag.
  absl::StatusOr<rules::Rules> Resolve(const rules::Rules& fallback) const;
};

}  // namespace qipu::ops

#endif  // QIPU_OPS_CLI_UTIL_H_
