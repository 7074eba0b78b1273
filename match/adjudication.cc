#include "match/adjudication.h"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace qipu::match {

const char* IllegalMovePolicyName(IllegalMovePolicy p) {
  switch (p) {
    case IllegalMovePolicy::kForfeit:
      return "forfeit";
    case IllegalMovePolicy::kChinese:
      return "chinese";
  }
  return "?";
}

absl::StatusOr<IllegalMovePolicy> ParseIllegalMovePolicy(absl::string_view s) {
  if (s == "forfeit") return IllegalMovePolicy::kForfeit;
  if (s == "chinese") return IllegalMovePolicy::kChinese;
  return absl::InvalidArgumentError(absl::StrCat(
      "illegal-move policy '", s, "': expected forfeit or chinese"));
}

IllegalMoveRuling RuleOnIllegalMove(IllegalMovePolicy policy,
                                    rules::IllegalReason reason, int warnings) {
  IllegalMoveRuling r;
  if (policy == IllegalMovePolicy::kForfeit) {
    r.loses = true;
    return r;
  }
  switch (reason) {
    case rules::IllegalReason::kKo:
      // Art. 18.3: void, a pass, and a warning.
      r.warning = true;
      r.article = "18.3";
      break;
    case rules::IllegalReason::kSuperko:
    case rules::IllegalReason::kCycle:
      // Art. 20.2-20.3: forbidden; void as art. 19 rules.
      r.article = "20";
      break;
    default:
      // Art. 19: a forbidden point (suicide; occupied alike): void.
      r.article = "19";
      break;
  }
  if (r.warning && warnings + 1 >= 2) {
    // Art. 24.2: the second warning loses the game.
    r.loses = true;
    r.article = "24.2";
    return r;
  }
  r.void_as_pass = true;
  return r;
}

rules::GameResult DeductWarnings(const rules::GameResult& counted,
                                 int black_warnings, int white_warnings) {
  if (counted.reason != rules::EndReason::kScore) return counted;
  double black_margin = 0;
  switch (counted.winner) {
    case rules::Winner::kBlack:
      black_margin = counted.margin;
      break;
    case rules::Winner::kWhite:
      black_margin = -counted.margin;
      break;
    case rules::Winner::kDraw:
      break;
    case rules::Winner::kNone:
      return counted;
  }
  black_margin += kPointsPerWarning * (white_warnings - black_warnings);
  rules::GameResult r = counted;
  if (black_margin > 0) {
    r.winner = rules::Winner::kBlack;
  } else if (black_margin < 0) {
    r.winner = rules::Winner::kWhite;
  } else {
    r.winner = rules::Winner::kDraw;
  }
  r.margin = std::fabs(black_margin);
  return r;
}

}  // namespace qipu::match
