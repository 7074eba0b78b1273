// `qipu tournament result`: a game's result (or a board's, or with
// --boards every board of a team match). A result is never lost or
// overturned silently: changing a forfeit, or a result of a round that
// later rounds were paired from, needs --force, and the refusal says which
// standings would move; every change is kept in the history (`show
// --history`: who, when, old, new), and the notes of a forced change are
// printed.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "ops/tournament_command.h"
#include "tournament/outcome.h"

namespace qipu::ops {
namespace {

// A result as --result spells it: "none" clears a result; the rest as
// tournament/outcome.h spells them.
absl::StatusOr<qipu::v1::GameResult> ParseResultFlag(const std::string& text) {
  if (absl::AsciiStrToLower(text) == "none") {
    return qipu::v1::GAME_RESULT_UNKNOWN;
  }
  return tournament::ParseGameResult(text);
}

// --boards R1,R2,...: the result of every board of a team match, entered
// board by board once all of them parse and their number is the match's.
// One request a board (the service sets one result a call): should a
// later board fail (storage, a board that needs --force), the earlier ones
// stay entered, and running the same command again is harmless.
absl::Status SetBoardResults(const TournamentFlags& f,
                             backend::TournamentClient& c) {
  std::vector<qipu::v1::GameResult> results;
  for (absl::string_view text : absl::StrSplit(f.board_results, ',')) {
    auto r = ParseResultFlag(std::string(absl::StripAsciiWhitespace(text)));
    if (!r.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--boards: board ", results.size() + 1, ": ", r.status().message()));
    }
    results.push_back(*r);
  }
  auto tour = FetchTournament(c, f.tournament);
  if (!tour.ok()) return tour.status();
  const std::string where = absl::StrCat("round ", f.round, " table ", f.table);
  if (!tour->teams_event()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": --boards is for team events; use --result"));
  }
  if (f.round < 1 || static_cast<int>(f.round) > tour->round_size() ||
      f.table < 1 ||
      static_cast<int>(f.table) > tour->round(f.round - 1).pairings_size()) {
    return absl::InvalidArgumentError(absl::StrCat(where, ": no such table"));
  }
  const int boards =
      tour->round(f.round - 1).pairings(f.table - 1).boards_size();
  if (static_cast<int>(results.size()) != boards) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": --boards has ", results.size(),
                     " results for a match of ", boards, " boards"));
  }
  absl::StatusOr<qipu::v1::TournamentResponse> last;
  std::vector<std::string> notes;
  for (int b = 0; b < boards; ++b) {
    qipu::v1::SetResultRequest req;
    req.set_tournament(f.tournament);
    req.set_round(f.round);
    req.set_table(f.table);
    req.set_board(b + 1);
    req.set_result(results[b]);
    req.set_force(f.force);
    last = c.SetResult(req);
    if (!last.ok()) return last.status();
    notes.insert(notes.end(), last->notes().begin(), last->notes().end());
  }
  last->clear_notes();
  for (std::string& n : notes) last->add_notes(std::move(n));
  return ShowChange(f, std::move(last));
}

int RunResult(const TournamentFlags& f) {
  return WithClient("result", f, [&](backend::TournamentClient& c) {
    if (f.result.empty() == f.board_results.empty()) {
      return absl::InvalidArgumentError(
          "give --result (one game or board) or --boards (every board of a "
          "team match), not both");
    }
    if (!f.board_results.empty()) {
      if (f.board != 0 || !f.game_id.empty()) {
        return absl::InvalidArgumentError(
            "--boards enters every board; --board and --game go with "
            "--result");
      }
      return SetBoardResults(f, c);
    }
    absl::StatusOr<qipu::v1::GameResult> result = ParseResultFlag(f.result);
    if (!result.ok()) return result.status();
    qipu::v1::SetResultRequest req;
    req.set_tournament(f.tournament);
    req.set_round(f.round);
    req.set_table(f.table);
    req.set_board(f.board);
    req.set_result(*result);
    req.set_game_id(f.game_id);
    req.set_force(f.force);
    return ShowChange(f, c.SetResult(req));
  });
}

}  // namespace

void AddTournamentResultCommands(CLI::App* t,
                                 const std::shared_ptr<TournamentFlags>& f,
                                 int* exit_code) {
  CLI::App* result = t->add_subcommand(
      "result", "Enter a game's result (team events: a board's, or --boards)");
  AddTargetAndJson(result, f.get(),
                   "Print the tournament as JSON (with \"notes\")");
  AddTournamentId(result, f.get());
  result->add_option("--round", f->round, "Round (1-based)")->required();
  result->add_option("--table", f->table, "Table (1-based)")->required();
  result->add_option("--board", f->board, "Team events: board (1-based)");
  result->add_option("--result", f->result,
                     "B+, W+, draw, B+forfeit, W+forfeit, both-lose, void, "
                     "or none (clears it)");
  result->add_option("--boards", f->board_results,
                     "Team events: every board's result, board 1 first, "
                     "comma-separated (e.g. B+,W+,draw)");
  result->add_option("--game", f->game_id, "Id of the stored game");
  result->add_flag("--force", f->force,
                   "Change a forfeit, or a result later rounds were paired "
                   "from (the standings it moves are printed)");
  result->callback([f, exit_code] { *exit_code = RunResult(*f); });
}

}  // namespace qipu::ops
