#include "policy/playout.h"

#include "absl/strings/str_cat.h"
#include "base/quote.h"
#include "rules/scoring.h"

namespace qipu::policy {

const char* PlayoutKindName(PlayoutKind k) {
  return k == PlayoutKind::kPattern ? "pattern" : "random";
}

absl::StatusOr<PlayoutKind> ParsePlayoutKind(absl::string_view s) {
  if (s == "random") return PlayoutKind::kRandom;
  if (s == "pattern") return PlayoutKind::kPattern;
  return absl::InvalidArgumentError(
      absl::StrCat("unknown playout policy ",
                   base::QuoteInput(s, base::kMaxQuotedBytes, '"'),
                   " (accepted: random, pattern)"));
}

rules::Point LastMovePoint(const rules::Game& game) {
  return game.moves().empty() ? rules::kNoPoint : game.moves().back().point;
}

rules::Winner CountWinner(const rules::Board& board, const rules::Rules& rules,
                          int handicap) {
  const rules::AreaCount area = rules::CountArea(board, rules.dame);
  const double margin = area.black - area.white - rules.komi -
                        rules::HandicapPoints(rules, handicap);
  return margin > 0   ? rules::Winner::kBlack
         : margin < 0 ? rules::Winner::kWhite
                      : rules::Winner::kDraw;
}

int PlayoutRunner::Run(rules::Board& board, rules::Color to_play,
                       rules::Point last, rules::Rng& rng, int max_moves,
                       bool multi_stone_suicide, FirstPlay* first) {
  int passes = last == rules::kPass ? 1 : 0;
  rules::Color c = to_play;
  int plies = 0;
  while (plies < max_moves && passes < 2) {
    rules::Point p;
    if (kind_ == PlayoutKind::kPattern) {
      p = mover_.Choose(board, c, last, rng, multi_stone_suicide);
      if (p != rules::kPass) board.Play(p, c);
    } else if (!multi_stone_suicide) {
      const int n = board.num_empty();
      const int start =
          n == 0 ? 0 : static_cast<int>(rng.Below(static_cast<uint32_t>(n)));
      p = board.PlayLight(c, start);
    } else {
      const int n = board.num_empty();
      const int j =
          n == 0 ? -1
                 : board.ScanLight(
                       c, static_cast<int>(rng.Below(static_cast<uint32_t>(n))),
                       n, true);
      p = j < 0 ? rules::kPass : board.empty_point(j);
      if (p != rules::kPass) board.Play(p, c);
    }
    if (p == rules::kPass) {
      board.Pass();
      ++passes;
    } else {
      passes = 0;
      if (first != nullptr && (*first)[p] == rules::Color::kEmpty) {
        (*first)[p] = c;
      }
    }
    last = p;
    c = rules::Opponent(c);
    ++plies;
  }
  return plies;
}

}  // namespace qipu::policy
