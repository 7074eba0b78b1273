#include "train/game_source.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "proto/convert.h"
#include "store/keys.h"

namespace qipu::train {

absl::StatusOr<TrainingGame> TrainingGameFromProto(const qipu::v1::Game& game,
                                                   const store::GameId& id) {
  auto fail = [&](const absl::Status& s) {
    return absl::InvalidArgumentError(
        absl::StrCat("game ", store::GameIdText(id), ": ", s.message()));
  };
  TrainingGame out;
  absl::StatusOr<rules::GameRecord> record = wire::GameToRecord(game);
  if (!record.ok()) return fail(record.status());
  absl::StatusOr<rules::Rules> rules = wire::RulesFromProto(game.rules());
  if (!rules.ok()) return fail(rules.status());
  absl::StatusOr<rules::GameResult> result =
      wire::ResultFromProto(game.result());
  if (!result.ok()) return fail(result.status());
  if (!game.search_visits().empty()) {
    absl::StatusOr<std::vector<wire::MoveSearch>> searches =
        wire::UnpackSearches(game.search_visits(),
                             static_cast<int>(game.width()),
                             static_cast<int>(game.height()),
                             static_cast<uint32_t>(record->moves.size()));
    if (!searches.ok()) return fail(searches.status());
    out.searches = *std::move(searches);
  }
  out.record = *std::move(record);
  out.rules = *rules;
  out.result = *result;
  out.id = id;
  return out;
}

namespace {

// One pass over the games: keep the block cache for the hot blocks.
store::ScanOptions ScanOptionsForExport() {
  store::ScanOptions options;
  options.fill_cache = false;
  return options;
}

}  // namespace

GameSource::GameSource(const store::Store& store, GameFilter filter,
                       std::optional<store::GameId> resume_after,
                       std::shared_ptr<const GameOrder> order)
    : store_(store),
      order_(std::move(order)),
      filter_(std::move(filter)),
      last_(resume_after) {}

bool GameSource::Take(const store::GameId& id, absl::string_view value,
                      TrainingGame* game) {
  if (!message_.ParseFromArray(value.data(), static_cast<int>(value.size()))) {
    ++damaged_;  // As the exporter does: skipped, counted.
    return false;
  }
  if (filter_ && !filter_(id, message_)) {
    ++dropped_;
    return false;
  }
  absl::StatusOr<TrainingGame> decoded = TrainingGameFromProto(message_, id);
  if (!decoded.ok()) {
    ++damaged_;
    return false;
  }
  *game = *std::move(decoded);
  last_ = id;
  return true;
}

absl::StatusOr<bool> GameSource::Next(TrainingGame* game) {
  return order_ != nullptr ? NextInOrder(game) : NextByKey(game);
}

absl::StatusOr<bool> GameSource::NextInOrder(TrainingGame* game) {
  if (!started_) {
    started_ = true;
    if (last_.has_value()) {
      const std::optional<size_t> rank = order_->RankOf(*last_);
      next_index_ = rank.has_value() ? *rank + 1 : 0;
    }
  }
  while (next_index_ < order_->size()) {
    const size_t rank = next_index_++;
    const store::GameId& id = order_->at(rank).id;
    ++read_;
    absl::StatusOr<std::optional<std::string>> value =
        store_.Get(store::Records::kGames, store::GameKey(id));
    if (!value.ok()) return value.status();
    if (!value->has_value()) {
      ++dropped_;  // Deleted since the order was made.
      continue;
    }
    if (!Take(id, **value, game)) continue;
    game->order_rank = rank;
    game->order_size = order_->size();
    return true;
  }
  return false;
}

absl::StatusOr<bool> GameSource::NextByKey(TrainingGame* game) {
  if (!started_) {
    started_ = true;
    cursor_.emplace(
        store_.Scan(store::Records::kGames, ScanOptionsForExport()));
    if (last_.has_value()) {
      const std::string after = store::GameKey(*last_);
      cursor_->Seek(after);
      if (cursor_->Valid() && cursor_->key() == after) cursor_->Next();
    } else {
      cursor_->SeekToFirst();
    }
  } else if (cursor_->Valid()) {
    cursor_->Next();
  }
  for (; cursor_->Valid(); cursor_->Next()) {
    const std::optional<store::GameId> id =
        store::DecodeGameKey(cursor_->key());
    ++read_;
    if (!id.has_value()) {
      ++damaged_;  // As the exporter does: skipped, counted.
      continue;
    }
    if (Take(*id, cursor_->value(), game)) return true;
  }
  if (!cursor_->status().ok()) return cursor_->status();
  return false;
}

}  // namespace qipu::train
