// Game results: who won, why, by how much; written as SGF RE values
// ("B+3.5", "W+R", "Draw", "Void") and as Chinese stone margins ("Black wins
// by 3/4 stone"), and read back from (messy, real-world) RE values; a
// record's result as its text beside what it means (RecordResult).
#ifndef QIPU_RULES_RESULT_H_
#define QIPU_RULES_RESULT_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace qipu::rules {

enum class Winner : uint8_t {
  // No result: balanced cycle, move-limit void, replay, unknown record.
  kNone = 0,
  kBlack,
  kWhite,
  kDraw,
};

enum class EndReason : uint8_t {
  kNotOver = 0,
  // Two consecutive passes, then counting.
  kScore,
  kResign,
  kTime,
  kForfeit,
  // A balanced cycle under the art. 20 rule.
  kCycle,
  // The move cap was hit; void.
  kMoveLimit,
  // A record without a usable result.
  kUnknown,
  // A record that declares no result ("Void") without saying why.
  kVoid,
  // A record that names the winner and says the loser played an illegal
  // move ("W+Illegal").
  kIllegal,
  // A record that names the winner and a reason that is none of the above
  // ("W+J", "B+AW"), or no reason at all ("W"); the text is not part of the
  // result (ParseSgfResult's *other_reason; stored games keep the RE as
  // written in qipu.v1.Meta.record_result).
  kOther,
};

// How a counted game (EndReason::kScore) settled its dead stones: what the
// count removed from the board before counting it.
enum class Counting : uint8_t {
  // Not said: not a count, or a result read from a record.
  kUnknown = 0,
  // The board as it stands, every stone alive (qipu's self-play, replays,
  // Tromp-Taylor: games are played out before both pass).
  kAsPlayed,
  // The stones qipu's judgement (rules/dead_stones.h) calls dead removed.
  kJudged,
  // The stones both players called dead removed.
  kAgreed,
  // The players disputed dead stones, play resumed with the side that
  // called them dead moving first (art. 21.4), and actual play settled
  // them: the stones still on the board at the next two passes are alive,
  // except those both players then call dead.
  kPlayedOut,
};

// "none", "B", "W", "draw".
const char* WinnerName(Winner w);
// "not-over", "score", "resign", "time", "forfeit", "cycle", "move-limit",
// "unknown", "void", "illegal", "other".
const char* EndReasonName(EndReason r);
// "unknown", "as-played", "judged", "agreed", "played-out".
const char* CountingName(Counting c);

// The result of a game. Plain value type.
struct GameResult {
  Winner winner = Winner::kNone;
  EndReason reason = EndReason::kNotOver;
  // Margin in points (>= 0) when reason is kScore and someone won; else 0.
  // Negative means "unknown" for records that say "B+" without a number.
  double margin = 0;
  // For reason kScore: how the dead stones were settled (kUnknown
  // otherwise). Not part of the result's identity: SGF's RE cannot say it,
  // so two results are equal when winner, reason and margin are.
  Counting counting = Counting::kUnknown;

  friend bool operator==(const GameResult& a, const GameResult& b) {
    return a.winner == b.winner && a.reason == b.reason && a.margin == b.margin;
  }
};

// How the game was scored, in words: "counted as played", "counted, dead
// stones judged", "counted, dead stones agreed", "counted after a dispute
// played out (art. 21.4)", "counted" (counting unknown), "resignation",
// "time", "forfeit", "illegal move", "cycle", "move cap", "void",
// "unknown", "other", "not over".
std::string ScoringText(const GameResult& r);

// The SGF RE value: "B+3.5", "W+R", "B+T", "B+F", "B+" (margin unknown),
// "Draw" (jigo or a drawn cycle), "Void" (no result), "?" (unknown),
// "W+Illegal"; for EndReason::kOther the winner and `other_reason` as
// written ("W+J", or "W" when it is empty). Reads back to the same result
// (and reason text) with ParseSgfResult().
std::string ResultToSgf(const GameResult& r,
                        absl::string_view other_reason = {});

// The margin in Chinese stones (1 stone = 2 points), e.g. "Black wins by
// 3/4 stone" written with vulgar fractions: "Black wins by ¾ stone",
// "White wins by 1¼ stones", "Draw", "No result", "Black wins by
// resignation".
std::string ResultInStones(const GameResult& r);

// Parses an RE value, leniently: "B+R", "B+Resign", "b+3.5", "W+T",
// "W+Time", "B+F", "0", "Draw", "Jigo", "Void", "?" and friends. Margins
// are taken as written (points). A value that names the winner with a
// reason SGF does not define keeps the winner: "W+Illegal" is
// EndReason::kIllegal; "W+J", "B+AW", "B+R+T" and a bare "W" or "B" are
// EndReason::kOther. Returns InvalidArgument naming the value when it
// names no winner ("Black", "B3.5", "+3.5") or gives a number that is no
// margin ("B+-3", "B+inf", "W+1e9"). (OUT) *other_reason, when given: for
// kOther the text after "B+"/"W+" as written, trimmed ("J", "AW"; empty
// for a bare "W"); otherwise cleared.
absl::StatusOr<GameResult> ParseSgfResult(absl::string_view re,
                                          std::string* other_reason = nullptr);

// True for the reasons a record may give that SGF does not define
// (kIllegal, kOther): the import notes that it kept them.
bool IsNonStandardSgfReason(EndReason r);

// A game's result as its record gives it (rules::GameRecord::result): the
// RE text beside what it means, so that the text is read once -- where a
// record is read (the SGF reader, a JSON Lines line) or made -- and never
// parsed again. Plain value type.
struct RecordResult {
  // The RE text: as written (trimmed) in a record read from a file, or
  // from a stored game (qipu.v1.Meta.record_result); as qipu writes it in
  // a record qipu made. Empty: the record gives no RE.
  std::string text;
  // The result: `text` read by ParseSgfResult() (reason kUnknown when it
  // is empty, "?" or not understood), unless whoever made the record knew
  // better (a stored game's own result; a Fox margin in stones, which the
  // import normalises to points while `text` keeps what the file says).
  // Default: unknown, as Read("") gives.
  GameResult value{Winner::kNone, EndReason::kUnknown, 0};
  // For value.reason kOther: the reason as written ("J" of "W+J"; empty
  // for a bare "W"); empty otherwise.
  std::string other_reason;
  // False when `text` gives no usable result -- names no winner
  // ("Black won") or a margin that is no margin ("B+-3"); value.reason is
  // then kUnknown.
  bool understood = true;

  // Reads an RE value as written: the one reading of a record's result
  // text (ParseSgfResult(), leniently; surrounding blanks are trimmed).
  static RecordResult Read(absl::string_view text);
  // The record result of a result qipu decided: `text` is
  // ResultToSgf(result, other_reason).
  static RecordResult Of(const GameResult& result,
                         absl::string_view other_reason = {});
  // A stored game's: its own result `stored` and the RE its record wrote,
  // `written` ("" for self-play). A kOther result takes the reason text of
  // `written` when that reads as the same result (so "W+J" stays "W+J").
  static RecordResult Stored(const GameResult& stored,
                             absl::string_view written);

  // The RE qipu writes for this result: ResultToSgf(value, other_reason)
  // when the value is known (reason not kUnknown), else the text as
  // written, "?" when there is none. What exports and the game's JSON
  // give as its result.
  std::string Sgf() const;

  friend bool operator==(const RecordResult&, const RecordResult&) = default;
};

}  // namespace qipu::rules

#endif  // QIPU_RULES_RESULT_H_
