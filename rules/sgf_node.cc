#include "rules/sgf_node.h"

#include <algorithm>
#include <bitset>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "rules/coord.h"

namespace qipu::rules::sgf_internal {
namespace {

// Notes kept per game; more are counted in one final note. Bounds the
// memory a hostile file can make the reader spend on notes.
constexpr size_t kMaxNotes = 100;

bool IsBlank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
         c == '\f';
}

// A game-information property held in a string field of GameRecord (RE,
// a RecordResult, is read on its own).
struct InfoField {
  absl::string_view id;
  std::string GameRecord::*field;
};

const InfoField kInfoFields[] = {
    {"RU", &GameRecord::rules},        {"PB", &GameRecord::black_player},
    {"PW", &GameRecord::white_player}, {"BR", &GameRecord::black_rank},
    {"WR", &GameRecord::white_rank},   {"DT", &GameRecord::date},
    {"EV", &GameRecord::event},        {"GN", &GameRecord::game_name},
    {"PC", &GameRecord::place},
};

const InfoField* FindInfoField(absl::string_view id) {
  for (const InfoField& f : kInfoFields) {
    if (f.id == id) return &f;
  }
  return nullptr;
}

// Properties that only the root node may hold.
bool IsRootOnly(absl::string_view id) {
  return id == "GM" || id == "FF" || id == "CA" || id == "SZ";
}

// Setup and move properties, read in any main-line node.
bool IsSetupOrMove(absl::string_view id) {
  return id == "AB" || id == "AW" || id == "AE" || id == "PL" || id == "B" ||
         id == "W";
}

// Game information with a field of its own (HA, KM, RE and the strings).
bool IsGameInfo(absl::string_view id) {
  return id == "HA" || id == "KM" || id == "RE" || FindInfoField(id) != nullptr;
}

// True for an optionally signed run of decimal digits ("650", "-375").
bool IsIntegerText(absl::string_view v) {
  if (!v.empty() && (v[0] == '-' || v[0] == '+')) v.remove_prefix(1);
  if (v.empty()) return false;
  return std::all_of(v.begin(), v.end(), [](char c) {
    return absl::ascii_isdigit(static_cast<unsigned char>(c));
  });
}

// True when `v` is two SGF point letters (a-z, A-Z) naming a point outside
// a width x height board.
bool IsOffBoard(absl::string_view v, int width, int height) {
  auto letter = [](char c) {
    return c >= 'a' && c <= 'z'   ? c - 'a'
           : c >= 'A' && c <= 'Z' ? c - 'A' + 26
                                  : -1;
  };
  if (v.size() != 2) return false;
  const int x = letter(v[0]);
  const int y = letter(v[1]);
  return x >= 0 && y >= 0 && (x >= width || y >= height);
}

}  // namespace

SgfPlace SgfLocator::Place(size_t offset) {
  offset = std::min(offset, data_.size());
  if (offset < pos_) {
    // Back up (the builder reports a node's properties in two passes):
    // uncount the line breaks in between, and find the line start again
    // only when one was crossed.
    bool crossed = false;
    for (size_t i = offset; i < pos_; ++i) {
      if (data_[i] == '\n') {
        --line_;
        crossed = true;
      }
    }
    pos_ = offset;
    if (crossed) {
      line_start_ = offset;
      while (line_start_ > 0 && data_[line_start_ - 1] != '\n') --line_start_;
    }
  }
  for (; pos_ < offset; ++pos_) {
    if (data_[pos_] == '\n') {
      ++line_;
      line_start_ = pos_ + 1;
    }
  }
  if (source_ != nullptr) {
    const size_t byte = source_->InputOffset(offset);
    return SgfPlace{
        byte, line_,
        static_cast<int>(byte - source_->InputOffset(line_start_) + 1)};
  }
  return SgfPlace{offset, line_, static_cast<int>(offset - line_start_ + 1)};
}

std::string Excerpt(absl::string_view text, size_t max_bytes) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (size_t i = 0; i < text.size() && i < max_bytes; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  if (text.size() > max_bytes) out += "...";
  return out;
}

