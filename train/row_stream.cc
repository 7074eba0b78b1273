#include "train/row_stream.h"

#include <algorithm>
#include <atomic>
#include <utility>

#include "absl/base/internal/endian.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/varint.h"
#include "rules/playout.h"
#include "store/keys.h"

namespace qipu::train {
namespace {

// Cursor bytes: a version, the request fingerprint (8 bytes little-endian),
// a flags byte (bit 0: done_through, bit 1: chunk in flight), each present
// game as a varint-length-prefixed games key, then the chunk's rows sent.
constexpr char kCursorVersion = 1;
constexpr uint8_t kHasDone = 1;
constexpr uint8_t kHasChunk = 2;

constexpr uint64_t kChunkSalt = 0x6368756e6bULL;  // "chunk"

void PutGame(std::string* out, const store::GameId& id) {
  const std::string key = store::GameKey(id);
  base::PutVarint64(out, key.size());
  out->append(key);
}

bool GetGame(absl::string_view* in, store::GameId* id) {
  uint64_t n = 0;
  if (!base::GetVarint64(in, &n) || n > in->size()) return false;
  const std::optional<store::GameId> decoded =
      store::DecodeGameKey(in->substr(0, n));
  if (!decoded.has_value()) return false;
  *id = *decoded;
  in->remove_prefix(n);
  return true;
}

}  // namespace

absl::Status ValidateStreamOptions(const StreamOptions& options) {
  if (absl::Status s = ValidateRowOptions(options.rows); !s.ok()) return s;
  if (options.batch_size < 1 || options.batch_size > kMaxBatchRows) {
    return absl::InvalidArgumentError(absl::StrCat(
        "batch_size ", options.batch_size, " is outside 1..", kMaxBatchRows));
  }
  if (options.shuffle_window < 0 ||
      options.shuffle_window > kMaxShuffleWindow) {
    return absl::InvalidArgumentError(
        absl::StrCat("shuffle_window ", options.shuffle_window,
                     " is outside 0..", kMaxShuffleWindow));
  }
  return absl::OkStatus();
}

std::string EncodeStreamCursor(const StreamPosition& position,
                               uint64_t stream_key) {
  std::string out;
  out.push_back(kCursorVersion);
  char key[8];
  absl::little_endian::Store64(key, stream_key);
  out.append(key, sizeof(key));
  uint8_t flags = 0;
  if (position.done_through.has_value()) flags |= kHasDone;
  if (position.chunk_last.has_value()) flags |= kHasChunk;
  out.push_back(static_cast<char>(flags));
  if (position.done_through.has_value()) PutGame(&out, *position.done_through);
  if (position.chunk_last.has_value()) {
    PutGame(&out, *position.chunk_last);
    base::PutVarint64(&out, position.chunk_rows_sent);
  }
  return out;
}

absl::StatusOr<StreamPosition> DecodeStreamCursor(absl::string_view cursor,
                                                  uint64_t stream_key) {
  auto bad = [](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat("cursor: ", why));
  };
  if (cursor.size() < 10 || cursor[0] != kCursorVersion) {
    return bad(
        "not a training cursor of this qipu version (pass back the "
        "cursor bytes of a batch unchanged)");
  }
  if (absl::little_endian::Load64(cursor.data() + 1) != stream_key) {
    return bad(
        "it belongs to a different request (filter, rows, seed or "
        "shuffle_window changed); start without a cursor");
  }
  const uint8_t flags = static_cast<uint8_t>(cursor[9]);
  absl::string_view in = cursor.substr(10);
  StreamPosition p;
  if (flags & ~(kHasDone | kHasChunk)) return bad("unknown flags");
  if (flags & kHasDone) {
    store::GameId id;
    if (!GetGame(&in, &id)) return bad("damaged game key");
    p.done_through = id;
  }
  if (flags & kHasChunk) {
    store::GameId id;
    if (!GetGame(&in, &id) || !base::GetVarint64(&in, &p.chunk_rows_sent)) {
      return bad("damaged chunk position");
    }
    p.chunk_last = id;
  }
  if (!in.empty()) return bad("trailing bytes");
  return p;
}

