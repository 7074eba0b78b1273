// Query filters: which configuration buckets and days a query covers.
// Queries read aggregates and position-index entries per (configuration,
// day) bucket, so a filter is decided per bucket, never per game: board
// size, rules, komi, handicap, source and policy are dimensions of the
// configuration (store/configs.h), dates are the bucket day. So is how an
// imported record was kept (ConfigRecord.record: clean, noted, cut).
#ifndef QIPU_ENGINE_FILTER_H_
#define QIPU_ENGINE_FILTER_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "qipu/v1/query.pb.h"
#include "qipu/v1/store.pb.h"
#include "rules/rules_key.h"
#include "rules/types.h"

namespace qipu::engine {

// A validated filter. Plain value type.
class Filter {
 public:
  // Checks `f`: both or neither of width/height, sizes in range, rules a
  // preset name or a partial rules::RulesKey ("axis=value" list, axes ko,
  // cycle, suicide, dame, hcomp, cap, each with a valid value; komi has
  // its own field), dates YYYYMMDD with from <= to, records one of all,
  // clean, noted, cut (any case); player_as COLOR_BLACK or COLOR_WHITE (and
  // only with player), result one of B+, W+, draw, void (any case), ranks
  // canonical ranks (rules::CanonicalRank: "5d", "9段") with min <= max.
  // InvalidArgument names the bad field.
  static absl::StatusOr<Filter> Compile(const qipu::v1::Filter& f);

  // True when games of configuration `c` can match.
  bool MatchesConfig(const qipu::v1::ConfigRecord& c) const;
  // True when games of bucket day `day` (0 = unknown) match. With a date
  // range, unknown days do not match.
  bool MatchesDay(uint32_t day) const;

  // Board size when the filter fixes one (else 0, 0).
  uint32_t width() const { return proto_.width(); }
  uint32_t height() const { return proto_.height(); }
  const qipu::v1::Filter& proto() const { return proto_; }
  // The rule axes the filter fixes (none given: any rules).
  const rules::RulesKey& rules() const { return rules_; }

  // Players and events (issue 32): decided per game from the player index
  // (store/player_index.h), not per bucket. True when any of player,
  // opponent, event, result, rank_min, rank_max is given.
  bool by_game() const { return by_game_; }
  // The folded player and opponent names ("" = any), the side the player
  // played (kEmpty = either), the folded event text ("" = any).
  const std::string& player() const { return player_; }
  const std::string& opponent() const { return opponent_; }
  rules::Color player_as() const { return player_as_; }
  const std::string& event() const { return event_; }
  // The result wanted: "" (any), "B+", "W+", "draw", "void".
  const std::string& result() const { return result_; }
  // rules::RankOrder() of rank_min / rank_max (0 = no bound).
  int rank_min() const { return rank_min_; }
  int rank_max() const { return rank_max_; }

 private:
  qipu::v1::Filter proto_;
  // The policy filter, canonical when qipu can read it (empty: any); a
  // configuration matches when either colour's spec equals it or starts
  // with it at a token boundary (wire::PolicyMatches).
  std::string policy_;
  // The filter named a policy whose arguments were all defaults: only
  // that canonical spec matches, not the specs it prefixes.
  bool policy_exact_ = false;
  // Filter.records, lower case: "" (all), "clean", "noted" or "cut".
  std::string records_;
  bool by_game_ = false;
  std::string player_;
  std::string opponent_;
  rules::Color player_as_ = rules::Color::kEmpty;
  std::string event_;
  std::string result_;
  int rank_min_ = 0;
  int rank_max_ = 0;
  // The rule axes a configuration's rules key must have (none: any): a
  // preset's axes but komi and the move cap, or the axes the filter names.
  rules::RulesKey rules_;
};

}  // namespace qipu::engine

#endif  // QIPU_ENGINE_FILTER_H_