std::string Unescape(absl::string_view raw, TextKind kind) {
  std::string out;
  out.reserve(raw.size());
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c == '\\' && i + 1 < raw.size()) {
      c = raw[++i];
      if (c == '\n' || c == '\r') {
        // Soft line break: "\" + LF, CR, CRLF or LFCR is removed.
        if (i + 1 < raw.size() && (raw[i + 1] == '\n' || raw[i + 1] == '\r') &&
            raw[i + 1] != c) {
          ++i;
        }
        continue;
      }
    }
    if (kind == TextKind::kSimpleText && IsBlank(c)) {
      // One space per line break (CRLF and LFCR count once) or blank.
      if ((c == '\n' || c == '\r') && i + 1 < raw.size() &&
          (raw[i + 1] == '\n' || raw[i + 1] == '\r') && raw[i + 1] != c) {
        ++i;
      }
      c = ' ';
    }
    out += c;
  }
  return out;
}

SgfGameBuilder::SgfGameBuilder(SgfLocator* locator, size_t game_offset,
                               int game_number, const InputCharset* charset)
    : locator_(locator), charset_(charset) {
  record_.byte_offset = locator_->InputOffset(game_offset);
  record_.game_number = game_number;
}

void SgfGameBuilder::AddNote(RecordNote note) {
  if (record_.notes.size() < kMaxNotes) {
    record_.notes.push_back(std::move(note));
  } else {
    ++omitted_notes_;
  }
}

bool SgfGameBuilder::Fail(size_t offset, std::string what) {
  problem_offset_ = offset;
  problem_ = std::move(what);
  return false;
}

std::vector<const SgfProperty*> SgfGameBuilder::FirstOccurrences(
    const SgfNode& node) {
  const std::vector<SgfProperty>& props = node.properties;
  // Sorting indices by (id, position) finds repeats in O(n log n), so a
  // node with many properties costs no quadratic time.
  std::vector<size_t> order(props.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (props[a].id != props[b].id) return props[a].id < props[b].id;
    return a < b;
  });
  // first[i]: index of the first property with the id of property i.
  std::vector<size_t> first(props.size());
  for (size_t k = 0; k < order.size(); ++k) {
    const bool repeat = k > 0 && props[order[k]].id == props[order[k - 1]].id;
    first[order[k]] = repeat ? first[order[k - 1]] : order[k];
  }
  std::vector<const SgfProperty*> kept;
  kept.reserve(props.size());
  for (size_t i = 0; i < props.size(); ++i) {
    if (first[i] == i) {
      kept.push_back(&props[i]);
      continue;
    }
    const SgfProperty& p = props[i];
    AddNote({.kind = NoteKind::kRepeatedProperty,
             .property = p.id,
             .value = Excerpt(p.values[0].raw),
             .where = locator_->Place(p.offset),
             .node = NodeNumber()});
  }
  return kept;
}

std::string SgfGameBuilder::Text(const SgfProperty& p, TextKind kind) {
  bool lossy = false;
  std::string text = decoder_.Decode(Unescape(p.values[0].raw, kind), &lossy);
  // Each id is decoded at most once per game (root properties are unique
  // after FirstOccurrences, later nodes only add game information not read
  // before), so lossy_ holds no repeats.
  if (lossy) lossy_.push_back(p.id);
  return text;
}

bool SgfGameBuilder::AddNode(const SgfNode& node) {
  const bool ok = nodes_ == 0 ? ReadRoot(node) : ReadOther(node);
  ++nodes_;
  return ok;
}

