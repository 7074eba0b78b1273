#include "store/indexer.h"

#include <algorithm>
#include <memory>

#include "absl/container/inlined_vector.h"
#include "base/varint.h"
#include "rules/board.h"
#include "rules/coord.h"
#include "rules/symmetry.h"
#include "store/keys.h"

namespace qipu::store {

namespace {

// Walks the first n = min(plies, depth) plies of `record` and calls
// sink(position, first_occurrence, has_next, canonical_move) for every
// position from the start to ply n: `has_next` is false for the last one;
// `canonical_move` (dense index + 1, 0 = pass) is meaningful with
// has_next. Positions repeated within the game come with
// first_occurrence = false.
//
// The side to move folded into a position's key is the colour of the move
// the record plays next there -- also at ply n when the record goes on
// (cut by the depth, or by `plies` where the rules ended the game or
// refused a move) -- so a record that moves one colour twice in a row (a
// free-placement handicap given as B, B, W...) files the second move under
// "Black to move". After the record's last move it is the natural one: the
// opponent of that move's colour, or a later setup's PL. A record without
// moves uses its setup's PL, White after a root handicap setup of black
// stones, else Black. So the walk depends on `plies` and `depth` only
// through n, and the position index's recovery (which re-indexes a stored
// game with plies = depth = n) files every entry as the first indexing
// did. A record whose moves follow exactly these natural sides (every
// record that alternates colours) gets the keys it got before the next
// move's colour was used (issue 16; tests/store/indexer_format_test.cc
// pins them), which is why kFormatVersion did not change.
template <typename Sink>
void WalkOpening(const rules::GameRecord& record, int plies, int depth,
                 Sink sink) {
  using rules::Color;
  const int w = record.width;
  const int h = record.height;
  // Every recorded move names the side to move before it (also the moves
  // past `plies`).
  const int recorded = static_cast<int>(record.moves.size());
  const int n = std::min({plies, depth, recorded});
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
  // The side to move: the natural one until the loop reads the next
  // recorded move's colour.
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
    if (k < recorded) to_play = record.moves[k].color;
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
  base::PutVarint64(&bytes_, value.size());
  bytes_.append(value.data(), value.size());
  ++count_;
}

void IndexGameOps(const rules::GameRecord& record, int plies, int depth,
                  rules::Winner winner, const GameId& id, uint32_t config_id,
                  uint32_t day, PositionOps* out) {
  std::string* bytes = out->mutable_bytes();
  PositionKeyParts key;
  key.width = static_cast<uint8_t>(record.width);
  key.height = static_cast<uint8_t>(record.height);
  key.config_id = config_id;
  key.day = day;
  const OneGameValueEncoder value(winner, id);
  // The value's length is a one-byte varint.
  static_assert(OneGameValueEncoder::kMaxBytes < 0x80);
  size_t added = 0;
  WalkOpening(record, plies, depth,
              [&](const rules::Hash128& position, bool first, bool has_next,
                  uint16_t move) {
                if (!first) return;
                // The entry built on the stack and appended at once: key,
                // value length, value.
                char e[kPositionKeyLength + 1 + OneGameValueEncoder::kMaxBytes];
                key.position = position;
                char* len = EncodePositionKey(e, key);
                char* end = value.EncodeTo(len + 1, has_next, move);
                *len = static_cast<char>(end - len - 1);
                bytes->append(e, static_cast<size_t>(end - e));
                ++added;
              });
  out->AddCount(added);
}

OpeningHit FindInOpening(const rules::GameRecord& record, int plies, int depth,
                         const rules::Hash128& target) {
  OpeningHit hit;
  WalkOpening(
      record, plies, depth,
      [&](const rules::Hash128& key, bool first, bool has_next, uint16_t move) {
        if (hit.reached || !first || !(key == target)) return;
        hit.reached = true;
        hit.has_next = has_next;
        hit.move = move;
      });
  return hit;
}

}  // namespace qipu::store
