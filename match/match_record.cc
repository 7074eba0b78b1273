#include "match/match_record.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"

namespace qipu::match {
namespace {

// Seconds as SGF's real numbers, to a tenth.
std::string SecondsText(double s) {
  return absl::StrCat(std::round(std::max(0.0, s) * 10) / 10);
}

}  // namespace

std::string MatchComment(const MatchOutcome& m) {
  std::string comment = absl::StrCat(EndName(m.end), ": ", m.detail);
  for (rules::Color c : {rules::Color::kBlack, rules::Color::kWhite}) {
    if (const int w = m.warnings_of(c); w > 0) {
      absl::StrAppend(&comment, "; ", SideName(c), " ", w,
                      w == 1 ? " warning" : " warnings");
    }
  }
  return comment;
}

rules::GameRecord MatchRecord(const MatchOutcome& m, const RecordInfo& info) {
  rules::GameRecord r;
  r.width = m.game.width();
  r.height = m.game.height();
  r.handicap = m.game.handicap();
  if (!m.handicap_stones.empty()) {
    rules::SetupStep s;
    s.black = m.handicap_stones;
    r.setup.push_back(std::move(s));
  }
  r.moves = m.game.moves();
  r.komi = m.game.rules().komi;
  r.has_komi = true;
  r.rules = info.rules_name;
  r.result = rules::RecordResult::Of(m.result);
  r.black_player = info.black_name;
  r.white_player = info.white_name;
  r.event = info.event;
  r.game_name = info.game_name;
  r.date = info.date;
  if (m.time.system != gtp::TimeSystem::kNone) {
    r.extra.emplace_back("TM", absl::StrCat(m.time.main_s));
    const std::string ot = gtp::OvertimeText(m.time);
    if (!ot.empty()) r.extra.emplace_back("OT", ot);
  }
  r.extra.emplace_back("GC", MatchComment(m));
  if (!info.black_spec.empty()) r.extra.emplace_back("QB", info.black_spec);
  if (!info.white_spec.empty()) r.extra.emplace_back("QW", info.white_spec);

  // Per move: time left, and the match's comments.
  size_t next_comment = 0;
  for (size_t i = 0; i < r.moves.size(); ++i) {
    const int index = static_cast<int>(i);
    const bool black = r.moves[i].color == rules::Color::kBlack;
    if (i < m.move_times.size() && m.time.system != gtp::TimeSystem::kNone) {
      const gtp::TimeLeft& left = m.move_times[i].left;
      r.move_extra.push_back(
          {index, black ? "BL" : "WL", SecondsText(left.seconds)});
      if (left.stones > 0) {
        r.move_extra.push_back(
            {index, black ? "OB" : "OW", absl::StrCat(left.stones)});
      }
    }
    std::string text;
    while (next_comment < m.comments.size() &&
           m.comments[next_comment].move <= index) {
      if (m.comments[next_comment].move == index) {
        absl::StrAppend(&text, text.empty() ? "" : "; ",
                        m.comments[next_comment].text);
      }
      ++next_comment;
    }
    if (!text.empty()) r.move_extra.push_back({index, "C", std::move(text)});
  }
  return r;
}

}  // namespace qipu::match
