// Reading back the games a Store holds, for tests that check what was
// stored (after a restart, a power loss, a run of a binary). The one place
// the tests read the games column family directly: when the Store's API
// changes, adapt these two functions.
#ifndef QIPU_TESTS_COMMON_STORED_GAMES_H_
#define QIPU_TESTS_COMMON_STORED_GAMES_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "store/game_id.h"
#include "store/keys.h"
#include "store/store.h"

namespace qipu::test_util {

// The stored bytes (a serialized qipu.v1.Game) of game `id`, or nullopt.
inline absl::StatusOr<std::optional<std::string>> StoredGame(
    const store::Store& s, const store::GameId& id) {
  return s.Get(store::Records::kGames, store::GameKey(id));
}

// Calls `fn` with the id and stored bytes of every game, in key order.
// DataLoss for a key that does not decode; `fn` returning an error stops
// the scan with it.
inline absl::Status ForEachStoredGame(
    const store::Store& s,
    const std::function<absl::Status(const store::GameId& id,
                                     absl::string_view bytes)>& fn) {
  store::Cursor it = s.Scan(store::Records::kGames);
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    const absl::string_view key = it.key();
    const std::optional<store::GameId> id = store::DecodeGameKey(key);
    if (!id.has_value()) {
      return absl::DataLossError(
          absl::StrCat("undecodable key in the games column family (",
                       key.size(), " bytes)"));
    }
    if (absl::Status st = fn(*id, it.value()); !st.ok()) {
      return st;
    }
  }
  if (!it.status().ok()) return absl::DataLossError(it.status().ToString());
  return absl::OkStatus();
}

}  // namespace qipu::test_util

#endif  // QIPU_TESTS_COMMON_STORED_GAMES_H_