bool SgfGameBuilder::ReadRoot(const SgfNode& node) {
  const std::vector<const SgfProperty*> props = FirstOccurrences(node);
  const SgfProperty* ca = nullptr;
  for (const SgfProperty* p : props) {
    if (p->id == "CA") ca = p;
    // Another game first: nothing else of its root means what it means in
    // Go (its SZ, points and text may be anything).
    int gm = 0;
    if (p->id == "GM" &&
        absl::SimpleAtoi(absl::StripAsciiWhitespace(p->values[0].raw), &gm) &&
        gm != 1) {
      not_go_ = true;
      game_type_ = gm;
      return Fail(p->offset,
                  absl::StrCat("GM[", gm, "] at ", locator_->Where(p->offset),
                               ": not a game of Go (Go is GM[1])"));
    }
  }
  // The charset first: all text depends on it.
  const std::string ca_name =
      ca == nullptr ? std::string()
                    : std::string(absl::StripAsciiWhitespace(
                          Unescape(ca->values[0].raw, TextKind::kSimpleText)));
  if (charset_->utf8_bom) {
    if (ca != nullptr) {
      AddNote({.kind = NoteKind::kCharsetOverriddenByBom,
               .value = Excerpt(ca->values[0].raw)});
    }
  } else if (!charset_->utf16.empty()) {
    if (ca != nullptr && !IsUtf16CharsetName(ca_name)) {
      AddNote({.kind = NoteKind::kCharsetOverriddenByUtf16,
               .value = Excerpt(ca_name),
               .charset = charset_->utf16});
    }
  } else if (ca == nullptr) {
    AddNote({.kind = NoteKind::kNoCharset});
  } else if (IsWideCharsetName(ca_name)) {
    AddNote({.kind = NoteKind::kWideCharsetIn8BitFile,
             .value = Excerpt(ca_name),
             .where = locator_->Place(ca->offset)});
  } else {
    absl::StatusOr<TextDecoder> decoder = TextDecoder::Open(ca_name);
    if (decoder.ok()) {
      decoder_ = std::move(decoder).value();
    } else {
      AddNote({.kind = NoteKind::kUnknownCharset,
               .value = Excerpt(ca_name),
               .where = locator_->Place(ca->offset)});
    }
  }
  for (const SgfProperty* p : props) {
    const absl::string_view v = absl::StripAsciiWhitespace(p->values[0].raw);
    if (p->id == "GM") {
      int gm = 0;
      if (!absl::SimpleAtoi(v, &gm)) {
        AddNote({.kind = NoteKind::kGameTypeNotNumber,
                 .value = Excerpt(v),
                 .where = locator_->Place(p->offset)});
      }
    } else if (p->id == "FF") {
      int ff = 0;
      if (!absl::SimpleAtoi(v, &ff) || ff < 1 || ff > 4) {
        AddNote({.kind = NoteKind::kUnknownFileFormat,
                 .value = Excerpt(v),
                 .where = locator_->Place(p->offset)});
      }
    } else if (p->id == "SZ") {
      if (!ReadSize(*p)) return false;
    }
  }
  for (const SgfProperty* p : props) {
    if (IsGameInfo(p->id)) {
      ReadGameInfo(*p);
    } else if (!IsRootOnly(p->id) && !IsSetupOrMove(p->id)) {
      record_.extra.emplace_back(p->id, Text(*p, TextKind::kRaw));
    }
  }
  return ReadSetupAndMoves(node, props);
}

bool SgfGameBuilder::ReadOther(const SgfNode& node) {
  const std::vector<const SgfProperty*> props = FirstOccurrences(node);
  for (const SgfProperty* p : props) {
    if (IsRootOnly(p->id)) {
      AddNote({.kind = NoteKind::kRootOnlyProperty,
               .property = p->id,
               .where = locator_->Place(p->offset),
               .node = NodeNumber()});
    } else if (IsGameInfo(p->id)) {
      if (std::find(info_read_.begin(), info_read_.end(), p->id) !=
          info_read_.end()) {
        AddNote({.kind = NoteKind::kGameInfoRepeated,
                 .property = p->id,
                 .where = locator_->Place(p->offset),
                 .node = NodeNumber()});
      } else {
        AddNote({.kind = NoteKind::kGameInfoOutsideRoot,
                 .property = p->id,
                 .where = locator_->Place(p->offset),
                 .node = NodeNumber()});
        ReadGameInfo(*p);
      }
    }
  }
  return ReadSetupAndMoves(node, props);
}

bool SgfGameBuilder::ReadSize(const SgfProperty& p) {
  const std::string v = std::string(absl::StripAsciiWhitespace(
      Unescape(p.values[0].raw, TextKind::kSimpleText)));
  int width = 0;
  int height = 0;
  bool ok = false;
  const size_t colon = v.find(':');
  if (colon == std::string::npos) {
    ok = absl::SimpleAtoi(v, &width);
    height = width;
  } else {
    ok = absl::SimpleAtoi(absl::string_view(v).substr(0, colon), &width) &&
         absl::SimpleAtoi(absl::string_view(v).substr(colon + 1), &height);
  }
  const std::string where = locator_->Where(p.values[0].offset);
  if (!ok) {
    return Fail(p.values[0].offset,
                absl::StrCat("SZ[", Excerpt(v), "] at ", where,
                             ": not a board size (expected SZ[19] or "
                             "SZ[width:height])"));
  }
  const absl::Status status = ValidateSize(width, height);
  if (!status.ok()) {
    return Fail(p.values[0].offset,
                absl::StrCat("SZ[", Excerpt(v), "] at ", where, ": ",
                             status.message()));
  }
  record_.width = width;
  record_.height = height;
  return true;
}

