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
  int i = start;
  do {
    const Point p = board.empty_point(i);
    if (!board.IsOwnEye(p, c) && board.IsLegal(p, c)) return p;
    if (++i == n) i = 0;
  } while (i != start);
  return kPass;
}

int LightPlayout(Board& board, Color to_play, Rng& rng, int max_moves) {
  int passes = 0;
  int plies = 0;
  Color c = to_play;
  while (plies < max_moves && passes < 2) {
    const Point p = LightMove(board, c, rng);
    if (p == kPass) {
      board.Pass();
      ++passes;
    } else {
      board.Play(p, c);
      passes = 0;
    }
    ++plies;
    c = Opponent(c);
  }
  return plies;
}

Point FullMove(Game& game, Rng& rng, MoveVerdict* v) {
  const Board& board = game.board();
  const Color c = game.to_play();
  const int n = board.num_empty();
  if (n > 0) {
    const int start = static_cast<int>(rng.Below(static_cast<uint32_t>(n)));
    int i = start;
    do {
      const Point p = board.empty_point(i);
      if (!board.IsOwnEye(p, c)) {
        *v = game.Check(c, p);
        if (v->legal()) return p;
        if (v->reason == IllegalReason::kSuperko ||
            v->reason == IllegalReason::kCycle) {
          game.RecordPrevented(v->cycle);
        }
      }
      if (++i == n) i = 0;
    } while (i != start);
  }
  *v = game.Check(c, kPass);
  return kPass;
}

int FullPlayout(Game& game, Rng& rng) {
  const int start = game.num_moves();
  MoveVerdict v;
  while (!game.over()) {
    const Point p = FullMove(game, rng, &v);
    game.Play(game.to_play(), p, v);
  }
  return game.num_moves() - start;
}

}  // namespace qipu::rules
