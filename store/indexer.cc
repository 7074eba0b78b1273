#include "store/indexer.h"

#include <algorithm>

#include "rules/board.h"
#include "rules/coord.h"
#include "rules/symmetry.h"

namespace qipu::store {

std::vector<IndexedPosition> IndexGame(const rules::GameRecord& record,
                                       int plies, int depth,
                                       rules::Winner winner, const GameId& id) {
  using rules::Color;
  std::vector<IndexedPosition> out;
  const int w = record.width;
  const int h = record.height;
  const int n = std::min<int>({plies, depth, static_cast<int>(record.moves.size())});
  out.reserve(n + 1);
  rules::Board board(w, h);
  rules::SymmetricHasher hasher(w, h);
  rules::RemovedStones removed;
  Color to_play = Color::kBlack;
  size_t next_setup = 0;

  auto apply_setup = [&](int k) {
    bool changed = false;
    while (next_setup < record.setup.size() &&
           record.setup[next_setup].before_move <= k) {
      const rules::SetupStep& s = record.setup[next_setup];
      for (rules::Point p : s.empty) board.SetStone(p, Color::kEmpty);
      for (rules::Point p : s.black) board.SetStone(p, Color::kBlack);
      for (rules::Point p : s.white) board.SetStone(p, Color::kWhite);
      if (s.to_play == Color::kBlack || s.to_play == Color::kWhite) {
        to_play = s.to_play;
      } else if (next_setup == 0 && s.before_move == 0 &&
                 record.handicap >= 2 && s.white.empty() && !s.black.empty()) {
        to_play = Color::kWhite;
      }
      ++next_setup;
      changed = true;
    }
    if (changed) hasher = rules::SymmetricHasher(board);
  };

  for (int k = 0; k <= n; ++k) {
    apply_setup(k);
    const rules::CanonicalKey key = hasher.Canonical(to_play);
    const bool seen = std::any_of(out.begin(), out.end(), [&](const auto& e) {
      return e.position == key.key;
    });
    IndexedPosition* entry = nullptr;
    if (!seen) {
      out.push_back(IndexedPosition{static_cast<uint8_t>(w),
                                    static_cast<uint8_t>(h), key.key, {}});
      entry = &out.back();
      entry->delta.reached.Add(winner);
    }
    if (k == n) break;
    const rules::Move m = record.moves[k];
    const rules::Point cm = hasher.CanonicalMove(key, m.point);
    if (m.point == rules::kPass) {
      board.Pass();
    } else {
      removed.count = 0;
      board.Play(m.point, m.color, &removed);
      hasher.Toggle(m.color, m.point);
      const int suicided = board.last_play().suicided;
      for (int r = 0; r < removed.count; ++r) {
        const bool own = r >= removed.count - suicided;
        hasher.Toggle(own ? m.color : rules::Opponent(m.color),
                      removed.points[r]);
      }
    }
    to_play = rules::Opponent(m.color);
    if (entry == nullptr) continue;
    Continuation c;
    c.move = cm == rules::kPass
                 ? 0
                 : static_cast<uint16_t>(rules::DenseIndex(cm, w) + 1);
    c.outcome.Add(winner);
    c.examples.push_back(id);
    entry->delta.continuations.push_back(std::move(c));
  }
  return out;
}

}  // namespace qipu::store
