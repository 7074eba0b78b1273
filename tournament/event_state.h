// Library-internal helpers shared by the files that implement the API of
// tournament.h (tournament.cc, registration.cc, round_pairing.cc,
// results.cc, pairing_edits.cc): system families, the "made by
// CreateTournament" check, team lookup, the rounds not complete yet, the
// boards of a team match, and the history. Not part of the public API;
// pure functions of the message, thread-safe on distinct or unchanging
// messages.
#ifndef QIPU_TOURNAMENT_EVENT_STATE_H_
#define QIPU_TOURNAMENT_EVENT_STATE_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "qipu/v1/tournament.pb.h"
#include "tournament/tournament.h"

namespace qipu::tournament {

// Longest tournament, player and team name, in bytes.
inline constexpr int kMaxNameBytes = 100;

// Round robin, single or double.
bool IsRoundRobin(v1::TournamentSystem s);

// Knockout or double knockout (not SWISS_KNOCKOUT).
bool IsElimination(v1::TournamentSystem s);

// Swiss, SWISS_KNOCKOUT and SWISS_ELIMINATION: paired by PairSwiss().
bool IsSwissFamily(v1::TournamentSystem s);

// Whether round `round` of `t` is paired by PairSwiss() (a Swiss round; not
// the knockout stage of a SWISS_KNOCKOUT).
bool IsSwissRound(const v1::Tournament& t, int round);

// Systems whose earlier results decide later pairings structurally (who
// is still in, who plays next): a result of an earlier round is frozen
// once a later round is paired.
bool ResultsFixPairings(v1::TournamentSystem s);

// FailedPrecondition unless `t` was made by CreateTournament; with
// `validate`, also ValidateTournament(t) (every call that reads the rounds
// as a whole does; SetResult and the like check their own indexes).
absl::Status CheckCreated(const v1::Tournament& t, bool validate = true);

// The index of the team called `name`, or -1.
int TeamIndex(const v1::Tournament& t, absl::string_view name);

// The name of entrant `e` (a team's in a team event); "" out of range.
std::string EntrantNameOf(const v1::Tournament& t, int e);

// The rounds that are not complete, one text each ("round 1 is not
// complete: no result at table 2, table 5 board 3", "round 3 is not
// complete: 'p5' is not paired"); empty when every paired round is.
// Pairing a round needs every earlier one complete.
std::vector<std::string> IncompleteRounds(const v1::Tournament& t);

// The players of team `team` that play its boards, board 1 first.
std::vector<int> TeamLineUp(const v1::Tournament& t, int team);

// Fills the boards of team pairing `p` of round `number` from the teams'
// line-ups (team `black` holds Black on odd boards), with the forfeits the
// withdrawal rules give, and its match result from them.
void FillBoards(const v1::Tournament& t, int number, v1::Pairing* p);

// Appends a change to t->history (TournamentChange): who and when from
// `actor`.
v1::TournamentChange* AppendChange(v1::Tournament* t, const Actor& actor,
                                   absl::string_view action);

}  // namespace qipu::tournament

#endif  // QIPU_TOURNAMENT_EVENT_STATE_H_
