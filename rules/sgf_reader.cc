// The SGF lexer and tree walk. One pass over the bytes; the only state of
// the tree walk is the nesting depth, the kind of the previous token and
// whether the main line is still being read, which is all the SGF grammar
//   Collection = GameTree+   GameTree = "(" Node+ GameTree* ")"
//   Node = ";" Property*     Property = Ident Value+   Value = "[" ... "]"
// needs: a ';' may not follow a ')', a property must follow a node, and
// the main line (first child at each branch) is every node before the
// game tree's first ')'. Main-line nodes go to SgfGameBuilder
// (sgf_node.h); variations are lexed and dropped.
#include "rules/sgf_reader.h"

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "rules/sgf_node.h"
#include "rules/utf16.h"

namespace qipu::rules {
namespace {

using sgf_internal::Excerpt;
using sgf_internal::InputCharset;
using sgf_internal::SgfGameBuilder;
using sgf_internal::SgfLocator;
using sgf_internal::SgfNode;
using sgf_internal::SgfProperty;
using sgf_internal::SgfValue;

constexpr size_t kNpos = absl::string_view::npos;

bool IsBlank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
         c == '\f';
}

bool IsLetter(char c) {
  return absl::ascii_isalpha(static_cast<unsigned char>(c));
}

// Bytes that may surround games without being worth a note: blanks, NUL
// padding and the DOS end-of-file mark (Ctrl-Z).
bool IsFiller(char c) { return IsBlank(c) || c == '\0' || c == '\x1A'; }

// The previous structural token inside a game tree.
enum class Prev { kOpen, kNode, kClose };

class Reader {
 public:
  // Reads `data`. When `source` is not null, `data` is its UTF-8 text
  // (decoded from UTF-16 as `utf16_note` says): places are mapped back to
  // it and every game carries the note.
  Reader(absl::string_view data, const Utf16Text* source,
         std::optional<RecordNote> utf16_note)
      : data_(data),
        locator_(data, source),
        utf16_note_(std::move(utf16_note)) {
    if (utf16_note_.has_value()) charset_.utf16 = utf16_note_->charset;
  }

  SgfCollection Run() &&;

 private:
  size_t SkipBlanks(size_t i) const {
    while (i < data_.size() && IsBlank(data_[i])) ++i;
    return i;
  }
  // The next game start at or after `from`: a '(' followed by blanks and
  // ';', or (the '(' missing) a ';' followed by a property name and '['.
  // kNpos when there is none.
  size_t FindGameStart(size_t from, bool* implicit) const;
  // Reads the game tree starting at `start`; leaves pos_ after it.
  void ReadGame(size_t start, bool implicit, int game_number);
  // Finds the ']' closing the value opened at `open`, honouring escapes.
  // kNpos when the input ends first.
  size_t ValueEnd(size_t open) const;
  // After an error: moves pos_ past the ')' that closes the game (the
  // tree `depth` levels up from pos_), or to the end of the input.
  void SkipGame(size_t depth);
  // Text outside any game tree in [from, to): noted on a neighbouring game.
  void NoteJunk(size_t from, size_t to);

