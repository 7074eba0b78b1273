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

#include "absl/base/attributes.h"
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
  // The walk over one game tree: what ReadGame()'s steps share.
  struct GameTree;
  // What a step of ReadGame() leaves to do next.
  enum class Step {
    kNext,    // read the next token
    kClosed,  // the game tree is complete: finish the record
    kOver,    // the game was refused or skipped; pos_ is after it
  };

  // Reads the game tree starting at `start`; leaves pos_ after it. Each
  // token is taken by one of the steps below, at pos_ (after blanks). The
  // steps taken for every node and property are forced inline into its
  // loop: as calls they cost ReadSgf 4% more instructions (callgrind,
  // the fox-pro corpus), the inlined loop is what one function was.
  void ReadGame(size_t start, bool implicit, int game_number);
  // The notes a game carries before its first node: the UTF-16 decoding,
  // text skipped before it, a missing '('.
  void BeginGame(GameTree& tree);
  // '(': a variation opens.
  Step OpenVariation(GameTree& tree);
  // ')': the game tree or a variation closes; the main line ends.
  Step CloseVariation(GameTree& tree);
  // ';': a node begins (kept when on the main line).
  ABSL_ATTRIBUTE_ALWAYS_INLINE inline Step BeginNode(GameTree& tree);
  // A property name and its values (kept when in a main-line node).
  ABSL_ATTRIBUTE_ALWAYS_INLINE inline Step ReadProperty(GameTree& tree);
  // Reads the values of `property` starting at the '[' at pos_, keeping
  // them when in a main-line node. False (the error recorded, pos_ at the
  // end) when a value is not closed.
  ABSL_ATTRIBUTE_ALWAYS_INLINE inline bool ReadValues(GameTree& tree,
                                                      SgfProperty* property);
  // The input ended inside the game tree: an error, unless an implicit
  // game's root tree was open (noted).
  Step EndOfInput(GameTree& tree);
  // Any other byte: an error.
  Step StrayByte(GameTree& tree);
  // Hands the pending main-line node to the builder. False when the game
  // cannot be read (an error, recorded) or is not Go (skipped, recorded).
  ABSL_ATTRIBUTE_ALWAYS_INLINE inline bool FlushNode(GameTree& tree);
  // Records an error of the game at `offset` (of the text read).
  void Fail(const GameTree& tree, size_t offset, std::string reason);
  // Fail(), then SkipGame() past the game tree: kOver.
  Step Refuse(const GameTree& tree, size_t offset, std::string reason);
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

// The walk over one game tree. The only state of the walk proper is
// depth, prev and main_line (the file's comment says why that is enough).
struct Reader::GameTree {
  GameTree(SgfLocator* locator, const InputCharset* charset, size_t start,
           bool implicit, int game_number)
      : builder(locator, start, game_number, charset),
        start(start),
        implicit(implicit),
        game_number(game_number),
        open_at(start) {}

  SgfGameBuilder builder;
  // Offset of the game's '(' (or first ';' when implicit).
  const size_t start;
  // The game starts with ';' (no '(').
  const bool implicit;
  // 1-based number of the game tree in the file.
  const int game_number;
  // Game trees open: the game's own and its variations'.
  size_t depth = 1;
  // The previous structural token.
  Prev prev = Prev::kOpen;
  // Still on the main line: no ')' seen yet.
  bool main_line = true;
  // node holds a main-line node not yet added.
  bool in_node = false;
  // Offset of the last '('.
  size_t open_at;
  // The main-line node being read.
  SgfNode node;
};

void Reader::ReadGame(size_t start, bool implicit, int game_number) {
  GameTree tree(&locator_, &charset_, start, implicit, game_number);
  BeginGame(tree);
  last_game_ok_ = false;
  pos_ = implicit ? start : start + 1;
  while (true) {
    pos_ = SkipBlanks(pos_);
    Step step;
    if (pos_ >= data_.size()) {
      step = EndOfInput(tree);
    } else {
      const char c = data_[pos_];
      if (c == '(') {
        step = OpenVariation(tree);
      } else if (c == ')') {
        step = CloseVariation(tree);
      } else if (c == ';') {
        step = BeginNode(tree);
      } else if (IsLetter(c)) {
        step = ReadProperty(tree);
      } else {
        step = StrayByte(tree);
      }
    }
    if (step == Step::kOver) return;
    if (step == Step::kClosed) break;
  }
  out_.games.push_back(std::move(tree.builder).Finish());
  last_game_ok_ = true;
}

void Reader::BeginGame(GameTree& tree) {
  if (utf16_note_.has_value()) tree.builder.AddNote(*utf16_note_);
  for (RecordNote& note : pending_notes_) tree.builder.AddNote(std::move(note));
  pending_notes_.clear();
  if (tree.implicit) {
    tree.builder.AddNote({.kind = NoteKind::kMissingOpenParen,
                          .where = locator_.Place(tree.start),
                          .game = tree.game_number});
  }
}

Reader::Step Reader::OpenVariation(GameTree& tree) {
  const size_t at = pos_;
  if (tree.prev == Prev::kOpen) {
    return Refuse(tree, at,
                  absl::StrCat("'(' at ", locator_.Where(at),
                               ": a game tree must begin with a node (';'), "
                               "not with another '('"));
  }
  if (!FlushNode(tree)) {
    SkipGame(tree.depth);
    return Step::kOver;
  }
  ++tree.depth;
  tree.open_at = at;
  tree.prev = Prev::kOpen;
  ++pos_;
  return Step::kNext;
}

