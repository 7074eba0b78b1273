// The registration part of tournament.h: AddPlayer() (late entries
// too), FindPlayer(), EditPlayer(), SitOut(), the withdrawals of players
// and teams (art. 28) and warnings (art. 24).
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

namespace {

// Names: 1 to kMaxNameBytes bytes without control characters; `what` is
// "player name" or "other-script name".
absl::Status CheckName(absl::string_view name, absl::string_view what,
                       bool may_be_empty) {
  if ((name.empty() && !may_be_empty) ||
      static_cast<int>(name.size()) > kMaxNameBytes) {
    return absl::InvalidArgumentError(absl::StrCat(what, " must be ",
                                                   may_be_empty ? 0 : 1, " to ",
                                                   kMaxNameBytes, " bytes"));
  }
  for (const char c : name) {
    if (static_cast<unsigned char>(c) < 0x20) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, " has a control character"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckRating(int rating, absl::string_view name) {
  if (rating < -1000 || rating > 4000) {
    return absl::InvalidArgumentError(absl::StrCat(
        "rating ", rating, " of '", name, "' is not in -1000..4000"));
  }
  return absl::OkStatus();
}

// The player (not removed) holding seed `seed`, or -1.
int SeedHolder(const v1::Tournament& t, int seed) {
  for (int i = 0; i < t.players_size(); ++i) {
    if (!t.players(i).removed() &&
        static_cast<int>(t.players(i).order()) == seed) {
      return i;
    }
  }
  return -1;
}

// The highest seed given to a player not removed.
int MaxSeed(const v1::Tournament& t) {
  int top = 0;
  for (const v1::TournamentPlayer& p : t.players()) {
    if (!p.removed()) top = std::max(top, static_cast<int>(p.order()));
  }
  return top;
}

// FailedPrecondition unless `t`, started, takes a late entry now.
absl::Status CheckLateEntry(const v1::Tournament& t, absl::string_view name) {
  const v1::TournamentSystem s = t.system();
  const bool swiss = s == v1::TOURNAMENT_SYSTEM_SWISS ||
                     s == v1::TOURNAMENT_SYSTEM_SWISS_KNOCKOUT;
  if (!swiss || t.teams_event()) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot add '", name,
                     "': round 1 is already paired, and only an "
                     "individual Swiss takes late entries (not a ",
                     t.teams_event() ? "team event" : SystemName(s), ")"));
  }
  if (t.round_size() >= static_cast<int>(t.rounds())) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot add '", name, "': all ", t.rounds(),
                     " Swiss rounds are paired"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<int> AddPlayer(v1::Tournament* t, const PlayerEntry& entry) {
  QIPU_RETURN_IF_ERROR(CheckCreated(*t));
  QIPU_RETURN_IF_ERROR(CheckName(entry.name, "player name", false));
  QIPU_RETURN_IF_ERROR(CheckName(entry.alt_name, "other-script name", true));
  if (t->started()) QIPU_RETURN_IF_ERROR(CheckLateEntry(*t, entry.name));
  for (const v1::TournamentPlayer& p : t->players()) {
    if (p.name() == entry.name) {
      return absl::InvalidArgumentError(
          absl::StrCat("a player called '", entry.name, "' is registered"));
    }
  }
  QIPU_RETURN_IF_ERROR(CheckRating(entry.rating, entry.name));
  if (!entry.rank.empty()) {
    auto strength = RankStrength(entry.rank);
    if (!strength.ok()) return strength.status();
  }
  if (entry.board < 0 || entry.board > 1000) {
    return absl::InvalidArgumentError(
        absl::StrCat("board ", entry.board, " is not in 0..1000"));
  }
  if (entry.seed < 0 || entry.seed > 10000) {
    return absl::InvalidArgumentError(
        absl::StrCat("seed ", entry.seed, " is not in 1..10000"));
  }
  if (entry.seed > 0 && t->teams_event()) {
    return absl::InvalidArgumentError(
        "a team event seeds teams, not players: no --seed");
  }
  if (entry.seed > 0 && !t->started()) {
    const int holder = SeedHolder(*t, entry.seed);
    if (holder >= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("seed ", entry.seed, " is given to '",
                       t->players(holder).name(), "' already"));
    }
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
  int order = entry.seed;
  if (next.started()) {
    // A late entry: seeded after everyone, or at its seed with the seeds
    // from there moving down one.
    const int top = MaxSeed(next);
    if (order == 0 || order > top) {
      order = top + 1;
    } else {
      for (v1::TournamentPlayer& p : *next.mutable_players()) {
        if (!p.removed() && static_cast<int>(p.order()) >= order) {
          p.set_order(p.order() + 1);
        }
      }
    }
  }
  v1::TournamentPlayer* p = next.add_players();
  p->set_name(entry.name);
  p->set_alt_name(entry.alt_name);
  p->set_rating(entry.rating);
  p->set_rank(entry.rank);
  p->set_club(entry.club);
  p->set_team(entry.team);
  p->set_board(board);
  p->set_order(order);
  if (next.started()) p->set_entered_at_round(next.round_size() + 1);
  *t = std::move(next);
  return t->players_size() - 1;
}

absl::Status EditPlayer(v1::Tournament* t, absl::string_view name,
                        const PlayerEdit& edit) {
  QIPU_RETURN_IF_ERROR(CheckCreated(*t));
  QIPU_ASSIGN_OR_RETURN(const int player, FindPlayer(*t, name));
  v1::Tournament next = *t;
  v1::TournamentPlayer* p = next.mutable_players(player);
  if (p->removed()) {
    return absl::FailedPreconditionError(
        absl::StrCat("'", name, "' withdrew before the start"));
  }
  if (edit.rating.has_value()) {
    QIPU_RETURN_IF_ERROR(CheckRating(*edit.rating, name));
    p->set_rating(*edit.rating);
  }
  if (edit.rank.has_value()) {
    if (!edit.rank->empty()) {
      auto strength = RankStrength(*edit.rank);
      if (!strength.ok()) return strength.status();
    }
    p->set_rank(*edit.rank);
  }
  if (edit.club.has_value()) p->set_club(*edit.club);
  if (edit.alt_name.has_value()) {
    QIPU_RETURN_IF_ERROR(CheckName(*edit.alt_name, "other-script name", true));
    p->set_alt_name(*edit.alt_name);
  }
  if (edit.seed.has_value()) {
    const int seed = *edit.seed;
    if (next.teams_event()) {
      return absl::InvalidArgumentError(
          "a team event seeds teams, not players");
    }
    const int top = next.started() ? MaxSeed(next) : 10000;
    if (seed < (next.started() ? 1 : 0) || seed > top) {
      return absl::InvalidArgumentError(
          absl::StrCat("seed ", seed, " of '", name, "' is not in ",
                       next.started() ? 1 : 0, "..", top));
    }
    if (next.started() && !IsSwissFamily(next.system())) {
      return absl::FailedPreconditionError(absl::StrCat(
          "the seeds of a ", SystemName(next.system()),
          " are fixed once round 1 is paired (they place the entrants in "
          "its table or bracket)"));
    }
    const int holder = seed == 0 ? -1 : SeedHolder(next, seed);
    if (holder >= 0 && holder != player) {
      next.mutable_players(holder)->set_order(p->order());
    }
    p->set_order(seed);
  }
  *t = std::move(next);
  return absl::OkStatus();
}

absl::Status SitOut(v1::Tournament* t, absl::string_view name, int round,
                    bool cancel) {
  QIPU_RETURN_IF_ERROR(CheckCreated(*t));
  QIPU_ASSIGN_OR_RETURN(const int player, FindPlayer(*t, name));
  const v1::TournamentSystem s = t->system();
  if ((s != v1::TOURNAMENT_SYSTEM_SWISS &&
       s != v1::TOURNAMENT_SYSTEM_SWISS_KNOCKOUT) ||
      t->teams_event()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "a requested bye is for an individual Swiss, not a ",
        t->teams_event() ? "team event" : SystemName(s),
        s == v1::TOURNAMENT_SYSTEM_SWISS_ELIMINATION ? " (its field stays even)"
                                                     : ""));
  }
  const v1::TournamentPlayer& p = t->players(player);
  if (round <= t->round_size()) {
    return absl::FailedPreconditionError(
        absl::StrCat("round ", round,
                     " is already paired; change its pairing instead "
                     "(pairing unpair, bye)"));
  }
  const int last = t->rounds() == 0 ? 1000 : static_cast<int>(t->rounds());
  if (round > last) {
    return absl::FailedPreconditionError(absl::StrCat(
        "round ", round, " is beyond the event's ", last, " Swiss rounds"));
  }
  if (p.removed() || p.withdrawn_at_round() != 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("'", name, "' has withdrawn"));
  }
  if (round < static_cast<int>(p.entered_at_round())) {
    return absl::FailedPreconditionError(
        absl::StrCat("'", name, "' entered at round ", p.entered_at_round()));
  }
  std::vector<uint32_t> rounds(p.sit_out_rounds().begin(),
                               p.sit_out_rounds().end());
  auto it = std::find(rounds.begin(), rounds.end(), round);
  if (cancel == (it == rounds.end())) {
    return absl::FailedPreconditionError(absl::StrCat(
        "'", name, "' has ", cancel ? "not asked" : "already asked",
        " to sit out round ", round));
  }
  if (cancel) {
    rounds.erase(it);
  } else {
    rounds.push_back(round);
    std::sort(rounds.begin(), rounds.end());
  }
  v1::TournamentPlayer* edit = t->mutable_players(player);
  edit->clear_sit_out_rounds();
  for (const uint32_t r : rounds) edit->add_sit_out_rounds(r);
  return absl::OkStatus();
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

