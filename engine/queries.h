// QueryEngine: the statistical queries of qipu/v1/query.proto, answered
// from the aggregates column family and the position index -- never by
// scanning games (but Pattern, below). Every query compiles its Filter
// (filter.h) and then visits only the (configuration, day) buckets it matches:
//   - Openings: one prefix scan of the positions CF (all buckets of the
//     queried position share an 18-byte prefix with its own bloom filter),
//     summing the matching buckets' PositionValues. Setup stones and moves
//     (each with its own colour when the caller gives one) are replayed on
//     the caller's board, the position is looked up by its canonical key
//     (8 symmetries folded, side to move part of the key: the side that
//     moved next there in the games), and each continuation -- stored as a
//     move in the canonical frame -- is mapped back into the caller's
//     orientation.
//   - Ko, Cycles, Results: a scan of the aggregates CF (one key per bucket,
//     skipping whole configurations the filter rejects), merging their
//     AggregateStats.
//   - GetGame: a point lookup in the games CF.
//
//   - Games, Players and every query whose filter names a player, opponent,
//     event, result or rank (Filter::by_game): the player index
//     (store/player_index.h) -- the postings of the player (through its
//     alias group), else of the opponent, else of the events that match,
//     else of every game by date, each posting matched against the whole
//     filter. A by-game openings query walks each matching posting's
//     opening (store::FindInOpening) through the index's canonical keys;
//     by-game Ko, Cycles and Results read the matching games by id.
//
//   - Pattern: the one query that reads games: a scan of the patterns CF
//     (a compact per-game prefilter) and a replay of the games it admits.
//
// Implementation: queries.cc (Openings, GetGame), query_aggregates.cc (Ko,
// Cycles, Results), query_pattern.cc (Pattern), player_queries.cc (Games,
// Players, aliases, the player index's side of the others).
//
// Thread-safe: const methods only; the store and the registry are.
#ifndef QIPU_ENGINE_QUERIES_H_
#define QIPU_ENGINE_QUERIES_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/filter.h"
#include "qipu/v1/query.pb.h"
#include "qipu/v1/store.pb.h"
#include "rules/game.h"
#include "rules/rules.h"
#include "rules/symmetry.h"
#include "store/configs.h"
#include "store/player_index.h"
#include "store/position_value.h"
#include "store/store.h"

namespace qipu::engine {

// Example game ids per row when a request leaves `examples` at 0, and the
// most a request may ask for.
inline constexpr uint32_t kDefaultQueryExamples = 3;
inline constexpr uint32_t kMaxQueryExamples = 10;
// Board size of an openings query whose filter gives none.
inline constexpr int kDefaultOpeningsSize = 19;
// Games per page of a games query, and players per players query: the
// defaults and the most.
inline constexpr uint32_t kDefaultGamesPageSize = 50;
inline constexpr uint32_t kMaxGamesPageSize = 1000;
inline constexpr uint32_t kDefaultPlayersLimit = 20;
inline constexpr uint32_t kMaxPlayersLimit = 1000;
// Matches per page of a pattern query: the default and the most.
inline constexpr uint32_t kDefaultPatternPageSize = 50;
inline constexpr uint32_t kMaxPatternPageSize = 1000;

// A position reached by replaying moves from the start of a game, as an
// openings query looks it up.
struct OpeningPosition {
  int width = 0;
  int height = 0;
  // Canonical key (side to move folded in) and the transform into the
  // canonical frame (CanonicalKey::transform).
  rules::CanonicalKey key;
  // Side to move.
  rules::Color to_play = rules::Color::kBlack;
};

// The rules an openings query replays its moves under: the filter's preset
// when it names one; otherwise the most permissive rules any stored game
// may have been played under (simple ko, no cycle rule, multi-stone suicide
// allowed), with the filter's ko=, cycle= and suicide= axes applied.
rules::Rules OpeningsReplayRules(const Filter& filter);

// What an openings query replays, in OpeningsRequest's syntax
// (qipu/v1/query.proto): setup stones "B:Q16"/"W:D4", moves "Q16",
// "B:Q16" or "W:pass", and the side to move at the end.
struct OpeningLine {
  std::vector<std::string> setup;
  std::vector<std::string> moves;
  // kEmpty: the natural side (see ReplayOpening).
  rules::Color to_play = rules::Color::kEmpty;
};

// One move of an openings query: a GTP vertex or "pass", optionally
// prefixed by its colour ("B:", "W:", case-insensitive). Returns the point
// and the colour (kEmpty when none is given). InvalidArgument (without the
// move's number; the caller adds it) for a colour other than B or W, a
// missing vertex, a bad or off-board vertex, or "resign".
absl::StatusOr<rules::Move> ParseOpeningMove(absl::string_view text, int width,
                                             int height);

// Replays `line` from the start of a width x height game under `rules`:
// its setup stones, or when it has none, `handicap` fixed handicap stones
// when that is 2..9; then its moves, each by its own colour or, uncoloured,
// by the side to move (Black first, White after handicap stones -- the
// fixed ones, or a setup of black stones only when `handicap` >= 2 --,
// then the opponent of the previous move). The position's side to move is
// line.to_play, or else the natural one: the opponent of the last move,
// or with no moves the side that would move first. InvalidArgument names
// the field, the stone's or move's number and its text: a malformed one,
// a setup point given twice or leaving a chain without liberties, a move
// that is illegal (or comes after the game ended), a to_play that is
// neither colour.
absl::StatusOr<OpeningPosition> ReplayOpening(int width, int height,
                                              const rules::Rules& rules,
                                              int handicap,
                                              const OpeningLine& line);

class QueryEngine {
 public:
  // Does not take ownership; both must outlive the engine. `configs` must
  // be loaded (ConfigRegistry::Load) before the first query.
  QueryEngine(store::Store* store, store::ConfigRegistry* configs)
      : store_(store), configs_(configs) {}

