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
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "qipu/v1/tournament.pb.h"
#include "tournament/standings.h"

namespace qipu::tournament {

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
};

// Registers a player before round 1 is paired; returns its index.
absl::StatusOr<int> AddPlayer(v1::Tournament* t, const PlayerEntry& entry);

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
// FailedPrecondition when already withdrawn.
absl::Status WithdrawPlayer(v1::Tournament* t, absl::string_view name);

// Withdraws a team of a team event: as WithdrawPlayer for the team as the
// entrant; art. 28.4 (results stand, the rest are forfeits).
absl::Status WithdrawTeam(v1::Tournament* t, absl::string_view name);

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
// (round robin: the numbers drawn by lot; otherwise by rating, then rank,
// then registration), and no entrant can be added afterwards.
// FailedPrecondition when a result of the last round is missing (naming
// the round and its tables), when the event is over, or when the field does
// not fit the system (fewer than 2 entrants, teams of too few players ...).
absl::StatusOr<PairingReport> PairNextRound(v1::Tournament* t,
                                            const PairingOptions& options);

// Enters the result of table `table` of round `round` (both 1-based); in a
// team event, of board `board` (1-based; 0 is refused), otherwise `board`
// must be 0. UNKNOWN clears a result. InvalidArgument (naming round, table
// and board) for a round, table or board that does not exist or a result
// out of range; FailedPrecondition for a result of an earlier round in an
// elimination or a match once a later round is paired.
absl::Status SetResult(v1::Tournament* t, int round, int table,
                       v1::GameResult result, int board = 0);

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

// "round robin", "swiss" ...; and the command-line spellings both ways:
// round-robin, double-round-robin, knockout, double-knockout, swiss,
// swiss-knockout, best-of, team-challenge.
std::string SystemName(v1::TournamentSystem system);
absl::StatusOr<v1::TournamentSystem> ParseSystem(absl::string_view text);

// Strength of a rank text: "1d" = 1 ... "9d" = 9, "1p" = 10 + 1, "1k" = 0,
// "2k" = -1 ...; InvalidArgument for anything else.
absl::StatusOr<int> RankStrength(absl::string_view rank);

}  // namespace qipu::tournament

#endif  // QIPU_TOURNAMENT_TOURNAMENT_H_