absl::StatusOr<std::optional<store::GameId>> RecentWindowStart(
    const store::Store& store, const GameFilter& filter, uint64_t n) {
  if (n == 0) return std::optional<store::GameId>();
  store::ScanOptions scan;
  scan.fill_cache = false;
  store::Cursor it = store.Scan(store::Records::kGames, scan);
  qipu::v1::Game game;
  uint64_t taken = 0;
  for (it.SeekToLast(); it.Valid(); it.Prev()) {
    const std::optional<store::GameId> id = store::DecodeGameKey(it.key());
    if (!id.has_value()) continue;  // GameSource skips it too.
    if (filter) {
      const absl::string_view v = it.value();
      if (!game.ParseFromArray(v.data(), static_cast<int>(v.size())) ||
          !filter(*id, game)) {
        continue;
      }
    }
    if (++taken < n) continue;
    // Resume after the nearest decodable key before this game.
    for (it.Prev(); it.Valid(); it.Prev()) {
      const std::optional<store::GameId> before =
          store::DecodeGameKey(it.key());
      if (before.has_value()) return before;
    }
    break;
  }
  QIPU_RETURN_IF_ERROR(it.status());
  return std::optional<store::GameId>();
}

RowStream::RowStream(const store::Store& store, GameFilter filter,
                     const StreamOptions& options, uint64_t stream_key,
                     const StreamPosition& position, base::WorkPool* pool)
    : store_(store),
      filter_(std::move(filter)),
      options_(options),
      stream_key_(stream_key),
      position_(position),
      pool_(pool) {
  const int lanes = 1 + (pool_ != nullptr ? pool_->threads() : 0);
  for (int i = 0; i < lanes; ++i) {
    builders_.push_back(std::make_unique<RowBuilder>(options_.rows));
  }
}

std::string RowStream::cursor() const {
  return EncodeStreamCursor(position_, stream_key_);
}

StreamStats RowStream::stats() const {
  StreamStats s = stats_;
  if (source_.has_value()) {
    s.games_read += source_->read();
    s.games_dropped += source_->dropped();
    s.games_damaged += source_->damaged();
  }
  return s;
}

bool RowStream::After(const store::GameId& a, const store::GameId& b) const {
  if (options_.order != nullptr) {
    const std::optional<size_t> ra = options_.order->RankOf(a);
    const std::optional<size_t> rb = options_.order->RankOf(b);
    // A game outside the order is never handed out; one missing from it
    // (chunk_last of another order) ends the chunk.
    return !ra.has_value() || !rb.has_value() || *ra > *rb;
  }
  return store::GameKey(a) > store::GameKey(b);
}

void RowStream::TakeSourceCounts() {
  if (!source_.has_value()) return;
  stats_.games_read += source_->read();
  stats_.games_dropped += source_->dropped();
  stats_.games_damaged += source_->damaged();
}

int RowStream::EstimatedRows(const TrainingGame& game) const {
  const int moves = static_cast<int>(game.record.moves.size());
  const int positions = std::max(0, moves - options_.rows.min_move);
  const int k = options_.rows.positions_per_game;
  return k > 0 ? std::min(k, positions) : positions;
}

void RowStream::TakeGame(TrainingGame* game) {
  const size_t i = static_cast<size_t>(chunk_games_);
  if (games_.size() <= i) {
    games_.resize(i + 1);
    game_rows_.emplace_back(options_.rows.pos_len);
  }
  std::swap(games_[i], *game);
  ++chunk_games_;
}

void RowStream::BuildChunk() {
  const size_t n = static_cast<size_t>(chunk_games_);
  std::vector<char> unusable(n, 0);
  std::atomic<size_t> lane{0};
  auto build = [&](RowBuilder* builder, size_t i) {
    RowBatch& rows = game_rows_[i];
    rows.Clear();
    if (!builder->AddGame(games_[i], &rows).ok()) unusable[i] = 1;
  };
  if (pool_ == nullptr || n < 2) {
    for (size_t i = 0; i < n; ++i) build(builders_[0].get(), i);
  } else {
    base::ParallelForEach(
        *pool_, n, [&] { return builders_[lane.fetch_add(1)].get(); }, build);
  }
  for (const char u : unusable) stats_.games_unusable += u;
}