  QueryEngine(const QueryEngine&) = delete;
  QueryEngine& operator=(const QueryEngine&) = delete;

  // The store the engine reads (not owned): for readers of the other
  // records of the same database (the explorer's tournament pages).
  store::Store* store() const { return store_; }

  // The position after req.setup and req.moves on the filter's board
  // (default 19x19) with req.to_play (or the natural side) to move, the
  // games that reached it and every continuation (moves of that side),
  // sorted by games (ties by move, pass last), at most req.limit (0 = all).
  // InvalidArgument: bad filter, bad setup stone or move, illegal move
  // (its number named), bad to_play, examples above kMaxQueryExamples.
  // Unavailable / DataLoss from storage.
  absl::StatusOr<qipu::v1::OpeningsResponse> Openings(
      const qipu::v1::OpeningsRequest& req) const;

  // Ko captures per game: over all matching games, by board size, by rules
  // and by game length (kKoLengthBucketMoves-move buckets). Percentiles are
  // nearest-rank over the per-game histogram (capped at
  // store::kMaxKoCaptures). InvalidArgument for a bad filter.
  absl::StatusOr<qipu::v1::KoResponse> Ko(const qipu::v1::KoRequest& req) const;

  // Completed and prevented cycles by class and outcome (rows with at least
  // one cycle, ordered by class then outcome), rates per 10,000 games,
  // example game ids and the results of the games concerned.
  // InvalidArgument for a bad filter or too many examples.
  absl::StatusOr<qipu::v1::CyclesResponse> Cycles(
      const qipu::v1::CyclesRequest& req) const;

  // Results by colour, end reasons, margin and length distributions.
  // InvalidArgument for a bad filter.
  absl::StatusOr<qipu::v1::ResultsResponse> Results(
      const qipu::v1::ResultsRequest& req) const;

  // One stored game and its SGF. InvalidArgument for a malformed id,
  // NotFound for an unknown one, DataLoss for a damaged record.
  absl::StatusOr<qipu::v1::GetGameResponse> GetGame(
      const qipu::v1::GetGameRequest& req) const;

  // Games of the filter (default 19x19) in which req.pattern appeared
  // (query_pattern.cc): the pattern index (store/pattern_index.h) admits
  // candidates, each is replayed to find the first position where the
  // pattern stands (the first variant, row, column in PatternSearch's
  // order when several do) and the move played next. Matched outcomes and
  // continuations cover every match; matches are paged in game-id order.
  // InvalidArgument naming the field: bad filter, pattern (row and
  // column), placement, anchor, page_size above kMaxPatternPageSize, or
  // page_token. Unavailable / DataLoss from storage.
  absl::StatusOr<qipu::v1::PatternResponse> Pattern(
      const qipu::v1::PatternRequest& req) const;

  // The games of req.filter, by date then id (games without a date
  // first; newest first when asked), one page of req.page_size (0: 50),
  // with the total over all pages. InvalidArgument naming the field: bad
  // filter, page_size above kMaxGamesPageSize, page_token.
  absl::StatusOr<qipu::v1::GamesResponse> Games(
      const qipu::v1::GamesRequest& req) const;

  // Players whose folded name, or a name of their alias group, starts
  // with the folded req.prefix, most games first, at most req.limit (0:
  // 20): counts, results by colour, dates, games by year, the forms
  // written. InvalidArgument for a limit above kMaxPlayersLimit.
  absl::StatusOr<qipu::v1::PlayersResponse> Players(
      const qipu::v1::PlayersRequest& req) const;

  // Replaces the database's alias groups (durable on return).
  absl::Status SetAliases(const store::AliasGroups& groups);

 private:
  // A game of the player index that a filter matches: its posting's sort
  // key (day, game key: 21 bytes) and entry.
  struct IndexedGame {
    std::string sort_key;
    qipu::v1::GameEntry entry;
  };
  // Every game `filter` (by_game, or not) matches, from the player index,
  // sorted by (day, game key), each once.
  absl::StatusOr<std::vector<IndexedGame>> MatchingGames(
      const Filter& filter) const;
  // Openings of a by-game filter: sums the continuations at `position`
  // (canonical key, w x h) over the matching games' openings.
  absl::Status OpeningsByGame(
      const Filter& filter, int w, int h, const rules::Hash128& position,
      int examples, store::Outcome* reached,
      std::vector<std::pair<uint16_t, store::Outcome>>* continuations,
      std::vector<std::vector<store::GameId>>* continuation_examples) const;

  // Calls fn(config, day, stats) for every aggregates bucket `filter`
  // matches, in key order. A by-game filter (Filter::by_game) visits one
  // delta per matching game instead, each game read by id
  // (ForEachGameAggregate, player_queries.cc).
  using AggregateVisitor =
      std::function<void(const qipu::v1::ConfigRecord& config, uint32_t day,
                         const qipu::v1::AggregateStats& stats)>;
  absl::Status ForEachAggregate(const Filter& filter,
                                const AggregateVisitor& fn) const;
  absl::Status ForEachGameAggregate(const Filter& filter,
                                    const AggregateVisitor& fn) const;

  store::Store* store_;
  store::ConfigRegistry* configs_;
};

// Resolves a request's `examples` field: 0 gives kDefaultQueryExamples;
// InvalidArgument above kMaxQueryExamples.
absl::StatusOr<int> ExamplesWanted(uint32_t requested);

}  // namespace qipu::engine

#endif  // QIPU_ENGINE_QUERIES_H_
