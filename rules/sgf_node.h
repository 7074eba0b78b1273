// Internal to the SGF reader (sgf_reader.cc): SGF nodes as its lexer
// produces them, and SgfGameBuilder, which interprets the main-line nodes of
// one game into a GameRecord. Not for use elsewhere; use ReadSgf().
#ifndef QIPU_RULES_SGF_NODE_H_
#define QIPU_RULES_SGF_NODE_H_

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "rules/charset.h"
#include "rules/record.h"
#include "rules/record_note.h"
#include "rules/types.h"
#include "rules/utf16.h"

namespace qipu::rules::sgf_internal {

// One property value: the bytes between '[' and the closing ']', escapes
// not yet removed. `raw` points into the input, which outlives the node.
struct SgfValue {
  absl::string_view raw;
  // Byte offset of the '['.
  size_t offset = 0;
};

// One property of a node.
struct SgfProperty {
  // The identifier: the uppercase letters of the name as written (FF[3]
  // "AddBlack" gives "AB"). Never empty.
  std::string id;
  // Byte offset of the name's first letter.
  size_t offset = 0;
  // At least one value, in file order.
  std::vector<SgfValue> values;
};

// One node (';' and its properties).
struct SgfNode {
  // Byte offset of the ';'.
  size_t offset = 0;
  std::vector<SgfProperty> properties;
};

// Turns byte offsets of the text read into places (byte, line, column) of
// the input file for notes and messages. Cheap for increasing offsets (it
// keeps its place), correct for any. Not thread-safe.
class SgfLocator {
 public:
  // `data` is the text read. `source`, when not null, is the UTF-16 input
  // that `data` was decoded from (data == source->utf8()): bytes and
  // columns are then counted in the input. Both must outlive the locator.
  explicit SgfLocator(absl::string_view data, const Utf16Text* source = nullptr)
      : data_(data), source_(source) {}

  // The place of `offset`; lines and columns count from 1, columns in
  // bytes. Offsets past the end are clamped to the end.
  SgfPlace Place(size_t offset);
  // SgfPlaceText(Place(offset)): "byte N (line L, column C)".
  std::string Where(size_t offset) { return SgfPlaceText(Place(offset)); }
  // The byte of the input file at `offset` of the text read (the same
  // offset unless the text was decoded from UTF-16).
  size_t InputOffset(size_t offset) const {
    return source_ == nullptr ? offset : source_->InputOffset(offset);
  }

 private:
  absl::string_view data_;
  const Utf16Text* source_;
  // Offset up to which lines have been counted; line_ and line_start_
  // describe the line containing it.
  size_t pos_ = 0;
  int line_ = 1;
  size_t line_start_ = 0;
};

// `text` quoted for a message: printable ASCII as is, other bytes as \xNN,
// cut after `max_bytes` bytes with "...".
std::string Excerpt(absl::string_view text, size_t max_bytes = 24);

// How property text is unescaped (SGF FF[4] value types).
enum class TextKind {
  // SimpleText: soft line breaks removed, other line breaks and white space
  // become spaces.
  kSimpleText,
  // Raw: only escapes removed (soft line breaks, "\x" gives x).
  kRaw,
};

// Removes SGF escapes from a raw value ("\]" gives "]", "\\" + newline
// gives nothing) and applies the formatting of `kind`.
std::string Unescape(absl::string_view raw, TextKind kind);

// What the input as a whole says of its text's charset, before any CA.
struct InputCharset {
  // The input starts with a UTF-8 byte order mark: UTF-8, whatever CA says.
  bool utf8_bom = false;
  // The input was UTF-16 ("UTF-16LE", "UTF-16BE"), decoded to UTF-8 before
  // reading: UTF-8, whatever CA says. Empty for 8-bit input.
  std::string utf16;
};

// Interprets the main-line nodes of one game, in order, into a GameRecord.
// The first node added is the root. Not thread-safe; one per game.
class SgfGameBuilder {
 public:
  // `locator` and `charset` must outlive the builder. `game_offset` is the
  // byte offset of the game's '(' (or first ';') in the text read.
  SgfGameBuilder(SgfLocator* locator, size_t game_offset, int game_number,
                 const InputCharset* charset);

  // Adds the next main-line node. Returns false when the node cannot be
  // read (bad SZ, bad point, GM other than 1); then problem_offset() and
  // problem() say why (not_go() tells a game that is not Go), and
  // the builder must not be used further.
  bool AddNode(const SgfNode& node);

  // Adds a note to the record (a normalisation seen by the lexer). After
  // 100 notes further ones are only counted.
  void AddNote(RecordNote note);

  // The record. Call once, after the last AddNode() (which returned true).
  GameRecord Finish() &&;

  // Where and why AddNode() failed. Meaningful only after it returned false.
  size_t problem_offset() const { return problem_offset_; }
  const std::string& problem() const { return problem_; }
  // Whether the root's GM names another game than Go (a number other than
  // 1, GM[0] included); AddNode() returned false for it and
  // problem_offset() is the GM property. game_type() is then that number.
  bool not_go() const { return not_go_; }
  int game_type() const { return game_type_; }

 private:
  bool ReadRoot(const SgfNode& node);
  bool ReadOther(const SgfNode& node);
  // Reads the node's setup (one SetupStep) and moves.
  bool ReadSetupAndMoves(const SgfNode& node,
                         const std::vector<const SgfProperty*>& props);
  // Appends the points of an AB/AW/AE list (rectangles expanded) to *out.
  bool ReadPointList(const SgfProperty& p, std::vector<Point>* out);
  void ReadGameInfo(const SgfProperty& p);
  void ReadKomi(const SgfProperty& p);
  void ReadHandicap(const SgfProperty& p);
  bool ReadSize(const SgfProperty& p);
  // Text of a property's first value, unescaped and decoded to UTF-8.
  std::string Text(const SgfProperty& p, TextKind kind);
  // First occurrence of each property of the node, in file order; repeats
  // are noted.
  std::vector<const SgfProperty*> FirstOccurrences(const SgfNode& node);
  // The 1-based main-line number of the node being read (1: the root).
  int NodeNumber() const { return nodes_ + 1; }
  bool Fail(size_t offset, std::string what);

  SgfLocator* locator_;
  const InputCharset* charset_;
  GameRecord record_;
  TextDecoder decoder_;
  // Number of main-line nodes added so far (0 before the root).
  int nodes_ = 0;
  // Ids of the game-information properties already read (each is taken
  // once per game, from the first node that has it).
  std::vector<std::string> info_read_;
  // Ids of properties whose text had to be repaired while decoding.
  std::vector<std::string> lossy_;
  // Notes not kept because of the cap.
  size_t omitted_notes_ = 0;
  size_t problem_offset_ = 0;
  std::string problem_;
  bool not_go_ = false;
  // The root's GM when not_go_, else 1.
  int game_type_ = 1;
};

}  // namespace qipu::rules::sgf_internal

#endif  // QIPU_RULES_SGF_NODE_H_
