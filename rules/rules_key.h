// RulesKey: a rule set written axis by axis, the one text form of rules
// that qipu stores and reads back:
//   "ko=simple cycle=no-result suicide=0 komi=7.5 dame=half hcomp=full cap=0"
// A complete key (every axis) is part of the data format: it is the
// configuration bucket's `rules_key` (qipu.v1.ConfigRecord, keying the
// aggregates of every stored game) and the QR property of qipu's SGF, so
// its text is byte-identical across versions (pinned by a golden test). A
// partial key names some axes only: a query filter's rules
// ("ko=positional cycle=draw", commas or spaces between the axes), which
// configurations match when they agree on every axis it names.
//
// Parse() is the one reading of that text and Text() the one writing.
// Plain value type; thread-compatible.
#ifndef QIPU_RULES_RULES_KEY_H_
#define QIPU_RULES_RULES_KEY_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/rules.h"

namespace qipu::rules {

struct RulesKey {
  // The axes, each unset when not given.
  std::optional<KoRule> ko;
  std::optional<CycleRule> cycle;
  std::optional<bool> multi_stone_suicide;
  std::optional<double> komi;
  std::optional<DameRule> dame;
  std::optional<HandicapCompensation> handicap_compensation;
  std::optional<int> move_cap;

  // No axis given (matches every rule set).
  RulesKey() = default;
  // Every axis of `rules`.
  explicit RulesKey(const Rules& rules);

  // Reads "axis=value" tokens separated by spaces and/or commas, in any
  // order, each axis at most once. Axes and values: ko (simple,
  // positional, situational), cycle (none, no-result, draw, replay),
  // suicide (0, 1), komi (a multiple of 0.5 within +-1000), dame (half,
  // none), hcomp (none, full, minus-one), cap (moves, 0 = the default).
  // InvalidArgument quoting the first bad token and saying why; an unknown
  // axis (or a token without '=') says so and lists the axes.
  static absl::StatusOr<RulesKey> Parse(absl::string_view text);

  // The given axes in the order above, "axis=value" joined by single
  // spaces ("" for none); komi as absl::StrCat writes a double. For a
  // complete key: the stored text, which Parse() reads back to an equal
  // key.
  std::string Text() const;

  // Every axis is given.
  bool complete() const;
  // The rule set of a complete key; FailedPrecondition naming the missing
  // axes otherwise.
  absl::StatusOr<Rules> ToRules() const;

  // This key without komi and the move cap: the axes a preset fixes
  // (a preset filter ignores the two, which have their own dimensions).
  RulesKey WithoutKomiAndCap() const;

  // True when `other` gives every axis this key gives, with the same value
  // (an empty key matches every key).
  bool MatchedBy(const RulesKey& other) const;

  friend bool operator==(const RulesKey&, const RulesKey&) = default;
};

// The axis names of a key, in Text() order: "ko", "cycle", "suicide",
// "komi", "dame", "hcomp", "cap".
inline constexpr absl::string_view kRulesKeyAxes[] = {
    "ko", "cycle", "suicide", "komi", "dame", "hcomp", "cap"};

}  // namespace qipu::rules

#endif  // QIPU_RULES_RULES_KEY_H_
