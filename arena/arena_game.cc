#include "arena/arena_game.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "rules/coord.h"

namespace qipu::arena {
namespace {

// Seconds as SGF's real numbers, to a tenth.
std::string SecondsText(double s) {
  return absl::StrCat(std::round(std::max(0.0, s) * 10) / 10);
}

// The comment on the pass that stands for a voided illegal move.
std::string VoidComment(const IllegalAttempt& a, const rules::Board& board) {
  std::string text =
      absl::StrCat(SideName(a.color), "'s ", VertexText(a.point, board),
                   " is illegal (", rules::IllegalReasonName(a.reason),
                   "): void, a pass (art. ", a.article, ")");
  if (a.warning) absl::StrAppend(&text, "; a warning: one stone (art. 24.1)");
  return text;
}

}  // namespace

const char* SideName(rules::Color c) {
  return c == rules::Color::kBlack ? "Black" : "White";
}

std::string VertexText(rules::Point p, const rules::Board& board) {
  if (p == rules::kPass || p == rules::kResign || board.OnBoard(p)) {
    return rules::GtpPoint(p, board.height());
  }
  return absl::StrCat("point ", p, " (off the board)");
}

const char* ArenaEndName(ArenaEnd e) {
  switch (e) {
    case ArenaEnd::kCount:
      return "count";
    case ArenaEnd::kResign:
      return "resign";
    case ArenaEnd::kTime:
      return "time";
    case ArenaEnd::kIllegalMove:
      return "illegal-move";
    case ArenaEnd::kSecondWarning:
      return "second-warning";
    case ArenaEnd::kEngineFailure:
      return "engine-failure";
    case ArenaEnd::kRules:
      return "rules";
  }
  return "?";
}

rules::GameRecord ArenaRecord(const ArenaGame& g, const RecordInfo& info) {
  rules::GameRecord r;
  r.width = g.game.width();
  r.height = g.game.height();
  r.handicap = g.game.handicap();
  if (!g.handicap_stones.empty()) {
    rules::SetupStep s;
    s.black = g.handicap_stones;
    r.setup.push_back(std::move(s));
  }
  r.moves = g.game.moves();
  r.komi = g.game.rules().komi;
  r.has_komi = true;
  r.rules = info.rules_name;
  r.result = rules::RecordResult::Of(g.result);
  r.black_player = info.black_name;
  r.white_player = info.white_name;
  r.event = info.event;
  r.game_name = info.game_name;
  r.date = info.date;
  if (g.time.system != gtp::TimeSystem::kNone) {
    r.extra.emplace_back("TM", absl::StrCat(g.time.main_s));
    const std::string ot = OvertimeText(g.time);
    if (!ot.empty()) r.extra.emplace_back("OT", ot);
  }
  std::string comment = absl::StrCat(ArenaEndName(g.end), ": ", g.detail);
  for (rules::Color c : {rules::Color::kBlack, rules::Color::kWhite}) {
    if (const int w = g.warnings_of(c); w > 0) {
      absl::StrAppend(&comment, "; ", SideName(c), " ", w,
                      w == 1 ? " warning" : " warnings");
    }
  }
  r.extra.emplace_back("GC", comment);
  if (!info.black_spec.empty()) r.extra.emplace_back("QB", info.black_spec);
  if (!info.white_spec.empty()) r.extra.emplace_back("QW", info.white_spec);

  // Per move: time left, and the comment of a voided move.
  size_t next_void = 0;
  for (size_t i = 0; i < r.moves.size(); ++i) {
    const int index = static_cast<int>(i);
    const bool black = r.moves[i].color == rules::Color::kBlack;
    if (i < g.move_times.size() && g.time.system != gtp::TimeSystem::kNone) {
      const TimeLeft& left = g.move_times[i].left;
      r.move_extra.push_back(
          {index, black ? "BL" : "WL", SecondsText(left.seconds)});
      if (left.stones > 0) {
        r.move_extra.push_back(
            {index, black ? "OB" : "OW", absl::StrCat(left.stones)});
      }
    }
    while (next_void < g.illegal_moves.size() &&
           (!g.illegal_moves[next_void].voided ||
            g.illegal_moves[next_void].move_number - 1 < index)) {
      ++next_void;
    }
    if (next_void < g.illegal_moves.size() &&
        g.illegal_moves[next_void].move_number - 1 == index) {
      r.move_extra.push_back(
          {index, "C",
           VoidComment(g.illegal_moves[next_void], g.game.board())});
    }
  }
  return r;
}

}  // namespace qipu::arena
