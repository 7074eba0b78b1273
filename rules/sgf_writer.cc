#include "rules/sgf_writer.h"

#include <charconv>
#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "rules/coord.h"
#include "rules/types.h"

namespace qipu::rules {
namespace {

// Moves per output line (after the root line).
constexpr int kNodesPerLine = 10;

// Properties the writer writes itself; `extra` entries with these names are
// skipped so that no property appears twice.
constexpr absl::string_view kWrittenIds[] = {
    "GM", "FF", "CA", "SZ", "HA", "KM", "RU", "RE", "PB", "PW", "BR",
    "WR", "DT", "EV", "GN", "PC", "AB", "AW", "AE", "PL", "B",  "W"};

bool IsWrittenId(absl::string_view id) {
  for (absl::string_view w : kWrittenIds) {
    if (w == id) return true;
  }
  return false;
}

bool IsValidId(absl::string_view id) {
  if (id.empty()) return false;
  for (char c : id) {
    if (!absl::ascii_isupper(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

void AppendValue(std::string* out, absl::string_view text) {
  *out += '[';
  for (char c : text) {
    if (c == ']' || c == '\\') *out += '\\';
    *out += c;
  }
  *out += ']';
}

void AppendProperty(std::string* out, absl::string_view id,
                    absl::string_view text) {
  out->append(id.data(), id.size());
  AppendValue(out, text);
}

// Move-node properties the writer takes from GameRecord::move_extra:
// qipu's own (two letters, 'Q' first) and SGF's timing properties and
// comment, which the reader does not keep (see sgf_writer.h).
constexpr absl::string_view kMoveExtraIds[] = {"BL", "WL", "OB", "OW", "C"};

bool IsMoveExtraId(absl::string_view id) {
  if (id.size() == 2 && id[0] == 'Q' && IsValidId(id)) return true;
  for (absl::string_view m : kMoveExtraIds) {
    if (m == id) return true;
  }
  return false;
}

// True when p is a point of the width x height board.
bool OnBoard(Point p, int width, int height) {
  if (p < 0 || p >= kNumCells) return false;
  const int x = p % kStride - 1;
  const int y = p / kStride - 1;
  return x >= 0 && x < width && y >= 0 && y < height;
}

// Shortest text that reads back as exactly `komi`.
std::string KomiText(double komi) {
  char buffer[64];
  const std::to_chars_result r =
      std::to_chars(buffer, buffer + sizeof(buffer), komi);
  std::string text(buffer, r.ec == std::errc() ? r.ptr : buffer);
  bool integer = !text.empty();
  for (char c : text) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c)) && c != '-') {
      integer = false;
    }
  }
  if (integer && std::fabs(komi) >= 100) text += ".0";
  return text;
}

// Appends id[..][..] for the points of `points` on the board; nothing when
// there are none.
void AppendPoints(std::string* out, absl::string_view id,
                  const std::vector<Point>& points, int width, int height) {
  bool any = false;
  for (Point p : points) {
    if (!OnBoard(p, width, height)) continue;
    if (!any) out->append(id.data(), id.size());
    any = true;
    AppendValue(out, SgfPoint(p));
  }
}

// True when the step would write anything.
bool HasContent(const SetupStep& step, int width, int height) {
  if (step.to_play == Color::kBlack || step.to_play == Color::kWhite) {
    return true;
  }
  for (const std::vector<Point>* list :
       {&step.black, &step.white, &step.empty}) {
    for (Point p : *list) {
      if (OnBoard(p, width, height)) return true;
    }
  }
  return false;
}

void AppendSetup(std::string* out, const SetupStep& step, int width,
                 int height) {
  AppendPoints(out, "AB", step.black, width, height);
  AppendPoints(out, "AW", step.white, width, height);
  AppendPoints(out, "AE", step.empty, width, height);
  if (step.to_play == Color::kBlack) AppendProperty(out, "PL", "B");
  if (step.to_play == Color::kWhite) AppendProperty(out, "PL", "W");
}

}  // namespace

std::string WriteSgf(const GameRecord& r) {
  const int w = r.width;
  const int h = r.height;
  std::string out = "(;GM[1]FF[4]CA[UTF-8]";
  AppendProperty(&out, "SZ",
                 w == h ? absl::StrCat(w) : absl::StrCat(w, ":", h));
  if (r.handicap > 0) AppendProperty(&out, "HA", absl::StrCat(r.handicap));
  if (r.has_komi) AppendProperty(&out, "KM", KomiText(r.komi));
  const std::pair<absl::string_view, const std::string*> info[] = {
      {"RU", &r.rules},        {"RE", &r.result.text}, {"PB", &r.black_player},
      {"PW", &r.white_player}, {"BR", &r.black_rank},  {"WR", &r.white_rank},
      {"DT", &r.date},         {"EV", &r.event},       {"GN", &r.game_name},
      {"PC", &r.place},
  };
  for (const auto& [id, text] : info) {
    if (!text->empty()) AppendProperty(&out, id, *text);
  }
  std::vector<absl::string_view> extra_written;
  for (const auto& [id, text] : r.extra) {
    if (!IsValidId(id) || IsWrittenId(id)) continue;
    bool repeat = false;
    for (absl::string_view seen : extra_written) repeat |= seen == id;
    if (repeat) continue;
    extra_written.push_back(id);
    AppendProperty(&out, id, text);
  }
  // Setup steps with content, in order; the first goes into the root when
  // it precedes every move.
  std::vector<const SetupStep*> steps;
  for (const SetupStep& step : r.setup) {
    if (HasContent(step, w, h)) steps.push_back(&step);
  }
  size_t s = 0;
  if (!steps.empty() && steps[0]->before_move <= 0) {
    AppendSetup(&out, *steps[0], w, h);
    s = 1;
  }
  out += '\n';
  int on_line = 0;
  auto node = [&]() {
    if (on_line == kNodesPerLine) {
      out += '\n';
      on_line = 0;
    }
    ++on_line;
    out += ';';
  };
  // Next entry of r.move_extra (in move order).
  size_t x = 0;
  for (size_t i = 0; i <= r.moves.size(); ++i) {
    while (s < steps.size() && (i == r.moves.size() ||
                                steps[s]->before_move <= static_cast<int>(i))) {
      node();
      AppendSetup(&out, *steps[s], w, h);
      ++s;
    }
    if (i == r.moves.size()) break;
    const Move& m = r.moves[i];
    if (m.color != Color::kBlack && m.color != Color::kWhite) continue;
    if (m.point != kPass && !OnBoard(m.point, w, h)) continue;
    node();
    AppendProperty(&out, m.color == Color::kBlack ? "B" : "W",
                   SgfPoint(m.point));
    while (x < r.move_extra.size() &&
           r.move_extra[x].move <= static_cast<int>(i)) {
      const MoveProperty& mp = r.move_extra[x++];
      if (mp.move == static_cast<int>(i) && IsMoveExtraId(mp.name)) {
        AppendProperty(&out, mp.name, mp.value);
      }
    }
  }
  if (on_line > 0) out += '\n';
  out += ")\n";
  return out;
}

}  // namespace qipu::rules
