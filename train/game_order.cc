#include "train/game_order.h"

#include <algorithm>
#include <utility>

#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "store/keys.h"

namespace qipu::train {

int64_t GamePlayedMicros(const qipu::v1::Game& game) {
  const qipu::v1::Provenance& p = game.provenance();
  if (p.job() != 0) return p.stored_unix_micros();
  const uint32_t ymd = game.meta().date_ymd();
  if (ymd == 0) return 0;
  const absl::CivilDay day(ymd / 10000, (ymd / 100) % 100, ymd % 100);
  return absl::ToUnixMicros(absl::FromCivil(day, absl::UTCTimeZone()));
}

GameOrder::GameOrder(std::vector<OrderedGame> games)
    : games_(std::move(games)) {
  std::vector<std::string> keys;
  keys.reserve(games_.size());
  std::vector<size_t> index(games_.size());
  for (size_t i = 0; i < games_.size(); ++i) {
    keys.push_back(store::GameKey(games_[i].id));
    index[i] = i;
  }
  std::sort(index.begin(), index.end(), [&](size_t a, size_t b) {
    if (games_[a].played_micros != games_[b].played_micros) {
      return games_[a].played_micros < games_[b].played_micros;
    }
    return keys[a] < keys[b];
  });
  std::vector<OrderedGame> sorted;
  sorted.reserve(games_.size());
  rank_.reserve(games_.size());
  for (size_t i = 0; i < index.size(); ++i) {
    sorted.push_back(games_[index[i]]);
    rank_.emplace(std::move(keys[index[i]]), i);
  }
  games_ = std::move(sorted);
}

std::optional<size_t> GameOrder::RankOf(const store::GameId& id) const {
  const auto it = rank_.find(store::GameKey(id));
  if (it == rank_.end()) return std::nullopt;
  return it->second;
}

double RecencyWeight(size_t rank, size_t size) {
  return 2.0 * static_cast<double>(rank + 1) / static_cast<double>(size + 1);
}

}  // namespace qipu::train
