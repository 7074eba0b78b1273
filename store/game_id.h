// GameId: the identity of a stored game. A self-play game is (job, game
// index); an imported game is the 128-bit content hash of its board size,
// setup and main-line moves, so importing the same game twice collides.
// Text forms: "s<job>-<index>" and "i<32 hex digits>".
#ifndef QIPU_STORE_GAME_ID_H_
#define QIPU_STORE_GAME_ID_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/record.h"

namespace qipu::store {

// Plain value type; ordered as its key bytes are.
struct GameId {
  enum class Kind : uint8_t { kSelfPlay = 1, kImported = 2 };
  Kind kind = Kind::kSelfPlay;
  // Self-play: job and index. Imported: the content hash's two halves.
  uint64_t hi = 0;
  uint64_t lo = 0;

  static GameId SelfPlay(uint64_t job, uint64_t index) {
    return GameId{Kind::kSelfPlay, job, index};
  }
  friend bool operator==(const GameId&, const GameId&) = default;
  friend auto operator<=>(const GameId&, const GameId&) = default;
};

// "s<job>-<index>" or "i<32 hex>".
std::string GameIdText(const GameId& id);
// Inverse of GameIdText(); InvalidArgument naming the text otherwise.
absl::StatusOr<GameId> ParseGameId(absl::string_view text);

// The identity of an imported game: a stable 128-bit hash (a data format:
// pinned by tests) of width, height, the setup steps and the main-line
// moves with their colours. Metadata does not count.
GameId ContentId(const rules::GameRecord& record);

}  // namespace qipu::store

#endif  // QIPU_STORE_GAME_ID_H_