void SgfGameBuilder::ReadGameInfo(const SgfProperty& p) {
  info_read_.push_back(p.id);
  if (p.values.size() > 1) {
    AddNote({.kind = NoteKind::kExtraValues,
             .property = p.id,
             .where = locator_->Place(p.offset),
             .count = static_cast<int64_t>(p.values.size())});
  }
  if (p.id == "HA") {
    ReadHandicap(p);
  } else if (p.id == "KM") {
    ReadKomi(p);
  } else if (p.id == "RE") {
    record_.result = RecordResult::Read(Text(p, TextKind::kSimpleText));
  } else if (const InfoField* f = FindInfoField(p.id)) {
    record_.*(f->field) = Text(p, TextKind::kSimpleText);
  }
}

void SgfGameBuilder::ReadHandicap(const SgfProperty& p) {
  const std::string v = std::string(absl::StripAsciiWhitespace(
      Unescape(p.values[0].raw, TextKind::kSimpleText)));
  int handicap = 0;
  if (!absl::SimpleAtoi(v, &handicap) || handicap < 0 ||
      handicap > kMaxPoints) {
    AddNote({.kind = NoteKind::kBadHandicap,
             .value = Excerpt(v),
             .where = locator_->Place(p.offset)});
    return;
  }
  record_.handicap = handicap;
}

void SgfGameBuilder::ReadKomi(const SgfProperty& p) {
  const std::string v = std::string(absl::StripAsciiWhitespace(
      Unescape(p.values[0].raw, TextKind::kSimpleText)));
  const SgfPlace where = locator_->Place(p.offset);
  int64_t fox = 0;
  if (IsIntegerText(v) && absl::SimpleAtoi(v, &fox) &&
      (fox >= 100 || fox <= -100)) {
    // Fox writes komi x100, in stones when it ends in .25 or .75 (3.75
    // stones is the Chinese 7.5 points).
    const bool stones = fox % 50 == 25 || fox % 50 == -25;
    record_.komi = stones ? static_cast<double>(fox) / 50.0
                          : static_cast<double>(fox) / 100.0;
    record_.has_komi = true;
    AddNote({.kind = NoteKind::kFoxKomi,
             .value = v,
             .where = where,
             .komi = record_.komi,
             .stones = stones});
    return;
  }
  double komi = 0;
  if (!absl::SimpleAtod(v, &komi) || !std::isfinite(komi)) {
    std::string dotted = v;
    std::replace(dotted.begin(), dotted.end(), ',', '.');
    if (dotted == v || !absl::SimpleAtod(dotted, &komi) ||
        !std::isfinite(komi)) {
      AddNote(
          {.kind = NoteKind::kBadKomi, .value = Excerpt(v), .where = where});
      return;
    }
    AddNote({.kind = NoteKind::kKomiDecimalComma,
             .value = v,
             .where = where,
             .komi = komi});
  }
  record_.komi = komi;
  record_.has_komi = true;
}

bool SgfGameBuilder::ReadPointList(const SgfProperty& p,
                                   std::vector<Point>* out) {
  // Points already in *out (a list names each point once; repeats and
  // overlapping rectangles are merged).
  std::bitset<kNumCells> seen;
  for (Point q : *out) seen.set(static_cast<size_t>(q));
  const int w = record_.width;
  const int h = record_.height;
  for (const SgfValue& value : p.values) {
    const absl::string_view v = absl::StripAsciiWhitespace(value.raw);
    if (v.empty()) continue;  // An empty list ("AE[]").
    const size_t colon = v.find(':');
    const absl::string_view a = v.substr(0, colon);
    const absl::string_view b =
        colon == absl::string_view::npos ? a : v.substr(colon + 1);
    absl::StatusOr<Point> pa = ParseSgfPoint(a, w, h);
    absl::StatusOr<Point> pb = ParseSgfPoint(b, w, h);
    if (!pa.ok() || !pb.ok()) {
      return Fail(value.offset,
                  absl::StrCat(p.id, "[", Excerpt(v), "] at ",
                               locator_->Where(value.offset), ": ",
                               (pa.ok() ? pb : pa).status().message()));
    }
    if (*pa == kPass || *pb == kPass) {
      AddNote({.kind = NoteKind::kSetupPass,
               .property = p.id,
               .value = Excerpt(v),
               .where = locator_->Place(value.offset)});
      continue;
    }
    const int x0 = std::min(PointX(*pa), PointX(*pb));
    const int x1 = std::max(PointX(*pa), PointX(*pb));
    const int y0 = std::min(PointY(*pa), PointY(*pb));
    const int y1 = std::max(PointY(*pa), PointY(*pb));
    for (int y = y0; y <= y1; ++y) {
      for (int x = x0; x <= x1; ++x) {
        const Point q = MakePoint(x, y);
        if (seen.test(static_cast<size_t>(q))) continue;
        seen.set(static_cast<size_t>(q));
        out->push_back(q);
      }
    }
  }
  return true;
}

