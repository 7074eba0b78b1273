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
                       std::optional<store::GameId> resume_after)
    : cursor_(store.Scan(store::Records::kGames, ScanOptionsForExport())),
      filter_(std::move(filter)),
      last_(resume_after) {}

absl::StatusOr<bool> GameSource::Next(TrainingGame* game) {
  if (!started_) {
    started_ = true;
    if (last_.has_value()) {
      const std::string after = store::GameKey(*last_);
      cursor_.Seek(after);
      if (cursor_.Valid() && cursor_.key() == after) cursor_.Next();
    } else {
      cursor_.SeekToFirst();
    }
  } else if (cursor_.Valid()) {
    cursor_.Next();
  }
  for (; cursor_.Valid(); cursor_.Next()) {
    const std::optional<store::GameId> id = store::DecodeGameKey(cursor_.key());
    ++read_;
    const absl::string_view value = cursor_.value();
    if (!id.has_value() || !message_.ParseFromArray(
                               value.data(), static_cast<int>(value.size()))) {
      ++damaged_;  // As the exporter does: skipped, counted.
      continue;
    }
    if (filter_ && !filter_(*id, message_)) {
      ++dropped_;
      continue;
    }
    absl::StatusOr<TrainingGame> decoded = TrainingGameFromProto(message_, *id);
    if (!decoded.ok()) {
      ++damaged_;
      continue;
    }
    *game = *std::move(decoded);
    last_ = *id;
    return true;
  }
  if (!cursor_.status().ok()) return cursor_.status();
  return false;
}

}  // namespace qipu::train
