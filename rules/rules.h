// Rules: a rule set as independent axes (ko, cycle, suicide, komi, dame,
// handicap compensation, move cap) plus named presets. See
// ../shared/spec/rules.md; `chinese` is the default. The text form of a
// rule set (configuration keys, query filters) is RulesKey (rules_key.h).
#ifndef QIPU_RULES_RULES_H_
#define QIPU_RULES_RULES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace qipu::rules {

// Which whole-board repetitions are forbidden outright (spec section 3).
enum class KoRule : uint8_t {
  // Only the immediate basic-ko retake.
  kSimple = 0,
  // No repetition of the board (positional superko).
  kPositional,
  // No repetition of board plus player to move (situational superko).
  kSituational,
};

// The art. 20 cycle rule under simple ko: an unbalanced cycle is illegal,
// a balanced one ends the game with this outcome; kNone disables it.
enum class CycleRule : uint8_t { kNone = 0, kNoResult, kDraw, kReplay };

// Counting of empty points that reach both colours.
enum class DameRule : uint8_t { kHalf = 0, kNone };

// Points White gets at counting per handicap stone.
enum class HandicapCompensation : uint8_t { kNone = 0, kFull, kMinusOne };

// A complete rule set. Plain value type; default is the `chinese` preset.
struct Rules {
  KoRule ko = KoRule::kSimple;
  CycleRule cycle = CycleRule::kNoResult;
  // Suicide of a chain of two or more stones is legal (single-stone
  // suicide never is).
  bool multi_stone_suicide = false;
  // Komi in points; a multiple of 0.5.
  double komi = 7.5;
  DameRule dame = DameRule::kHalf;
  HandicapCompensation handicap_compensation = HandicapCompensation::kFull;
  // Maximum plies (passes included) before the game is void; 0 means
  // 3 * width * height.
  int move_cap = 0;

  friend bool operator==(const Rules&, const Rules&) = default;
};

// The move cap in effect for a board. Precondition: valid board size.
int MoveCap(const Rules& rules, int width, int height);

// Presets: "chinese", "chinese-superko", "tromp-taylor", "aga",
// "new-zealand" (any case). Unknown names give InvalidArgument listing the
// known ones.
absl::StatusOr<Rules> PresetRules(absl::string_view name);

// The preset names in the order above: the one list of them.
std::vector<absl::string_view> PresetNames();

// The name of the preset equal to `rules`, or "custom".
std::string PresetName(const Rules& rules);

// Axis names, both ways. Parse errors list the accepted values.
const char* KoRuleName(KoRule k);  // "simple", "positional", "situational"
absl::StatusOr<KoRule> ParseKoRule(absl::string_view s);
const char* CycleRuleName(
    CycleRule c);  // "none", "no-result", "draw", "replay"
absl::StatusOr<CycleRule> ParseCycleRule(absl::string_view s);
const char* DameRuleName(DameRule d);  // "half", "none"
const char* HandicapCompensationName(
    HandicapCompensation h);  // "none", "full", "minus-one"

// OK when komi is a finite multiple of 0.5 within +-1000.
absl::Status ValidateKomi(double komi);

// Maps an SGF RU value to a preset ("Chinese", "CN", "AGA", "NZ",
// "Tromp-Taylor", ...). Japanese and Korean rules (territory counting) are
// not implemented: they map to `chinese`, and so does anything unknown; in
// both cases `*note` (if given) says what was assumed.
Rules RulesFromSgf(absl::string_view ru, std::string* note);

}  // namespace qipu::rules

#endif  // QIPU_RULES_RULES_H_
