// The API of tournament.h that makes and reads a whole event: creation,
// validation of a stored message, the names of systems and ranks, whether
// the event is over, standings and crosstables. Registration and
// withdrawal are in registration.cc, pairing a round in round_pairing.cc,
// entering results in results.cc.
#include "tournament/tournament.h"

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/quote.h"
#include "base/status_macros.h"
#include "tournament/elimination.h"
#include "tournament/event_state.h"
#include "tournament/field.h"
#include "tournament/match.h"
#include "tournament/swiss_elimination.h"

namespace qipu::tournament {

namespace {

constexpr int kMaxBoards = 32;
constexpr int kMaxLosses = 8;
constexpr int kLastSystem = v1::TOURNAMENT_SYSTEM_SWISS_ELIMINATION;

// The options CreateTournament adds for the director's desk: elimination
// after losses, points for missed rounds, accelerated pairing.
absl::Status SetDeskOptions(const TournamentOptions& options,
                            v1::Tournament& t) {
  const v1::TournamentSystem system = t.system();
  if (system == v1::TOURNAMENT_SYSTEM_SWISS_ELIMINATION) {
    if (options.eliminate_after < 1 || options.eliminate_after > kMaxLosses) {
      return absl::InvalidArgumentError(absl::StrCat(
          "swiss-elimination needs the losses that put a player out "
          "(--eliminate-after 1..",
          kMaxLosses, "), not ", options.eliminate_after));
    }
    t.set_eliminate_after(options.eliminate_after);
  } else if (options.eliminate_after != 0) {
    return absl::InvalidArgumentError(
        "eliminate_after is for swiss-elimination (積分編排加淘汰, art. "
        "26.4)");
  }
  const bool swiss = IsSwissFamily(system);
  for (const auto& [value, what] :
       {std::pair{options.late_entry_points, "late_entry_points"},
        std::pair{options.sit_out_points, "sit_out_points"}}) {
    if (value < 0 || value > 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          what, " ", value, " is not 0 or 1 (game points for a round)"));
    }
    if (value != 0 && !swiss) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, " is for Swiss systems (the only ones with ",
                       "late entries and requested byes)"));
    }
  }
  t.set_late_entry_points(options.late_entry_points);
  t.set_sit_out_points(options.sit_out_points);
  if (options.accelerated_rounds < 0 || options.accelerated_rounds > 100) {
    return absl::InvalidArgumentError(absl::StrCat(
        "accelerated rounds ", options.accelerated_rounds, " not in 0..100"));
  }
  if (options.accelerated_rounds != 0 && !swiss) {
    return absl::InvalidArgumentError(
        "accelerated pairing is for Swiss systems");
  }
  if (options.accelerated_rounds != 0 && options.rounds != 0 &&
      options.accelerated_rounds > options.rounds) {
    return absl::InvalidArgumentError(
        absl::StrCat("accelerated rounds ", options.accelerated_rounds,
                     " exceed the ", options.rounds, " rounds"));
  }
  t.set_accelerated_rounds(options.accelerated_rounds);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<int> RankStrength(absl::string_view rank) {
  const std::string r = absl::AsciiStrToLower(absl::StripAsciiWhitespace(rank));
  int n = 0;
  if (r.size() < 2 || !absl::SimpleAtoi(r.substr(0, r.size() - 1), &n)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "rank ", base::QuoteInput(rank), " is not like 3d, 15k or 2p"));
  }
  const char kind = r.back();
  if (kind == 'k' && n >= 1 && n <= 40) return 1 - n;
  if (kind == 'd' && n >= 1 && n <= 9) return n;
  if (kind == 'p' && n >= 1 && n <= 9) return 10 + n;
  return absl::InvalidArgumentError(absl::StrCat(
      "rank ", base::QuoteInput(rank), " is out of range (1-40k, 1-9d, 1-9p)"));
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
    case v1::TOURNAMENT_SYSTEM_SWISS_ELIMINATION:
      return "swiss-elimination";
    default:
      return "unspecified";
  }
}

absl::StatusOr<v1::TournamentSystem> ParseSystem(absl::string_view text) {
  const std::string s = absl::AsciiStrToLower(absl::StripAsciiWhitespace(text));
  for (int v = v1::TOURNAMENT_SYSTEM_ROUND_ROBIN; v <= kLastSystem; ++v) {
    const auto system = static_cast<v1::TournamentSystem>(v);
    if (s == SystemName(system)) return system;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "system '", text,
      "' is not one of round-robin, double-round-robin, knockout, "
      "double-knockout, swiss, swiss-knockout, best-of, team-challenge, "
      "swiss-elimination"));
}

absl::StatusOr<v1::Tournament> CreateTournament(
    const TournamentOptions& options) {
  if (options.name.empty() ||
      static_cast<int>(options.name.size()) > kMaxNameBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("tournament name must be 1 to ", kMaxNameBytes, " bytes"));
  }
  const v1::TournamentSystem system = options.system;
  if (system < v1::TOURNAMENT_SYSTEM_ROUND_ROBIN || system > kLastSystem) {
    return absl::InvalidArgumentError(
        absl::StrCat("tournament system ", static_cast<int>(system),
                     " is not one of the ", kLastSystem, " systems"));
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
  QIPU_RETURN_IF_ERROR(SetDeskOptions(options, t));
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
            table > 0    ? absl::StrCat("table ", table)
            : table == 0 ? std::string("bye")
                         : std::string("absent, cut or unpaired"),
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
    // Absent, cut and unpaired entrants are in no pairing of the round.
    for (const auto* list :
         {&round.absent(), &round.cut(), &round.unpaired()}) {
      for (const int e : *list) QIPU_RETURN_IF_ERROR(check(e, -1));
    }
  }
  for (int i = 0; i < t.players_size(); ++i) {
    for (const uint32_t r : t.players(i).sit_out_rounds()) {
      if (r < 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("player ", i, " sits out round 0"));
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> IsFinished(const v1::Tournament& t) {
  QIPU_RETURN_IF_ERROR(CheckCreated(t));
  if (!t.started()) return false;
  if (!IncompleteRounds(t).empty()) return false;
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
    case v1::TOURNAMENT_SYSTEM_SWISS_ELIMINATION:
      return t.round_size() >= static_cast<int>(t.rounds()) ||
             SwissEliminationStillIn(t, field, round).size() <= 1;
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
