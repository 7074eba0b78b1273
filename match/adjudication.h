// Adjudication: what the referee of a match does with an illegal move, and
// what warnings cost (spec section 6; the articles are those of the Chinese
// competition rules in ../shared/seeds/).
//
// Two illegal-move policies:
//   - forfeit: the usual computer-Go rule; the illegal move loses the game
//     at once (recorded as rules::EndReason::kIllegal, "W+Illegal");
//   - chinese: the move is void and the player forfeits the turn -- it
//     counts as a pass (art. 19: "棋子下在禁著點上，判著手無效，棄權一次";
//     an occupied point is treated alike). Retaking a ko at once, without a
//     ko threat in between, also earns a warning (art. 18.3:
//     "劫爭須找劫材時未找而提劫，判提劫之手無效，棄權一次並警告一次"; the
//     basic-ko retake that art. 20.1 forbids, rules::IllegalReason::kKo).
//     Other repetitions (superko, the art. 20 cycle rule) are void without
//     a warning (art. 20.2-20.3 forbid them, name no penalty). Each
//     warning costs one stone at counting (art. 24.1: "被警告方罰出一子");
//     a second warning in a game loses it (art. 24.2: "被判兩次警告，則判該局
//     為負").
//
// One stone is two points of margin: the Chinese count compares one
// side's stones and area with half the board, so a stone taken from Black
// is a point Black lacks and White would have had (rules/result.h counts
// margins in stones the same way).
//
// Pure functions; thread-safe.
#ifndef QIPU_MATCH_ADJUDICATION_H_
#define QIPU_MATCH_ADJUDICATION_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/game.h"
#include "rules/result.h"

namespace qipu::match {

enum class IllegalMovePolicy : uint8_t { kForfeit = 0, kChinese };

// "forfeit", "chinese".
const char* IllegalMovePolicyName(IllegalMovePolicy p);
// The names above; InvalidArgument listing them for anything else.
absl::StatusOr<IllegalMovePolicy> ParseIllegalMovePolicy(absl::string_view s);

// The referee's ruling on one illegal move.
struct IllegalMoveRuling {
  // The mover loses the game now: forfeit, or a second warning.
  bool loses = false;
  // The move is void and counts as the mover's pass (chinese, when the
  // game goes on).
  bool void_as_pass = false;
  // The move earns a warning (chinese: a ko retake).
  bool warning = false;
  // The article applied ("18.3", "19", "20", "24.2"), "" for forfeit.
  const char* article = "";
};

// The ruling on a move illegal for `reason` (not kNone) under `policy`,
// when the mover already has `warnings` warnings in this game.
IllegalMoveRuling RuleOnIllegalMove(IllegalMovePolicy policy,
                                    rules::IllegalReason reason, int warnings);

// Points one warning costs at counting (one stone, art. 24.1).
inline constexpr double kPointsPerWarning = 2;

// A counted result (reason kScore) with the warnings deducted: each costs
// its side one stone (kPointsPerWarning) of margin; a margin of 0 is a
// draw. Other results come back unchanged.
rules::GameResult DeductWarnings(const rules::GameResult& counted,
                                 int black_warnings, int white_warnings);

}  // namespace qipu::match

#endif  // QIPU_MATCH_ADJUDICATION_H_
