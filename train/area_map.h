// AreaMap: who each point belongs to if the game were counted now under
// area counting with every stone alive (rules/scoring.h's CountArea(), point
// by point): a stone's own colour; an empty point the colour its empty
// region reaches when it reaches only one; kEmpty for dame (regions that
// reach both colours, or neither). Under DameRule::kHalf each dame point is
// worth half a point to each side -- the map leaves it to nobody.
//
// Allocation-free; one flood fill over the empty regions.
#ifndef QIPU_TRAIN_AREA_MAP_H_
#define QIPU_TRAIN_AREA_MAP_H_

#include <array>

#include "rules/board.h"
#include "rules/types.h"

namespace qipu::train {

// Owner of each cell of the padded layout (valid on board points; kWall
// elsewhere is left unspecified). Trivially copyable.
using AreaMap = std::array<rules::Color, rules::kNumCells>;

// (OUT) *area: the owner of every point of `board`.
void ComputeArea(const rules::Board& board, AreaMap* area);

}  // namespace qipu::train

#endif  // QIPU_TRAIN_AREA_MAP_H_
