// The GTP v2 wire format, engine side (GTP 2 draft, sections 2.5-2.11 and
// 3): input lines are cleaned (control characters other than HT and LF
// removed -- CR among them --, '#' comments cut, HT turned into spaces),
// blank lines ignored, and each command is "[id] name [args...]";
// responses are "=[id] text" or "?[id] message", ended by an empty line.
// Also the argument parsers every command shares, returning the spec's
// error strings ("syntax error", "invalid color", "invalid vertex").
#ifndef QIPU_GTP_PROTOCOL_H_
#define QIPU_GTP_PROTOCOL_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/types.h"

namespace qipu::gtp {

// One parsed command line.
struct Command {
  // The numeric id when the line had one (echoed in the response).
  std::optional<long long> id;
  // The command name, as sent (GTP names are case-sensitive).
  std::string name;
  // The arguments, split at whitespace.
  std::vector<std::string> args;
};

// The command on one input line (without its '\n'), or nullopt when the
// line is empty after cleaning (blank, or only a comment).
std::optional<Command> ParseCommand(absl::string_view line);

// A whole response: "=[id] text\n\n" on success, "?[id] text\n\n" on
// failure. A text that begins with a newline (showboard) follows "=" at
// once; empty lines inside `text` are dropped, since an empty line ends a
// response.
std::string FormatResponse(const std::optional<long long>& id, bool success,
                           absl::string_view text);

// "b"/"black"/"w"/"white" in any case. InvalidArgument("invalid color").
absl::StatusOr<rules::Color> ParseColor(absl::string_view text);

// A vertex of a size x size board, "pass" included, any case.
// InvalidArgument("invalid vertex") for anything else, "resign" included.
absl::StatusOr<rules::Point> ParseVertex(absl::string_view text, int size);

// A decimal integer (sign allowed). InvalidArgument("syntax error").
absl::StatusOr<int> ParseInt(absl::string_view text);
// A finite decimal number. InvalidArgument("syntax error").
absl::StatusOr<double> ParseFloat(absl::string_view text);

// "black" or "white". Precondition: c is a stone colour.
const char* ColorWord(rules::Color c);

// "B+3.5", "W+0.5", "0" (jigo) from a margin Black - White (komi and
// compensation taken).
std::string ScoreText(double black_minus_white);

}  // namespace qipu::gtp

#endif  // QIPU_GTP_PROTOCOL_H_
