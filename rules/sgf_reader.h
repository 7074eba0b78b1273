// SGF reader: every game tree of an SGF file (FF[1] to FF[4], Go only) as a
// GameRecord holding the main line (the first child at every branch), the
// setup stones and the game information.
//
// The reader is a single iterative pass over the bytes with a tree-depth
// counter: no recursion, so 100,000 nested variations cost no stack. The
// main line of a game tree is exactly the nodes before its first ')'.
// Variations are checked for syntax and skipped.
//
// What the reader accepts, and notes in GameRecord::notes (typed notes,
// record_note.h) when it had to normalise something (each quirk seen in
// real files, e.g. the Fox corpus):
//   - FF[1]-FF[3] long property names: the uppercase letters form the id
//     (AddBlack = AB, PlayerBlack = PB); "tt" as a pass on boards <= 19.
//   - Text converted to UTF-8 from the root's CA charset (charset.h); no CA
//     means UTF-8 (noted); invalid bytes become U+FFFD (noted).
//   - UTF-16 files, little- or big-endian, told by a byte order mark, a
//     CA[UTF-16...] written in UTF-16, or their zero bytes (utf16.h): decoded
//     to UTF-8 first (noted in every game); places in notes and errors are
//     still bytes of the file. Malformed UTF-16 is an error about the whole
//     input (game 0) naming the byte; so is UTF-32.
//   - Games of other games than Go (GM[2], GM[19], ...) in a collection are
//     skipped (SgfCollection::skipped), not errors; the Go games are read.
//   - A file or game that starts with ';' instead of '(' (noted).
//   - A property repeated within a node: the first is kept (noted).
//   - Fox komi: an integer KM with |KM| >= 100 is KM/100, read as stones
//     (points = 2 * v) when it ends in .25 or .75 (KM[375] = 7.5,
//     KM[650] = 6.5; noted). KM[0] is komi 0.
//   - Unreadable HA, KM or PL values are ignored (noted); they do not move
//     stones. Anything that would misplace stones is an error: a bad SZ, a
//     bad point in B/W/AB/AW/AE, broken structure.
//   - Text before the first game, or between games, is skipped (noted in
//     the game before or after it).
//   - RE is kept as written (trimmed), never rescored.
// A byte-level reader: escapes apply to bytes, as the SGF specification
// says. (A Shift_JIS or Big5 file whose writer left a 0x5C trail byte
// unescaped is read as the specification says, not as that writer meant.)
#ifndef QIPU_RULES_SGF_READER_H_
#define QIPU_RULES_SGF_READER_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "rules/record.h"

namespace qipu::rules {

// Why one game of a file (or the whole file) could not be read.
struct SgfError {
  // 1-based number of the game tree within the file; 0 when the input as a
  // whole cannot be read (no game tree at all, malformed UTF-16, UTF-32):
  // then it is the only error and there are no games.
  int game_number = 1;
  // Byte offset into the input where the problem is.
  size_t byte_offset = 0;
  // What is wrong, where (byte, line and column), and why it is rejected.
  std::string reason;
};

// A game tree of another game than Go, skipped whole.
struct SgfSkippedGame {
  // 1-based number of the game tree within the file.
  int game_number = 1;
  // Byte offset into the input of the game's '(' (or first ';').
  size_t byte_offset = 0;
  // The game type its root's GM names (never 1).
  int game_type = 0;
  // "GM[19] at byte 63 (line 2, column 3): not a game of Go (Go is GM[1])".
  std::string reason;
};

// The games of one SGF file.
struct SgfCollection {
  // The games read, in file order. Their game_number fields leave gaps
  // where a game had an error or was skipped.
  std::vector<GameRecord> games;
  // One entry per game that could not be read, in file order; or one
  // entry for game 0 when the input as a whole cannot be read.
  std::vector<SgfError> errors;
  // One entry per game of another game than Go, in file order.
  std::vector<SgfSkippedGame> skipped;
};

// Reads every game tree of an SGF file (the main line of each). Never
// crashes, throws or recurses; memory is linear in the input. A game with an
// error is reported in `errors` (byte offset of the problem and a reason),
// a game that is not Go in `skipped`, and the other games are still
// returned when the syntax allows resynchronising at the next top-level
// '('. Every game is in exactly one of games, errors and skipped. `data` is
// only read during the call. Thread-safe (no shared state).
SgfCollection ReadSgf(absl::string_view data);

}  // namespace qipu::rules

#endif  // QIPU_RULES_SGF_READER_H_
