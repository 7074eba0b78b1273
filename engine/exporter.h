// Exporter: streams stored games out of the games column family, in key
// order (self-play games by job and index, then imported games by
// content id), filtered by the same Filter the queries use. Queries
// decide a filter per configuration bucket; a stored game does not carry
// its bucket id, so the exporter rebuilds the bucket's dimensions from
// the game itself (GameDimensions(), GameDay()) -- the same values
// PrepareSelfPlay() and PrepareImport() interned -- and asks the filter.
//
// A full scan: exports read every game (without filling the block cache).
// Thread-safe: const, and the store is.
#ifndef QIPU_ENGINE_EXPORTER_H_
#define QIPU_ENGINE_EXPORTER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "qipu/v1/game.pb.h"
#include "qipu/v1/query.pb.h"
#include "qipu/v1/store.pb.h"
#include "store/game_id.h"
#include "store/store.h"

namespace qipu::engine {

// The configuration dimensions of a stored game, as its bucket has them:
// size, rules key and preset, komi, handicap, source ("job:<id>" for
// self-play, else the import source), policy, and how an imported record
// was kept (record: "noted", "cut", or empty).
qipu::v1::ConfigRecord GameDimensions(const qipu::v1::Game& game);

// A stored game's bucket day: the record's DT day for imports
// (Meta.date_ymd, 0 when unknown), the day it was stored for self-play.
uint32_t GameDay(const qipu::v1::Game& game);

// A stored game's id, computed from the game: (job, index) for self-play,
// store::ContentId() of its record for imports (Provenance.content_id
// where the game was stored cut). InvalidArgument when the
// game does not decode.
absl::StatusOr<store::GameId> GameIdOf(const qipu::v1::Game& game);

// What one export did.
struct ExportStats {
  // Games passed to the sink.
  uint64_t games = 0;
  // Games read (matching or not).
  uint64_t scanned = 0;
  // Stored records that did not decode (logged and skipped).
  uint64_t damaged = 0;
  // The key of the last game read (matching or not); empty when none.
  // An export resumed after it (ExportRequest.after) misses nothing.
  std::optional<store::GameId> last_read;
  // Whether the export stopped at its deadline with games left to read.
  bool timed_out = false;
};

class Exporter {
 public:
  // Receives each matching game with its id; returning false stops the
  // export (e.g. the client went away).
  using Sink =
      std::function<bool(const store::GameId& id, const qipu::v1::Game& game)>;

  // Does not own `store`, which must outlive the exporter.
  explicit Exporter(store::Store* store) : store_(store) {}

  // Calls `sink` for every game matching req.filter after req.after (when
  // set), at most req.limit (0 = all). Stops with stats.timed_out once
  // `deadline` has passed. InvalidArgument for a bad filter or `after`
  // (nothing is exported); Unavailable / DataLoss when reading fails
  // part-way (games already passed to the sink stay passed).
  absl::StatusOr<ExportStats> Export(
      const qipu::v1::ExportRequest& req, const Sink& sink,
      absl::Time deadline = absl::InfiniteFuture()) const;

 private:
  store::Store* store_;
};

}  // namespace qipu::engine

#endif  // QIPU_ENGINE_EXPORTER_H_
