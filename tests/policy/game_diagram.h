// Games set up from ASCII diagrams (rules/diagram.h), for policy tests.
#ifndef QIPU_TESTS_POLICY_GAME_DIAGRAM_H_
#define QIPU_TESTS_POLICY_GAME_DIAGRAM_H_

#include <vector>

#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "rules/diagram.h"
#include "rules/game.h"

namespace qipu::policy {

// A game whose position is `diagram` with `to_play` to move, under
// `rules`. Fails the test (returning a 2x2 game) for a bad diagram.
inline rules::Game GameFromDiagram(absl::string_view diagram,
                                   rules::Color to_play,
                                   const rules::Rules& rules = {}) {
  const absl::StatusOr<rules::Board> board = rules::BoardFromDiagram(diagram);
  EXPECT_TRUE(board.ok()) << board.status();
  if (!board.ok()) return rules::Game(2, 2, rules);
  std::vector<rules::Point> black, white;
  for (int y = 0; y < board->height(); ++y) {
    for (int x = 0; x < board->width(); ++x) {
      const rules::Point p = rules::MakePoint(x, y);
      if (board->at(p) == rules::Color::kBlack) black.push_back(p);
      if (board->at(p) == rules::Color::kWhite) white.push_back(p);
    }
  }
  rules::Game game(board->width(), board->height(), rules);
  EXPECT_TRUE(game.ApplySetup(black, white, {}, to_play).ok());
  return game;
}

}  // namespace qipu::policy

#endif  // QIPU_TESTS_POLICY_GAME_DIAGRAM_H_
