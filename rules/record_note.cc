#include "rules/record_note.h"

#include "absl/strings/str_cat.h"
#include "base/quote.h"

namespace qipu::rules {
namespace {

// The note's text; `places` false leaves out places, node and game
// numbers (NoteKindText).
std::string Render(const RecordNote& n, bool places) {
  // " at byte 12 (line 1, column 13)", or nothing.
  const auto at = [&](absl::string_view lead = " at ") {
    return places && n.where.line > 0
               ? absl::StrCat(lead, SgfPlaceText(n.where))
               : std::string();
  };
  const std::string node =
      n.node == 1 ? std::string("the root node")
                  : (places ? absl::StrCat("main-line node ", n.node)
                            : std::string("main-line node"));
  const std::string game =
      places ? absl::StrCat("game ", n.game) : std::string("game");
  const std::string& v = n.value;
  const char* const side = n.winner == Winner::kBlack   ? "Black"
                           : n.winner == Winner::kWhite ? "White"
                                                        : "nobody";
  const std::string& id = n.property;
  switch (n.kind) {
    case NoteKind::kNoCharset:
      return "no CA[] charset given: text read as UTF-8";
    case NoteKind::kCharsetOverriddenByBom:
      return absl::StrCat("CA[", v,
                          "] ignored: the file starts with a UTF-8 byte order "
                          "mark, text read as UTF-8");
    case NoteKind::kUnknownCharset:
      return absl::StrCat("CA[", v, "]", at(),
                          " is not a known charset: text read as UTF-8");
    case NoteKind::kUtf16Decoded:
      return absl::StrCat("the file is ", n.charset, " (told by ",
                          v == "byte order mark" || v == "zero bytes"
                              ? absl::StrCat("its ", v)
                              : v,
                          "): decoded to UTF-8 before reading");
    case NoteKind::kCharsetOverriddenByUtf16:
      return absl::StrCat("CA[", v, "] ignored: the file is ", n.charset,
                          ", decoded to UTF-8");
    case NoteKind::kWideCharsetIn8BitFile:
      return absl::StrCat("CA[", v, "]", at(),
                          " names a 16- or 32-bit charset but the file is "
                          "8-bit text: text read as UTF-8");
    case NoteKind::kGameTypeNotNumber:
      return absl::StrCat("GM[", v, "]", at(),
                          " is not a number: read as Go (GM[1])");
    case NoteKind::kUnknownFileFormat:
      return absl::StrCat("FF[", v, "]", at(),
                          " is not a known file format: read as FF[4]");
    case NoteKind::kRepeatedProperty:
      return absl::StrCat("property ", id, " repeated in ", node, at(),
                          ": the first kept, ", id, "[", v, "] ignored");
    case NoteKind::kRootOnlyProperty:
      return absl::StrCat(id, " in ", node, at(),
                          " ignored: only the root node may set it");
    case NoteKind::kGameInfoRepeated:
      return absl::StrCat(id, " in ", node, at(), " ignored: given before");
    case NoteKind::kGameInfoOutsideRoot:
      return absl::StrCat(id, " read from ", node, at(), ", not from the root");
    case NoteKind::kExtraValues:
      return absl::StrCat(id, at(), " has ", n.count,
                          " values: the first kept");
    case NoteKind::kBadHandicap:
      return absl::StrCat("HA[", v, "]", at(),
                          " is not a stone count: handicap left at 0");
    case NoteKind::kFoxKomi:
      // Stones are half the points exactly (a power of two).
      return absl::StrCat("KM[", v, "]", at(), " read as komi ", n.komi,
                          n.stones
                              ? absl::StrCat(" (Fox: ", n.komi / 2, " stones)")
                              : std::string(" (Fox: komi x100)"));
    case NoteKind::kKomiDecimalComma:
      return absl::StrCat("KM[", v, "]", at(), " read as komi ", n.komi,
                          " (decimal comma)");
    case NoteKind::kBadKomi:
      return absl::StrCat("KM[", v, "]", at(),
                          " is not a number: komi left unset");
    case NoteKind::kSetupPass:
      return absl::StrCat(id, "[", v, "]", at(),
                          " names no point (a pass): ignored");
    case NoteKind::kBadPlayerToMove:
      return absl::StrCat("PL[", v, "]", at(),
                          " is not a colour (B or W): ignored");
    case NoteKind::kBothMoves:
      return absl::StrCat(node, at(),
                          " holds both B and W: both moves kept, in file "
                          "order");
    case NoteKind::kTextRepaired:
      return absl::StrCat(
          n.charset.empty() ? std::string("invalid UTF-8")
                            : absl::StrCat("bytes not valid in ", n.charset),
          " in ", id,
          n.count > 0 ? absl::StrCat(" and ", n.count, " more") : "",
          " replaced by U+FFFD");
    case NoteKind::kNotesOmitted:
      return absl::StrCat(n.count, " more notes like these omitted");
    case NoteKind::kTextSkipped:
      return absl::StrCat("text outside any game tree skipped: ", n.count,
                          " bytes", at(" from "), " ('", v, "')");
    case NoteKind::kMissingOpenParen:
      return absl::StrCat(game, at(),
                          " starts with ';' instead of '(': read as if the "
                          "'(' were there");
    case NoteKind::kMissingCloseParen:
      return absl::StrCat(game, " ends with the input, without ')'");
    case NoteKind::kEmptyVariation:
      return absl::StrCat("empty variation '()'", at(), " ignored");
    case NoteKind::kRulesNotImplemented:
      return absl::StrCat("rules ", base::QuoteInput(v),
                          " are not implemented; replayed under chinese");
    case NoteKind::kResultNotUnderstood:
      return absl::StrCat("RE[", v, "] not understood; result unknown");
    case NoteKind::kFoxResultArtefact:
      return absl::StrCat("RE[", v, "] is a Fox scoring artefact (margin in ",
                          n.stones ? "stones" : "points",
                          "): winner kept, margin unknown");
    case NoteKind::kFoxResultInStones:
      return absl::StrCat("RE[", v, "] read as ", n.read,
                          " (Fox: margin in stones)");
    case NoteKind::kResultIllegalMove:
      return absl::StrCat("RE[", v, "] read as a win for ", side,
                          " by an illegal move (not an SGF result reason)");
    case NoteKind::kResultOtherReason:
      return n.read.empty()
                 ? absl::StrCat("RE[", v, "] read as a win for ", side,
                                ", no reason given")
                 : absl::StrCat("RE[", v, "] read as a win for ", side,
                                ", reason '", n.read,
                                "' kept as written (not an SGF result "
                                "reason)");
  }
  return "note of an unknown kind";
}

}  // namespace

std::string SgfPlaceText(const SgfPlace& place) {
  return absl::StrCat("byte ", place.byte, " (line ", place.line, ", column ",
                      place.column, ")");
}

std::string NoteText(const RecordNote& note) { return Render(note, true); }

std::string NoteKindText(const RecordNote& note) { return Render(note, false); }

}  // namespace qipu::rules
