#include "gtp/protocol.h"

#include <cmath>
#include <cstdlib>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "rules/coord.h"

namespace qipu::gtp {

std::optional<Command> ParseCommand(absl::string_view line) {
  std::string clean;
  clean.reserve(line.size());
  for (char c : line) {
    if (c == '#') break;
    const unsigned char u = static_cast<unsigned char>(c);
    if (c == '\t') {
      clean += ' ';
    } else if (u < 32 || u == 127) {
      continue;  // CR and every other control character
    } else {
      clean += c;
    }
  }
  std::vector<std::string> words =
      absl::StrSplit(clean, ' ', absl::SkipEmpty());
  if (words.empty()) return std::nullopt;
  Command cmd;
  size_t first = 0;
  long long id = 0;
  bool all_digits = true;
  for (char c : words[0]) all_digits = all_digits && absl::ascii_isdigit(c);
  if (all_digits && absl::SimpleAtoi(words[0], &id)) {
    cmd.id = id;
    first = 1;
  }
  if (first < words.size()) cmd.name = words[first];
  cmd.args.assign(words.begin() + std::min(first + 1, words.size()),
                  words.end());
  return cmd;
}

std::string FormatResponse(const std::optional<long long>& id, bool success,
                           absl::string_view text) {
  std::string out(1, success ? '=' : '?');
  if (id.has_value()) absl::StrAppend(&out, *id);
  // No empty line may appear inside a response.
  std::string body;
  body.reserve(text.size());
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (absl::StripTrailingAsciiWhitespace(line).empty() && !body.empty()) {
      continue;
    }
    if (!body.empty()) body += '\n';
    absl::StrAppend(&body, absl::StripTrailingAsciiWhitespace(line));
  }
  if (!text.empty() && text[0] == '\n') {
    absl::StrAppend(&out, " \n", body);
  } else {
    absl::StrAppend(&out, " ", body);
  }
  absl::StrAppend(&out, "\n\n");
  return out;
}

absl::StatusOr<rules::Color> ParseColor(absl::string_view text) {
  const std::string s = absl::AsciiStrToLower(text);
  if (s == "b" || s == "black") return rules::Color::kBlack;
  if (s == "w" || s == "white") return rules::Color::kWhite;
  return absl::InvalidArgumentError("invalid color");
}

absl::StatusOr<rules::Point> ParseVertex(absl::string_view text, int size) {
  absl::StatusOr<rules::Point> p = rules::ParseGtpPoint(text, size, size);
  if (!p.ok() || *p == rules::kResign) {
    return absl::InvalidArgumentError("invalid vertex");
  }
  return *p;
}

absl::StatusOr<int> ParseInt(absl::string_view text) {
  int v = 0;
  if (!absl::SimpleAtoi(text, &v)) {
    return absl::InvalidArgumentError("syntax error");
  }
  return v;
}

absl::StatusOr<double> ParseFloat(absl::string_view text) {
  double v = 0;
  if (!absl::SimpleAtod(text, &v) || !std::isfinite(v)) {
    return absl::InvalidArgumentError("syntax error");
  }
  return v;
}

const char* ColorWord(rules::Color c) {
  return c == rules::Color::kBlack ? "black" : "white";
}

std::string ScoreText(double black_minus_white) {
  if (black_minus_white == 0) return "0";
  return absl::StrFormat("%c+%g", black_minus_white > 0 ? 'B' : 'W',
                         std::fabs(black_minus_white));
}

}  // namespace qipu::gtp
