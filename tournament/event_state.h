// Library-internal helpers shared by the files that implement the API of
// tournament.h (tournament.cc, registration.cc, round_pairing.cc,
// results.cc): system families, the "made by CreateTournament" check, team
// lookup and the results still missing from the last round. Not part of
// the public API; pure functions of the message, thread-safe on distinct
// or unchanging messages.
#ifndef QIPU_TOURNAMENT_EVENT_STATE_H_
#define QIPU_TOURNAMENT_EVENT_STATE_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "qipu/v1/tournament.pb.h"

namespace qipu::tournament {

// Longest tournament, player and team name, in bytes.
inline constexpr int kMaxNameBytes = 100;

// Round robin, single or double.
bool IsRoundRobin(v1::TournamentSystem s);

// Knockout or double knockout (not SWISS_KNOCKOUT).
bool IsElimination(v1::TournamentSystem s);

// Systems whose earlier results decide later pairings structurally: a
// result of an earlier round is frozen once a later round is paired.
bool ResultsFixPairings(v1::TournamentSystem s);

// FailedPrecondition unless `t` was made by CreateTournament; with
// `validate`, also ValidateTournament(t) (every call that reads the rounds
// as a whole does; SetResult and the like check their own indexes).
absl::Status CheckCreated(const v1::Tournament& t, bool validate = true);

// The index of the team called `name`, or -1.
int TeamIndex(const v1::Tournament& t, absl::string_view name);

// The results missing from the last round, as "table 2", "table 5 board 3";
// empty when none is missing or nothing is paired.
std::vector<std::string> MissingResults(const v1::Tournament& t);

}  // namespace qipu::tournament

#endif  // QIPU_TOURNAMENT_EVENT_STATE_H_