Reader::Step Reader::CloseVariation(GameTree& tree) {
  if (!FlushNode(tree)) {
    SkipGame(tree.depth);
    return Step::kOver;
  }
  if (tree.prev == Prev::kOpen) {
    tree.builder.AddNote({.kind = NoteKind::kEmptyVariation,
                          .where = locator_.Place(tree.open_at)});
  }
  tree.main_line = false;
  tree.prev = Prev::kClose;
  ++pos_;
  return --tree.depth == 0 ? Step::kClosed : Step::kNext;
}

Reader::Step Reader::BeginNode(GameTree& tree) {
  const size_t at = pos_;
  if (tree.prev == Prev::kClose) {
    return Refuse(tree, at,
                  absl::StrCat("node ';' at ", locator_.Where(at),
                               " follows a variation's ')': the nodes of a "
                               "game tree must all come before its "
                               "variations"));
  }
  if (!FlushNode(tree)) {
    SkipGame(tree.depth);
    return Step::kOver;
  }
  if (tree.main_line) {
    tree.node.offset = at;
    tree.node.properties.clear();
    tree.in_node = true;
  }
  tree.prev = Prev::kNode;
  ++pos_;
  return Step::kNext;
}

Reader::Step Reader::ReadProperty(GameTree& tree) {
  const size_t at = pos_;
  // FF[3] long names: the uppercase letters form the id.
  size_t end = at;
  std::string id;
  while (end < data_.size() && IsLetter(data_[end])) {
    if (absl::ascii_isupper(static_cast<unsigned char>(data_[end]))) {
      id += data_[end];
    }
    ++end;
  }
  const absl::string_view name = data_.substr(at, end - at);
  if (tree.prev != Prev::kNode) {
    return Refuse(
        tree, at,
        absl::StrCat("property '", Excerpt(name), "' at ", locator_.Where(at),
                     " is outside a node: expected ';' before it"));
  }
  if (id.empty()) {
    return Refuse(tree, at,
                  absl::StrCat("property name '", Excerpt(name), "' at ",
                               locator_.Where(at),
                               " has no uppercase letter (SGF names are "
                               "uppercase; FF[3] ignores lowercase letters)"));
  }
  pos_ = SkipBlanks(end);
  if (pos_ >= data_.size() || data_[pos_] != '[') {
    const std::string found =
        pos_ >= data_.size()
            ? std::string("the end of the input")
            : absl::StrCat("'", Excerpt(data_.substr(pos_, 1)), "'");
    return Refuse(tree, pos_,
                  absl::StrCat("property ", id, " at ", locator_.Where(at),
                               " has no value: expected '[' after the name, "
                               "found ",
                               found));
  }
  SgfProperty property;
  property.id = std::move(id);
  property.offset = at;
  if (!ReadValues(tree, &property)) return Step::kOver;
  if (tree.in_node) tree.node.properties.push_back(std::move(property));
  return Step::kNext;
}

bool Reader::ReadValues(GameTree& tree, SgfProperty* property) {
  const bool keep = tree.in_node;
  while (pos_ < data_.size() && data_[pos_] == '[') {
    const size_t close = ValueEnd(pos_);
    if (close == kNpos) {
      Fail(tree, pos_,
           absl::StrCat("value of property ", property->id,
                        " opened with '[' at ", locator_.Where(pos_),
                        " has no closing ']' before the end of the "
                        "input (unbalanced brackets or a truncated "
                        "file)"));
      pos_ = data_.size();
      return false;
    }
    if (keep) {
      property->values.push_back(
          SgfValue{data_.substr(pos_ + 1, close - pos_ - 1), pos_});
    }
    pos_ = SkipBlanks(close + 1);
  }
  return true;
}

Reader::Step Reader::EndOfInput(GameTree& tree) {
  if (!FlushNode(tree)) return Step::kOver;
  if (tree.implicit && tree.depth == 1) {
    tree.builder.AddNote(
        {.kind = NoteKind::kMissingCloseParen, .game = tree.game_number});
    return Step::kClosed;
  }
  Fail(tree, data_.size(),
       absl::StrCat("input ends at ", locator_.Where(data_.size()),
                    " inside game ", tree.game_number, " (opened at ",
                    locator_.Where(tree.start), "): ", tree.depth,
                    " game tree(s) not closed with ')'; the file is "
                    "truncated or a ')' is missing"));
  return Step::kOver;
}

Reader::Step Reader::StrayByte(GameTree& tree) {
  const size_t at = pos_;
  const char c = data_[at];
  const std::string why =
      c == ']' ? std::string("a ']' with no open '[' (unbalanced brackets)")
               : std::string("expected ';', '(', ')' or a property name");
  Fail(tree, at,
       absl::StrCat("unexpected '", Excerpt(data_.substr(at, 1)), "' at ",
                    locator_.Where(at), " in game ", tree.game_number, ": ",
                    why));
  ++pos_;
  SkipGame(tree.depth);
  return Step::kOver;
}

bool Reader::FlushNode(GameTree& tree) {
  if (!tree.in_node) return true;
  tree.in_node = false;
  SgfGameBuilder& builder = tree.builder;
  if (builder.AddNode(tree.node)) return true;
  if (builder.not_go()) {
    out_.skipped.push_back(
        SgfSkippedGame{tree.game_number, locator_.InputOffset(tree.start),
                       builder.game_type(), builder.problem()});
  } else {
    Fail(tree, builder.problem_offset(), builder.problem());
  }
  return false;
}

void Reader::Fail(const GameTree& tree, size_t offset, std::string reason) {
  out_.errors.push_back(SgfError{tree.game_number, locator_.InputOffset(offset),
                                 std::move(reason)});
}

Reader::Step Reader::Refuse(const GameTree& tree, size_t offset,
                            std::string reason) {
  Fail(tree, offset, std::move(reason));
  SkipGame(tree.depth);
  return Step::kOver;
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
