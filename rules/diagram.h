// ASCII diagrams of positions, for tests and debugging: one row per line,
// top row first; 'X' (or 'x', '#') Black, 'O' (or 'o') White, '.' or '+'
// empty; spaces ignored; blank lines before and after are skipped.
#ifndef QIPU_RULES_DIAGRAM_H_
#define QIPU_RULES_DIAGRAM_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/board.h"

namespace qipu::rules {

// Builds the board drawn in `diagram`. InvalidArgument (with the line
// number) for ragged rows, unknown characters, unsupported sizes, or a
// chain without liberties.
absl::StatusOr<Board> BoardFromDiagram(absl::string_view diagram);

// The point at column x, row y (both 0-based from the top-left) of a
// diagram: shorthand for tests.
inline Point At(int x, int y) { return MakePoint(x, y); }

}  // namespace qipu::rules

#endif  // QIPU_RULES_DIAGRAM_H_
