#include "rules/replay.h"

#include <algorithm>

#include "absl/container/inlined_vector.h"
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

// The 0-based ply at which a claimed prevented cycle's rejected move was
// tried.
int ClaimPly(const CycleRecord& claim) {
  return claim.first_move + claim.period - 2;
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
  if (game->width() != record.width || game->height() != record.height) {
    *game = Game(record.width, record.height, rules);
  } else if (game->rules() == rules) {
    game->Reset();
  } else {
    game->Reset(rules);
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

  // Moves are played in runs between the plies where something else
  // happens first: a setup step, or a claimed prevented cycle to verify.
  absl::InlinedVector<bool, 8> claim_used(claimed_prevented.size(), false);
  const absl::Span<const Move> moves(record.moves);
  int k = 0;
  while (k < report.moves) {
    if (absl::Status s = apply_setups(k); !s.ok()) return s;
    if (game->over()) break;
    // Prevented cycles claimed at this ply must be reproduced exactly.
    int run_end = report.moves;
    for (size_t c = 0; c < claimed_prevented.size(); ++c) {
      const CycleRecord& claim = claimed_prevented[c];
      const int ply = ClaimPly(claim);
      if (ply > k) run_end = std::min(run_end, ply);
      if (ply != k) continue;
      const MoveVerdict v = game->Check(moves[k].color, claim.point);
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
    if (next_setup < record.setup.size()) {
      run_end = std::min(run_end,
                         std::max(record.setup[next_setup].before_move, k + 1));
    }
    MoveVerdict rejected;
    const int played =
        game->TryPlayMoves(moves.subspan(k, run_end - k), &rejected);
    k += played;
    if (!rejected.legal()) {
      report.legal = false;
      report.illegal_move = k + 1;
      report.illegal_reason = rejected.reason;
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
  report.area_result =
      ScoreResult(report.area, game->rules(), game->handicap());
  if (game->over()) report.rules_result = game->result();
  return report;
}

}  // namespace qipu::rules
