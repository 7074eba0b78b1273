// RecordNote (rules/record_note.h): every kind renders exactly the wording
// stored games hold in Meta.normalised, with and without its place; the
// SGF reader fills the typed fields that code acts on.
#include "rules/record_note.h"

#include <set>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rules/record.h"
#include "rules/sgf_reader.h"

namespace qipu::rules {
namespace {

using ::testing::Contains;

constexpr SgfPlace kAt{95, 2, 7};

struct Golden {
  RecordNote note;
  // NoteText() and NoteKindText().
  const char* text;
  const char* kind;
};

// One note of every kind (some twice), as the reader and the importer
// wrote them before notes were typed.
std::vector<Golden> Goldens() {
  using K = NoteKind;
  return {
      {{.kind = K::kNoCharset},
       "no CA[] charset given: text read as UTF-8",
       "no CA[] charset given: text read as UTF-8"},
      {{.kind = K::kCharsetOverriddenByBom, .value = "GB2312"},
       "CA[GB2312] ignored: the file starts with a UTF-8 byte order mark, "
       "text read as UTF-8",
       "CA[GB2312] ignored: the file starts with a UTF-8 byte order mark, "
       "text read as UTF-8"},
      {{.kind = K::kUnknownCharset, .value = "klingon", .where = kAt},
       "CA[klingon] at byte 95 (line 2, column 7) is not a known charset: "
       "text read as UTF-8",
       "CA[klingon] is not a known charset: text read as UTF-8"},
      {{.kind = K::kUtf16Decoded,
        .value = "byte order mark",
        .charset = "UTF-16LE"},
       "the file is UTF-16LE (told by its byte order mark): decoded to UTF-8 "
       "before reading",
       "the file is UTF-16LE (told by its byte order mark): decoded to UTF-8 "
       "before reading"},
      {{.kind = K::kUtf16Decoded, .value = "zero bytes", .charset = "UTF-16BE"},
       "the file is UTF-16BE (told by its zero bytes): decoded to UTF-8 "
       "before reading",
       "the file is UTF-16BE (told by its zero bytes): decoded to UTF-8 "
       "before reading"},
      {{.kind = K::kUtf16Decoded, .value = "CA[utf-16]", .charset = "UTF-16LE"},
       "the file is UTF-16LE (told by CA[utf-16]): decoded to UTF-8 before "
       "reading",
       "the file is UTF-16LE (told by CA[utf-16]): decoded to UTF-8 before "
       "reading"},
      {{.kind = K::kCharsetOverriddenByUtf16,
        .value = "GB2312",
        .charset = "UTF-16BE"},
       "CA[GB2312] ignored: the file is UTF-16BE, decoded to UTF-8",
       "CA[GB2312] ignored: the file is UTF-16BE, decoded to UTF-8"},
      {{.kind = K::kWideCharsetIn8BitFile, .value = "UTF-16LE", .where = kAt},
       "CA[UTF-16LE] at byte 95 (line 2, column 7) names a 16- or 32-bit "
       "charset but the file is 8-bit text: text read as UTF-8",
       "CA[UTF-16LE] names a 16- or 32-bit charset but the file is 8-bit "
       "text: text read as UTF-8"},
      {{.kind = K::kGameTypeNotNumber, .value = "one", .where = kAt},
       "GM[one] at byte 95 (line 2, column 7) is not a number: read as Go "
       "(GM[1])",
       "GM[one] is not a number: read as Go (GM[1])"},
      {{.kind = K::kUnknownFileFormat, .value = "7", .where = kAt},
       "FF[7] at byte 95 (line 2, column 7) is not a known file format: read "
       "as FF[4]",
       "FF[7] is not a known file format: read as FF[4]"},
      {{.kind = K::kRepeatedProperty,
        .property = "AP",
        .value = "foxwq",
        .where = kAt,
        .node = 1},
       "property AP repeated in the root node at byte 95 (line 2, column 7): "
       "the first kept, AP[foxwq] ignored",
       "property AP repeated in the root node: the first kept, AP[foxwq] "
       "ignored"},
      {{.kind = K::kRepeatedProperty,
        .property = "B",
        .value = "bb",
        .where = kAt,
        .node = 12},
       "property B repeated in main-line node 12 at byte 95 (line 2, column "
       "7): the first kept, B[bb] ignored",
       "property B repeated in main-line node: the first kept, B[bb] ignored"},
      {{.kind = K::kRootOnlyProperty,
        .property = "SZ",
        .where = kAt,
        .node = 2},
       "SZ in main-line node 2 at byte 95 (line 2, column 7) ignored: only "
       "the root node may set it",
       "SZ in main-line node ignored: only the root node may set it"},
      {{.kind = K::kGameInfoRepeated,
        .property = "PB",
        .where = kAt,
        .node = 3},
       "PB in main-line node 3 at byte 95 (line 2, column 7) ignored: given "
       "before",
       "PB in main-line node ignored: given before"},
      {{.kind = K::kGameInfoOutsideRoot,
        .property = "PW",
        .where = kAt,
        .node = 2},
       "PW read from main-line node 2 at byte 95 (line 2, column 7), not "
       "from the root",
       "PW read from main-line node, not from the root"},
      {{.kind = K::kExtraValues, .property = "B", .where = kAt, .count = 2},
       "B at byte 95 (line 2, column 7) has 2 values: the first kept",
       "B has 2 values: the first kept"},
      {{.kind = K::kBadHandicap, .value = "two", .where = kAt},
       "HA[two] at byte 95 (line 2, column 7) is not a stone count: handicap "
       "left at 0",
       "HA[two] is not a stone count: handicap left at 0"},
      {{.kind = K::kFoxKomi,
        .value = "375",
        .where = kAt,
        .komi = 7.5,
        .stones = true},
       "KM[375] at byte 95 (line 2, column 7) read as komi 7.5 (Fox: 3.75 "
       "stones)",
       "KM[375] read as komi 7.5 (Fox: 3.75 stones)"},
      {{.kind = K::kFoxKomi,
        .value = "-375",
        .where = kAt,
        .komi = -7.5,
        .stones = true},
       "KM[-375] at byte 95 (line 2, column 7) read as komi -7.5 (Fox: -3.75 "
       "stones)",
       "KM[-375] read as komi -7.5 (Fox: -3.75 stones)"},
      {{.kind = K::kFoxKomi, .value = "650", .where = kAt, .komi = 6.5},
       "KM[650] at byte 95 (line 2, column 7) read as komi 6.5 (Fox: komi "
       "x100)",
       "KM[650] read as komi 6.5 (Fox: komi x100)"},
      {{.kind = K::kKomiDecimalComma,
        .value = "6,5",
        .where = kAt,
        .komi = 6.5},
       "KM[6,5] at byte 95 (line 2, column 7) read as komi 6.5 (decimal "
       "comma)",
       "KM[6,5] read as komi 6.5 (decimal comma)"},
      {{.kind = K::kBadKomi, .value = "six", .where = kAt},
       "KM[six] at byte 95 (line 2, column 7) is not a number: komi left "
       "unset",
       "KM[six] is not a number: komi left unset"},
      {{.kind = K::kSetupPass, .property = "AB", .value = "tt", .where = kAt},
       "AB[tt] at byte 95 (line 2, column 7) names no point (a pass): ignored",
       "AB[tt] names no point (a pass): ignored"},
      {{.kind = K::kBadPlayerToMove, .value = "X", .where = kAt},
       "PL[X] at byte 95 (line 2, column 7) is not a colour (B or W): ignored",
       "PL[X] is not a colour (B or W): ignored"},
      {{.kind = K::kBothMoves, .where = kAt, .node = 2},
       "main-line node 2 at byte 95 (line 2, column 7) holds both B and W: "
       "both moves kept, in file order",
       "main-line node holds both B and W: both moves kept, in file order"},
      {{.kind = K::kTextRepaired, .property = "PB, GN"},
       "invalid UTF-8 in PB, GN replaced by U+FFFD",
       "invalid UTF-8 in PB, GN replaced by U+FFFD"},
      {{.kind = K::kTextRepaired,
        .property = "PB",
        .count = 3,
        .charset = "GB18030"},
       "bytes not valid in GB18030 in PB and 3 more replaced by U+FFFD",
       "bytes not valid in GB18030 in PB and 3 more replaced by U+FFFD"},
      {{.kind = K::kNotesOmitted, .count = 5},
       "5 more notes like these omitted",
       "5 more notes like these omitted"},
      {{.kind = K::kTextSkipped,
        .value = "From: someone",
        .where = {0, 1, 1},
        .count = 13},
       "text outside any game tree skipped: 13 bytes from byte 0 (line 1, "
       "column 1) ('From: someone')",
       "text outside any game tree skipped: 13 bytes ('From: someone')"},
      {{.kind = K::kMissingOpenParen, .where = {0, 1, 1}, .game = 3},
       "game 3 at byte 0 (line 1, column 1) starts with ';' instead of '(': "
       "read as if the '(' were there",
       "game starts with ';' instead of '(': read as if the '(' were there"},
      {{.kind = K::kMissingCloseParen, .game = 1},
       "game 1 ends with the input, without ')'",
       "game ends with the input, without ')'"},
      {{.kind = K::kEmptyVariation, .where = {18, 1, 19}},
       "empty variation '()' at byte 18 (line 1, column 19) ignored",
       "empty variation '()' ignored"},
      {{.kind = K::kRulesNotImplemented, .value = "Japanese"},
       "rules 'Japanese' are not implemented; replayed under chinese",
       "rules 'Japanese' are not implemented; replayed under chinese"},
      {{.kind = K::kResultNotUnderstood, .value = "B+X"},
       "RE[B+X] not understood; result unknown",
       "RE[B+X] not understood; result unknown"},
      {{.kind = K::kFoxResultArtefact, .value = "B+0.02"},
       "RE[B+0.02] is a Fox scoring artefact (margin in points): winner "
       "kept, margin unknown",
       "RE[B+0.02] is a Fox scoring artefact (margin in points): winner "
       "kept, margin unknown"},
      {{.kind = K::kFoxResultArtefact, .value = "W+3.2", .stones = true},
       "RE[W+3.2] is a Fox scoring artefact (margin in stones): winner kept, "
       "margin unknown",
       "RE[W+3.2] is a Fox scoring artefact (margin in stones): winner kept, "
       "margin unknown"},
      {{.kind = K::kFoxResultInStones, .value = "B+0.75", .read = "B+1.5"},
       "RE[B+0.75] read as B+1.5 (Fox: margin in stones)",
       "RE[B+0.75] read as B+1.5 (Fox: margin in stones)"},
      {{.kind = K::kResultIllegalMove,
        .value = "W+Illegal",
        .winner = Winner::kWhite},
       "RE[W+Illegal] read as a win for White by an illegal move (not an SGF "
       "result reason)",
       "RE[W+Illegal] read as a win for White by an illegal move (not an SGF "
       "result reason)"},
      {{.kind = K::kResultOtherReason,
        .value = "B+AW",
        .read = "AW",
        .winner = Winner::kBlack},
       "RE[B+AW] read as a win for Black, reason 'AW' kept as written (not "
       "an SGF result reason)",
       "RE[B+AW] read as a win for Black, reason 'AW' kept as written (not "
       "an SGF result reason)"},
      {{.kind = K::kResultOtherReason, .value = "W", .winner = Winner::kWhite},
       "RE[W] read as a win for White, no reason given",
       "RE[W] read as a win for White, no reason given"},
  };
}

TEST(RecordNote, EveryKindRendersTheStoredWording) {
  std::set<NoteKind> kinds;
  for (const Golden& g : Goldens()) {
    SCOPED_TRACE(g.text);
    kinds.insert(g.note.kind);
    EXPECT_EQ(NoteText(g.note), g.text);
    EXPECT_EQ(NoteKindText(g.note), g.kind);
  }
  EXPECT_EQ(kinds.size(),
            static_cast<size_t>(NoteKind::kResultOtherReason) + 1);
}

// The reader's notes of `sgf` (one game expected).
std::vector<RecordNote> NotesOf(const std::string& sgf) {
  const SgfCollection c = ReadSgf(sgf);
  EXPECT_EQ(c.games.size(), 1u);
  return c.games.empty() ? std::vector<RecordNote>() : c.games[0].notes;
}

TEST(RecordNote, TheReaderFillsTheFields) {
  EXPECT_THAT(NotesOf("(;GM[1]CA[UTF-8]AP[GNU Go:3.8]PB[x]AP[foxwq];B[aa]"
                      "B[bb])"),
              Contains(RecordNote{.kind = NoteKind::kRepeatedProperty,
                                  .property = "AP",
                                  .value = "foxwq",
                                  .where = {35, 1, 36},
                                  .node = 1}));
  EXPECT_THAT(NotesOf("(;CA[UTF-8]\nKM[375];B[aa]B[bb])"),
              Contains(RecordNote{.kind = NoteKind::kFoxKomi,
                                  .value = "375",
                                  .where = {12, 2, 1},
                                  .komi = 7.5,
                                  .stones = true}));
  EXPECT_THAT(
      NotesOf("(;CA[UTF-8]SZ[9];B[aa];W[bb]B[cc])"),
      Contains(RecordNote{
          .kind = NoteKind::kBothMoves, .where = {22, 1, 23}, .node = 3}));
  EXPECT_THAT(
      NotesOf("junk ;CA[UTF-8]SZ[9];B[aa])"),
      Contains(RecordNote{
          .kind = NoteKind::kMissingOpenParen, .where = {5, 1, 6}, .game = 1}));
  EXPECT_THAT(NotesOf("junk ;CA[UTF-8]SZ[9];B[aa])"),
              Contains(RecordNote{.kind = NoteKind::kTextSkipped,
                                  .value = "junk",
                                  .where = {0, 1, 1},
                                  .count = 4}));
  EXPECT_THAT(NotesOf("(;PB[\xFF]GN[\xFF])"),
              Contains(RecordNote{.kind = NoteKind::kTextRepaired,
                                  .property = "PB, GN"}));
}

}  // namespace
}  // namespace qipu::rules
