#include "tournament/event_state.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tournament/field.h"
#include "tournament/tournament.h"

namespace qipu::tournament {

bool IsRoundRobin(v1::TournamentSystem s) {
  return s == v1::TOURNAMENT_SYSTEM_ROUND_ROBIN ||
         s == v1::TOURNAMENT_SYSTEM_DOUBLE_ROUND_ROBIN;
}

bool IsElimination(v1::TournamentSystem s) {
  return s == v1::TOURNAMENT_SYSTEM_KNOCKOUT ||
         s == v1::TOURNAMENT_SYSTEM_DOUBLE_KNOCKOUT;
}

bool IsSwissFamily(v1::TournamentSystem s) {
  return s == v1::TOURNAMENT_SYSTEM_SWISS ||
         s == v1::TOURNAMENT_SYSTEM_SWISS_KNOCKOUT ||
         s == v1::TOURNAMENT_SYSTEM_SWISS_ELIMINATION;
}

bool IsSwissRound(const v1::Tournament& t, int round) {
  if (t.system() == v1::TOURNAMENT_SYSTEM_SWISS_KNOCKOUT) {
    return round <= static_cast<int>(t.rounds());
  }
  return IsSwissFamily(t.system());
}

bool ResultsFixPairings(v1::TournamentSystem s) {
  return IsElimination(s) || s == v1::TOURNAMENT_SYSTEM_SWISS_KNOCKOUT ||
         s == v1::TOURNAMENT_SYSTEM_SWISS_ELIMINATION ||
         s == v1::TOURNAMENT_SYSTEM_BEST_OF ||
         s == v1::TOURNAMENT_SYSTEM_TEAM_CHALLENGE;
}

absl::Status CheckCreated(const v1::Tournament& t, bool validate) {
  if (!t.created()) {
    return absl::FailedPreconditionError(
        "not a tournament: the message was not made by CreateTournament");
  }
  return validate ? ValidateTournament(t) : absl::OkStatus();
}

int TeamIndex(const v1::Tournament& t, absl::string_view name) {
  for (int i = 0; i < t.teams_size(); ++i) {
    if (t.teams(i).name() == name) return i;
  }
  return -1;
}

std::string EntrantNameOf(const v1::Tournament& t, int e) {
  if (t.teams_event()) {
    return e >= 0 && e < t.teams_size() ? t.teams(e).name() : "";
  }
  return e >= 0 && e < t.players_size() ? t.players(e).name() : "";
}

std::vector<std::string> IncompleteRounds(const v1::Tournament& t) {
  std::vector<std::string> out;
  for (const v1::Round& round : t.round()) {
    std::vector<std::string> missing;
    for (const v1::Pairing& p : round.pairings()) {
      if (t.teams_event()) {
        for (const v1::BoardGame& b : p.boards()) {
          if (b.result() == v1::GAME_RESULT_UNKNOWN) {
            missing.push_back(
                absl::StrCat("table ", p.table(), " board ", b.board()));
          }
        }
      } else if (p.result() == v1::GAME_RESULT_UNKNOWN) {
        missing.push_back(absl::StrCat("table ", p.table()));
      }
    }
    std::vector<std::string> unplaced;
    for (const int e : round.unpaired()) {
      unplaced.push_back(absl::StrCat("'", EntrantNameOf(t, e), "'"));
    }
    if (missing.empty() && unplaced.empty()) continue;
    std::string text =
        absl::StrCat("round ", round.number(), " is not complete: ");
    if (!missing.empty()) {
      absl::StrAppend(&text, "no result at ", absl::StrJoin(missing, ", "));
    }
    if (!unplaced.empty()) {
      absl::StrAppend(&text, missing.empty() ? "" : "; ",
                      absl::StrJoin(unplaced, ", "),
                      unplaced.size() == 1 ? " is" : " are",
                      " not paired (pairing add, bye or swap)");
    }
    out.push_back(std::move(text));
  }
  return out;
}

std::vector<int> TeamLineUp(const v1::Tournament& t, int team) {
  std::vector<int> members;
  for (int i = 0; i < t.players_size(); ++i) {
    if (t.players(i).team() == t.teams(team).name() &&
        !t.players(i).removed()) {
      members.push_back(i);
    }
  }
  std::stable_sort(members.begin(), members.end(), [&](int a, int b) {
    return t.players(a).board() < t.players(b).board();
  });
  if (static_cast<int>(members.size()) > static_cast<int>(t.boards())) {
    members.resize(t.boards());
  }
  return members;
}

void FillBoards(const v1::Tournament& t, int number, v1::Pairing* p) {
  p->clear_boards();
  const std::vector<int> black_team = TeamLineUp(t, p->black());
  const std::vector<int> white_team = TeamLineUp(t, p->white());
  for (int b = 0; b < static_cast<int>(t.boards()); ++b) {
    v1::BoardGame* game = p->add_boards();
    game->set_board(b + 1);
    const int bp = b < static_cast<int>(black_team.size()) ? black_team[b] : -1;
    const int wp = b < static_cast<int>(white_team.size()) ? white_team[b] : -1;
    // Team `black` holds Black on odd boards.
    const bool odd = b % 2 == 0;
    game->set_black(odd ? bp : wp);
    game->set_white(odd ? wp : bp);
    if (p->by_withdrawal()) {
      const Outcome own = OutcomeFor(p->result(), true);
      if (!Counts(own)) {
        game->set_result(v1::GAME_RESULT_VOID);
      } else if (own == Outcome::kBothLose) {
        game->set_result(v1::GAME_RESULT_BOTH_LOSE);
      } else {
        const bool black_team_wins = IsWin(own);
        game->set_result(black_team_wins == odd
                             ? v1::GAME_RESULT_BLACK_FORFEIT_WIN
                             : v1::GAME_RESULT_WHITE_FORFEIT_WIN);
      }
      continue;
    }
    const auto gone = [&](int player) {
      if (player < 0) return true;
      const v1::TournamentPlayer& pl = t.players(player);
      return pl.withdrawn_at_round() != 0 &&
             static_cast<int>(pl.withdrawn_at_round()) <= number;
    };
    const bool black_gone = gone(game->black());
    const bool white_gone = gone(game->white());
    if (black_gone && white_gone) {
      game->set_result(v1::GAME_RESULT_BOTH_LOSE);
    } else if (black_gone) {
      game->set_result(v1::GAME_RESULT_WHITE_FORFEIT_WIN);
    } else if (white_gone) {
      game->set_result(v1::GAME_RESULT_BLACK_FORFEIT_WIN);
    }
  }
  p->set_result(TeamMatchResult(*p));
}

v1::TournamentChange* AppendChange(v1::Tournament* t, const Actor& actor,
                                   absl::string_view action) {
  v1::TournamentChange* c = t->add_history();
  c->set_unix_ms(actor.unix_ms);
  c->set_who(actor.who);
  c->set_action(std::string(action));
  return c;
}

}  // namespace qipu::tournament
