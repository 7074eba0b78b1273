// The root visit counts of the searches that chose a game's moves, packed
// into qipu.v1.Game.search_visits (game.proto documents the bytes): per
// searched move, its 0-based index and its (point, visits) pairs as
// varints -- a few bytes per searched root move, not one number per point
// of the board. Written by the worker from policy::MoveChoice.visits,
// checked by the coordinator, rendered into SGF by engine/game_format.
#ifndef QIPU_PROTO_SEARCH_VISITS_H_
#define QIPU_PROTO_SEARCH_VISITS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/types.h"

namespace qipu::wire {

// Visits of one root move: a board point or rules::kPass.
struct PointVisits {
  rules::Point point = rules::kPass;
  uint32_t visits = 0;

  friend bool operator==(const PointVisits&, const PointVisits&) = default;
};

// The root of the search that chose move `move` (0-based).
struct MoveSearch {
  uint32_t move = 0;
  // Most visited first; non-empty.
  std::vector<PointVisits> visits;

  friend bool operator==(const MoveSearch&, const MoveSearch&) = default;
};

// Appends the entry of `search` to *out (the caller keeps moves
// increasing). Points that are not board points of the width-wide board
// nor kPass, and pairs with zero visits, are left out; nothing is appended
// when none is left.
void AppendMoveSearch(const MoveSearch& search, int width, std::string* out);

// Packs `searches` (AppendMoveSearch() of each, in order).
std::string PackSearches(const std::vector<MoveSearch>& searches, int width);

// Unpacks and checks a Game.search_visits of a width x height game with
// `num_moves` moves: InvalidArgument naming the entry for truncated bytes,
// a move index that does not increase or is not below num_moves, an entry
// without pairs, a point off the board, a point twice in one entry, zero
// visits.
absl::StatusOr<std::vector<MoveSearch>> UnpackSearches(absl::string_view data,
                                                       int width, int height,
                                                       uint32_t num_moves);

}  // namespace qipu::wire

#endif  // QIPU_PROTO_SEARCH_VISITS_H_
