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

// "B D4", "W pass".
std::string MoveText(const Move& m, int height) {
  return absl::StrCat(
      m.color == Color::kWhite ? "W" : "B", " ",
      m.point == kPass ? std::string("pass") : GtpPoint(m.point, height));
}

// The preset `rules` are, whatever their komi and move cap ("chinese" for
// an RU[Japanese] record with KM[6.5]), or "custom".
std::string RulesName(const Rules& rules) {
  for (absl::string_view name : PresetNames()) {
    auto preset = PresetRules(name);
    if (!preset.ok()) continue;
    preset->komi = rules.komi;
    preset->move_cap = rules.move_cap;
    if (*preset == rules) return std::string(name);
  }
  return "custom";
}

// Fills the report's fields read from the game once the replay is done.
void Finish(const Game& game, ReplayReport* report) {
  report->played = game.num_moves();
  report->ended_at = game.ended_at();
  report->cycles = game.cycles();
  report->ko_captures = game.ko_captures();
  report->handicap = game.handicap();
  report->area = game.Area();
  report->area_result =
      ScoreResult(report->area, game.rules(), game.handicap());
  if (game.over()) report->rules_result = game.result();
}

}  // namespace

std::string RuleBreachText(const RuleBreach& b, const Rules& rules,
                           int height) {
  const std::string head =
      absl::StrCat("move ", b.move, " (", MoveText(b.played, height), ") ");
  const std::string of_rules =
      absl::StrCat(" of ", RulesName(rules), " rules forbids");
  switch (b.rule) {
    case IllegalReason::kKo:
      return absl::StrCat(head, "retakes a ko at once, which the ko rule",
                          of_rules);
    case IllegalReason::kSuperko:
      return absl::StrCat(head, "repeats an earlier position (a ",
                          CycleClassName(b.cycle.cls), " cycle from move ",
                          b.cycle.first_move, "), which ", KoRuleName(rules.ko),
                          " superko", of_rules);
    case IllegalReason::kCycle:
      return absl::StrCat(head, "completes a ", CycleClassName(b.cycle.cls),
                          " cycle (from move ", b.cycle.first_move,
                          "), which the art. 20 cycle rule", of_rules);
    case IllegalReason::kSuicide:
      return absl::StrCat(head, "is a suicide, which the suicide rule",
                          of_rules);
    case IllegalReason::kGameOver: {
      std::string how = "its end";
      if (b.ended_by == EndReason::kScore) {
        how = "two passes";
      } else if (b.ended_by == EndReason::kCycle) {
        how = absl::StrCat("a ", CycleClassName(b.cycle.cls), " cycle, ",
                           CycleRuleName(rules.cycle), " under the cycle rule");
      } else if (b.ended_by == EndReason::kMoveLimit) {
        how = "the move cap";
      }
      return absl::StrCat(head, "is played after ", RulesName(rules),
                          " rules ended the game at move ", b.ended_at, " (",
                          how, ")");
    }
    default:
      return absl::StrCat(head, "is illegal (", IllegalReasonName(b.rule), ")");
  }
}

std::string RecordCutText(const RecordCut& c, int height,
                          const std::string& reader_reason) {
  std::string out = absl::StrCat("cut at move ", c.move);
  if (c.played.point != kNoPoint) {
    absl::StrAppend(&out, " (", MoveText(c.played, height), ")");
  } else if (!c.value.empty()) {
    absl::StrAppend(&out, " (", c.played.color == Color::kWhite ? "W" : "B",
                    "[", c.value, "])");
  }
  if (!reader_reason.empty()) return absl::StrCat(out, ": ", reader_reason);
  if (c.reason == IllegalReason::kOccupied) {
    return absl::StrCat(out, ": the point is occupied");
  }
  if (c.played.point == kNoPoint) {
    return absl::StrCat(out, ": not a point of the board");
  }
  return absl::StrCat(out, ": ", IllegalReasonName(c.reason));
}

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
  Finish(*game, &report);
  return report;
}

absl::StatusOr<ReplayReport> ReplayRecordInto(const GameRecord& record,
                                              const Rules& rules, Game* game) {
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
  for (int k = 0; k < report.moves; ++k) {
    if (absl::Status s = apply_setups(k); !s.ok()) return s;
    const Move& m = record.moves[k];
    const Game::RecordedMove r = game->PlayRecorded(m.color, m.point);
    if (!r.played) {
      report.cut = {.move = k + 1,
                    .played = m,
                    .reason = r.verdict.reason,
                    .value = std::string()};
      break;
    }
    if (r.ended_by != EndReason::kNotOver) {
      RuleBreach b{.move = k + 1,
                   .played = m,
                   .rule = IllegalReason::kGameOver,
                   .ended_by = r.ended_by,
                   .ended_at = r.ended_at,
                   .cycle = CycleRecord{}};
      if (r.ended_by == EndReason::kCycle && !game->cycles().empty()) {
        // The cycle that ended the game (reopened: continued-in-record);
        // a later one this move completes is listed with its own breach.
        for (const CycleRecord& c : game->cycles()) {
          if (c.first_move + c.period - 1 == r.ended_at) b.cycle = c;
        }
      }
      report.breaches.push_back(b);
    }
    if (!r.verdict.legal()) {
      report.breaches.push_back({.move = k + 1,
                                 .played = m,
                                 .rule = r.verdict.reason,
                                 .cycle = r.verdict.cycle});
    }
  }
  if (report.cut.move == 0) {
    if (absl::Status s = apply_setups(report.moves); !s.ok()) return s;
    if (record.unread.move != 0) {
      report.cut = {.move = record.unread.move,
                    .played = {record.unread.color, kNoPoint},
                    .reason = IllegalReason::kOffBoard,
                    .value = record.unread.value};
    }
  }
  if (!report.breaches.empty() || report.cut.move != 0) {
    report.legal = false;
    const bool breach_first =
        !report.breaches.empty() &&
        (report.cut.move == 0 || report.breaches[0].move < report.cut.move);
    report.illegal_move =
        breach_first ? report.breaches[0].move : report.cut.move;
    report.illegal_reason =
        breach_first ? report.breaches[0].rule : report.cut.reason;
  }
  Finish(*game, &report);
  return report;
}

absl::StatusOr<ReplayReport> ReplayRecord(const GameRecord& record,
                                          const Rules& rules) {
  Game game(std::max(record.width, kMinSize), std::max(record.height, kMinSize),
            rules);
  return ReplayRecordInto(record, rules, &game);
}

}  // namespace qipu::rules
