// RecordNote: one normalisation applied while a game record was read or
// imported (a repeated property, a Fox komi, an RE nobody can read, ...),
// as a kind plus the facts it is about. Code that acts on a note (the
// importer's Fox rule, its counts per kind) reads the fields; the text is
// rendered only for display and for qipu.v1.Meta.normalised, where the
// stored wording is part of the data format:
//   NoteText()     "KM[375] at byte 95 (line 1, column 96) read as komi 7.5
//                   (Fox: 3.75 stones)"
//   NoteKindText() "KM[375] read as komi 7.5 (Fox: 3.75 stones)" -- the
//                   same without places, node or game numbers, so that one
//                   quirk seen in many games counts as one kind.
#ifndef QIPU_RULES_RECORD_NOTE_H_
#define QIPU_RULES_RECORD_NOTE_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "rules/result.h"

namespace qipu::rules {

// A place in an SGF file. Plain value type.
struct SgfPlace {
  // Byte offset from the start of the file.
  size_t byte = 0;
  // 1-based line and column (columns count bytes); line 0 means "no place".
  int line = 0;
  int column = 0;

  friend bool operator==(const SgfPlace&, const SgfPlace&) = default;
};

// "byte 123 (line 4, column 7)".
std::string SgfPlaceText(const SgfPlace& place);

// What a note is about. The comment of each kind lists the RecordNote
// fields it uses; the others stay at their defaults.
enum class NoteKind : uint8_t {
  // --- The SGF reader (sgf_reader.h) ---
  // No CA property: text read as UTF-8. (no fields)
  kNoCharset = 0,
  // CA ignored because the file starts with a UTF-8 byte order mark.
  // (value)
  kCharsetOverriddenByBom,
  // CA names no known charset: text read as UTF-8. (value, where)
  kUnknownCharset,
  // The file is UTF-16 and was decoded to UTF-8 before it was read; places
  // in other notes and errors are bytes of the file as it is. (charset =
  // "UTF-16LE" or "UTF-16BE"; value = what told: "byte order mark",
  // "CA[UTF-16LE]" (the CA as written) or "zero bytes")
  kUtf16Decoded,
  // CA names another charset than UTF-16 in a UTF-16 file: ignored.
  // (value, charset = the UTF-16 decoded)
  kCharsetOverriddenByUtf16,
  // CA names a 16- or 32-bit charset (UTF-16, UCS-2, ...) but the file is
  // 8-bit text: text read as UTF-8. (value, where)
  kWideCharsetIn8BitFile,
  // GM is not a number: read as Go. (value, where)
  kGameTypeNotNumber,
  // FF is not 1..4: read as FF[4]. (value, where)
  kUnknownFileFormat,
  // A property repeated within one node: the first kept, this one ignored.
  // (property, value of the ignored one, node, where)
  kRepeatedProperty,
  // A root-only property (GM, FF, CA, SZ) in a later node, ignored.
  // (property, node, where)
  kRootOnlyProperty,
  // Game information given again in a later node, ignored.
  // (property, node, where)
  kGameInfoRepeated,
  // Game information read from a node other than the root.
  // (property, node, where)
  kGameInfoOutsideRoot,
  // A property with several values where one is expected: the first kept.
  // (property, count = values, where)
  kExtraValues,
  // HA is not a stone count: handicap left at 0. (value, where)
  kBadHandicap,
  // Fox's komi x100 (KM[650] = 6.5), in stones when it ends in .25 or .75
  // (KM[375] = 3.75 stones = 7.5 points). (value, where, komi, stones)
  kFoxKomi,
  // KM written with a decimal comma. (value, where, komi)
  kKomiDecimalComma,
  // KM is not a number: komi left unset. (value, where)
  kBadKomi,
  // An AB/AW/AE point that is a pass ("tt"): ignored.
  // (property, value, where)
  kSetupPass,
  // PL is not B or W: ignored. (value, where)
  kBadPlayerToMove,
  // One node holds both B and W: both moves kept. (node, where)
  kBothMoves,
  // Text that did not decode in its charset, repaired with U+FFFD.
  // (property = the first ids as a list, count = ids beyond the list,
  // charset; empty charset: invalid UTF-8)
  kTextRepaired,
  // More notes than a game keeps; only counted. (count)
  kNotesOmitted,
  // Text outside any game tree, skipped. (count = bytes, where, value =
  // an excerpt)
  kTextSkipped,
  // A game that starts with ';' instead of '('. (game, where)
  kMissingOpenParen,
  // A game (started with ';') that ends with the input, without ')'.
  // (game)
  kMissingCloseParen,
  // An empty variation "()": ignored. (where)
  kEmptyVariation,
  // --- Import (engine/prepare.h, importer.h) ---
  // RU names rules qipu does not implement: replayed under chinese.
  // (value = RU)
  kRulesNotImplemented,
  // RE cannot be read: the result is unknown. (value = RE)
  kResultNotUnderstood,
  // A Fox RE margin below 0.25 or off its unit's grid: winner kept, margin
  // unknown. (value = RE, stones = the unit is stones)
  kFoxResultArtefact,
  // A Fox RE margin in stones, doubled to points. (value = RE, read = the
  // RE as read, e.g. "B+1.5")
  kFoxResultInStones,
  // RE names the winner and says the loser played an illegal move
  // ("W+Illegal", not an SGF reason): a win, reason illegal. (value = RE,
  // winner)
  kResultIllegalMove,
  // RE names the winner with a reason SGF does not define ("W+J", "B+AW")
  // or none ("W"): a win, reason other, the text kept. (value = RE, winner,
  // read = the reason as written, "" when none)
  kResultOtherReason,
};

// One note. Plain value type; fields not used by `kind` keep their
// defaults. (Every field has an initializer so that designated
// initializers may leave any out.)
struct RecordNote {
  NoteKind kind = NoteKind::kNoCharset;
  // The SGF property the note is about ("KM", "AB").
  std::string property = {};
  // The value concerned as written; the reader quotes values for display
  // (bytes outside printable ASCII as \xNN, long ones cut with "...").
  std::string value = {};
  // Where in the file (line 0 when the note names no place).
  SgfPlace where = {};
  // 1-based main-line node (1 is the root); 0 when none.
  int node = 0;
  // 1-based game within the file; 0 when none.
  int game = 0;
  // A count, as the kind says.
  int64_t count = 0;
  // kFoxKomi, kKomiDecimalComma: the komi read, in points.
  double komi = 0;
  // kFoxKomi, kFoxResultArtefact: whether Fox's unit was stones.
  bool stones = false;
  // kTextRepaired: the charset the text did not decode in ("" for UTF-8).
  std::string charset = {};
  // kFoxResultInStones: the result as read, e.g. "B+1.5";
  // kResultOtherReason: the reason as written ("J").
  std::string read = {};
  // kResultIllegalMove, kResultOtherReason: the winner named.
  Winner winner = Winner::kNone;

  friend bool operator==(const RecordNote&, const RecordNote&) = default;
};

// The note as text, with its place, node and game numbers; the form kept
// in qipu.v1.Meta.normalised (do not change the wording: stored games hold
// it).
std::string NoteText(const RecordNote& note);

// The note's kind as text: NoteText() without its place ("at byte ..."),
// node number or game number.
std::string NoteKindText(const RecordNote& note);

}  // namespace qipu::rules

#endif  // QIPU_RULES_RECORD_NOTE_H_
