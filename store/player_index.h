// The player index (issue 32): the `players` column family, written with
// each game in its own batch (store/game_batch.h) so that game lists and
// the player, event and result filters never read games.
//
// Per game (keys.h has the layouts):
//   - a posting per player -- 'p' + player key + day + game key -> the
//     game's qipu.v1.GameEntry, with its opening (setup and the moves the
//     position index covers) so that a player-filtered openings query
//     walks the player's games in memory through the same canonical
//     position keys as the indexer (store/indexer.h: FindInOpening);
//   - a posting under its event ('e') and under its date ('d'), without
//     the opening;
//   - counters merged by addition: per player, year, colour and winner
//     ('c'); per player the forms records wrote its name in ('n'); per
//     event its games ('v').
// Player keys are rules::ParsePlayerName()'s folded names; a self-play
// game's players are its colours' policy specs. Games whose record names
// no player have no player postings.
//
// Alias groups (the names that are one person) are one record,
// AliasesKey(), applied when a query reads the index: a name expands to
// its group, so aliases given after an import apply to it.
//
// A database opened before this index existed gets it when an Engine
// opens it: BackfillPlayerIndex() clears the family, writes every stored
// game's entries and then the marker PlayerIndexMarkerKey() (synced); a
// backfill cut short is done again from the start.
//
// Thread-safety: pure functions, and AliasGroups is a value type.
#ifndef QIPU_STORE_PLAYER_INDEX_H_
#define QIPU_STORE_PLAYER_INDEX_H_

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "qipu/v1/game.pb.h"
#include "qipu/v1/store.pb.h"
#include "rules/record.h"
#include "store/game_id.h"

namespace qipu::store {

class Store;

// What one game writes into the players family.
struct PlayerEntries {
  // (key, value) records to put.
  std::vector<std::pair<std::string, std::string>> puts;
  // (key, n) counters to add.
  std::vector<std::pair<std::string, uint64_t>> counts;
  bool empty() const { return puts.empty() && counts.empty(); }
};

// The index entries of `game` (as stored: Meta names the players of an
// import, Provenance the policies of a self-play game) with id `id`, its
// configuration and bucket day, and the plies its position-index entries
// cover. Thread-safe.
PlayerEntries BuildPlayerEntries(const qipu::v1::Game& game, const GameId& id,
                                 uint32_t config_id, uint32_t day,
                                 uint32_t index_plies);

// The record a player posting's opening replays (GameEntry.opening), or
// the error that it does not decode.
absl::StatusOr<rules::GameRecord> OpeningRecord(
    const qipu::v1::GameEntry& entry);

// Alias groups: each a list of folded names that are one person; the
// first is the group's name. A name is in one group at most.
class AliasGroups {
 public:
  // Reads a researcher's alias file: one line per person, the names that
  // are one person separated by tabs (when the line has a tab) or else by
  // commas; blank lines and lines starting with '#' are skipped. Names are
  // folded as player names are (ranks and titles split off).
  // InvalidArgument "FILE:LINE: ..." for a line with fewer than two
  // distinct names, an empty name, or a name already in another group
  // (naming that line).
  static absl::StatusOr<AliasGroups> Parse(absl::string_view text,
                                           absl::string_view file);
  // The stored form (AliasesKey()'s value) and back; DataLoss when
  // damaged.
  std::string Serialize() const;
  static absl::StatusOr<AliasGroups> Deserialize(absl::string_view value);
  // Reads the database's groups (none when it has none).
  static absl::StatusOr<AliasGroups> Load(const Store& store);

  // The group's name of `key`, or `key` itself when it is in no group.
  const std::string& Canonical(const std::string& key) const;
  // Every name of `key`'s group (just `key` when in none).
  std::vector<std::string> Expand(const std::string& key) const;
  const std::vector<std::vector<std::string>>& groups() const {
    return groups_;
  }
  bool empty() const { return groups_.empty(); }

 private:
  std::vector<std::vector<std::string>> groups_;
  // Name -> index of its group.
  absl::flat_hash_map<std::string, size_t> group_of_;
};

// Key of the marker that the players family holds every stored game's
// entries (default family; value "1").
std::string PlayerIndexMarkerKey();
// Whether the marker is there.
absl::StatusOr<bool> HasPlayerIndex(const Store& store);
// The configuration id of a stored game and the depth its positions were
// indexed to (the backfill cannot read them off the game: the engine's
// registry and jobs know them).
struct GameBucket {
  uint32_t config_id = 0;
  int index_depth = 0;
};
using ConfigOfGame =
    std::function<absl::StatusOr<GameBucket>(const qipu::v1::Game& game)>;
// Clears the players family but its alias groups, writes every stored
// game's entries (batches of 1024), flushes and writes the marker
// (synced). Returns the games indexed; games that do not decode are
// logged and left out.
absl::StatusOr<uint64_t> BackfillPlayerIndex(Store* store,
                                             const ConfigOfGame& config_of);

}  // namespace qipu::store

#endif  // QIPU_STORE_PLAYER_INDEX_H_