void RowStream::ShuffleChunk() {
  order_.clear();
  for (size_t g = 0; g < static_cast<size_t>(chunk_games_); ++g) {
    for (int r = 0; r < game_rows_[g].rows(); ++r) {
      order_.emplace_back(static_cast<int>(g), r);
    }
  }
  if (options_.shuffle_window <= 1 || order_.size() < 2) return;
  rules::Rng rng(
      GameSeed(options_.rows.seed, *position_.chunk_last, kChunkSalt));
  for (size_t i = order_.size() - 1; i > 0; --i) {
    const size_t j = rng.Below(static_cast<uint32_t>(i + 1));
    std::swap(order_[i], order_[j]);
  }
}

absl::StatusOr<bool> RowStream::LoadChunk() {
  chunk_games_ = 0;
  uint64_t skip = 0;
  TrainingGame game;
  if (position_.chunk_last.has_value()) {
    // Rebuild the chunk in flight from its key range, then go on after it.
    TakeSourceCounts();
    source_.emplace(store_, filter_, position_.done_through, options_.order);
    while (true) {
      QIPU_ASSIGN_OR_RETURN(const bool more, source_->Next(&game));
      if (!more || After(game.id, *position_.chunk_last)) break;
      const bool last = game.id == *position_.chunk_last;
      TakeGame(&game);
      if (last) break;
    }
    TakeSourceCounts();
    source_.emplace(store_, filter_, position_.chunk_last, options_.order);
    skip = position_.chunk_rows_sent;
  } else {
    if (!source_.has_value()) {
      source_.emplace(store_, filter_, position_.done_through, options_.order);
    }
    const int window = options_.shuffle_window > 1 ? options_.shuffle_window
                                                   : kOrderedChunkRows;
    int estimated = 0;
    while (estimated < window) {
      QIPU_ASSIGN_OR_RETURN(const bool more, source_->Next(&game));
      if (!more) break;
      estimated += std::max(1, EstimatedRows(game));
      position_.chunk_last = game.id;
      TakeGame(&game);
    }
    if (chunk_games_ == 0) return false;
  }
  BuildChunk();
  ShuffleChunk();
  skip = std::min<uint64_t>(skip, order_.size());
  next_ = static_cast<size_t>(skip);
  position_.chunk_rows_sent = skip;
  chunk_loaded_ = true;
  return true;
}

absl::StatusOr<bool> RowStream::Next(RowBatch* batch) {
  batch->Clear();
  const auto finish_chunk = [this] {
    if (!chunk_loaded_ || next_ < order_.size()) return;
    position_.done_through = position_.chunk_last;
    position_.chunk_last.reset();
    position_.chunk_rows_sent = 0;
    stats_.games_done += chunk_games_;
    chunk_loaded_ = false;
  };
  while (batch->rows() < options_.batch_size) {
    if (options_.max_rows != 0 && stats_.rows >= options_.max_rows) break;
    if (!chunk_loaded_) {
      if (exhausted_) break;
      QIPU_ASSIGN_OR_RETURN(const bool loaded, LoadChunk());
      if (!loaded) {
        exhausted_ = true;
        break;
      }
    }
    uint64_t take = std::min<uint64_t>(
        static_cast<uint64_t>(options_.batch_size - batch->rows()),
        order_.size() - next_);
    if (options_.max_rows != 0) {
      take = std::min<uint64_t>(take, options_.max_rows - stats_.rows);
    }
    for (uint64_t i = 0; i < take; ++i) {
      const auto [g, r] = order_[next_++];
      batch->AppendRowFrom(game_rows_[static_cast<size_t>(g)], r);
    }
    position_.chunk_rows_sent += take;
    stats_.rows += take;
    finish_chunk();
  }
  return batch->rows() > 0;
}

}  // namespace qipu::train
