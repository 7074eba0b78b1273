// The tournament engine's API: the whole state is one qipu.v1.Tournament
// message (proto/qipu/v1/tournament.proto) that the caller stores; these
// functions create it, register and withdraw entrants, pair rounds, enter
// results and compute standings and crosstables. Pure logic: no I/O, no
// clocks, no randomness beyond the tournament's own drawing of lots, so
// the same calls give the same message everywhere (the engine arena and
// the `qipu tournament` commands for human events share it).
//
// Every mutating function either succeeds or leaves the message exactly as
// it was. Errors: InvalidArgument for bad input (with what and where),
// FailedPrecondition when the tournament is not in a state that allows the
// call (results missing, round 1 already paired, the event is over),
// NotFound for an unknown name. Not thread-safe: callers serialise calls
// on one message (the coordinator holds its lock).
#ifndef QIPU_TOURNAMENT_TOURNAMENT_H_
#define QIPU_TOURNAMENT_TOURNAMENT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "qipu/v1/tournament.pb.h"
#include "tournament/standings.h"

namespace qipu::tournament {

// Who makes a change, and when: kept with every change of a result or a
// pairing in the tournament's history (v1::TournamentChange). The library
// has no clock: the caller gives the time.
struct Actor {
  std::string who;      // "" = not known
  int64_t unix_ms = 0;  // milliseconds since the Unix epoch; 0 = not known
};

// What CreateTournament needs.
struct TournamentOptions {
  std::string id;    // the caller's key; may be empty
  std::string name;  // required
  v1::TournamentSystem system = v1::TOURNAMENT_SYSTEM_UNSPECIFIED;
  // Swiss and SWISS_KNOCKOUT: rounds (of the Swiss part); 0 = the
  // recommended number, fixed when round 1 is paired. Round robins compute
  // theirs and ignore this.
  int rounds = 0;
  // BEST_OF: 3, 5 or 7.
  int best_of = 0;
  // KNOCKOUT: losses that eliminate, 1 (default) to 8. DOUBLE_KNOCKOUT: 2.
  int losses = 0;
  // A team event (round robin, double round robin or Swiss between teams)
  // of `boards` boards, 1 to 32.
  bool teams = false;
  int boards = 0;
  // SWISS_KNOCKOUT: entrants going on to the knockout, a power of two >= 2.
  int knockout_size = 0;
  // Seed of the drawing of lots; 0 = derived from the id and name.
  uint64_t drawing_lots = 0;
  // SWISS_ELIMINATION (required there, refused elsewhere): losses that put
  // a player out, 1 to 8.
  int eliminate_after = 0;
  // Game points for each round a late entry missed, and for a round sat
  // out at the player's request: 0 or 1 each (Swiss systems).
  int late_entry_points = 0;
  int sit_out_points = 0;
  // Swiss systems: rounds 1 .. accelerated_rounds are paired with virtual
  // points (the top half by seed as if one win up); 0 = off.
  int accelerated_rounds = 0;
};

// Validates `options` and returns a new tournament with no entrants.
absl::StatusOr<v1::Tournament> CreateTournament(
    const TournamentOptions& options);

// An entrant as registered.
struct PlayerEntry {
  std::string name;  // required, unique, at most 100 bytes
  int rating = 0;    // 0 = none; -1000..4000
  std::string rank;  // "", or like "3d", "15k", "2p"
  std::string club;
  // Team events and team challenges: the team, created on first use.
  std::string team;
  // Board in the team (1 = first); 0 = after the players already there.
  int board = 0;
  // The name in another script (李偉 beside "Li Wei"); may be empty.
  std::string alt_name;
  // The director's seed (1 = top); 0 = by rating, rank and registration
  // when round 1 is paired. Unique among the players.
  int seed = 0;
};

// Registers a player; returns its index. Before round 1 is paired, any
// system. After (a late entry, TournamentPlayer.entered_at_round): only
// an individual SWISS or the Swiss rounds of a SWISS_KNOCKOUT, with a round
// still to pair; the rounds already paired score late_entry_points each;
// the player seeds after everyone (or at `seed`, moving the seeds from
// there down one). FailedPrecondition (naming why) for other systems;
// InvalidArgument for bad fields or a seed already given.
absl::StatusOr<int> AddPlayer(v1::Tournament* t, const PlayerEntry& entry);

// Changes to a registered player; fields without a value are kept.
struct PlayerEdit {
  std::optional<int> rating;
  std::optional<std::string> rank;
  std::optional<std::string> club;
  std::optional<std::string> alt_name;
  // The seed (1 = top). Before round 1: any free seed (the player holding
  // it takes this player's old one). After: Swiss systems only, 1 .. the
  // number of seeds, swapped with its holder (later pairings see it).
  std::optional<int> seed;
};

// Edits player `name`. InvalidArgument for a bad value, NotFound for an
// unknown player, FailedPrecondition for a seed change the system does
// not allow once started (a round robin's table numbers, a bracket).
absl::Status EditPlayer(v1::Tournament* t, absl::string_view name,
                        const PlayerEdit& edit);

// A requested bye: player `name` sits out round `round`, which is not
// paired yet (or no longer does, with `cancel`). Individual SWISS and the
// Swiss rounds of SWISS_KNOCKOUT; the round scores sit_out_points and is
// neither a game nor the pairing's bye. FailedPrecondition for another
// system, a round already paired or beyond the event, a player who has
// withdrawn, a request made twice or a cancel of none.
absl::Status SitOut(v1::Tournament* t, absl::string_view name, int round,
                    bool cancel = false);

// The index of the player called `name`; NotFound otherwise.
absl::StatusOr<int> FindPlayer(const v1::Tournament& t, absl::string_view name);

// Withdraws a player (art. 28). Before round 1 is paired the player is
// removed and the draw is made without them (28.1). After: a game of theirs
// still without a result is forfeited; then
//   - round robin: under half the rounds played, every result of theirs
//     becomes void and they rank last (28.2); otherwise their results stand
//     and their remaining games are forfeits;
//   - Swiss and elimination: results stand, no further pairing (28.3);
//   - best-of, team challenge, team events: results stand, the games not
//     played are forfeits (28.4) -- for a team event, the player's boards.
// FailedPrecondition when already withdrawn. Each forfeit entered is kept
// in the history as `actor`'s.
absl::Status WithdrawPlayer(v1::Tournament* t, absl::string_view name,
                            const Actor& actor = {});

// Withdraws a team of a team event: as WithdrawPlayer for the team as the
// entrant; art. 28.4 (results stand, the rest are forfeits).
absl::Status WithdrawTeam(v1::Tournament* t, absl::string_view name,
                          const Actor& actor = {});

// Adds `count` warnings (art. 24) to a player's total.
absl::Status AddWarnings(v1::Tournament* t, absl::string_view name, int count);

// How PairNextRound pairs.
struct PairingOptions {
  // Swiss: when every pairing of the round repeats some pair, pair anyway
  // with the fewest repeats (the round is marked repeats_accepted).
  bool allow_repeats = false;
};

// What PairNextRound did.
struct PairingReport {
  // The number of the round paired or proposed.
  int round = 0;
  // True when the round was added to the tournament.
  bool paired = false;
  // Swiss: false when no repeat-free pairing existed; then `paired` is
  // false unless repeats were allowed, and `proposal` is the pairing with
  // the fewest repeats.
  bool repeat_free = true;
  int repeats_needed = 0;
  // The round as added (or proposed).
  v1::Round proposal;
};

// Pairs the next round. Round 1 starts the event: seeding orders are fixed
// (the director's seeds kept; the other places by lot for a round robin,
// otherwise by rating, then rank, then registration), and only a Swiss
// takes entrants afterwards (late entries). FailedPrecondition when any
// paired round is not complete -- a result missing, an entrant unpaired by
// an edit (naming the rounds, tables and names) --, when the event is
// over, or when the field does not fit the system (fewer than 2 entrants,
// teams of too few players, an odd field for SWISS_ELIMINATION ...).
absl::StatusOr<PairingReport> PairNextRound(v1::Tournament* t,
                                            const PairingOptions& options);

// How EnterResult changes a stored result.
struct ResultOptions {
  // Change a protected result (below) anyway.
  bool force = false;
  // Kept in the history with the change.
  Actor actor;
};

// Enters the result of table `table` of round `round` (both 1-based); in a
// team event, of board `board` (1-based; 0 is refused), otherwise `board`
// must be 0. UNKNOWN clears a result. Every change is kept in t->history
// (who, when, old, new); entering the result already stored changes
// nothing. Protected results, changed only with options.force:
//   - a forfeit (entered, or set by a withdrawal: by_withdrawal);
//   - a result of a round that later rounds were paired from (a Swiss
//     round before the last one; a round robin's rounds do not depend on
//     results, and entering a result where none was is always allowed).
// Refused without force: FailedPrecondition naming the reason and the
// standings the change would move ("'p3' rank 2 -> 5, points 4 -> 2");
// with force the same texts are returned as notes (and kept in the
// history). InvalidArgument (naming round, table and board) for a round,
// table or board that does not exist or a result out of range;
// FailedPrecondition, force or not, for a result of an earlier round of a
// system whose later pairings follow from it structurally (elimination,
// SWISS_KNOCKOUT, SWISS_ELIMINATION, best-of, team challenge): undo the
// later round's pairing first (EditPairing kUndoRound) while it has no
// result.
absl::StatusOr<std::vector<std::string>> EnterResult(
    v1::Tournament* t, int round, int table, int board, v1::GameResult result,
    const ResultOptions& options);

// EnterResult without force or actor, its notes dropped (the arena's
// referee and tests).
absl::Status SetResult(v1::Tournament* t, int round, int table,
                       v1::GameResult result, int board = 0);

// An edit of a round's pairing (EditPairing).
enum class PairingEditKind {
  kSwap,         // `first` and `second` change places (table, colour, bye)
  kUnpair,       // table `table` apart, or `first`'s bye taken back
  kPair,         // unpaired `first` (Black) meets unpaired `second`
  kBye,          // unpaired `first` gets the bye
  kSwapColours,  // Black and White of table `table` change
  kUndoRound,    // the round's pairing is taken back (no result in yet)
};

// What EditPairing does.
struct PairingEdit {
  PairingEditKind kind = PairingEditKind::kSwap;
  // The round: the last one paired (0 = the last one).
  int round = 0;
  // Entrant names (players, or teams in a team event) and the table.
  std::string first;
  std::string second;
  int table = 0;
  // Make it although a check refuses it (kept in the history).
  bool force = false;
  Actor actor;
};

// Edits the last round's pairing before it starts: tables with a result
// cannot be touched (undo needs a round without results). Entrants taken
// out of a pairing wait in Round.unpaired until placed again: the round is
// not complete before. A late entry registered after the round was paired
// may be placed in it by kPair or kBye. The checks of the pairer apply to
// the pairs and byes an edit makes: no pair that met before, at most one
// bye each and one a round (Swiss systems), a round robin's or an
// elimination's pairing stays the system's, and a bye is not taken back
// once the round has a result (it counts as a win); refused with the reason
// (FailedPrecondition), or made with `force` and the reason returned as a
// note. Every edit is kept in the history. FailedPrecondition for a round
// other than the last, a best-of or team challenge, an entrant who does
// not play in the round; NotFound for an unknown name; InvalidArgument for
// a table that does not exist.
absl::StatusOr<std::vector<std::string>> EditPairing(v1::Tournament* t,
                                                     const PairingEdit& edit);

// Records the id of a game played at a table (board 0) or board.
absl::Status AddGameId(v1::Tournament* t, int round, int table, int board,
                       absl::string_view game_id);

// True when no further round can be paired: every round played and every
// result in, or the elimination or match decided.
absl::StatusOr<bool> IsFinished(const v1::Tournament& t);

// Checks a message read back from storage: indexes in range, round numbers
// in order, names unique. InvalidArgument naming the first fault.
absl::Status ValidateTournament(const v1::Tournament& t);

// The standings and crosstable (standings.h), after ValidateTournament.
absl::StatusOr<Standings> GetStandings(const v1::Tournament& t);
absl::StatusOr<Crosstable> GetCrosstable(const v1::Tournament& t);

// The command-line spellings of the systems, both ways: round-robin,
// double-round-robin, knockout, double-knockout, swiss, swiss-knockout,
// best-of, team-challenge, swiss-elimination.
std::string SystemName(v1::TournamentSystem system);
absl::StatusOr<v1::TournamentSystem> ParseSystem(absl::string_view text);

// Strength of a rank text: "1d" = 1 ... "9d" = 9, "1p" = 10 + 1, "1k" = 0,
// "2k" = -1 ...; InvalidArgument for anything else.
absl::StatusOr<int> RankStrength(absl::string_view rank);

}  // namespace qipu::tournament

#endif  // QIPU_TOURNAMENT_TOURNAMENT_H_
