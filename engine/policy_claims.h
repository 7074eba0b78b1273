// The claims of self-play games played through policies (worker/
// policy_game.h) that the rules alone do not settle, for PrepareSelfPlay():
// which policies played, an end a policy gave (resignation, an illegal
// move's forfeit, a policy's failure), and the root visits of the
// searches. Games of such jobs are never regenerated from their seed.
#ifndef QIPU_ENGINE_POLICY_CLAIMS_H_
#define QIPU_ENGINE_POLICY_CLAIMS_H_

#include "absl/status/status.h"
#include "proto/convert.h"
#include "proto/job_policies.h"
#include "rules/game.h"
#include "rules/replay.h"
#include "rules/rules.h"

namespace qipu::engine {

// The policies an upload claims (an upload without any: the light policy,
// as workers before per-colour policies sent none).
wire::ColourPolicies ClaimedPolicies(const wire::SelfPlayUpload& u);

// True for the results a policy gives (not the rules): a resignation, an
// illegal move's forfeit, a policy's failure; and a count whose dead
// stones the players settled (counting judged, agreed or played out: a
// game with a GTP engine, match/match.h).
bool PolicyEnded(const rules::GameResult& r);

// A game a policy ended: the rules must not have ended it (report), the
// side to move after the last move is the loser of a resignation or
// forfeit (and the forfeit's move, when a point, illegal there), a
// policy's failure has no winner and says why (result detail); margins 0.
// A settled count: one of the colours is a gtp: engine, the rules ended
// the game by two passes (a played-out dispute: its moves after those
// passes are legal, play resumed each time two passes ended it, and the
// last two moves are passes), and the count of the final position with
// the claimed dead stones (stones of that position) off is the claimed
// result. `game` is the replay's final position. InvalidArgument naming
// the difference.
absl::Status CheckPolicyEnd(const wire::SelfPlayUpload& u,
                            const rules::ReplayReport& report,
                            const rules::Game& game);

// Game.search_visits of an upload whose moves replayed legally under
// `rules`: well-formed (wire::UnpackSearches) and legal-looking -- every
// point a search visited was empty before the move it chose. The move
// played need not be among them. InvalidArgument naming the move.
absl::Status CheckSearches(const wire::SelfPlayUpload& u,
                           const rules::Rules& rules);

}  // namespace qipu::engine

#endif  // QIPU_ENGINE_POLICY_CLAIMS_H_
