// qipu's judgement of dead and seki stones in a final position: the rules
// core's judgement (rules/dead_stones.h -- ownership over playouts, seki by
// shared liberties) with `pattern` playouts (PatternMover: the tactics
// capture a lone invader in atari and save the owner's chains, and the
// self-atari rule keeps sekis standing), which judge life and death far
// closer to a player than light random playouts: a chain with one eye and
// room to make a second survives them, an invader without room does not.
// This is the judgement `qipu gtp`'s final_score and final_status_list
// give, a qipu policy's view of dead stones in a match (match/player.h),
// and the stones `qipu play` marks for people to confirm.
//
// Deterministic (rules::JudgeOptions's fixed seed); thread-safe (each call
// has its own playout state).
#ifndef QIPU_POLICY_STONE_JUDGE_H_
#define QIPU_POLICY_STONE_JUDGE_H_

#include "rules/board.h"
#include "rules/dead_stones.h"

namespace qipu::policy {

// The judgement of `board`'s stones with pattern playouts.
rules::StoneJudgement JudgeDeadStones(const rules::Board& board,
                                      const rules::JudgeOptions& options = {});

}  // namespace qipu::policy

#endif  // QIPU_POLICY_STONE_JUDGE_H_
