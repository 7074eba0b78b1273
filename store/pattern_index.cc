#include "store/pattern_index.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "proto/convert.h"
#include "qipu/v1/game.pb.h"
#include "rocksdb/write_batch.h"
#include "spdlog/spdlog.h"
#include "store/keys.h"
#include "store/status.h"
#include "store/store.h"

namespace qipu::store {

// --- PositionWalk -------------------------------------------------------

struct PositionWalk::Boards {
  rules::Board empty{rules::kMinSize, rules::kMinSize};
  rules::Board board{rules::kMinSize, rules::kMinSize};
  rules::RemovedStones removed;
};

PositionWalk::PositionWalk() : boards_(std::make_unique<Boards>()) {}
PositionWalk::~PositionWalk() = default;

void PositionWalk::Start(const rules::GameRecord& record) {
  record_ = &record;
  next_setup_ = 0;
  ply_ = 0;
  last_ = static_cast<int>(record.moves.size());
  rules::Board& empty = boards_->empty;
  if (empty.width() != record.width || empty.height() != record.height) {
    empty = rules::Board(record.width, record.height);
  }
  boards_->board.CopyFrom(empty);
  black_.fill(0);
  white_.fill(0);
  boards_->removed.count = 0;
  ApplySetups();
}

void PositionWalk::ApplySetups() {
  bool changed = false;
  while (next_setup_ < record_->setup.size() &&
         record_->setup[next_setup_].before_move <= ply_) {
    const rules::SetupStep& s = record_->setup[next_setup_];
    rules::Board& board = boards_->board;
    for (rules::Point p : s.empty) board.SetStone(p, rules::Color::kEmpty);
    for (rules::Point p : s.black) board.SetStone(p, rules::Color::kBlack);
    for (rules::Point p : s.white) board.SetStone(p, rules::Color::kWhite);
    ++next_setup_;
    changed = true;
  }
  if (changed) rules::BoardToRows(boards_->board, &black_, &white_);
  setup_applied_ = changed;
}

const rules::RemovedStones& PositionWalk::removed() const {
  return boards_->removed;
}

bool PositionWalk::AtEnd() const { return ply_ >= last_; }

const rules::Move& PositionWalk::next_move() const {
  return record_->moves[ply_];
}

void PositionWalk::Next() {
  const rules::Move m = record_->moves[ply_];
  rules::Board& board = boards_->board;
  if (m.point != rules::kPass) {
    if (board.at(m.point) != rules::Color::kEmpty) {
      // A move the rules would not have read: the walk ends before it.
      last_ = ply_;
      return;
    }
    rules::RemovedStones& removed = boards_->removed;
    removed.count = 0;
    board.Play(m.point, m.color, &removed);
    const int x = rules::PointX(m.point);
    const int y = rules::PointY(m.point);
    (m.color == rules::Color::kBlack ? black_ : white_)[y] |= uint32_t{1} << x;
    for (int r = 0; r < removed.count; ++r) {
      const rules::Point p = removed.points[r];
      const uint32_t clear = ~(uint32_t{1} << rules::PointX(p));
      black_[rules::PointY(p)] &= clear;
      white_[rules::PointY(p)] &= clear;
    }
  } else {
    boards_->removed.count = 0;
    board.Pass();
  }
  ++ply_;
  ApplySetups();
}

// --- Entries --------------------------------------------------------------

namespace {

size_t PlaneBytes(int width, int height) {
  return (static_cast<size_t>(width) * height + 7) / 8;
}

void PutPlane(const rules::BoardRows& rows, int width, int height, char* out) {
  std::memset(out, 0, PlaneBytes(width, height));
  for (int y = 0; y < height; ++y) {
    // The row's bits, shifted to their place in its first byte: at most
    // 5 bytes (width <= 25, shift < 8).
    const int start = y * width;
    uint64_t bits = static_cast<uint64_t>(rows[y]) << (start & 7);
    for (char* b = out + (start >> 3); bits != 0; ++b, bits >>= 8) {
      *b = static_cast<char>(static_cast<uint8_t>(*b) | (bits & 0xff));
    }
  }
}

void GetPlane(const char* in, int width, int height, uint32_t row_mask,
              rules::BoardRows* rows) {
  const uint32_t mask = (uint32_t{1} << width) - 1;
  for (int y = 0; y < height; ++y) {
    if (((row_mask >> y) & 1) == 0) {
      (*rows)[y] = 0;
      continue;
    }
    const int start = y * width;
    // The row's bits span at most 5 bytes (width <= 25, start % 8 < 8).
    uint64_t bits = 0;
    const int first = start >> 3;
    const int last = (start + width - 1) >> 3;
    for (int b = last; b >= first; --b) {
      bits = (bits << 8) | static_cast<uint8_t>(in[b]);
    }
    (*rows)[y] = static_cast<uint32_t>(bits >> (start & 7)) & mask;
  }
}

}  // namespace

std::string EncodePatternEntry(const rules::GameRecord& record,
                               PositionWalk* walk) {
  const int w = record.width;
  const int h = record.height;
  std::array<rules::BoardRows, kMaxPatternSegments> black{};
  std::array<rules::BoardRows, kMaxPatternSegments> white{};
  std::array<rules::BoardRows, kMaxPatternSegments> empty{};
  const uint32_t full = (uint32_t{1} << w) - 1;
  // Segment s takes the whole board of the position that opens it (or
  // follows setup stones); after that a move adds its stone to its
  // colour's bitmap and the points it empties to the empty one, which is
  // the union over the segment's positions, kept at O(1) a move.
  auto take_board = [&](int seg) {
    for (int y = 0; y < h; ++y) {
      const uint32_t b = walk->black_rows()[y];
      const uint32_t wh = walk->white_rows()[y];
      black[seg][y] |= b;
      white[seg][y] |= wh;
      empty[seg][y] |= full & ~(b | wh);
    }
  };
  walk->Start(record);
  int seg = PatternSegmentOf(0);
  int segments = seg + 1;
  take_board(seg);
  while (!walk->AtEnd()) {
    const rules::Move m = walk->next_move();
    const int before = walk->ply();
    walk->Next();
    if (walk->ply() == before) break;  // a move onto an occupied point
    const int next = PatternSegmentOf(walk->ply());
    if (next != seg || walk->setup_applied()) {
      seg = next;
      segments = std::max(segments, seg + 1);
      take_board(seg);
      continue;
    }
    if (m.point == rules::kPass) continue;
    const uint32_t bit = uint32_t{1} << rules::PointX(m.point);
    (m.color == rules::Color::kBlack ? black
                                     : white)[seg][rules::PointY(m.point)] |=
        bit;
    const rules::RemovedStones& removed = walk->removed();
    for (int r = 0; r < removed.count; ++r) {
      const rules::Point p = removed.points[r];
      empty[seg][rules::PointY(p)] |= uint32_t{1} << rules::PointX(p);
    }
  }
  const size_t plane = PlaneBytes(w, h);
  std::string out(4 + segments * 3 * plane, '\0');
  out[0] = static_cast<char>(kPatternEntryVersion);
  out[1] = static_cast<char>(w);
  out[2] = static_cast<char>(h);
  out[3] = static_cast<char>(segments);
  char* p = out.data() + 4;
  for (int s = 0; s < segments; ++s) {
    PutPlane(black[s], w, h, p);
    PutPlane(white[s], w, h, p + plane);
    PutPlane(empty[s], w, h, p + 2 * plane);
    p += 3 * plane;
  }
  return out;
}

bool DecodePatternEntry(absl::string_view value, PatternEntry* out,
                        uint32_t row_mask) {
  if (value.size() < 4 ||
      static_cast<uint8_t>(value[0]) != kPatternEntryVersion) {
    return false;
  }
  const int w = static_cast<uint8_t>(value[1]);
  const int h = static_cast<uint8_t>(value[2]);
  const int n = static_cast<uint8_t>(value[3]);
  if (w < rules::kMinSize || w > rules::kMaxSize || h < rules::kMinSize ||
      h > rules::kMaxSize || n < 1 || n > kMaxPatternSegments) {
    return false;
  }
  const size_t plane = PlaneBytes(w, h);
  if (value.size() != 4 + n * 3 * plane) return false;
  out->width = w;
  out->height = h;
  out->segments = n;
  const char* p = value.data() + 4;
  for (int s = 0; s < n; ++s) {
    GetPlane(p, w, h, row_mask, &out->black[s]);
    GetPlane(p + plane, w, h, row_mask, &out->white[s]);
    GetPlane(p + 2 * plane, w, h, row_mask, &out->empty[s]);
    p += 3 * plane;
  }
  return true;
}

int PatternSegmentOf(int ply) {
  int s = 0;
  while (ply >= kPatternSegmentEnds[s]) ++s;
  return s;
}

uint32_t PatternRowsNeeded(const rules::PatternSearch& search) {
  uint32_t rows = 0;
  for (const rules::PatternVariant& v : search.variants()) {
    for (int oy = 0; oy < rules::kMaxSize; ++oy) {
      if (v.offsets[oy] == 0) continue;
      for (int j = 0; j < v.height && oy + j < 32; ++j) rows |= 1u << (oy + j);
    }
  }
  return rows;
}

uint32_t PatternCandidates(const PatternEntry& entry,
                           const rules::PatternSearch& search,
                           rules::BoardRows* allowed) {
  const auto& variants = search.variants();
  uint32_t segments = 0;
  rules::BoardRows black_or_empty;
  rules::BoardRows white_or_empty;
  for (size_t v = 0; v < variants.size(); ++v) allowed[v].fill(0);
  // Latest (densest) segments first: what they admit need not be tested
  // again in the others once those are known to admit something.
  for (int s = entry.segments - 1; s >= 0; --s) {
    const rules::BoardRows& b = entry.black[s];
    const rules::BoardRows& w = entry.white[s];
    const rules::BoardRows& e = entry.empty[s];
    for (int y = 0; y < entry.height; ++y) {
      black_or_empty[y] = b[y] | e[y];
      white_or_empty[y] = w[y] | e[y];
    }
    // Indexed by PatternVariant::cells' kind.
    const rules::BoardRows* planes[5] = {&b, &w, &e, &black_or_empty,
                                         &white_or_empty};
    bool admits = false;
    for (size_t v = 0; v < variants.size(); ++v) {
      const rules::PatternVariant& pv = variants[v];
      const int last_oy = std::min(pv.last_oy, entry.height - pv.height);
      for (int oy = pv.first_oy; oy <= last_oy; ++oy) {
        uint32_t m = pv.offsets[oy];
        if (admits) m &= ~allowed[v][oy];
        for (int c = 0; c < pv.num_cells && m != 0; ++c) {
          const uint16_t cell = pv.cells[c];
          const rules::BoardRows& plane = *planes[cell >> 10];
          m &= plane[oy + ((cell >> 5) & 31)] >> (cell & 31);
        }
        if (m != 0) {
          allowed[v][oy] |= m;
          admits = true;
        }
      }
    }
    if (admits) segments |= uint32_t{1} << s;
  }
  return segments;
}

absl::StatusOr<uint64_t> BackfillPatternIndex(Store* store) {
  PositionWalk walk;
  rocksdb::WriteBatch batch;
  uint64_t written = 0;
  uint64_t unreadable = 0;
  ScanOptions scan;
  scan.fill_cache = false;
  scan.readahead_bytes = 4u << 20;
  Cursor it = store->Scan(store::Records::kGames, scan);
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    qipu::v1::Game game;
    if (!game.ParseFromArray(it.value().data(),
                             static_cast<int>(it.value().size()))) {
      ++unreadable;
      continue;
    }
    absl::StatusOr<rules::GameRecord> record = wire::GameToRecord(game);
    if (!record.ok()) {
      ++unreadable;
      continue;
    }
    const std::string entry = EncodePatternEntry(*record, &walk);
    const absl::string_view key = it.key();
    batch.Put(store->patterns(), rocksdb::Slice(key.data(), key.size()), entry);
    ++written;
    if (batch.Count() >= 1024) {
      QIPU_RETURN_IF_ERROR(store->Commit(&batch, Durability::kNoSync));
      batch.Clear();
    }
  }
  QIPU_RETURN_IF_ERROR(it.status());
  if (batch.Count() > 0) {
    QIPU_RETURN_IF_ERROR(store->Commit(&batch, Durability::kNoSync));
  }
  if (unreadable > 0) {
    spdlog::error(
        "database {}: pattern index: {} stored game(s) unreadable, left out",
        store->dir(), unreadable);
  }
  return written;
}

}  // namespace qipu::store
