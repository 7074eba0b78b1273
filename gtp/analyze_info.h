// The search an external engine reports for its move: the `info move ...`
// lines of Leela Zero's `lz-genmove_analyze` and KataGo's
// `kata-genmove_analyze` (and of their `*-analyze` commands), parsed into
// one entry per root move -- visits, win rate, prior, LCB, order, score
// lead (KataGo), principal variation -- plus the move the engine played
// (the response's `play <vertex>` line).
//
// The two dialects differ in scale: Leela Zero writes win rate, prior and
// LCB as integers in 1/10000 (src/UCTSearch.cpp, OutputAnalysisData);
// KataGo writes them as numbers in [0, 1] and adds scoreMean, scoreLead,
// utility and more (keys not read here are skipped; list-valued keys such
// as pvVisits and ownership run to the next `info` or list key). Both report
// from the side to move's view (KataGo's default reportAnalysisWinratesAs
// SIDETOMOVE). An engine prints a new set of lines every interval; the
// last set before the `play` line is the search the move was chosen by
// (sets after it are pondering on the opponent's turn).
//
// Pure functions; thread-safe.
#ifndef QIPU_GTP_ANALYZE_INFO_H_
#define QIPU_GTP_ANALYZE_INFO_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/types.h"

namespace qipu::gtp {

// Which engine's conventions a response follows.
enum class AnalyzeDialect {
  // lz-genmove_analyze: win rate, prior, LCB in 1/10000.
  kLeelaZero,
  // kata-genmove_analyze: numbers in [0, 1], score in points.
  kKataGo,
};

// One root move of a reported search.
struct AnalyzedMove {
  // A board point or rules::kPass.
  rules::Point point = rules::kPass;
  int64_t visits = 0;
  // Win rate of the side to move after this move, in [0, 1].
  double winrate = 0;
  // The network's prior for the move, in [0, 1].
  double prior = 0;
  // Lower confidence bound of the win rate, in [0, 1] (0 when not given).
  double lcb = 0;
  // The engine's rank of the move (0 = its choice); -1 when not given.
  int order = -1;
  // KataGo's expected score lead of the side to move, in points.
  std::optional<double> score_lead;
  // KataGo's expected score of the side to move (scoreMean), in points.
  std::optional<double> score_mean;
  // The principal variation as written (vertices), the move first.
  std::vector<std::string> pv;
};

// A parsed response.
struct AnalyzeReport {
  // The last set of `info` entries, in the order written.
  std::vector<AnalyzedMove> moves;
  // The `play` line's vertex as written ("D4", "pass", "resign"); empty
  // when the response has none.
  std::string play;
};

// Parses the text of an analyze response (the lines after "=", one
// `info ...` set per line, and `play <vertex>`) for a width x height
// board. InvalidArgument naming the line and the token for a vertex that
// is not on the board, a number that does not parse or is out of range
// (negative visits, a win rate outside [0, 1] after scaling), an `info`
// without `move` or `visits`, or a move twice in one set.
absl::StatusOr<AnalyzeReport> ParseAnalyzeResponse(absl::string_view text,
                                                   int width, int height,
                                                   AnalyzeDialect dialect);

}  // namespace qipu::gtp

#endif  // QIPU_GTP_ANALYZE_INFO_H_
