// The registration part of tournament.h: AddPlayer(), FindPlayer(), the
// withdrawals of players and teams (art. 28) and warnings (art. 24).
#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/quote.h"
#include "base/status_macros.h"
#include "tournament/event_state.h"
#include "tournament/field.h"
#include "tournament/tournament.h"

namespace qipu::tournament {

absl::StatusOr<int> AddPlayer(v1::Tournament* t, const PlayerEntry& entry) {
  QIPU_RETURN_IF_ERROR(CheckCreated(*t));
  if (t->started()) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot add ", base::QuoteInput(entry.name),
                     ": round 1 is already paired"));
  }
  if (entry.name.empty() ||
      static_cast<int>(entry.name.size()) > kMaxNameBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("player name must be 1 to ", kMaxNameBytes, " bytes"));
  }
  for (const char c : entry.name) {
    if (static_cast<unsigned char>(c) < 0x20) {
      return absl::InvalidArgumentError("player name has a control character");
    }
  }
  for (const v1::TournamentPlayer& p : t->players()) {
    if (p.name() == entry.name) {
      return absl::InvalidArgumentError(
          absl::StrCat("a player called '", entry.name, "' is registered"));
    }
  }
  if (entry.rating < -1000 || entry.rating > 4000) {
    return absl::InvalidArgumentError(absl::StrCat("rating ", entry.rating,
                                                   " of '", entry.name,
                                                   "' is not in -1000..4000"));
  }
  if (!entry.rank.empty()) {
    auto strength = RankStrength(entry.rank);
    if (!strength.ok()) return strength.status();
  }
  if (entry.board < 0 || entry.board > 1000) {
    return absl::InvalidArgumentError(
        absl::StrCat("board ", entry.board, " is not in 0..1000"));
  }
  const bool needs_team =
      t->teams_event() || t->system() == v1::TOURNAMENT_SYSTEM_TEAM_CHALLENGE;
  if (needs_team && entry.team.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        base::QuoteInput(entry.name), " needs a team in a team event"));
  }
  v1::Tournament next = *t;
  int board = entry.board;
  if (!entry.team.empty()) {
    if (TeamIndex(next, entry.team) < 0) {
      if (next.system() == v1::TOURNAMENT_SYSTEM_TEAM_CHALLENGE &&
          next.teams_size() >= 2) {
        return absl::InvalidArgumentError(
            absl::StrCat("a team challenge has 2 teams; ",
                         base::QuoteInput(entry.team), " would be a third"));
      }
      next.add_teams()->set_name(entry.team);
    }
    if (board == 0) {
      for (const v1::TournamentPlayer& p : next.players()) {
        if (p.team() == entry.team) {
          board = std::max(board, static_cast<int>(p.board()));
        }
      }
      ++board;
    }
  }
  v1::TournamentPlayer* p = next.add_players();
  p->set_name(entry.name);
  p->set_rating(entry.rating);
  p->set_rank(entry.rank);
  p->set_club(entry.club);
  p->set_team(entry.team);
  p->set_board(board);
  *t = std::move(next);
  return t->players_size() - 1;
}

absl::StatusOr<int> FindPlayer(const v1::Tournament& t,
                               absl::string_view name) {
  for (int i = 0; i < t.players_size(); ++i) {
    if (t.players(i).name() == name) return i;
  }
  return absl::NotFoundError(
      absl::StrCat("no player called ", base::QuoteInput(name)));
}

