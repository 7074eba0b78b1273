#include "tournament/tournament.h"

#include <algorithm>
#include <climits>
#include <map>
#include <set>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "tournament/elimination.h"
#include "tournament/field.h"
#include "tournament/match.h"
#include "tournament/round_robin.h"
#include "tournament/swiss.h"

namespace qipu::tournament {

namespace {

constexpr int kMaxNameBytes = 100;
constexpr int kMaxBoards = 32;
constexpr int kMaxLosses = 8;

bool IsRoundRobin(v1::TournamentSystem s) {
  return s == v1::TOURNAMENT_SYSTEM_ROUND_ROBIN ||
         s == v1::TOURNAMENT_SYSTEM_DOUBLE_ROUND_ROBIN;
}

bool IsElimination(v1::TournamentSystem s) {
  return s == v1::TOURNAMENT_SYSTEM_KNOCKOUT ||
         s == v1::TOURNAMENT_SYSTEM_DOUBLE_KNOCKOUT;
}

// Systems whose earlier results decide later pairings structurally.
bool ResultsFixPairings(v1::TournamentSystem s) {
  return IsElimination(s) || s == v1::TOURNAMENT_SYSTEM_SWISS_KNOCKOUT ||
         s == v1::TOURNAMENT_SYSTEM_BEST_OF ||
         s == v1::TOURNAMENT_SYSTEM_TEAM_CHALLENGE;
}

// `validate`: also run ValidateTournament (every call that reads the rounds
// as a whole does; SetResult and the like check their own indexes).
absl::Status CheckCreated(const v1::Tournament& t, bool validate = true) {
  if (!t.created()) {
    return absl::FailedPreconditionError(
        "not a tournament: the message was not made by CreateTournament");
  }
  return validate ? ValidateTournament(t) : absl::OkStatus();
}

// The team's index, or -1.
int TeamIndex(const v1::Tournament& t, absl::string_view name) {
  for (int i = 0; i < t.teams_size(); ++i) {
    if (t.teams(i).name() == name) return i;
  }
  return -1;
}

// Missing results of the last round: "table 2, table 5 board 3".
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

// Fixes the seeding orders when round 1 is paired.
void AssignOrders(v1::Tournament& t) {
  const Field field = BuildField(t);
  std::vector<int> entrants;
  for (const Entrant& e : field.entrants) {
    if (!e.removed) entrants.push_back(e.index);
  }
  // Orders set by the director are kept when they are a permutation of
  // 1..n; otherwise they are assigned.
  std::set<int> given;
  for (const int e : entrants) given.insert(field.entrants[e].order);
  const bool director =
      static_cast<int>(given.size()) == static_cast<int>(entrants.size()) &&
      !given.count(0) && *given.rbegin() == static_cast<int>(entrants.size());
  if (!director) {
    if (IsRoundRobin(t.system())) {
      // The numbers of the rotation table are drawn by lot (抽簽).
      std::stable_sort(entrants.begin(), entrants.end(), [&](int a, int b) {
        return DrawLot(t.drawing_lots() ^ 0x5eedULL, a) <
               DrawLot(t.drawing_lots() ^ 0x5eedULL, b);
      });
    } else {
      const auto strength = [&](int e) {
        if (t.teams_event()) return 0;
        auto s = RankStrength(t.players(e).rank());
        return s.ok() ? *s : INT_MIN;
      };
      std::stable_sort(entrants.begin(), entrants.end(), [&](int a, int b) {
        if (field.entrants[a].rating != field.entrants[b].rating) {
          return field.entrants[a].rating > field.entrants[b].rating;
        }
        return strength(a) > strength(b);
      });
    }
    for (size_t i = 0; i < entrants.size(); ++i) {
      const int order = static_cast<int>(i) + 1;
      if (t.teams_event()) {
        t.mutable_teams(entrants[i])->set_order(order);
      } else {
        t.mutable_players(entrants[i])->set_order(order);
      }
    }
  }
}

// The players of team `team` that play its boards, board 1 first.
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

absl::Status StartEvent(v1::Tournament& t) {
  const Field field = BuildField(t);
  int entrants = 0;
  for (const Entrant& e : field.entrants) entrants += e.removed ? 0 : 1;
  const v1::TournamentSystem system = t.system();
  if (system == v1::TOURNAMENT_SYSTEM_TEAM_CHALLENGE) {
    if (t.teams_size() != 2) {
      return absl::FailedPreconditionError(absl::StrCat(
          "a team challenge needs 2 teams; ", t.teams_size(), " registered"));
    }
  } else if (entrants < 2) {
    return absl::FailedPreconditionError(absl::StrCat(
        "pairing needs at least 2 entrants; ", entrants, " registered"));
  }
  if (system == v1::TOURNAMENT_SYSTEM_BEST_OF && entrants != 2) {
    return absl::FailedPreconditionError(absl::StrCat(
        "a best-of match is between 2 entrants; ", entrants, " registered"));
  }
  if (t.teams_event()) {
    for (int k = 0; k < t.teams_size(); ++k) {
      if (t.teams(k).removed()) continue;
      const int size = static_cast<int>(TeamLineUp(t, k).size());
      if (size < static_cast<int>(t.boards())) {
        return absl::FailedPreconditionError(absl::StrCat(
            "team '", t.teams(k).name(), "' has ", size, " players for ",
            t.boards(), " boards (teams are of equal size, art. 25.2)"));
      }
    }
  }
  if (system == v1::TOURNAMENT_SYSTEM_SWISS_KNOCKOUT &&
      static_cast<int>(t.knockout_size()) > entrants) {
    return absl::FailedPreconditionError(
        absl::StrCat("the knockout takes ", t.knockout_size(),
                     " entrants; only ", entrants, " registered"));
  }
  AssignOrders(t);
  if (IsRoundRobin(system)) {
    t.set_rounds(RoundRobinRounds(
        entrants, system == v1::TOURNAMENT_SYSTEM_DOUBLE_ROUND_ROBIN));
  } else if ((system == v1::TOURNAMENT_SYSTEM_SWISS ||
              system == v1::TOURNAMENT_SYSTEM_SWISS_KNOCKOUT) &&
             t.rounds() == 0) {
    t.set_rounds(RecommendedSwissRounds(entrants));
  }
  t.set_started(true);
  return absl::OkStatus();
}

// The round robin draft of round `round`.
absl::StatusOr<RoundDraft> PairRoundRobin(const v1::Tournament& t,
                                          const Field& field, int round) {
  const std::vector<int> seeds = SeedOrder(field);
  const int n = static_cast<int>(seeds.size());
  const auto schedule = RotationSchedule(
      n, t.system() == v1::TOURNAMENT_SYSTEM_DOUBLE_ROUND_ROBIN);
  if (round > static_cast<int>(schedule.size())) {
    return absl::FailedPreconditionError(absl::StrCat(
        "all ", schedule.size(), " rounds of the round robin are paired"));
  }
  RoundDraft draft;
  for (const RotationGame& g : schedule[round - 1]) {
    if (g.left == 0 || g.right == 0) {
      const int number = g.left == 0 ? g.right : g.left;
      if (number > 0) draft.byes.push_back(seeds[number - 1]);
      continue;
    }
    const int left = seeds[g.left - 1];
    const int right = seeds[g.right - 1];
    draft.games.emplace_back(g.left_black ? left : right,
                             g.left_black ? right : left);
  }
  return draft;
}

// Turns a draft into a Round: tables, boards, and the forfeits and void
// games the withdrawal rules give.
v1::Round MakeRound(const v1::Tournament& t, const Field& field,
                    const RoundDraft& draft, int number) {
  v1::Round round;
  round.set_number(number);
  round.set_replay(draft.replay);
  const auto plays = [&](int e) { return field.entrants[e].PlaysIn(number); };
  for (const int bye : draft.byes) {
    // A withdrawn entrant gets no bye (nothing is played for it).
    if (plays(bye) && !field.entrants[bye].results_void) round.add_byes(bye);
  }
  int table = 0;
  for (const auto& [black, white] : draft.games) {
    v1::Pairing* p = round.add_pairings();
    p->set_table(++table);
    p->set_black(black);
    p->set_white(white);
    const bool b_in = plays(black);
    const bool w_in = plays(white);
    if (field.entrants[black].results_void ||
        field.entrants[white].results_void) {
      p->set_result(v1::GAME_RESULT_VOID);
      p->set_by_withdrawal(true);
    } else if (!b_in && !w_in) {
      p->set_result(v1::GAME_RESULT_BOTH_LOSE);
      p->set_by_withdrawal(true);
    } else if (!b_in) {
      p->set_result(v1::GAME_RESULT_WHITE_FORFEIT_WIN);
      p->set_by_withdrawal(true);
    } else if (!w_in) {
      p->set_result(v1::GAME_RESULT_BLACK_FORFEIT_WIN);
      p->set_by_withdrawal(true);
    }
    if (!t.teams_event()) continue;
    const std::vector<int> black_team = TeamLineUp(t, black);
    const std::vector<int> white_team = TeamLineUp(t, white);
    for (int b = 0; b < static_cast<int>(t.boards()); ++b) {
      v1::BoardGame* game = p->add_boards();
      game->set_board(b + 1);
      const int bp =
          b < static_cast<int>(black_team.size()) ? black_team[b] : -1;
      const int wp =
          b < static_cast<int>(white_team.size()) ? white_team[b] : -1;
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
  return round;
}

// The entrants a Swiss round pairs.
std::vector<int> SwissPlayers(const Field& field, int round) {
  std::vector<int> players;
  for (const Entrant& e : field.entrants) {
    if (e.PlaysIn(round) && !e.results_void) players.push_back(e.index);
  }
  return players;
}

absl::StatusOr<PairingReport> PairSwissRound(v1::Tournament& t,
                                             const Field& field, int round,
                                             const PairingOptions& options) {
  const std::vector<int> players = SwissPlayers(field, round);
  if (players.size() < 2) {
    return absl::FailedPreconditionError(
        absl::StrCat("round ", round, ": ", players.size(),
                     " player(s) left to pair; a Swiss round needs 2"));
  }
  SwissOptions swiss;
  swiss.allow_repeats = options.allow_repeats;
  swiss.lots = t.drawing_lots();
  QIPU_ASSIGN_OR_RETURN(SwissPairing pairing,
                        PairSwiss(field, players, round, swiss));
  PairingReport report;
  report.round = round;
  report.repeat_free = pairing.repeat_free;
  report.repeats_needed = pairing.repeats_needed;
  report.proposal = MakeRound(t, field, pairing.draft, round);
  if (!pairing.repeat_free) {
    report.proposal.set_repeats_accepted(true);
    if (!options.allow_repeats) return report;
  }
  *t.add_round() = report.proposal;
  report.paired = true;
  return report;
}

}  // namespace

absl::StatusOr<int> RankStrength(absl::string_view rank) {
  const std::string r = absl::AsciiStrToLower(absl::StripAsciiWhitespace(rank));
  int n = 0;
  if (r.size() < 2 || !absl::SimpleAtoi(r.substr(0, r.size() - 1), &n)) {
    return absl::InvalidArgumentError(
        absl::StrCat("rank '", rank, "' is not like 3d, 15k or 2p"));
  }
  const char kind = r.back();
  if (kind == 'k' && n >= 1 && n <= 40) return 1 - n;
  if (kind == 'd' && n >= 1 && n <= 9) return n;
  if (kind == 'p' && n >= 1 && n <= 9) return 10 + n;
  return absl::InvalidArgumentError(
      absl::StrCat("rank '", rank, "' is out of range (1-40k, 1-9d, 1-9p)"));
}

std::string SystemName(v1::TournamentSystem system) {
  switch (system) {
    case v1::TOURNAMENT_SYSTEM_ROUND_ROBIN:
      return "round-robin";
    case v1::TOURNAMENT_SYSTEM_DOUBLE_ROUND_ROBIN:
      return "double-round-robin";
    case v1::TOURNAMENT_SYSTEM_KNOCKOUT:
      return "knockout";
    case v1::TOURNAMENT_SYSTEM_DOUBLE_KNOCKOUT:
      return "double-knockout";
    case v1::TOURNAMENT_SYSTEM_SWISS:
      return "swiss";
    case v1::TOURNAMENT_SYSTEM_SWISS_KNOCKOUT:
      return "swiss-knockout";
    case v1::TOURNAMENT_SYSTEM_BEST_OF:
      return "best-of";
    case v1::TOURNAMENT_SYSTEM_TEAM_CHALLENGE:
      return "team-challenge";
    default:
      return "unspecified";
  }
}

absl::StatusOr<v1::TournamentSystem> ParseSystem(absl::string_view text) {
  const std::string s = absl::AsciiStrToLower(absl::StripAsciiWhitespace(text));
  for (int v = v1::TOURNAMENT_SYSTEM_ROUND_ROBIN;
       v <= v1::TOURNAMENT_SYSTEM_TEAM_CHALLENGE; ++v) {
    const auto system = static_cast<v1::TournamentSystem>(v);
    if (s == SystemName(system)) return system;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "system '", text,
      "' is not one of round-robin, double-round-robin, knockout, "
      "double-knockout, swiss, swiss-knockout, best-of, team-challenge"));
}

absl::StatusOr<v1::Tournament> CreateTournament(
    const TournamentOptions& options) {
  if (options.name.empty() ||
      static_cast<int>(options.name.size()) > kMaxNameBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("tournament name must be 1 to ", kMaxNameBytes, " bytes"));
  }
  const v1::TournamentSystem system = options.system;
  if (system < v1::TOURNAMENT_SYSTEM_ROUND_ROBIN ||
      system > v1::TOURNAMENT_SYSTEM_TEAM_CHALLENGE) {
    return absl::InvalidArgumentError(
        absl::StrCat("tournament system ", static_cast<int>(system),
                     " is not one of the 8 systems"));
  }
  v1::Tournament t;
  t.set_id(options.id);
  t.set_name(options.name);
  t.set_system(system);
  if (options.rounds < 0 || options.rounds > 1000) {
    return absl::InvalidArgumentError(
        absl::StrCat("rounds ", options.rounds, " is not in 0..1000"));
  }
  t.set_rounds(options.rounds);
  if (system == v1::TOURNAMENT_SYSTEM_BEST_OF) {
    if (options.best_of < 3 || options.best_of > 7 ||
        options.best_of % 2 == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("best-of ", options.best_of,
                       ": a match is of 3, 5 or 7 games (art. 26.5)"));
    }
    t.set_best_of(options.best_of);
    t.set_rounds(options.best_of);
  } else if (options.best_of != 0) {
    return absl::InvalidArgumentError("best_of is for the best-of system");
  }
  if (system == v1::TOURNAMENT_SYSTEM_KNOCKOUT) {
    const int losses = options.losses == 0 ? 1 : options.losses;
    if (losses < 1 || losses > kMaxLosses) {
      return absl::InvalidArgumentError(absl::StrCat(
          "losses ", options.losses, " is not in 1..", kMaxLosses));
    }
    t.set_losses(losses);
  } else if (system == v1::TOURNAMENT_SYSTEM_DOUBLE_KNOCKOUT) {
    if (options.losses != 0 && options.losses != 2) {
      return absl::InvalidArgumentError(
          "a double knockout eliminates after 2 losses; use knockout with "
          "losses for other numbers");
    }
    t.set_losses(2);
  } else if (options.losses != 0) {
    return absl::InvalidArgumentError("losses is for knockout systems");
  }
  if (options.teams) {
    if (system != v1::TOURNAMENT_SYSTEM_ROUND_ROBIN &&
        system != v1::TOURNAMENT_SYSTEM_DOUBLE_ROUND_ROBIN &&
        system != v1::TOURNAMENT_SYSTEM_SWISS) {
      return absl::InvalidArgumentError(
          "team events pair by round robin, double round robin or Swiss");
    }
    if (options.boards < 1 || options.boards > kMaxBoards) {
      return absl::InvalidArgumentError(
          absl::StrCat("a team event needs 1 to ", kMaxBoards, " boards, not ",
                       options.boards));
    }
    t.set_teams_event(true);
    t.set_boards(options.boards);
  } else if (options.boards != 0) {
    return absl::InvalidArgumentError("boards is for team events");
  }
  if (system == v1::TOURNAMENT_SYSTEM_SWISS_KNOCKOUT) {
    const int k = options.knockout_size;
    if (k < 2 || k > 1024 || (k & (k - 1)) != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "knockout size ", k, " is not a power of two from 2 to 1024"));
    }
    t.set_knockout_size(k);
  } else if (options.knockout_size != 0) {
    return absl::InvalidArgumentError(
        "knockout_size is for the swiss-knockout system");
  }
  uint64_t lots = options.drawing_lots;
  if (lots == 0) {
    // FNV-1a of id and name: fixed, so the same event draws the same lots.
    lots = 1469598103934665603ULL;
    for (const char c : absl::StrCat(options.id, "\n", options.name)) {
      lots = (lots ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    }
  }
  t.set_drawing_lots(lots);
  t.set_created(true);
  return t;
}

