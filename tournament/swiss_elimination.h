// Swiss with multi-loss elimination (積分編排加淘汰, art. 26.4: "在積分編排
// 比賽辦法的基礎上，結合多敗淘汰進行的比賽 ... 始終要保持參賽人數為偶數").
//
// Each round is a Swiss round (swiss.h: score groups, no repeated pair,
// colours) among the players still in. A player is out after
// `eliminate_after` losses (at the board, by forfeit, or both-lose; a draw
// is no loss), so the field shrinks as the event goes. The number still
// playing is kept even at every round, so that nobody has a bye:
//   - at the start: an odd field is refused; the director registers or
//     withdraws one (art. 28.1 lets the draw be made again);
//   - later, when eliminations or withdrawals leave an odd number, the
//     player ranked lowest of those still in by the Swiss order (points,
//     SOS, fewer warnings, lots: art. 27.1 ② B) is out too, before the
//     round is paired (Round.cut records it, so that a later change of a
//     result does not move it).
// The event ends after its rounds (`rounds`, by default the recommended
// Swiss number for the starting field) or when one player or none is left.
// Standings: the players still in first, then by the round in which they
// went out (latest first; a cut player goes out after the round before
// the cut), each group in the Swiss order.
#ifndef QIPU_TOURNAMENT_SWISS_ELIMINATION_H_
#define QIPU_TOURNAMENT_SWISS_ELIMINATION_H_

#include <vector>

#include "absl/status/statusor.h"
#include "qipu/v1/tournament.pb.h"
#include "tournament/field.h"

namespace qipu::tournament {

// The players of a SWISS_ELIMINATION still in before round `round`:
// playing in it (not withdrawn, not cut), results not void, fewer losses
// than t.eliminate_after(); in index order.
std::vector<int> SwissEliminationStillIn(const v1::Tournament& t,
                                         const Field& field, int round);

// The round after which entrant `e` was out: the round of its
// eliminate_after-th loss, or the round before it was cut or withdrew (0:
// before round 1); -1 while it is still in.
int SwissEliminationOutAfter(const v1::Tournament& t, const Entrant& e);

// Who plays round `round`: the players still in and, when their number is
// odd, the one cut. FailedPrecondition when one player or none is left
// (naming the winner).
struct SwissEliminationRound {
  std::vector<int> players;
  std::vector<int> cut;
};
absl::StatusOr<SwissEliminationRound> SwissEliminationPlayers(
    const v1::Tournament& t, const Field& field, int round);

}  // namespace qipu::tournament

#endif  // QIPU_TOURNAMENT_SWISS_ELIMINATION_H_
