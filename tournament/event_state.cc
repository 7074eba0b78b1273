#include "tournament/event_state.h"

#include "absl/strings/str_cat.h"
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

bool ResultsFixPairings(v1::TournamentSystem s) {
  return IsElimination(s) || s == v1::TOURNAMENT_SYSTEM_SWISS_KNOCKOUT ||
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

std::vector<std::string> MissingResults(const v1::Tournament& t) {
  std::vector<std::string> missing;
  if (t.round_size() == 0) return missing;
  const v1::Round& last = t.round(t.round_size() - 1);
  for (const v1::Pairing& p : last.pairings()) {
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
  return missing;
}

}  // namespace qipu::tournament
