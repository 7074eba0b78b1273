#include "train/row_stream.h"

#include <algorithm>
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
  store::Cursor it = store.NewCursor(store.games(), scan);
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
                     const StreamPosition& position)
    : store_(store),
      filter_(std::move(filter)),
      options_(options),
      stream_key_(stream_key),
      position_(position),
      builder_(options.rows),
      chunk_(options.rows.pos_len) {}

std::string RowStream::cursor() const {
  return EncodeStreamCursor(position_, stream_key_);
}

void RowStream::AddGame(const TrainingGame& game) {
  absl::StatusOr<GameRowsInfo> info = builder_.AddGame(game, &chunk_);
  if (!info.ok()) ++stats_.games_unusable;
  ++chunk_games_;
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

void RowStream::TakeSourceCounts() {
  if (!source_.has_value()) return;
  stats_.games_read += source_->read();
  stats_.games_dropped += source_->dropped();
  stats_.games_damaged += source_->damaged();
}

void RowStream::ShuffleChunk() {
  order_.resize(static_cast<size_t>(chunk_.rows()));
  for (size_t i = 0; i < order_.size(); ++i) order_[i] = static_cast<int>(i);
  if (options_.shuffle_window <= 1 || order_.size() < 2) return;
  rules::Rng rng(
      GameSeed(options_.rows.seed, *position_.chunk_last, kChunkSalt));
  for (size_t i = order_.size() - 1; i > 0; --i) {
    const size_t j = rng.Below(static_cast<uint32_t>(i + 1));
    std::swap(order_[i], order_[j]);
  }
}

absl::StatusOr<bool> RowStream::LoadChunk() {
  chunk_.Clear();
  chunk_games_ = 0;
  uint64_t skip = 0;
  if (position_.chunk_last.has_value()) {
    // Rebuild the chunk in flight from its key range, then go on after it.
    const std::string last_key = store::GameKey(*position_.chunk_last);
    TakeSourceCounts();
    source_.emplace(store_, filter_, position_.done_through);
    while (true) {
      QIPU_ASSIGN_OR_RETURN(const bool more, source_->Next(&game_));
      if (!more || store::GameKey(game_.id) > last_key) break;
      AddGame(game_);
      if (game_.id == *position_.chunk_last) break;
    }
    TakeSourceCounts();
    source_.emplace(store_, filter_, position_.chunk_last);
    skip = std::min<uint64_t>(position_.chunk_rows_sent,
                              static_cast<uint64_t>(chunk_.rows()));
  } else {
    if (!source_.has_value()) {
      source_.emplace(store_, filter_, position_.done_through);
    }
    const int window = std::max(1, options_.shuffle_window);
    chunk_.Reserve(window + 512);
    while (chunk_.rows() < window) {
      QIPU_ASSIGN_OR_RETURN(const bool more, source_->Next(&game_));
      if (!more) break;
      AddGame(game_);
      position_.chunk_last = game_.id;
      if (options_.shuffle_window <= 1) break;
    }
    if (chunk_games_ == 0) return false;
  }
  ShuffleChunk();
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
      batch->AppendRowFrom(chunk_, order_[next_++]);
    }
    position_.chunk_rows_sent += take;
    stats_.rows += take;
    finish_chunk();
  }
  return batch->rows() > 0;
}

}  // namespace qipu::train
