#include "rules/result.h"

#include <cmath>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/quote.h"

namespace qipu::rules {

const char* WinnerName(Winner w) {
  switch (w) {
    case Winner::kNone:
      return "none";
    case Winner::kBlack:
      return "B";
    case Winner::kWhite:
      return "W";
    case Winner::kDraw:
      return "draw";
  }
  return "?";
}

const char* EndReasonName(EndReason r) {
  switch (r) {
    case EndReason::kNotOver:
      return "not-over";
    case EndReason::kScore:
      return "score";
    case EndReason::kResign:
      return "resign";
    case EndReason::kTime:
      return "time";
    case EndReason::kForfeit:
      return "forfeit";
    case EndReason::kCycle:
      return "cycle";
    case EndReason::kMoveLimit:
      return "move-limit";
    case EndReason::kUnknown:
      return "unknown";
    case EndReason::kVoid:
      return "void";
    case EndReason::kIllegal:
      return "illegal";
    case EndReason::kOther:
      return "other";
  }
  return "?";
}

const char* CountingName(Counting c) {
  switch (c) {
    case Counting::kUnknown:
      return "unknown";
    case Counting::kAsPlayed:
      return "as-played";
    case Counting::kJudged:
      return "judged";
    case Counting::kAgreed:
      return "agreed";
    case Counting::kPlayedOut:
      return "played-out";
  }
  return "?";
}

std::string ScoringText(const GameResult& r) {
  switch (r.reason) {
    case EndReason::kNotOver:
      return "not over";
    case EndReason::kScore:
      switch (r.counting) {
        case Counting::kUnknown:
          return "counted";
        case Counting::kAsPlayed:
          return "counted as played";
        case Counting::kJudged:
          return "counted, dead stones judged";
        case Counting::kAgreed:
          return "counted, dead stones agreed";
        case Counting::kPlayedOut:
          return "counted after a dispute played out (art. 21.4)";
      }
      return "counted";
    case EndReason::kResign:
      return "resignation";
    case EndReason::kTime:
      return "time";
    case EndReason::kForfeit:
      return "forfeit";
    case EndReason::kCycle:
      return "cycle";
    case EndReason::kMoveLimit:
      return "move cap";
    case EndReason::kUnknown:
      return "unknown";
    case EndReason::kVoid:
      return "void";
    case EndReason::kIllegal:
      return "illegal move";
    case EndReason::kOther:
      return "other";
  }
  return "?";
}

bool IsNonStandardSgfReason(EndReason r) {
  return r == EndReason::kIllegal || r == EndReason::kOther;
}

std::string ResultToSgf(const GameResult& r, absl::string_view other_reason) {
  switch (r.winner) {
    case Winner::kDraw:
      return "Draw";
    case Winner::kNone:
      return r.reason == EndReason::kUnknown ? "?" : "Void";
    case Winner::kBlack:
    case Winner::kWhite:
      break;
  }
  const std::string who = r.winner == Winner::kBlack ? "B+" : "W+";
  switch (r.reason) {
    case EndReason::kResign:
      return who + "R";
    case EndReason::kTime:
      return who + "T";
    case EndReason::kForfeit:
      return who + "F";
    case EndReason::kIllegal:
      return who + "Illegal";
    case EndReason::kOther:
      // "W" alone when the record gave no reason.
      return other_reason.empty() ? who.substr(0, 1)
                                  : absl::StrCat(who, other_reason);
    default:
      break;
  }
  if (r.margin < 0) return who;
  return absl::StrCat(who, r.margin);
}

std::string ResultInStones(const GameResult& r) {
  switch (r.winner) {
    case Winner::kDraw:
      return "Draw";
    case Winner::kNone:
      return r.reason == EndReason::kUnknown ? "Unknown" : "No result";
    case Winner::kBlack:
    case Winner::kWhite:
      break;
  }
  const std::string who = r.winner == Winner::kBlack ? "Black" : "White";
  switch (r.reason) {
    case EndReason::kResign:
      return who + " wins by resignation";
    case EndReason::kTime:
      return who + " wins on time";
    case EndReason::kForfeit:
      return who + " wins by forfeit";
    case EndReason::kIllegal:
      return who + " wins by an illegal move";
    case EndReason::kOther:
      return who + " wins";
    default:
      break;
  }
  if (r.margin < 0) return who + " wins";
  // Margins are multiples of 0.5 points = quarter stones. Records may say
  // anything ("B+0.02", "W+0"): those are written in points as given.
  const long quarters = std::lround(r.margin * 2);
  if (quarters == 0 || std::fabs(r.margin * 2 - quarters) > 1e-9) {
    return absl::StrCat(who, " wins by ", r.margin, " points");
  }
  const long whole = quarters / 4;
  static const char* const kFractions[] = {"", "¼", "½", "¾"};
  std::string amount =
      whole > 0 || quarters % 4 == 0 ? absl::StrCat(whole) : "";
  amount += kFractions[quarters % 4];
  const bool plural = quarters > 4;
  return absl::StrCat(who, " wins by ", amount, plural ? " stones" : " stone");
}

absl::StatusOr<GameResult> ParseSgfResult(absl::string_view re,
                                          std::string* other_reason) {
  if (other_reason != nullptr) other_reason->clear();
  const absl::string_view trimmed = absl::StripAsciiWhitespace(re);
  const std::string s = absl::AsciiStrToLower(trimmed);
  GameResult r;
  if (s.empty() || s == "?" || s == "unknown") {
    r.reason = EndReason::kUnknown;
    return r;
  }
  if (s == "0" || s == "draw" || s == "jigo" || s == "d" || s == "=") {
    r.winner = Winner::kDraw;
    r.reason = EndReason::kScore;
    return r;
  }
  if (s == "void" || s == "no result" || s == "noresult") {
    r.winner = Winner::kNone;
    r.reason = EndReason::kVoid;
    return r;
  }
  // "B" or "W", alone or followed by '+' and a reason or margin.
  if ((s[0] == 'b' || s[0] == 'w') && (s.size() == 1 || s[1] == '+')) {
    r.winner = s[0] == 'b' ? Winner::kBlack : Winner::kWhite;
    if (s.size() == 1) {
      r.reason = EndReason::kOther;
      return r;
    }
    const std::string rest(absl::StripAsciiWhitespace(s.substr(2)));
    if (rest.empty()) {
      r.reason = EndReason::kScore;
      r.margin = -1;
      return r;
    }
    if (rest == "r" || rest == "resign" || rest == "resignation") {
      r.reason = EndReason::kResign;
      return r;
    }
    if (rest == "t" || rest == "time") {
      r.reason = EndReason::kTime;
      return r;
    }
    if (rest == "f" || rest == "forfeit") {
      r.reason = EndReason::kForfeit;
      return r;
    }
    if (rest == "illegal" || rest == "illegal move" || rest == "illegalmove") {
      r.reason = EndReason::kIllegal;
      return r;
    }
    double m = 0;
    if (absl::SimpleAtod(rest, &m)) {
      if (std::isfinite(m) && m >= 0 && m < 10000) {
        r.reason = EndReason::kScore;
        r.margin = m;
        return r;
      }
      // A number that is no margin contradicts the winner it follows.
      return absl::InvalidArgumentError(
          absl::StrCat("result ", base::QuoteInput(re),
                       " gives a margin that is no margin (", rest,
                       "): a margin is a number of points, 0 or more"));
    }
    r.reason = EndReason::kOther;
    if (other_reason != nullptr) {
      *other_reason =
          std::string(absl::StripAsciiWhitespace(trimmed.substr(2)));
    }
    return r;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "result '", re,
      "' is not an SGF RE value (like B+3.5, W+R, Draw) and names no winner"));
}

