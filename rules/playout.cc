#include "rules/playout.h"

namespace qipu::rules {

uint64_t GameSeed(uint64_t job_seed, uint64_t index) {
  Rng a(job_seed ^ 0x71697075'73656564ULL);  // "qipuseed"
  const uint64_t base = a.Next();
  Rng b(base + index * 0xD1B54A32D192ED03ULL);
  return b.Next();
}

Point LightMove(const Board& board, Color c, Rng& rng) {
  const int n = board.num_empty();
  if (n == 0) return kPass;
  const int start = static_cast<int>(rng.Below(static_cast<uint32_t>(n)));
  const int i = board.ScanLight(c, start, n);
  return i < 0 ? kPass : board.empty_point(i);
}

int LightPlayout(Board& board, Color to_play, Rng& rng, int max_moves) {
  return board.PlayLightGame(to_play, rng, max_moves);
}

Point FullMove(Game& game, Rng& rng, MoveVerdict* v) {
  // The board's own scan finds, in policy order, the candidates that are
  // not own eyes and that the board allows (under the game's suicide
  // rule); only those can pass Game::Check(), which adds the repetition
  // rules. A candidate those reject is recorded and the scan goes on after
  // it.
  const Board& board = game.board();
  const Color c = game.to_play();
  const bool multi_stone_suicide = game.rules().multi_stone_suicide;
  const int n = board.num_empty();
  if (n > 0) {
    int i = static_cast<int>(rng.Below(static_cast<uint32_t>(n)));
    int left = n;
    while (left > 0) {
      const int j = board.ScanLight(c, i, left, multi_stone_suicide);
      if (j < 0) break;
      const Point p = board.empty_point(j);
      *v = game.CheckBoardLegal(c, p);
      if (v->legal()) return p;
      if (v->reason == IllegalReason::kSuperko ||
          v->reason == IllegalReason::kCycle) {
        game.RecordPrevented(v->cycle);
      }
      left -= (j >= i ? j - i : j + n - i) + 1;
      i = j + 1 == n ? 0 : j + 1;
    }
  }
  *v = game.Check(c, kPass);
  return kPass;
}

int FullPlayout(Game& game, Rng& rng) { return game.PlayLightGame(rng); }

}  // namespace qipu::rules
