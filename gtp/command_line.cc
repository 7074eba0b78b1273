#include "gtp/command_line.h"

#include "absl/strings/str_cat.h"

namespace qipu::gtp {
namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\n'; }

bool IsSafe(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
      (c >= '0' && c <= '9')) {
    return true;
  }
  switch (c) {
    case '-':
    case '_':
    case '.':
    case '/':
    case ':':
    case '=':
    case ',':
    case '+':
    case '@':
    case '%':
      return true;
    default:
      return false;
  }
}

}  // namespace

absl::StatusOr<std::vector<std::string>> SplitCommandLine(
    absl::string_view line) {
  std::vector<std::string> words;
  std::string word;
  // True once the current word has begun (quotes make empty words).
  bool in_word = false;
  size_t i = 0;
  const size_t n = line.size();
  while (i < n) {
    const char c = line[i];
    if (IsBlank(c)) {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      ++i;
    } else if (c == '\\') {
      if (i + 1 >= n) {
        return absl::InvalidArgumentError(absl::StrCat(
            "command line '", line, "': trailing backslash at byte ", i));
      }
      if (line[i + 1] != '\n') {
        word += line[i + 1];
        in_word = true;
      }
      i += 2;
    } else if (c == '\'') {
      const size_t close = line.find('\'', i + 1);
      if (close == absl::string_view::npos) {
        return absl::InvalidArgumentError(
            absl::StrCat("command line '", line,
                         "': unterminated single quote at byte ", i));
      }
      word.append(line.data() + i + 1, close - i - 1);
      in_word = true;
      i = close + 1;
    } else if (c == '"') {
      const size_t open = i;
      ++i;
      bool closed = false;
      while (i < n) {
        const char d = line[i];
        if (d == '"') {
          closed = true;
          ++i;
          break;
        }
        if (d == '\\' && i + 1 < n) {
          const char e = line[i + 1];
          if (e == '"' || e == '\\' || e == '$' || e == '`') {
            word += e;
            i += 2;
            continue;
          }
          if (e == '\n') {
            i += 2;
            continue;
          }
        }
        word += d;
        ++i;
      }
      if (!closed) {
        return absl::InvalidArgumentError(
            absl::StrCat("command line '", line,
                         "': unterminated double quote at byte ", open));
      }
      in_word = true;
    } else {
      word += c;
      in_word = true;
      ++i;
    }
  }
  if (in_word) words.push_back(std::move(word));
  if (words.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("command line '", line, "' names no program"));
  }
  return words;
}

std::string QuoteWord(absl::string_view word) {
  if (word.empty()) return "''";
  bool safe = true;
  for (char c : word) safe = safe && IsSafe(c);
  if (safe) return std::string(word);
  std::string out = "'";
  for (char c : word) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  out += '\'';
  return out;
}

std::string JoinCommandLine(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) {
    if (!out.empty()) out += ' ';
    out += QuoteWord(w);
  }
  return out;
}

}  // namespace qipu::gtp
