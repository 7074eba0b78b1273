#include "policy/stone_judge.h"

#include <memory>

#include "policy/playout.h"

namespace qipu::policy {

rules::StoneJudgement JudgeDeadStones(const rules::Board& board,
                                      const rules::JudgeOptions& options) {
  // PlayoutRunner holds a PatternMover's scratch arrays: on the heap.
  auto runner = std::make_unique<PlayoutRunner>(PlayoutKind::kPattern);
  return rules::JudgeStones(
      board, options,
      [&](rules::Board& b, rules::Color to_play, rules::Rng& rng) {
        runner->Run(b, to_play, rules::kNoPoint, rng, 3 * rules::kMaxPoints,
                    /*multi_stone_suicide=*/false, /*first=*/nullptr);
      });
}

}  // namespace qipu::policy