  absl::string_view data_;
  SgfLocator locator_;
  size_t pos_ = 0;
  InputCharset charset_;
  // The note every game of a UTF-16 input carries.
  std::optional<RecordNote> utf16_note_;
  // Notes for the next game (text skipped before it).
  std::vector<RecordNote> pending_notes_;
  // Whether the last game tree read is in out_.games (no error).
  bool last_game_ok_ = false;
  SgfCollection out_;
};

size_t Reader::FindGameStart(size_t from, bool* implicit) const {
  for (size_t i = from; i < data_.size(); ++i) {
    if (data_[i] == '(') {
      const size_t j = SkipBlanks(i + 1);
      if (j < data_.size() && data_[j] == ';') {
        *implicit = false;
        return i;
      }
    } else if (data_[i] == ';') {
      size_t j = SkipBlanks(i + 1);
      const size_t name = j;
      while (j < data_.size() && IsLetter(data_[j])) ++j;
      if (j > name) {
        j = SkipBlanks(j);
        if (j < data_.size() && data_[j] == '[') {
          *implicit = true;
          return i;
        }
      }
    }
  }
  return kNpos;
}

size_t Reader::ValueEnd(size_t open) const {
  for (size_t i = open + 1; i < data_.size(); ++i) {
    if (data_[i] == '\\') {
      ++i;
    } else if (data_[i] == ']') {
      return i;
    }
  }
  return kNpos;
}

void Reader::SkipGame(size_t depth) {
  while (pos_ < data_.size()) {
    const char c = data_[pos_];
    if (c == '[') {
      const size_t end = ValueEnd(pos_);
      if (end == kNpos) break;
      pos_ = end;
    } else if (c == '(') {
      ++depth;
    } else if (c == ')') {
      if (--depth == 0) {
        ++pos_;
        return;
      }
    }
    ++pos_;
  }
  pos_ = data_.size();
}

void Reader::NoteJunk(size_t from, size_t to) {
  size_t first = from;
  while (first < to && IsFiller(data_[first])) ++first;
  if (first == to) return;
  size_t last = to;
  while (IsFiller(data_[last - 1])) --last;
  RecordNote what{.kind = NoteKind::kTextSkipped,
                  .value = Excerpt(data_.substr(first, last - first)),
                  .where = locator_.Place(first),
                  .count = static_cast<int64_t>(locator_.InputOffset(last) -
                                                locator_.InputOffset(first))};
  if (last_game_ok_) {
    out_.games.back().notes.push_back(std::move(what));
  } else {
    pending_notes_.push_back(std::move(what));
  }
}

void Reader::ReadGame(size_t start, bool implicit, int game_number) {
  SgfGameBuilder builder(&locator_, start, game_number, &charset_);
  if (utf16_note_.has_value()) builder.AddNote(*utf16_note_);
  for (RecordNote& note : pending_notes_) builder.AddNote(std::move(note));
  pending_notes_.clear();
  if (implicit) {
    builder.AddNote({.kind = NoteKind::kMissingOpenParen,
                     .where = locator_.Place(start),
                     .game = game_number});
  }
  last_game_ok_ = false;
  size_t depth = 1;
  pos_ = implicit ? start : start + 1;
  Prev prev = Prev::kOpen;
  bool main_line = true;   // Still on the main line: no ')' seen yet.
  bool in_node = false;    // node holds a main-line node not yet added.
  size_t open_at = start;  // Offset of the last '('.
  SgfNode node;

  // Records the error; the caller then resumes with SkipGame().
  auto fail = [&](size_t offset, std::string reason) {
    out_.errors.push_back(
        SgfError{game_number, locator_.InputOffset(offset), std::move(reason)});
  };
  // Hands the pending main-line node to the builder. False when the game
  // cannot be read (an error) or is not Go (skipped); either way the caller
  // resumes with SkipGame().
  auto flush = [&]() {
    if (!in_node) return true;
    in_node = false;
    if (builder.AddNode(node)) return true;
    if (builder.not_go()) {
      out_.skipped.push_back(
          SgfSkippedGame{game_number, locator_.InputOffset(start),
                         builder.game_type(), builder.problem()});
    } else {
      fail(builder.problem_offset(), builder.problem());
    }
    return false;
  };

  while (true) {
    pos_ = SkipBlanks(pos_);
    if (pos_ >= data_.size()) {
      if (!flush()) return;
      if (implicit && depth == 1) {
        builder.AddNote(
            {.kind = NoteKind::kMissingCloseParen, .game = game_number});
        break;
      }
      fail(data_.size(),
           absl::StrCat("input ends at ", locator_.Where(data_.size()),
                        " inside game ", game_number, " (opened at ",
                        locator_.Where(start), "): ", depth,
                        " game tree(s) not closed with ')'; the file is "
                        "truncated or a ')' is missing"));
      return;
    }
    const size_t at = pos_;
    const char c = data_[at];
    if (c == '(') {
      if (prev == Prev::kOpen) {
        fail(at, absl::StrCat("'(' at ", locator_.Where(at),
                              ": a game tree must begin with a node (';'), "
                              "not with another '('"));
        SkipGame(depth);
        return;
      }
      if (!flush()) {
        SkipGame(depth);
        return;
      }
      ++depth;
      open_at = at;
      prev = Prev::kOpen;
      ++pos_;
    } else if (c == ')') {
      if (!flush()) {
        SkipGame(depth);
        return;
      }
      if (prev == Prev::kOpen) {
        builder.AddNote({.kind = NoteKind::kEmptyVariation,
                         .where = locator_.Place(open_at)});
      }
      main_line = false;
      prev = Prev::kClose;
      ++pos_;
      if (--depth == 0) break;
    } else if (c == ';') {
      if (prev == Prev::kClose) {
        fail(at, absl::StrCat("node ';' at ", locator_.Where(at),
                              " follows a variation's ')': the nodes of a "
                              "game tree must all come before its "
                              "variations"));
        SkipGame(depth);
        return;
      }
      if (!flush()) {
        SkipGame(depth);
        return;
      }
      if (main_line) {
        node.offset = at;
        node.properties.clear();
        in_node = true;
      }
      prev = Prev::kNode;
      ++pos_;
    } else if (IsLetter(c)) {
      size_t end = at;
      std::string id;
      while (end < data_.size() && IsLetter(data_[end])) {
        if (absl::ascii_isupper(static_cast<unsigned char>(data_[end]))) {
          id += data_[end];
        }
        ++end;
      }
      const absl::string_view name = data_.substr(at, end - at);
      if (prev != Prev::kNode) {
        fail(at, absl::StrCat("property '", Excerpt(name), "' at ",
                              locator_.Where(at),
                              " is outside a node: expected ';' before it"));
        SkipGame(depth);
        return;
      }
      if (id.empty()) {
        fail(at, absl::StrCat("property name '", Excerpt(name), "' at ",
                              locator_.Where(at),
                              " has no uppercase letter (SGF names are "
                              "uppercase; FF[3] ignores lowercase letters)"));
        SkipGame(depth);
        return;
      }
      pos_ = SkipBlanks(end);
      if (pos_ >= data_.size() || data_[pos_] != '[') {
        const std::string found =
            pos_ >= data_.size()
                ? std::string("the end of the input")
                : absl::StrCat("'", Excerpt(data_.substr(pos_, 1)), "'");
        fail(pos_, absl::StrCat("property ", id, " at ", locator_.Where(at),
                                " has no value: expected '[' after the name, "
                                "found ",
                                found));
        SkipGame(depth);
        return;
      }
      SgfProperty property;
      property.id = std::move(id);
      property.offset = at;
      while (pos_ < data_.size() && data_[pos_] == '[') {
        const size_t close = ValueEnd(pos_);
        if (close == kNpos) {
          fail(pos_, absl::StrCat("value of property ", property.id,
                                  " opened with '[' at ", locator_.Where(pos_),
                                  " has no closing ']' before the end of the "
                                  "input (unbalanced brackets or a truncated "
                                  "file)"));
          pos_ = data_.size();
          return;
        }
        if (in_node) {
          property.values.push_back(
              SgfValue{data_.substr(pos_ + 1, close - pos_ - 1), pos_});
        }
        pos_ = SkipBlanks(close + 1);
      }
      if (in_node) node.properties.push_back(std::move(property));
    } else {
      const std::string why =
          c == ']' ? std::string("a ']' with no open '[' (unbalanced brackets)")
                   : std::string("expected ';', '(', ')' or a property name");
      fail(at, absl::StrCat("unexpected '", Excerpt(data_.substr(at, 1)),
                            "' at ", locator_.Where(at), " in game ",
                            game_number, ": ", why));
      ++pos_;
      SkipGame(depth);
      return;
    }
  }
  out_.games.push_back(std::move(builder).Finish());
  last_game_ok_ = true;
}

SgfCollection Reader::Run() && {
  size_t from = 0;
  if (data_.substr(0, 3) == "\xEF\xBB\xBF") {
    charset_.utf8_bom = true;
    from = 3;
  }
  int game_number = 0;
  while (true) {
    bool implicit = false;
    const size_t start = FindGameStart(from, &implicit);
    NoteJunk(from, start == kNpos ? data_.size() : start);
    if (start == kNpos) break;
    ReadGame(start, implicit, ++game_number);
    from = pos_;
  }
  if (game_number == 0) {
    size_t first = from;
    while (first < data_.size() && IsFiller(data_[first])) ++first;
    out_.errors.push_back(SgfError{
        0, locator_.InputOffset(first),
        first == data_.size()
            ? std::string("not an SGF file: the input is empty or blank, it "
                          "holds no SGF game tree")
            : absl::StrCat("no SGF game tree in the input: expected '(;' "
                           "but found '",
                           Excerpt(data_.substr(first)), "' at ",
                           locator_.Where(first),
                           " and no '(;' anywhere after it; this is not an "
                           "SGF file, or it is damaged")});
  }
  return std::move(out_);
}

}  // namespace