namespace {

// Withdraws entrant `e` (a player, or a team in a team event).
absl::Status WithdrawEntrant(v1::Tournament* t, int e, bool team) {
  v1::Tournament next = *t;
  const auto name = team ? next.teams(e).name() : next.players(e).name();
  const bool already = team ? (next.teams(e).removed() ||
                               next.teams(e).withdrawn_at_round() != 0)
                            : (next.players(e).removed() ||
                               next.players(e).withdrawn_at_round() != 0);
  if (already) {
    return absl::FailedPreconditionError(
        absl::StrCat(base::QuoteInput(name), " has already withdrawn"));
  }
  if (!next.started()) {
    // Art. 28.1: the draw is made again without the entrant.
    if (team) {
      next.mutable_teams(e)->set_removed(true);
      for (v1::TournamentPlayer& p : *next.mutable_players()) {
        if (p.team() == name) p.set_removed(true);
      }
    } else {
      next.mutable_players(e)->set_removed(true);
    }
    *t = std::move(next);
    return absl::OkStatus();
  }
  const int from_round = next.round_size() + 1;
  const bool entrant_level = team || !next.teams_event();
  if (team) {
    next.mutable_teams(e)->set_withdrawn_at_round(from_round);
  } else {
    next.mutable_players(e)->set_withdrawn_at_round(from_round);
  }
  // A game still without a result is forfeited.
  if (next.round_size() > 0) {
    v1::Round* last = next.mutable_round(next.round_size() - 1);
    for (v1::Pairing& p : *last->mutable_pairings()) {
      if (entrant_level && p.result() == v1::GAME_RESULT_UNKNOWN &&
          !next.teams_event() && (p.black() == e || p.white() == e)) {
        p.set_result(p.black() == e ? v1::GAME_RESULT_WHITE_FORFEIT_WIN
                                    : v1::GAME_RESULT_BLACK_FORFEIT_WIN);
        p.set_by_withdrawal(true);
      }
      if (next.teams_event()) {
        const bool team_side = team && (p.black() == e || p.white() == e);
        for (v1::BoardGame& b : *p.mutable_boards()) {
          if (b.result() != v1::GAME_RESULT_UNKNOWN) continue;
          int gone = -1;  // 0 black side gone, 1 white side gone
          if (team_side) {
            const bool team_is_black_side =
                (p.black() == e) == (b.board() % 2 == 1);
            gone = team_is_black_side ? 0 : 1;
          } else if (!team) {
            if (b.black() == e) gone = 0;
            if (b.white() == e) gone = 1;
          }
          if (gone == 0) b.set_result(v1::GAME_RESULT_WHITE_FORFEIT_WIN);
          if (gone == 1) b.set_result(v1::GAME_RESULT_BLACK_FORFEIT_WIN);
        }
        p.set_result(TeamMatchResult(p));
      }
    }
  }
  // Art. 28.2: a round robin entrant under half the rounds played.
  if (IsRoundRobin(next.system()) && !next.teams_event() && !team) {
    const Field field = BuildField(next);
    int played = 0;
    for (const Meeting& m : field.entrants[e].meetings) {
      const bool forfeit = m.outcome == Outcome::kForfeitLoss ||
                           m.outcome == Outcome::kForfeitWin;
      if (Counts(m.outcome) && !forfeit) ++played;
    }
    if (2 * played < static_cast<int>(next.rounds())) {
      next.mutable_players(e)->set_results_void(true);
    }
  }
  *t = std::move(next);
  return absl::OkStatus();
}

}  // namespace

absl::Status WithdrawPlayer(v1::Tournament* t, absl::string_view name) {
  QIPU_RETURN_IF_ERROR(CheckCreated(*t));
  QIPU_ASSIGN_OR_RETURN(const int player, FindPlayer(*t, name));
  return WithdrawEntrant(t, player, false);
}

absl::Status WithdrawTeam(v1::Tournament* t, absl::string_view name) {
  QIPU_RETURN_IF_ERROR(CheckCreated(*t));
  const int team = TeamIndex(*t, name);
  if (team < 0) {
    return absl::NotFoundError(
        absl::StrCat("no team called ", base::QuoteInput(name)));
  }
  if (!t->teams_event()) {
    return absl::FailedPreconditionError(
        "teams withdraw as entrants only in team events");
  }
  return WithdrawEntrant(t, team, true);
}

absl::Status AddWarnings(v1::Tournament* t, absl::string_view name, int count) {
  QIPU_RETURN_IF_ERROR(CheckCreated(*t, /*validate=*/false));
  QIPU_ASSIGN_OR_RETURN(const int player, FindPlayer(*t, name));
  if (count < 1 || count > 100) {
    return absl::InvalidArgumentError(
        absl::StrCat("warnings ", count, " is not in 1..100"));
  }
  v1::TournamentPlayer* p = t->mutable_players(player);
  p->set_warnings(p->warnings() + count);
  return absl::OkStatus();
}

}  // namespace qipu::tournament
