// Command lines of external engines ("gnugo --mode gtp --level 10" in a
// `gtp:` policy spec): split into an argument vector with the quoting of a
// POSIX shell, and joined back into the canonical one-line form. No shell
// runs the command: no variables, globs, redirections or pipes.
#ifndef QIPU_GTP_COMMAND_LINE_H_
#define QIPU_GTP_COMMAND_LINE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace qipu::gtp {

// Splits `line` into words as sh(1) does for a simple command:
//  - words are separated by runs of spaces, tabs and newlines;
//  - '...' quotes everything literally up to the next ';
//  - "..." quotes everything except \" \\ \$ \` (backslash escapes) and
//    backslash-newline (removed);
//  - outside quotes a backslash quotes the next character
//    (backslash-newline is removed);
//  - quotes join with the text around them: a'b c'd is one word "ab cd";
//    '' is an empty word.
// InvalidArgument (naming the byte offset) for an unterminated quote or a
// trailing backslash, and for a line with no words. Thread-safe.
absl::StatusOr<std::vector<std::string>> SplitCommandLine(
    absl::string_view line);

// One word quoted for sh(1) so that SplitCommandLine() gives it back: as
// is when it holds only safe characters (letters, digits, and
// -_./:=,+@%), otherwise in single quotes ('' for an empty word, with '
// written as '\'').
std::string QuoteWord(absl::string_view word);

// The words joined by single spaces, each QuoteWord()ed: the canonical
// form of a command line (SplitCommandLine(JoinCommandLine(w)) == w).
std::string JoinCommandLine(const std::vector<std::string>& words);

}  // namespace qipu::gtp

#endif  // QIPU_GTP_COMMAND_LINE_H_
