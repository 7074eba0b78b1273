#include "gtp/engine.h"

#include <cstdlib>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "gtp/protocol.h"
#include "rules/coord.h"
#include "spdlog/spdlog.h"

namespace qipu::gtp {

namespace {

using Args = std::vector<std::string>;

absl::Status ArgCount(const Args& args, size_t n) {
  if (args.size() != n) return absl::InvalidArgumentError("syntax error");
  return absl::OkStatus();
}

// The administrative commands (GTP 2 draft, section 6.3.1):
// protocol_version, name, version, known_command, list_commands, quit.
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

}  // namespace

Engine::Engine(std::unique_ptr<policy::Policy> policy, EngineOptions options)
    : options_(std::move(options)),
      policy_(std::move(policy)),
      state_(options_.size, options_.rules) {
  RegisterAdminCommands(*this);
  RegisterSetupCommands(*this);
  RegisterPlayCommands(*this);
}

void Engine::Register(const std::string& name, CommandHandler handler) {
  commands_[name] = std::move(handler);
}

std::vector<std::string> Engine::CommandNames() const {
  std::vector<std::string> names;
  for (const auto& [name, handler] : commands_) names.push_back(name);
  return names;
}

std::string Engine::HandleLine(absl::string_view line) {
  const std::optional<Command> cmd = ParseCommand(line);
  if (!cmd.has_value()) return "";
  auto it = commands_.find(cmd->name);
  if (it == commands_.end()) {
    spdlog::debug("gtp: unknown command '{}'", cmd->name);
    return FormatResponse(cmd->id, false, "unknown command");
  }
  absl::StatusOr<std::string> r = it->second(*this, cmd->args);
  if (!r.ok()) {
    spdlog::debug("gtp: {} -> ? {}", cmd->name,
                  std::string(r.status().message()));
    return FormatResponse(cmd->id, false, r.status().message());
  }
  return FormatResponse(cmd->id, true, *r);
}

void Engine::Run(std::FILE* in, std::FILE* out) {
  char* buf = nullptr;
  size_t cap = 0;
  ssize_t n;
  while (!quit_ && (n = getline(&buf, &cap, in)) >= 0) {
    absl::string_view line(buf, static_cast<size_t>(n));
    if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
    const std::string response = HandleLine(line);
    if (response.empty()) continue;
    std::fwrite(response.data(), 1, response.size(), out);
    std::fflush(out);
  }
  std::free(buf);
}

absl::Status Engine::PlayMove(rules::Color c, rules::Point p) {
  // A move after the end resumes the game: a new history for the policy.
  const bool resumes = state_.game().over();
  if (absl::Status s = state_.Play(c, p); !s.ok()) return s;
  if (resumes) {
    GameChanged();
  } else if (policy_fresh_) {
    policy_->Played(state_.game(), rules::Move{c, p});
  }
  return absl::OkStatus();
}

absl::StatusOr<policy::MoveChoice> Engine::Generate(rules::Color c,
                                                    bool timed) {
  std::unique_ptr<rules::Game> scratch;
  const rules::Game& pos = state_.PositionFor(c, &scratch);
  if (!policy_fresh_ || scratch != nullptr) {
    if (absl::Status s = policy_->NewGame(pos); !s.ok()) {
      return absl::Status(s.code(), absl::StrCat("policy: ", s.message()));
    }
    // A position made up for this move (another side to move, a resumed
    // game) is not the game the policy follows.
    policy_fresh_ = scratch == nullptr;
  }
  policy::SearchLimits limits;
  if (timed) limits.time = clock_.Allot(c, pos.board().num_empty());
  const absl::Time start = absl::Now();
  absl::StatusOr<policy::MoveChoice> choice = policy_->Choose(pos, limits);
  const absl::Duration took = absl::Now() - start;
  if (timed) clock_.Charge(c, took);
  if (!choice.ok()) {
    // A policy that failed (an external engine that crashed, hung or
    // answered garbage) starts over at the next genmove: NewGame() starts
    // a new engine on the current position.
    policy_fresh_ = false;
    spdlog::warn("gtp: policy {} failed: {}", policy_->spec(),
                 choice.status().ToString());
    return absl::Status(choice.status().code(),
                        absl::StrCat("policy: ", choice.status().message()));
  }
  const rules::Point p = choice->point;
  spdlog::info("gtp: {} {} by {} in {} (allotted {})", ColorWord(c),
               rules::GtpPoint(p, pos.height()), policy_->spec(),
               absl::FormatDuration(took), absl::FormatDuration(limits.time));
  if (p != rules::kResign) {
    const rules::MoveVerdict v = pos.Check(c, p);
    if (!v.legal()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "policy chose an illegal move ", rules::GtpPoint(p, pos.height()),
          ": ", rules::IllegalReasonName(v.reason)));
    }
  }
  return choice;
}

}  // namespace qipu::gtp
