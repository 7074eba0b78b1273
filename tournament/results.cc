// The results part of tournament.h: EnterResult() and SetResult() (of a
// game, or of one board of a team match, whose match result follows from
// its boards) -- with the protection of forfeits and of results later
// rounds were paired from, the history of every change, and the standings
// a forced change moves -- and AddGameId().
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "tournament/event_state.h"
#include "tournament/field.h"
#include "tournament/outcome.h"
#include "tournament/standings.h"
#include "tournament/tournament.h"

namespace qipu::tournament {
namespace {

// At most this many standings lines in a note (then "and N more").
constexpr int kMaxChangeLines = 12;

bool IsForfeit(v1::GameResult r) {
  return r == v1::GAME_RESULT_BLACK_FORFEIT_WIN ||
         r == v1::GAME_RESULT_WHITE_FORFEIT_WIN;
}

// "'p3' rank 2 -> 5, points 4 -> 2, SOS 10 -> 8" for every entrant whose
// standing differs between `before` and `after`; "no standings change"
// when none does, or why they cannot be compared.
std::string StandingsChanges(const v1::Tournament& before,
                             const v1::Tournament& after) {
  auto a = ComputeStandings(before);
  auto b = ComputeStandings(after);
  if (!a.ok() || !b.ok()) {
    return absl::StrCat("standings not comparable: ",
                        (a.ok() ? b.status() : a.status()).message());
  }
  std::map<int, StandingRow> old_rows;
  for (const StandingRow& r : a->rows) old_rows[r.entrant] = r;
  std::vector<std::string> lines;
  const bool sodos = IsRoundRobin(before.system());
  for (const StandingRow& now : b->rows) {
    auto it = old_rows.find(now.entrant);
    if (it == old_rows.end()) continue;
    const StandingRow& was = it->second;
    std::vector<std::string> parts;
    if (was.rank != now.rank) {
      parts.push_back(absl::StrCat("rank ", was.rank, " -> ", now.rank));
    }
    if (was.points != now.points) {
      parts.push_back(absl::StrCat("points ", was.points, " -> ", now.points));
    }
    if (before.teams_event() && was.board_points != now.board_points) {
      parts.push_back(absl::StrCat("board points ", was.board_points, " -> ",
                                   now.board_points));
    }
    if (!sodos && was.sos != now.sos) {
      parts.push_back(absl::StrCat("SOS ", was.sos, " -> ", now.sos));
    }
    if (sodos && was.sodos != now.sodos) {
      parts.push_back(absl::StrCat("SODOS ", was.sodos, " -> ", now.sodos));
    }
    if (parts.empty()) continue;
    lines.push_back(
        absl::StrCat("'", now.name, "' ", absl::StrJoin(parts, ", ")));
  }
  if (lines.empty()) return "no standings change";
  const int more = static_cast<int>(lines.size()) - kMaxChangeLines;
  if (more > 0) {
    lines.resize(kMaxChangeLines);
    lines.push_back(absl::StrCat("and ", more, " more"));
  }
  return absl::StrCat("standings: ", absl::StrJoin(lines, "; "));
}

// The name of a withdrawn player whose forfeit loss `result` turns into a
// win (old: the stored result); "" when it does not.
std::string WithdrawnWinner(const v1::Tournament& t, const v1::Pairing& p,
                            v1::GameResult old, v1::GameResult result,
                            int board) {
  int black = p.black();
  int white = p.white();
  if (board > 0) {
    black = p.boards(board - 1).black();
    white = p.boards(board - 1).white();
  }
  // Games and boards are between players (team events enter boards).
  const auto withdrawn = [&](int player) {
    return player >= 0 && player < t.players_size() &&
           t.players(player).withdrawn_at_round() != 0;
  };
  for (const bool is_black : {true, false}) {
    const int player = is_black ? black : white;
    if (withdrawn(player) &&
        OutcomeFor(old, is_black) == Outcome::kForfeitLoss &&
        IsWin(OutcomeFor(result, is_black))) {
      return t.players(player).name();
    }
  }
  return "";
}

}  // namespace

absl::StatusOr<std::vector<std::string>> EnterResult(
    v1::Tournament* t, int round, int table, int board, v1::GameResult result,
    const ResultOptions& options) {
  QIPU_RETURN_IF_ERROR(CheckCreated(*t, /*validate=*/false));
  const std::string where =
      absl::StrCat("round ", round, " table ", table,
                   board > 0 ? absl::StrCat(" board ", board) : std::string());
  if (round < 1 || round > t->round_size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": no such round (", t->round_size(), " paired)"));
  }
  const v1::Round& r = t->round(round - 1);
  if (table < 1 || table > r.pairings_size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": no such table (round ", round, " has ",
                     r.pairings_size(), ")"));
  }
  if (!v1::GameResult_IsValid(result)) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, ": result ", static_cast<int>(result), " is not a result"));
  }
  const v1::Pairing& p = r.pairings(table - 1);
  if (t->teams_event()) {
    if (board < 1 || board > p.boards_size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": a team match has boards 1..", p.boards_size()));
    }
  } else if (board != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": boards are for team events"));
  }
  const v1::GameResult old =
      board > 0 ? p.boards(board - 1).result() : p.result();
  if (old == result) return std::vector<std::string>();
  if (ResultsFixPairings(t->system()) && round < t->round_size()) {
    return absl::FailedPreconditionError(absl::StrCat(
        where, ": round ", round + 1,
        " is paired from this result; it can no longer change (undo the "
        "pairing of round ",
        t->round_size(), " first while it has no result: pairing undo)"));
  }
  // Why the change needs force.
  std::vector<std::string> reasons;
  if (IsForfeit(old) || p.by_withdrawal()) {
    reasons.push_back(absl::StrCat(
        "it is a forfeit", p.by_withdrawal() ? " entered by a withdrawal" : "",
        " (", GameResultText(old), ")"));
  }
  if (!IsRoundRobin(t->system()) && round < t->round_size() &&
      old != v1::GAME_RESULT_UNKNOWN) {
    reasons.push_back(absl::StrCat(
        round + 1 == t->round_size()
            ? absl::StrCat("round ", round + 1, " was")
            : absl::StrCat("rounds ", round + 1, "-", t->round_size(), " were"),
        " paired from it"));
  }
  const std::string winner = WithdrawnWinner(*t, p, old, result, board);
  if (!winner.empty()) {
    reasons.push_back(
        absl::StrCat("it gives '", winner, "', who has withdrawn, a win"));
  }
  // The change, on `target` (the tournament, or a copy to compare).
  const auto apply = [&](v1::Tournament* target) {
    v1::Pairing* edit =
        target->mutable_round(round - 1)->mutable_pairings(table - 1);
    if (board > 0) {
      edit->mutable_boards(board - 1)->set_result(result);
      edit->set_result(TeamMatchResult(*edit));
    } else {
      edit->set_result(result);
    }
    edit->set_by_withdrawal(false);
  };
  const std::string change = absl::StrCat(where, ": ", GameResultText(old),
                                          " -> ", GameResultText(result));
  std::vector<std::string> notes;
  std::string detail;  // for the history: why forced, what it moved
  if (!reasons.empty()) {
    v1::Tournament after = *t;
    apply(&after);
    const std::string moved = StandingsChanges(*t, after);
    if (!options.force) {
      return absl::FailedPreconditionError(
          absl::StrCat(change, " needs --force: ", absl::StrJoin(reasons, "; "),
                       ". If forced, ", moved));
    }
    notes.push_back(
        absl::StrCat(change, " (forced: ", absl::StrJoin(reasons, "; "), ")"));
    notes.push_back(moved);
    detail =
        absl::StrCat("forced: ", absl::StrJoin(reasons, "; "), "; ", moved);
  }
  // Changed in place: references into the rounds stay valid.
  apply(t);
  v1::TournamentChange* c = AppendChange(t, options.actor, "result");
  c->set_round(round);
  c->set_table(table);
  c->set_board(board);
  c->set_old_result(old);
  c->set_new_result(result);
  c->set_forced(!reasons.empty());
  c->set_detail(detail);
  return notes;
}

absl::Status SetResult(v1::Tournament* t, int round, int table,
                       v1::GameResult result, int board) {
  return EnterResult(t, round, table, board, result, ResultOptions()).status();
}

absl::Status AddGameId(v1::Tournament* t, int round, int table, int board,
                       absl::string_view game_id) {
  QIPU_RETURN_IF_ERROR(CheckCreated(*t, /*validate=*/false));
  if (round < 1 || round > t->round_size() || table < 1 ||
      table > t->round(round - 1).pairings_size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("round ", round, " table ", table, ": no such table"));
  }
  v1::Pairing* p = t->mutable_round(round - 1)->mutable_pairings(table - 1);
  if (board == 0) {
    p->add_game_ids(std::string(game_id));
    return absl::OkStatus();
  }
  if (board < 0 || board > p->boards_size()) {
    return absl::InvalidArgumentError(absl::StrCat("round ", round, " table ",
                                                   table, " board ", board,
                                                   ": no such board"));
  }
  p->mutable_boards(board - 1)->add_game_ids(std::string(game_id));
  return absl::OkStatus();
}

}  // namespace qipu::tournament
