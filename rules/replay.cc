#include "rules/replay.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "rules/coord.h"

namespace qipu::rules {
namespace {

absl::Status ApplyStep(const SetupStep& step, bool root_handicap, Game* game) {
  if (root_handicap && step.white.empty() && step.empty.empty()) {
    return game->PlaceFreeHandicap(step.black);
  }
  return game->ApplySetup(step.black, step.white, step.empty, step.to_play);
}

}  // namespace

absl::StatusOr<ReplayReport> Replay(
    const GameRecord& record, const Rules& rules,
    absl::Span<const CycleRecord> claimed_prevented) {
  Game game(std::max(record.width, kMinSize), std::max(record.height, kMinSize),
            rules);
  return ReplayInto(record, rules, claimed_prevented, &game);
}

absl::StatusOr<ReplayReport> ReplayInto(
    const GameRecord& record, const Rules& rules,
    absl::Span<const CycleRecord> claimed_prevented, Game* game) {
  if (absl::Status s = ValidateSize(record.width, record.height); !s.ok()) {
    return s;
  }
  if (absl::Status s = ValidateKomi(rules.komi); !s.ok()) return s;
  if (game->width() == record.width && game->height() == record.height &&
      game->rules() == rules) {
    game->Reset();
  } else {
    *game = Game(record.width, record.height, rules);
  }
  ReplayReport report;
  report.moves = static_cast<int>(record.moves.size());

  size_t next_setup = 0;
  auto apply_setups = [&](int before_move) -> absl::Status {
    while (next_setup < record.setup.size() &&
           record.setup[next_setup].before_move <= before_move) {
      const SetupStep& step = record.setup[next_setup];
      const bool root_handicap =
          step.before_move == 0 && record.handicap >= 2 && next_setup == 0;
      if (absl::Status s = ApplyStep(step, root_handicap, game); !s.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "setup before move ", step.before_move + 1, ": ", s.message()));
      }
      ++next_setup;
    }
    return absl::OkStatus();
  };

  std::vector<bool> claim_used(claimed_prevented.size(), false);
  for (int k = 0; k < report.moves; ++k) {
    if (absl::Status s = apply_setups(k); !s.ok()) return s;
    if (game->over()) break;
    const Move& m = record.moves[k];
    // Prevented cycles claimed at this ply must be reproduced exactly.
    for (size_t c = 0; c < claimed_prevented.size(); ++c) {
      const CycleRecord& claim = claimed_prevented[c];
      if (claim.first_move + claim.period - 1 != k + 1) continue;
      const MoveVerdict v = game->Check(m.color, claim.point);
      if ((v.reason != IllegalReason::kSuperko &&
           v.reason != IllegalReason::kCycle) ||
          !(v.cycle == claim)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "claimed prevented cycle at move ", k + 1, " (",
            GtpPoint(claim.point, record.height), ", ",
            CycleClassName(claim.cls), ") is not what the rules give there"));
      }
      game->RecordPrevented(v.cycle);
      claim_used[c] = true;
    }
    if (m.point != kPass && !game->board().OnBoard(m.point)) {
      report.legal = false;
      report.illegal_move = k + 1;
      report.illegal_reason = IllegalReason::kOffBoard;
      break;
    }
    const MoveVerdict v = game->TryPlay(m.color, m.point);
    if (!v.legal()) {
      report.legal = false;
      report.illegal_move = k + 1;
      report.illegal_reason = v.reason;
      break;
    }
  }
  if (report.legal && !game->over()) {
    if (absl::Status s = apply_setups(report.moves); !s.ok()) return s;
  }
  for (size_t c = 0; c < claimed_prevented.size(); ++c) {
    if (!claim_used[c]) {
      return absl::InvalidArgumentError(absl::StrCat(
          "claimed prevented cycle at move ",
          claimed_prevented[c].first_move + claimed_prevented[c].period - 1,
          " lies outside the moves played"));
    }
  }
  report.played = game->num_moves();
  report.ended_at = game->ended_at();
  report.cycles = game->cycles();
  report.ko_captures = game->ko_captures();
  report.handicap = game->handicap();
  report.area = game->Area();
  report.area_result = game->ScoreNow();
  if (game->over()) report.rules_result = game->result();
  return report;
}

}  // namespace qipu::rules