bool SgfGameBuilder::ReadSetupAndMoves(
    const SgfNode& node, const std::vector<const SgfProperty*>& props) {
  // The main line stops at a move that is not a point of the board.
  if (record_.unread.move != 0) return true;
  SetupStep step;
  step.before_move = static_cast<int>(record_.moves.size());
  int moves_here = 0;
  for (const SgfProperty* p : props) {
    if (p->id == "AB" && !ReadPointList(*p, &step.black)) return false;
    if (p->id == "AW" && !ReadPointList(*p, &step.white)) return false;
    if (p->id == "AE" && !ReadPointList(*p, &step.empty)) return false;
    if (p->id == "PL") {
      const std::string v =
          std::string(absl::StripAsciiWhitespace(p->values[0].raw));
      if (v == "B" || v == "b") {
        step.to_play = Color::kBlack;
      } else if (v == "W" || v == "w") {
        step.to_play = Color::kWhite;
      } else {
        AddNote({.kind = NoteKind::kBadPlayerToMove,
                 .value = Excerpt(v),
                 .where = locator_->Place(p->offset)});
      }
    }
    if (p->id == "B" || p->id == "W") ++moves_here;
  }
  if (!step.black.empty() || !step.white.empty() || !step.empty.empty() ||
      step.to_play != Color::kEmpty) {
    record_.setup.push_back(std::move(step));
  }
  if (moves_here > 1) {
    AddNote({.kind = NoteKind::kBothMoves,
             .where = locator_->Place(node.offset),
             .node = NodeNumber()});
  }
  for (const SgfProperty* p : props) {
    if (p->id != "B" && p->id != "W") continue;
    const SgfValue& value = p->values[0];
    if (p->values.size() > 1) {
      AddNote({.kind = NoteKind::kExtraValues,
               .property = p->id,
               .where = locator_->Place(p->offset),
               .count = static_cast<int64_t>(p->values.size())});
    }
    const absl::string_view v = absl::StripAsciiWhitespace(value.raw);
    absl::StatusOr<Point> point =
        ParseSgfPoint(v, record_.width, record_.height);
    if (!point.ok()) {
      // Not a point of the board: the main line stops here (the record is
      // kept up to the move before, or refused under --strict).
      record_.unread = {
          .move = static_cast<int>(record_.moves.size() + 1),
          .color = p->id == "B" ? Color::kBlack : Color::kWhite,
          .value = Excerpt(v),
          .off_board = IsOffBoard(v, record_.width, record_.height),
          .reason = absl::StrCat(p->id, "[", Excerpt(v), "] at ",
                                 locator_->Where(value.offset), ": ",
                                 point.status().message())};
      return true;
    }
    record_.moves.push_back(
        Move{p->id == "B" ? Color::kBlack : Color::kWhite, *point});
    // qipu's own move properties (two letters, 'Q' first: QM, the search
    // visits) belong to this move.
    for (const SgfProperty* q : props) {
      if (q->id.size() == 2 && q->id[0] == 'Q') {
        record_.move_extra.push_back(
            {static_cast<int>(record_.moves.size() - 1), std::string(q->id),
             Text(*q, TextKind::kRaw)});
      }
    }
  }
  return true;
}

GameRecord SgfGameBuilder::Finish() && {
  if (!lossy_.empty()) {
    constexpr size_t kListed = 10;
    const size_t listed = std::min(lossy_.size(), kListed);
    record_.notes.push_back(
        {.kind = NoteKind::kTextRepaired,
         .property =
             absl::StrJoin(lossy_.begin(), lossy_.begin() + listed, ", "),
         .count = static_cast<int64_t>(lossy_.size() - listed),
         .charset = decoder_.uses_iconv() ? std::string(decoder_.charset())
                                          : std::string()});
  }
  if (omitted_notes_ > 0) {
    record_.notes.push_back({.kind = NoteKind::kNotesOmitted,
                             .count = static_cast<int64_t>(omitted_notes_)});
  }
  return std::move(record_);
}

}  // namespace qipu::rules::sgf_internal
