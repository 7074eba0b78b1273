// What the GTP front-end says about a position: showboard's drawing and
// final_status_list's verdict on each chain.
//
// final_status_list, with qipu's scoring: qipu counts area with every
// stone on the board alive (rules/scoring.h: Chinese rules played out --
// dead stones are captured before the two passes, as in qipu's self-play,
// `qipu replay` and Tromp-Taylor). So that final_status_list and
// final_score agree, no stone is ever "dead"; a chain is "seki" when one of
// its liberties is a shared liberty -- an empty point of a region that
// reaches stones of both colours, where neither colour can play without
// capturing nothing and leaving its own chain with at most one liberty --
// and "alive" otherwise. A deterministic heuristic for finished boards, no
// playouts: it misjudges games stopped before dead stones were taken off
// (their stones count as alive, in the score too).
#ifndef QIPU_GTP_BOARD_REPORT_H_
#define QIPU_GTP_BOARD_REPORT_H_

#include <string>
#include <vector>

#include "rules/board.h"
#include "rules/game.h"

namespace qipu::gtp {

// A chain's final status.
enum class StoneStatus { kAlive, kDead, kSeki };

// The chains of `board` with status `status` (see the file comment), each
// as its stones, chains in board order (top-left first), stones in board
// order.
std::vector<std::vector<rules::Point>> ChainsWithStatus(
    const rules::Board& board, StoneStatus status);

// showboard's text: a leading newline, column letters, rows numbered from
// the bottom, 'X' Black, 'O' White, '.' empty ('+' on star points), the
// last move marked with parentheses, and captures, the side to move, komi
// and the move count beside the board.
std::string ShowBoard(const rules::Game& game);

}  // namespace qipu::gtp

#endif  // QIPU_GTP_BOARD_REPORT_H_
