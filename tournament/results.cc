// The results part of tournament.h: SetResult() (of a game, or of one
// board of a team match, whose match result follows from its boards) and
// AddGameId().
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "tournament/event_state.h"
#include "tournament/field.h"
#include "tournament/tournament.h"

namespace qipu::tournament {

absl::Status SetResult(v1::Tournament* t, int round, int table,
                       v1::GameResult result, int board) {
  QIPU_RETURN_IF_ERROR(CheckCreated(*t, /*validate=*/false));
  const std::string where =
      absl::StrCat("round ", round, " table ", table,
                   board > 0 ? absl::StrCat(" board ", board) : std::string());
  if (round < 1 || round > t->round_size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": no such round (", t->round_size(), " paired)"));
  }
  v1::Round* r = t->mutable_round(round - 1);
  if (table < 1 || table > r->pairings_size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": no such table (round ", round, " has ",
                     r->pairings_size(), ")"));
  }
  if (!v1::GameResult_IsValid(result)) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, ": result ", static_cast<int>(result), " is not a result"));
  }
  if (ResultsFixPairings(t->system()) && round < t->round_size()) {
    return absl::FailedPreconditionError(
        absl::StrCat(where, ": round ", round + 1,
                     " is paired from this result; it can no longer change"));
  }
  v1::Pairing* p = r->mutable_pairings(table - 1);
  if (t->teams_event()) {
    if (board < 1 || board > p->boards_size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": a team match has boards 1..", p->boards_size()));
    }
    p->mutable_boards(board - 1)->set_result(result);
    p->set_result(TeamMatchResult(*p));
  } else {
    if (board != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": boards are for team events"));
    }
    p->set_result(result);
  }
  p->set_by_withdrawal(false);
  return absl::OkStatus();
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
