// The administrative GTP commands (GTP 2 draft, section 6.3.1):
// protocol_version, name, version, known_command, list_commands, quit.
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtp/engine.h"

namespace qipu::gtp {
namespace {

using Args = std::vector<std::string>;

absl::Status ArgCount(const Args& args, size_t n) {
  if (args.size() != n) return absl::InvalidArgumentError("syntax error");
  return absl::OkStatus();
}

}  // namespace

void RegisterAdminCommands(Engine& engine) {
  engine.Register("protocol_version",
                  [](Engine&, const Args&) -> absl::StatusOr<std::string> {
                    return std::string("2");
                  });
  engine.Register("name",
                  [](Engine& e, const Args&) -> absl::StatusOr<std::string> {
                    return e.options().name;
                  });
  engine.Register(
      "version", [](Engine& e, const Args&) -> absl::StatusOr<std::string> {
        return absl::StrCat(e.options().version, " (", e.policy().spec(), ")");
      });
  engine.Register(
      "known_command",
      [](Engine& e, const Args& args) -> absl::StatusOr<std::string> {
        if (absl::Status s = ArgCount(args, 1); !s.ok()) return s;
        return std::string(e.Known(args[0]) ? "true" : "false");
      });
  engine.Register("list_commands",
                  [](Engine& e, const Args&) -> absl::StatusOr<std::string> {
                    return absl::StrJoin(e.CommandNames(), "\n");
                  });
  engine.Register("quit",
                  [](Engine& e, const Args&) -> absl::StatusOr<std::string> {
                    e.RequestQuit();
                    return std::string();
                  });
}

}  // namespace qipu::gtp
