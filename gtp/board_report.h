// What the GTP front-end says about a position: showboard's drawing.
// (final_status_list's verdicts are rules/dead_stones.h's judgement.)
#ifndef QIPU_GTP_BOARD_REPORT_H_
#define QIPU_GTP_BOARD_REPORT_H_

#include <string>

#include "rules/game.h"

namespace qipu::gtp {

// showboard's text: a leading newline, column letters, rows numbered from
// the bottom, 'X' Black, 'O' White, '.' empty ('+' on star points), the
// last move marked with parentheses, and captures, the side to move, komi
// and the move count beside the board.
std::string ShowBoard(const rules::Game& game);

}  // namespace qipu::gtp

#endif  // QIPU_GTP_BOARD_REPORT_H_