absl::Status ValidateTournament(const v1::Tournament& t) {
  absl::flat_hash_set<absl::string_view> names;
  names.reserve(t.players_size());
  for (int i = 0; i < t.players_size(); ++i) {
    if (!names.insert(t.players(i).name()).second) {
      return absl::InvalidArgumentError(absl::StrCat(
          "player ", i, " repeats the name '", t.players(i).name(), "'"));
    }
  }
  const int entrants = t.teams_event() ? t.teams_size() : t.players_size();
  const int players = t.players_size();
  // seen[e] == round number: entrant e already placed in that round.
  std::vector<int> seen(entrants, 0);
  for (int r = 0; r < t.round_size(); ++r) {
    const v1::Round& round = t.round(r);
    if (static_cast<int>(round.number()) != r + 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("round ", r + 1, " is numbered ", round.number()));
    }
    const auto check = [&](int e, int table) -> absl::Status {
      if (e < 0 || e >= entrants || seen[e] == r + 1) {
        return absl::InvalidArgumentError(absl::StrCat(
            "round ", r + 1, " ",
            table > 0 ? absl::StrCat("table ", table) : std::string("bye"),
            ": entrant ", e,
            e < 0 || e >= entrants ? " out of range" : " placed twice"));
      }
      seen[e] = r + 1;
      return absl::OkStatus();
    };
    for (int i = 0; i < round.pairings_size(); ++i) {
      const v1::Pairing& p = round.pairings(i);
      if (static_cast<int>(p.table()) != i + 1) {
        return absl::InvalidArgumentError(absl::StrCat(
            "round ", r + 1, " pairing ", i + 1, " has table ", p.table()));
      }
      QIPU_RETURN_IF_ERROR(check(p.black(), i + 1));
      QIPU_RETURN_IF_ERROR(check(p.white(), i + 1));
      if (!v1::GameResult_IsValid(p.result())) {
        return absl::InvalidArgumentError(
            absl::StrCat("round ", r + 1, " table ", i + 1, ": bad result"));
      }
      for (const v1::BoardGame& b : p.boards()) {
        if (b.black() >= players || b.white() >= players ||
            !v1::GameResult_IsValid(b.result())) {
          return absl::InvalidArgumentError(
              absl::StrCat("round ", r + 1, " table ", i + 1, " board ",
                           b.board(), ": player or result out of range"));
        }
      }
    }
    for (const int bye : round.byes()) {
      QIPU_RETURN_IF_ERROR(check(bye, 0));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<int> AddPlayer(v1::Tournament* t, const PlayerEntry& entry) {
  QIPU_RETURN_IF_ERROR(CheckCreated(*t));
  if (t->started()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "cannot add '", entry.name, "': round 1 is already paired"));
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
    return absl::InvalidArgumentError(
        absl::StrCat("'", entry.name, "' needs a team in a team event"));
  }
  v1::Tournament next = *t;
  int board = entry.board;
  if (!entry.team.empty()) {
    if (TeamIndex(next, entry.team) < 0) {
      if (next.system() == v1::TOURNAMENT_SYSTEM_TEAM_CHALLENGE &&
          next.teams_size() >= 2) {
        return absl::InvalidArgumentError(
            absl::StrCat("a team challenge has 2 teams; '", entry.team,
                         "' would be a third"));
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
  return absl::NotFoundError(absl::StrCat("no player called '", name, "'"));
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
        absl::StrCat("'", name, "' has already withdrawn"));
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
    return absl::NotFoundError(absl::StrCat("no team called '", name, "'"));
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

absl::StatusOr<PairingReport> PairNextRound(v1::Tournament* t,
                                            const PairingOptions& options) {
  QIPU_RETURN_IF_ERROR(CheckCreated(*t));
  const std::vector<std::string> missing = MissingResults(*t);
  if (!missing.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "round ", t->round_size(), " is not complete: no result at ",
        absl::StrJoin(missing, ", ")));
  }
  v1::Tournament next = *t;
  if (!next.started()) QIPU_RETURN_IF_ERROR(StartEvent(next));
  const Field field = BuildField(next);
  const int round = next.round_size() + 1;
  const v1::TournamentSystem system = next.system();
  RoundDraft draft;
  bool knockout_stage = false;
  if (IsRoundRobin(system)) {
    QIPU_ASSIGN_OR_RETURN(draft, PairRoundRobin(next, field, round));
  } else if (system == v1::TOURNAMENT_SYSTEM_SWISS ||
             (system == v1::TOURNAMENT_SYSTEM_SWISS_KNOCKOUT &&
              round <= static_cast<int>(next.rounds()))) {
    if (round > static_cast<int>(next.rounds())) {
      return absl::FailedPreconditionError(
          absl::StrCat("all ", next.rounds(), " Swiss rounds are paired"));
    }
    QIPU_ASSIGN_OR_RETURN(PairingReport report,
                          PairSwissRound(next, field, round, options));
    if (report.paired) *t = std::move(next);
    return report;
  } else if (IsElimination(system) ||
             system == v1::TOURNAMENT_SYSTEM_SWISS_KNOCKOUT) {
    QIPU_ASSIGN_OR_RETURN(const EliminationStage stage, StageOf(next, field));
    QIPU_ASSIGN_OR_RETURN(draft, PairElimination(field, stage, round));
    knockout_stage = system == v1::TOURNAMENT_SYSTEM_SWISS_KNOCKOUT;
  } else if (system == v1::TOURNAMENT_SYSTEM_BEST_OF) {
    QIPU_ASSIGN_OR_RETURN(draft, PairBestOf(field, SeedOrder(field),
                                            static_cast<int>(next.best_of()),
                                            round, next.drawing_lots()));
  } else if (system == v1::TOURNAMENT_SYSTEM_TEAM_CHALLENGE) {
    QIPU_ASSIGN_OR_RETURN(draft, PairChallenge(next, field, round));
  } else {
    return absl::FailedPreconditionError("the tournament has no system");
  }
  PairingReport report;
  report.round = round;
  report.proposal = MakeRound(next, field, draft, round);
  report.proposal.set_knockout_stage(knockout_stage);
  *next.add_round() = report.proposal;
  report.paired = true;
  *t = std::move(next);
  return report;
}

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

absl::StatusOr<bool> IsFinished(const v1::Tournament& t) {
  QIPU_RETURN_IF_ERROR(CheckCreated(t));
  if (!t.started()) return false;
  if (!MissingResults(t).empty()) return false;
  const Field field = BuildField(t);
  const int round = t.round_size() + 1;
  switch (t.system()) {
    case v1::TOURNAMENT_SYSTEM_ROUND_ROBIN:
    case v1::TOURNAMENT_SYSTEM_DOUBLE_ROUND_ROBIN:
    case v1::TOURNAMENT_SYSTEM_SWISS:
      return t.round_size() >= static_cast<int>(t.rounds());
    case v1::TOURNAMENT_SYSTEM_SWISS_KNOCKOUT:
      if (t.round_size() < static_cast<int>(t.rounds())) return false;
      [[fallthrough]];
    case v1::TOURNAMENT_SYSTEM_KNOCKOUT:
    case v1::TOURNAMENT_SYSTEM_DOUBLE_KNOCKOUT: {
      QIPU_ASSIGN_OR_RETURN(const EliminationStage stage, StageOf(t, field));
      auto draft = PairElimination(field, stage, round);
      return !draft.ok();
    }
    case v1::TOURNAMENT_SYSTEM_BEST_OF:
      return ScoreBestOf(field, SeedOrder(field), static_cast<int>(t.best_of()))
          .finished;
    case v1::TOURNAMENT_SYSTEM_TEAM_CHALLENGE: {
      QIPU_ASSIGN_OR_RETURN(const ChallengeState s, ScoreChallenge(t, field));
      return s.finished;
    }
    default:
      return absl::FailedPreconditionError("the tournament has no system");
  }
}

absl::StatusOr<Standings> GetStandings(const v1::Tournament& t) {
  QIPU_RETURN_IF_ERROR(CheckCreated(t));
  return ComputeStandings(t);
}

absl::StatusOr<Crosstable> GetCrosstable(const v1::Tournament& t) {
  QIPU_RETURN_IF_ERROR(CheckCreated(t));
  return ComputeCrosstable(t);
}

}  // namespace qipu::tournament