SgfCollection ReadSgf(absl::string_view data) {
  if (data.substr(0, 4) == absl::string_view("\xFF\xFE\0\0", 4) ||
      data.substr(0, 4) == absl::string_view("\0\0\xFE\xFF", 4)) {
    SgfCollection out;
    out.errors.push_back(SgfError{
        0, 0,
        "the input is UTF-32 (byte order mark at byte 0), which qipu does "
        "not read: convert it to UTF-8 or UTF-16"});
    return out;
  }
  const std::optional<Utf16Detection> utf16 = DetectUtf16(data);
  if (!utf16.has_value()) return Reader(data, nullptr, std::nullopt).Run();
  const char* const name = Utf16OrderName(utf16->order);
  std::string told;
  switch (utf16->evidence) {
    case Utf16Evidence::kByteOrderMark:
      told = "byte order mark";
      break;
    case Utf16Evidence::kCharset:
      told = absl::StrCat("CA[", utf16->charset, "]");
      break;
    case Utf16Evidence::kZeroBytes:
      told = "zero bytes";
      break;
  }
  size_t error_offset = 0;
  absl::StatusOr<Utf16Text> text =
      Utf16Text::Decode(data, utf16->order, utf16->bom_bytes, &error_offset);
  if (!text.ok()) {
    SgfCollection out;
    out.errors.push_back(SgfError{
        0, error_offset,
        absl::StrCat("the input is ", name, " (told by ",
                     utf16->evidence == Utf16Evidence::kCharset
                         ? told
                         : absl::StrCat("its ", told),
                     ") but does not decode: ", text.status().message())});
    return out;
  }
  return Reader(text->utf8(), &*text,
                RecordNote{.kind = NoteKind::kUtf16Decoded,
                           .value = told,
                           .charset = name})
      .Run();
}

}  // namespace qipu::rules