RecordResult RecordResult::Read(absl::string_view text) {
  RecordResult r;
  r.text = std::string(absl::StripAsciiWhitespace(text));
  auto parsed = ParseSgfResult(r.text, &r.other_reason);
  if (parsed.ok()) {
    r.value = *parsed;
  } else {
    r.value.reason = EndReason::kUnknown;
    r.understood = false;
  }
  return r;
}

RecordResult RecordResult::Of(const GameResult& result,
                              absl::string_view other_reason) {
  RecordResult r;
  r.value = result;
  if (result.reason == EndReason::kOther) {
    r.other_reason = std::string(other_reason);
  }
  r.text = ResultToSgf(result, r.other_reason);
  return r;
}

RecordResult RecordResult::Stored(const GameResult& stored,
                                  absl::string_view written) {
  RecordResult r;
  r.text = std::string(written);
  r.value = stored;
  if (written.empty()) return r;
  if (stored.reason == EndReason::kOther) {
    // The reason text is not part of the stored result: the record's.
    const RecordResult as_written = Read(written);
    if (as_written.value == stored) r.other_reason = as_written.other_reason;
  } else if (stored.reason == EndReason::kUnknown) {
    r.understood = Read(written).understood;
  }
  return r;
}

std::string RecordResult::Sgf() const {
  if (value.reason != EndReason::kUnknown) {
    return ResultToSgf(value, other_reason);
  }
  return text.empty() ? std::string("?") : text;
}

}  // namespace qipu::rules
