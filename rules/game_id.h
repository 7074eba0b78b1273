// GameId: the identity of a game qipu stores, and its one text form. A
// self-play game is (job, game index); an imported game is the 128-bit
// content hash of its board size, setup and main-line moves
// (store::ContentId), so importing the same game twice collides.
// Text forms: "s<job>-<index>" and "i<32 hex digits>" -- what the
// services, the tools and the explorer show and take (GetGame ids, example
// ids, upload acks), and what a worker logs.
//
// Here, below store/ and worker/ (neither depends on the other), so that
// every place that writes or reads the text uses these two functions.
#ifndef QIPU_RULES_GAME_ID_H_
#define QIPU_RULES_GAME_ID_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace qipu::rules {

// Plain value type; ordered as its key bytes are (store/keys.h).
struct GameId {
  enum class Kind : uint8_t { kSelfPlay = 1, kImported = 2 };
  Kind kind = Kind::kSelfPlay;
  // Self-play: job and index. Imported: the content hash's two halves.
  uint64_t hi = 0;
  uint64_t lo = 0;

  // The id of game `index` (0-based) of self-play job `job`.
  static GameId SelfPlay(uint64_t job, uint64_t index) {
    return GameId{Kind::kSelfPlay, job, index};
  }
  friend bool operator==(const GameId&, const GameId&) = default;
  friend auto operator<=>(const GameId&, const GameId&) = default;
};

// "s<job>-<index>" (decimal) or "i<32 lower-case hex digits>". Pure.
std::string GameIdText(const GameId& id);

// Inverse of GameIdText() (hex digits in either case); InvalidArgument
// naming the text (quoted, base::QuoteInput) otherwise. Pure.
absl::StatusOr<GameId> ParseGameId(absl::string_view text);

}  // namespace qipu::rules

#endif  // QIPU_RULES_GAME_ID_H_
