// Player names as records write them, normalised for search (issue 32).
//
// A record's PB/PW is free text: "Ke Jie 9p", "柯洁 九段", "ＫＥ　ＪＩＥ",
// "Lee Sedol (9d)", "Iyama Yuta Meijin". ParsePlayerName() keeps the name as
// written and derives:
//   - key: the name folded for comparison -- full-width ASCII forms
//     (U+FF01..U+FF5E) and the ideographic space (U+3000) to ASCII, ASCII
//     letters to lower case, runs of spaces, tabs and underscores to one
//     space, spaces next to a non-ASCII character dropped (so "柯 洁" and
//     "柯洁" are one key), leading and trailing spaces trimmed;
//   - rank: a trailing rank split off the name ("9p", "9d", "5k", "9段",
//     "九段", "5级"/"5級", "9단", "9 dan", "3 kyu", "p9", in brackets or not)
//     in the canonical form "9p" / "5d" / "3k", or the record's BR/WR when
//     it gives one;
//   - title: trailing title words (Meijin, Honinbo, 名人, 棋聖, ...) split
//     off, in the order written.
// Events are folded with FoldText() alone (no rank or title split).
//
// Abseil only; pure functions, thread-safe.
#ifndef QIPU_RULES_PLAYER_NAME_H_
#define QIPU_RULES_PLAYER_NAME_H_

#include <string>

#include "absl/strings/string_view.h"

namespace qipu::rules {

// One side's name in a record, parsed.
struct PlayerName {
  // The name as written (trimmed), e.g. "Ke Jie 9p".
  std::string written;
  // The folded name without rank and titles, e.g. "ke jie"; empty when the
  // record names no one.
  std::string key;
  // Canonical rank ("9p", "5d", "3k"), "" when unknown.
  std::string rank;
  // Titles split off the end of the name, space separated, as written.
  std::string title;
};

// The text folded for comparison (see the file comment): full-width forms
// to ASCII, ASCII lower case, spaces collapsed, spaces next to non-ASCII
// characters dropped, trimmed. Each invalid UTF-8 byte becomes U+FFFD;
// control characters (below U+0020) become spaces.
std::string FoldText(absl::string_view text);

// Parses `written` (PB or PW) and `rank_field` (BR or WR, may be empty).
// A rank in the record's rank field wins over one split off the name.
// A name that is nothing but a rank keeps it as its key.
PlayerName ParsePlayerName(absl::string_view written,
                           absl::string_view rank_field);

// The canonical form of a rank ("9p", "5d", "3k") or "" when `text` is not
// one: "9p", "9P", "p9", "9 pro", "9d", "9 dan", "9段", "九段", "9단",
// "5k", "5 kyu", "5级", "5級", "5급", full-width digits, in brackets.
// Professional ranks are 1..9, dan 1..9, kyu 1..30.
std::string CanonicalRank(absl::string_view text);

// The order of a canonical rank: 30k = 1 .. 1k = 30, 1d = 31 .. 9d = 39,
// 1p = 40 .. 9p = 48; 0 when `rank` is not canonical (or empty).
int RankOrder(absl::string_view rank);

}  // namespace qipu::rules

#endif  // QIPU_RULES_PLAYER_NAME_H_
