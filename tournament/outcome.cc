#include "tournament/outcome.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace qipu::tournament {

Outcome OutcomeFor(v1::GameResult result, bool black) {
  switch (result) {
    case v1::GAME_RESULT_BLACK_WINS:
      return black ? Outcome::kWin : Outcome::kLoss;
    case v1::GAME_RESULT_WHITE_WINS:
      return black ? Outcome::kLoss : Outcome::kWin;
    case v1::GAME_RESULT_DRAW:
      return Outcome::kDraw;
    case v1::GAME_RESULT_BLACK_FORFEIT_WIN:
      return black ? Outcome::kForfeitWin : Outcome::kForfeitLoss;
    case v1::GAME_RESULT_WHITE_FORFEIT_WIN:
      return black ? Outcome::kForfeitLoss : Outcome::kForfeitWin;
    case v1::GAME_RESULT_BOTH_LOSE:
      return Outcome::kBothLose;
    default:
      return Outcome::kNone;
  }
}

int OutcomePoints(Outcome outcome) {
  switch (outcome) {
    case Outcome::kWin:
    case Outcome::kForfeitWin:
      return kWinPoints;
    case Outcome::kDraw:
      return kDrawPoints;
    default:
      return 0;
  }
}

bool HasWinner(v1::GameResult result) {
  switch (result) {
    case v1::GAME_RESULT_BLACK_WINS:
    case v1::GAME_RESULT_WHITE_WINS:
    case v1::GAME_RESULT_BLACK_FORFEIT_WIN:
    case v1::GAME_RESULT_WHITE_FORFEIT_WIN:
      return true;
    default:
      return false;
  }
}

v1::GameResult TournamentResult(const rules::GameResult& result, int moves) {
  const bool forfeit =
      result.reason == rules::EndReason::kForfeit && moves == 0;
  switch (result.winner) {
    case rules::Winner::kBlack:
      return forfeit ? v1::GAME_RESULT_BLACK_FORFEIT_WIN
                     : v1::GAME_RESULT_BLACK_WINS;
    case rules::Winner::kWhite:
      return forfeit ? v1::GAME_RESULT_WHITE_FORFEIT_WIN
                     : v1::GAME_RESULT_WHITE_WINS;
    case rules::Winner::kDraw:
      return v1::GAME_RESULT_DRAW;
    case rules::Winner::kNone:
      break;
  }
  return v1::GAME_RESULT_VOID;
}

absl::StatusOr<v1::GameResult> ParseGameResult(absl::string_view text) {
  const std::string t = absl::AsciiStrToLower(absl::StripAsciiWhitespace(text));
  if (t == "both-lose" || t == "both_lose" || t == "bothlose") {
    return v1::GAME_RESULT_BOTH_LOSE;
  }
  if (t == "void") return v1::GAME_RESULT_VOID;
  if (t == "b+forf" || t == "w+forf") {
    return t[0] == 'b' ? v1::GAME_RESULT_BLACK_FORFEIT_WIN
                       : v1::GAME_RESULT_WHITE_FORFEIT_WIN;
  }
  // Everything else is an SGF RE value, read the one way results are read.
  absl::StatusOr<rules::GameResult> r = rules::ParseSgfResult(t);
  const bool usable =
      r.ok() && (r->winner == rules::Winner::kDraw ||
                 ((r->winner == rules::Winner::kBlack ||
                   r->winner == rules::Winner::kWhite) &&
                  r->reason != rules::EndReason::kOther &&
                  !(r->reason == rules::EndReason::kScore && r->margin == 0)));
  if (usable) return TournamentResult(*r, /*moves=*/0);
  return absl::InvalidArgumentError(absl::StrCat(
      "result '", text,
      "' is not one of B+, W+, draw, B+forfeit, W+forfeit, both-lose, void "
      "(or an SGF result such as B+3.5, W+R, W+Time)"));
}

std::string GameResultText(v1::GameResult result) {
  switch (result) {
    case v1::GAME_RESULT_BLACK_WINS:
      return "B+";
    case v1::GAME_RESULT_WHITE_WINS:
      return "W+";
    case v1::GAME_RESULT_DRAW:
      return "draw";
    case v1::GAME_RESULT_BLACK_FORFEIT_WIN:
      return "B+forfeit";
    case v1::GAME_RESULT_WHITE_FORFEIT_WIN:
      return "W+forfeit";
    case v1::GAME_RESULT_BOTH_LOSE:
      return "both-lose";
    case v1::GAME_RESULT_VOID:
      return "void";
    default:
      return "?";
  }
}

uint64_t DrawLot(uint64_t seed, int index) {
  uint64_t z =
      seed + 0x9e3779b97f4a7c15ULL * (static_cast<uint64_t>(index) + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace qipu::tournament
