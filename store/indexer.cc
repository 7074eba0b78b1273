#include "store/indexer.h"

#include <algorithm>
#include <cstring>
#include <memory>

#include "absl/container/inlined_vector.h"
#include "rules/board.h"
#include "rules/coord.h"
#include "rules/symmetry.h"
#include "store/keys.h"

namespace qipu::store {

namespace {

// Walks the first min(plies, depth) plies of `record` and calls
// sink(position, first_occurrence, has_next, canonical_move) for every
// position from the start to ply n: `has_next` is false for the last one;
// `canonical_move` (dense index + 1, 0 = pass) is meaningful with
// has_next. Positions repeated within the game come with
// first_occurrence = false.
template <typename Sink>
void WalkOpening(const rules::GameRecord& record, int plies, int depth,
                 Sink sink) {
  using rules::Color;
  const int w = record.width;
  const int h = record.height;
  const int n =
      std::min<int>({plies, depth, static_cast<int>(record.moves.size())});
  if (n < 0) return;
  // An empty board copied, not built: building one walks every cell
  // (3 us on 19x19, more than the walk itself). The boards are on the
  // heap, once per thread: in static TLS their ~30 KB would come out of
  // every thread's stack, and libraries' threads have small ones
  // (civetweb's are 100 KB).
  struct Boards {
    rules::Board empty{rules::kMinSize, rules::kMinSize};
    rules::Board board{rules::kMinSize, rules::kMinSize};
  };
  thread_local const std::unique_ptr<Boards> boards =
      std::make_unique<Boards>();
  rules::Board& empty = boards->empty;
  rules::Board& board = boards->board;
  if (empty.width() != w || empty.height() != h) empty = rules::Board(w, h);
  board.CopyFrom(empty);
  rules::SymmetricHasher hasher(w, h);
  rules::RemovedStones removed;
  Color to_play = Color::kBlack;
  size_t next_setup = 0;
  // Canonical keys seen so far (a position counts once per game).
  absl::InlinedVector<rules::Hash128, 64> seen;

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
    const bool first =
        std::find(seen.begin(), seen.end(), key.key) == seen.end();
    if (first) seen.push_back(key.key);
    if (k == n) {
      sink(key.key, first, false, 0);
      break;
    }
    const rules::Move m = record.moves[k];
    uint16_t move = 0;
    if (first) {
      const rules::Point cm = hasher.CanonicalMove(key, m.point);
      move = cm == rules::kPass
                 ? 0
                 : static_cast<uint16_t>(rules::DenseIndex(cm, w) + 1);
    }
    sink(key.key, first, true, move);
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
  }
}

// Varint of v (at most 10 bytes) into *out.
void PutVarint(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

}  // namespace

std::vector<IndexedPosition> IndexGame(const rules::GameRecord& record,
                                       int plies, int depth,
                                       rules::Winner winner, const GameId& id) {
  std::vector<IndexedPosition> out;
  const uint8_t w = static_cast<uint8_t>(record.width);
  const uint8_t h = static_cast<uint8_t>(record.height);
  WalkOpening(record, plies, depth,
              [&](const rules::Hash128& position, bool first, bool has_next,
                  uint16_t move) {
                if (!first) return;
                out.push_back(IndexedPosition{w, h, position, {}});
                PositionValue& v = out.back().delta;
                v.reached.Add(winner);
                if (!has_next) return;
                Continuation c;
                c.move = move;
                c.outcome.Add(winner);
                c.examples.push_back(id);
                v.continuations.push_back(std::move(c));
              });
  return out;
}

void PositionOps::Add(absl::string_view key, absl::string_view value) {
  bytes_.append(key.data(), key.size());
  PutVarint(&bytes_, value.size());
  bytes_.append(value.data(), value.size());
  ++count_;
}

void IndexGameOps(const rules::GameRecord& record, int plies, int depth,
                  rules::Winner winner, const GameId& id, uint32_t config_id,
                  uint32_t day, PositionOps* out) {
  std::string* bytes = out->mutable_bytes();
  const char w = static_cast<char>(record.width);
  const char h = static_cast<char>(record.height);
  // The encoded example id (the same for every continuation): kind and two
  // varints, at most 21 bytes.
  std::string example;
  example.push_back(static_cast<char>(id.kind));
  PutVarint(&example, id.hi);
  PutVarint(&example, id.lo);
  // One game's outcome, as EncodePositionValue writes it.
  const char outcome[4] = {1, winner == rules::Winner::kBlack ? '\1' : '\0',
                           winner == rules::Winner::kWhite ? '\1' : '\0',
                           winner == rules::Winner::kDraw ? '\1' : '\0'};
  size_t added = 0;
  WalkOpening(record, plies, depth,
              [&](const rules::Hash128& position, bool first, bool has_next,
                  uint16_t move) {
                if (!first) return;
                // The entry built on the stack and appended at once: key
                // (PositionKey(), 26 bytes), value length (always < 128),
                // value (at most 4 + 1 + 3 + 4 + 1 + 21 bytes).
                char e[kPositionKeyLength + 1 + 40];
                char* p = e;
                *p++ = w;
                *p++ = h;
                for (int s = 56; s >= 0; s -= 8) {
                  *p++ = static_cast<char>(position.hi >> s);
                }
                for (int s = 56; s >= 0; s -= 8) {
                  *p++ = static_cast<char>(position.lo >> s);
                }
                for (int s = 24; s >= 0; s -= 8) {
                  *p++ = static_cast<char>(config_id >> s);
                }
                for (int s = 24; s >= 0; s -= 8) {
                  *p++ = static_cast<char>(day >> s);
                }
                char* len = p++;
                std::memcpy(p, outcome, 4);
                p += 4;
                if (has_next) {
                  *p++ = 1;  // one continuation
                  uint32_t m = move;
                  while (m >= 0x80) {
                    *p++ = static_cast<char>(m | 0x80);
                    m >>= 7;
                  }
                  *p++ = static_cast<char>(m);
                  std::memcpy(p, outcome, 4);
                  p += 4;
                  *p++ = 1;  // one example
                  std::memcpy(p, example.data(), example.size());
                  p += example.size();
                } else {
                  *p++ = 0;  // no continuation
                }
                *len = static_cast<char>(p - len - 1);
                bytes->append(e, static_cast<size_t>(p - e));
                ++added;
              });
  out->AddCount(added);
}

}  // namespace qipu::store
