#include "tournament/match.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "base/quote.h"

namespace qipu::tournament {

BestOfState ScoreBestOf(const Field& field, const std::vector<int>& two,
                        int best_of) {
  BestOfState s;
  if (two.size() != 2) return s;
  s.a = two[0];
  s.b = two[1];
  for (const Meeting& m : field.entrants[s.a].meetings) {
    if (m.opponent != s.b || !Counts(m.outcome)) continue;
    ++s.games_counted;
    s.a_points += OutcomePoints(m.outcome);
    s.b_points += OutcomePoints(OutcomeFor(m.result, !m.black));
  }
  if (s.a_points > best_of || s.b_points > best_of ||
      (s.games_counted >= best_of && s.a_points != s.b_points)) {
    s.finished = true;
    s.winner = s.a_points > s.b_points ? s.a : s.b;
  }
  return s;
}

absl::StatusOr<RoundDraft> PairBestOf(const Field& field,
                                      const std::vector<int>& two, int best_of,
                                      int round, uint64_t lots) {
  if (two.size() != 2) {
    return absl::FailedPreconditionError(absl::StrCat(
        "a best-of match needs exactly 2 entrants, not ", two.size()));
  }
  const BestOfState s = ScoreBestOf(field, two, best_of);
  if (s.finished) {
    return absl::FailedPreconditionError(
        absl::StrCat("the match is over: ", field.entrants[s.winner].name,
                     " won ", std::max(s.a_points, s.b_points), "-",
                     std::min(s.a_points, s.b_points), " in game points"));
  }
  // Game 1's Black by lot, then alternate.
  const bool a_first = (DrawLot(lots, 0) & 1) == 0;
  const bool a_black = a_first == (round % 2 == 1);
  RoundDraft draft;
  draft.games.emplace_back(a_black ? s.a : s.b, a_black ? s.b : s.a);
  return draft;
}

absl::StatusOr<ChallengeState> ScoreChallenge(const v1::Tournament& t,
                                              const Field& field) {
  if (t.teams_size() != 2) {
    return absl::FailedPreconditionError(absl::StrCat(
        "a team challenge needs exactly 2 teams, not ", t.teams_size()));
  }
  ChallengeState s;
  s.wins.assign(t.players_size(), 0);
  for (int k = 0; k < 2; ++k) {
    std::vector<int>& team = s.team[k];
    for (int i = 0; i < t.players_size(); ++i) {
      if (t.players(i).team() == t.teams(k).name() && !t.players(i).removed()) {
        team.push_back(i);
      }
    }
    std::stable_sort(team.begin(), team.end(), [&](int a, int b) {
      const uint32_t ba =
          t.players(a).board() == 0 ? ~0u : t.players(a).board();
      const uint32_t bb =
          t.players(b).board() == 0 ? ~0u : t.players(b).board();
      return ba < bb;
    });
    if (team.empty()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "team ", base::QuoteInput(t.teams(k).name()), " has no players"));
    }
  }
  const auto team_of = [&](int player) {
    return t.players(player).team() == t.teams(0).name() ? 0 : 1;
  };
  for (const v1::Round& round : t.round()) {
    for (const v1::Pairing& p : round.pairings()) {
      const v1::GameResult r = p.result();
      if (r == v1::GAME_RESULT_UNKNOWN || r == v1::GAME_RESULT_VOID) continue;
      if (p.black() < 0 || p.black() >= t.players_size() || p.white() < 0 ||
          p.white() >= t.players_size()) {
        continue;
      }
      const int tb = team_of(p.black());
      const int tw = team_of(p.white());
      if (HasWinner(r)) {
        const bool black_won = IsWin(OutcomeFor(r, true));
        ++s.wins[black_won ? p.black() : p.white()];
        ++s.out[black_won ? tw : tb];
      } else {
        ++s.out[tb];
        ++s.out[tw];
      }
    }
  }
  (void)field;
  for (int k = 0; k < 2; ++k) {
    s.out[k] = std::min<int>(s.out[k], static_cast<int>(s.team[k].size()));
  }
  const bool gone0 = s.out[0] >= static_cast<int>(s.team[0].size());
  const bool gone1 = s.out[1] >= static_cast<int>(s.team[1].size());
  if (gone0 || gone1) {
    s.finished = true;
    s.drawn = gone0 && gone1;
    s.winner = s.drawn ? -1 : (gone0 ? 1 : 0);
  }
  return s;
}

absl::StatusOr<RoundDraft> PairChallenge(const v1::Tournament& t,
                                         const Field& field, int round) {
  auto state = ScoreChallenge(t, field);
  if (!state.ok()) return state.status();
  ChallengeState& s = *state;
  if (s.finished) {
    return absl::FailedPreconditionError(
        s.drawn
            ? std::string("the challenge is over: drawn")
            : absl::StrCat("the challenge is over: team ",
                           base::QuoteInput(t.teams(s.winner).name()), " won"));
  }
  const int on0 = s.team[0][s.out[0]];
  const int on1 = s.team[1][s.out[1]];
  // Who played the last game: a player who stays on takes White.
  int last_black = -1;
  int last_white = -1;
  for (const v1::Round& r : t.round()) {
    for (const v1::Pairing& p : r.pairings()) {
      last_black = p.black();
      last_white = p.white();
    }
  }
  const auto stayed = [&](int p) { return p == last_black || p == last_white; };
  bool black0;
  if (stayed(on0) != stayed(on1)) {
    black0 = !stayed(on0);
  } else {
    black0 = (DrawLot(t.drawing_lots(), round) & 1) == 0;
  }
  RoundDraft draft;
  draft.games.emplace_back(black0 ? on0 : on1, black0 ? on1 : on0);
  return draft;
}

}  // namespace qipu::tournament
