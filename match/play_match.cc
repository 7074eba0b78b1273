#include "match/play_match.h"

#include <string>

#include "absl/strings/str_cat.h"

namespace qipu::match {
namespace {

using rules::Color;

// The player's view of the dead stones; an error is no view.
DeadStoneView ViewOf(Player& p, const rules::Game& game) {
  absl::StatusOr<DeadStoneView> v = p.DeadStones(game);
  return v.ok() ? *std::move(v) : std::nullopt;
}

}  // namespace

absl::StatusOr<Match> PlayMatch(Player& black, Player& white,
                                const MatchOptions& options,
                                const Driver& driver) {
  absl::StatusOr<Match> made = Match::Create(options);
  if (!made.ok()) return made.status();
  Match m = *std::move(made);
  const std::function<absl::Time()> now =
      driver.now ? driver.now : [] { return absl::Now(); };
  const bool same = &black == &white;

  std::string failed;
  bool failures[2] = {false, false};
  for (Color c : {Color::kBlack, Color::kWhite}) {
    if (c == Color::kWhite && same) break;
    Player& p = c == Color::kBlack ? black : white;
    if (absl::Status s = p.NewGame(m.game(), options.time); !s.ok()) {
      absl::StrAppend(&failed, failed.empty() ? "" : "; ", SideName(c),
                      " failed to start the game: ", s.ToString());
      failures[rules::PlayerIndex(c)] = true;
    }
  }
  if (failures[0] || failures[1]) {
    m.FailedToStart(failures[0], failures[1], failed);
    return m;
  }

  while (!m.over()) {
    if (m.phase() == Phase::kSettling) {
      const DeadStoneView b = ViewOf(black, m.game());
      const DeadStoneView w = same ? b : ViewOf(white, m.game());
      m.Settle(b, w);
      continue;
    }
    const Color c = m.to_play();
    Player& mover = c == Color::kBlack ? black : white;
    const MoveRequest request = m.Request();
    const absl::Time start = now();
    const absl::StatusOr<policy::MoveChoice> choice =
        mover.Choose(m.game(), request);
    const absl::Duration used = now() - start;
    const Applied applied = m.Apply(choice, used);
    if (driver.observe) driver.observe(m, c, choice, used, applied);
    if (!applied.played) continue;
    black.Played(m.game(), applied.move);
    if (!same) white.Played(m.game(), applied.move);
  }
  return m;
}

}  // namespace qipu::match