// Withdraws entrant `e` (a player, or a team in a team event); the
// forfeits entered go into the history as `actor`'s.
absl::Status WithdrawEntrant(v1::Tournament* t, int e, bool team,
                             const Actor& actor) {
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
  struct Forfeit {
    uint32_t table;
    uint32_t board;
    v1::GameResult result;
  };
  std::vector<Forfeit> forfeits;
  if (next.round_size() > 0) {
    v1::Round* last = next.mutable_round(next.round_size() - 1);
    if (entrant_level) {
      // Taken out of a pairing by an edit and not placed again: nothing
      // is left to place.
      auto* unpaired = last->mutable_unpaired();
      unpaired->erase(std::remove(unpaired->begin(), unpaired->end(), e),
                      unpaired->end());
    }
    for (v1::Pairing& p : *last->mutable_pairings()) {
      if (entrant_level && p.result() == v1::GAME_RESULT_UNKNOWN &&
          !next.teams_event() && (p.black() == e || p.white() == e)) {
        p.set_result(p.black() == e ? v1::GAME_RESULT_WHITE_FORFEIT_WIN
                                    : v1::GAME_RESULT_BLACK_FORFEIT_WIN);
        p.set_by_withdrawal(true);
        forfeits.push_back({p.table(), 0, p.result()});
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
          if (gone >= 0) forfeits.push_back({p.table(), b.board(), b.result()});
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
  for (const Forfeit& f : forfeits) {
    v1::TournamentChange* c = AppendChange(&next, actor, "withdrawal");
    c->set_round(next.round_size());
    c->set_table(f.table);
    c->set_board(f.board);
    c->set_new_result(f.result);
    c->set_detail(absl::StrCat("'", name, "' withdrew: forfeit"));
  }
  *t = std::move(next);
  return absl::OkStatus();
}

}  // namespace

absl::Status WithdrawPlayer(v1::Tournament* t, absl::string_view name,
                            const Actor& actor) {
  QIPU_RETURN_IF_ERROR(CheckCreated(*t));
  QIPU_ASSIGN_OR_RETURN(const int player, FindPlayer(*t, name));
  return WithdrawEntrant(t, player, false, actor);
}

absl::Status WithdrawTeam(v1::Tournament* t, absl::string_view name,
                          const Actor& actor) {
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
  return WithdrawEntrant(t, team, true, actor);
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
