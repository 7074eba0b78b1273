#include "rules/player_name.h"

#include <array>
#include <cstdint>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace qipu::rules {
namespace {

// Decodes one UTF-8 code point at text[*i] and advances *i; an invalid
// byte comes back as itself (0x80..0xFF) with *invalid set.
uint32_t NextCodePoint(absl::string_view text, size_t* i, bool* invalid) {
  const auto b = [&](size_t k) { return static_cast<uint8_t>(text[k]); };
  const uint8_t c = b(*i);
  *invalid = false;
  int len = 0;
  uint32_t cp = 0;
  if (c < 0x80) {
    ++*i;
    return c;
  } else if ((c & 0xE0) == 0xC0) {
    len = 2;
    cp = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    len = 3;
    cp = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    len = 4;
    cp = c & 0x07;
  }
  if (len == 0 || *i + len > text.size()) {
    *invalid = true;
    ++*i;
    return c;
  }
  for (int k = 1; k < len; ++k) {
    if ((b(*i + k) & 0xC0) != 0x80) {
      *invalid = true;
      ++*i;
      return c;
    }
    cp = (cp << 6) | (b(*i + k) & 0x3F);
  }
  *i += len;
  return cp;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// One folded character: its UTF-8 bytes and whether it is ASCII.
struct Folded {
  std::string bytes;
  bool ascii = true;
  bool space = false;
};

// `text` folded character by character: full-width forms to ASCII, ASCII
// lower case, every kind of space (and '_', control characters) one space.
std::vector<Folded> FoldChars(absl::string_view text) {
  std::vector<Folded> out;
  size_t i = 0;
  while (i < text.size()) {
    bool invalid = false;
    uint32_t cp = NextCodePoint(text, &i, &invalid);
    Folded f;
    if (invalid) {
      f.bytes = "\xEF\xBF\xBD";  // U+FFFD: keys are valid UTF-8
      f.ascii = false;
      out.push_back(std::move(f));
      continue;
    }
    if (cp >= 0xFF01 && cp <= 0xFF5E) cp -= 0xFEE0;
    if (cp == 0x3000 || cp == 0x00A0 || cp < 0x20 || cp == '_' || cp == 0x7F) {
      cp = ' ';
    }
    if (cp >= 'A' && cp <= 'Z') cp += 'a' - 'A';
    f.space = cp == ' ';
    f.ascii = cp < 0x80;
    AppendUtf8(cp, &f.bytes);
    out.push_back(std::move(f));
  }
  return out;
}

// Folded text with spaces collapsed to one and trimmed, spaces kept
// (tokens are what ParsePlayerName splits ranks and titles off).
std::string FoldKeepSpaces(absl::string_view text) {
  std::string out;
  bool pending_space = false;
  for (const Folded& f : FoldChars(text)) {
    if (f.space) {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out.push_back(' ');
    pending_space = false;
    out += f.bytes;
  }
  return out;
}

// Value of a Chinese numeral 1..39 ("九", "十五", "二十"), 0 if not one.
int ChineseNumber(absl::string_view s) {
  static constexpr std::array<absl::string_view, 10> kDigits = {
      "〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"};
  auto digit = [&](absl::string_view* t) -> int {
    for (int d = 1; d <= 9; ++d) {
      if (absl::ConsumePrefix(t, kDigits[d])) return d;
    }
    return 0;
  };
  absl::string_view t = s;
  int tens = 0;
  int ones = 0;
  const int first = digit(&t);
  if (absl::ConsumePrefix(&t, "十")) {
    tens = first == 0 ? 1 : first;
    ones = digit(&t);
  } else {
    ones = first;
  }
  if (!t.empty()) return 0;
  return tens * 10 + ones;
}

// Leading ASCII digits of *t as a number (consumed), or 0.
int AsciiNumber(absl::string_view* t) {
  int n = 0;
  size_t k = 0;
  while (k < t->size() && k < 3 && absl::ascii_isdigit((*t)[k])) {
    n = n * 10 + ((*t)[k] - '0');
    ++k;
  }
  if (k == 0 || (k < t->size() && absl::ascii_isdigit((*t)[k]))) return 0;
  t->remove_prefix(k);
  return n;
}

std::string RankText(int n, char kind) {
  const int most = kind == 'k' ? 30 : 9;
  if (n < 1 || n > most) return "";
  return std::to_string(n) + kind;
}

// Words that end a name as titles (folded).
constexpr std::array<absl::string_view, 20> kTitles = {
    "meijin", "honinbo", "kisei", "judan", "tengen",   "oza",  "gosei",
    "名人",   "本因坊",  "棋聖",  "棋圣",  "十段",     "天元", "王座",
    "碁聖",   "棋王",    "国手",  "國手",  "champion", "kuksu"};

bool IsTitle(absl::string_view word) {
  for (absl::string_view t : kTitles) {
    if (word == t) return true;
  }
  return false;
}

// The rank a folded CJK suffix of `token` names ("柯洁九段" -> "9p", with
// *rest "柯洁"), or "".
std::string SplitGluedRank(absl::string_view token, absl::string_view* rest) {
  static constexpr std::array<absl::string_view, 6> kSuffixes = {
      "段", "단", "级", "級", "급", "级"};
  for (absl::string_view suffix : kSuffixes) {
    if (!absl::EndsWith(token, suffix)) continue;
    // Try the longest numeral first: up to 3 CJK numerals or 2 digits.
    for (size_t start = 0; start < token.size() - suffix.size(); ++start) {
      const absl::string_view tail = token.substr(start);
      const std::string rank = CanonicalRank(tail);
      if (rank.empty()) continue;
      if (start == 0) return "";  // the whole token: not glued
      *rest = token.substr(0, start);
      return rank;
    }
  }
  return "";
}

}  // namespace

std::string FoldText(absl::string_view text) {
  const std::vector<Folded> chars = FoldChars(text);
  std::string out;
  bool pending_space = false;
  bool last_ascii = true;
  for (const Folded& f : chars) {
    if (f.space) {
      pending_space = !out.empty();
      continue;
    }
    // A space between two characters one of which is not ASCII goes.
    if (pending_space && last_ascii && f.ascii) out.push_back(' ');
    pending_space = false;
    out += f.bytes;
    last_ascii = f.ascii;
  }
  return out;
}

std::string CanonicalRank(absl::string_view text) {
  std::string folded = FoldKeepSpaces(text);
  absl::string_view t = folded;
  // Brackets around the rank: "(9p)", "[5d]", "【9段】".
  while (!t.empty() && (t.front() == '(' || t.front() == '['))
    t.remove_prefix(1);
  while (!t.empty() && (t.back() == ')' || t.back() == ']')) t.remove_suffix(1);
  if (absl::ConsumePrefix(&t, "【")) absl::ConsumeSuffix(&t, "】");
  std::string compact;
  for (char c : t) {
    if (c != ' ' && c != '-' && c != '.') compact.push_back(c);
  }
  t = compact;
  // Amateur prefixes before a CJK dan rank.
  bool amateur = false;
  for (absl::string_view a : {"业余", "業餘", "アマ", "아마", "ama"}) {
    if (absl::ConsumePrefix(&t, a)) amateur = true;
  }
  if (t.empty()) return "";
  // "p9", "P9段" (Fox's professional ranks).
  if (t.size() >= 2 && t.front() == 'p' && absl::ascii_isdigit(t[1])) {
    absl::string_view n = t.substr(1);
    const int v = AsciiNumber(&n);
    return n.empty() || n == "段" || n == "단" ? RankText(v, 'p') : "";
  }
  int n = 0;
  absl::string_view rest = t;
  if (absl::ascii_isdigit(t.front())) {
    n = AsciiNumber(&rest);
  } else {
    // A Chinese numeral followed by its suffix.
    for (absl::string_view suffix : {"段", "级", "級", "단", "급"}) {
      if (absl::EndsWith(t, suffix)) {
        n = ChineseNumber(t.substr(0, t.size() - suffix.size()));
        rest = t.substr(t.size() - suffix.size());
        break;
      }
    }
  }
  if (n == 0) return "";
  if (rest == "p" || rest == "pro") return RankText(n, 'p');
  if (rest == "d" || rest == "dan" || rest == "a") return RankText(n, 'd');
  if (rest == "k" || rest == "kyu" || rest == "級" || rest == "级" ||
      rest == "급") {
    return RankText(n, 'k');
  }
  if (rest == "段" || rest == "단") return RankText(n, amateur ? 'd' : 'p');
  return "";
}

int RankOrder(absl::string_view rank) {
  if (rank.size() < 2) return 0;
  absl::string_view t = rank;
  const int n = AsciiNumber(&t);
  if (t == "k" && n >= 1 && n <= 30) return 31 - n;
  if (t == "d" && n >= 1 && n <= 9) return 30 + n;
  if (t == "p" && n >= 1 && n <= 9) return 39 + n;
  return 0;
}

PlayerName ParsePlayerName(absl::string_view written,
                           absl::string_view rank_field) {
  PlayerName out;
  out.written = std::string(absl::StripAsciiWhitespace(written));
  const std::string spaced = FoldKeepSpaces(out.written);
  std::vector<std::string> tokens =
      absl::StrSplit(spaced, ' ', absl::SkipEmpty());
  std::string rank;
  std::vector<std::string> titles;
  // Trailing ranks and titles, while something is left of the name.
  while (tokens.size() > 1) {
    const std::string& last = tokens.back();
    if (std::string r = CanonicalRank(last); !r.empty()) {
      if (rank.empty()) rank = r;
      tokens.pop_back();
      continue;
    }
    // "9 dan", "3 kyu": a number token before a unit.
    if (tokens.size() > 2 &&
        (last == "dan" || last == "kyu" || last == "pro")) {
      if (std::string r = CanonicalRank(tokens[tokens.size() - 2] + last);
          !r.empty()) {
        if (rank.empty()) rank = r;
        tokens.resize(tokens.size() - 2);
        continue;
      }
    }
    if (IsTitle(last)) {
      titles.insert(titles.begin(), last);
      tokens.pop_back();
      continue;
    }
    break;
  }
  // A rank glued to a CJK name: "柯洁九段".
  if (!tokens.empty()) {
    absl::string_view rest;
    if (std::string r = SplitGluedRank(tokens.back(), &rest); !r.empty()) {
      if (rank.empty()) rank = r;
      tokens.back() = std::string(rest);
    }
  }
  out.key = FoldText(absl::StrJoin(tokens, " "));
  out.title = absl::StrJoin(titles, " ");
  if (std::string r = CanonicalRank(rank_field); !r.empty()) {
    out.rank = r;
  } else {
    out.rank = rank;
  }
  return out;
}

}  // namespace qipu::rules
