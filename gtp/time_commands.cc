// The GTP time commands: time_settings, time_left (GTP 2 draft, section
// 6.3.7) and KGS's kgs-time_settings; gtp/clock.h keeps the time and
// allots it per move.
#include "absl/strings/ascii.h"
#include "gtp/engine.h"
#include "gtp/protocol.h"

namespace qipu::gtp {
namespace {

using Args = std::vector<std::string>;
using Result = absl::StatusOr<std::string>;

absl::Status SyntaxError() {
  return absl::InvalidArgumentError("syntax error");
}

// Parses args[from..] as non-negative integers into *out.
absl::Status Ints(const Args& args, size_t from, std::vector<int>* out) {
  for (size_t i = from; i < args.size(); ++i) {
    absl::StatusOr<int> v = ParseInt(args[i]);
    if (!v.ok() || *v < 0) return SyntaxError();
    out->push_back(*v);
  }
  return absl::OkStatus();
}

Result TimeSettings(Engine& e, const Args& args) {
  std::vector<int> v;
  if (args.size() != 3 || !Ints(args, 0, &v).ok()) return SyntaxError();
  if (absl::Status s = e.clock().SetGtp(v[0], v[1], v[2]); !s.ok()) return s;
  return std::string();
}

Result KgsTimeSettings(Engine& e, const Args& args) {
  if (args.empty()) return SyntaxError();
  const std::string system = absl::AsciiStrToLower(args[0]);
  std::vector<int> v;
  if (!Ints(args, 1, &v).ok()) return SyntaxError();
  if (system == "none" && v.empty()) {
    e.clock().SetNone();
  } else if (system == "absolute" && v.size() == 1) {
    e.clock().SetAbsolute(v[0]);
  } else if (system == "byoyomi" && v.size() == 3) {
    e.clock().SetJapanese(v[0], v[1], v[2]);
  } else if (system == "canadian" && v.size() == 3) {
    e.clock().SetCanadian(v[0], v[1], v[2]);
  } else {
    return SyntaxError();
  }
  return std::string();
}

Result TimeLeft(Engine& e, const Args& args) {
  if (args.size() != 3) return SyntaxError();
  absl::StatusOr<rules::Color> c = ParseColor(args[0]);
  if (!c.ok()) return c.status();
  absl::StatusOr<double> t = ParseFloat(args[1]);
  absl::StatusOr<int> stones = ParseInt(args[2]);
  if (!t.ok() || !stones.ok() || *stones < 0) return SyntaxError();
  e.clock().TimeLeft(*c, *t, *stones);
  return std::string();
}

}  // namespace

void RegisterTimeCommands(Engine& engine) {
  engine.Register("time_settings", TimeSettings);
  engine.Register("kgs-time_settings", KgsTimeSettings);
  engine.Register("time_left", TimeLeft);
}

}  // namespace qipu::gtp
