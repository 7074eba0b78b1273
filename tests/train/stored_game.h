// A stored game for the train/ tests that read a real store: 9x9, `n`
// moves on distinct points alternating from Black, Black winning by
// resignation, under the default rules with ko rule `ko`.
#ifndef QIPU_TESTS_TRAIN_STORED_GAME_H_
#define QIPU_TESTS_TRAIN_STORED_GAME_H_

#include "proto/convert.h"
#include "qipu/v1/game.pb.h"
#include "rules/diagram.h"
#include "rules/record.h"
#include "rules/rules.h"

namespace qipu::train::testing {

inline qipu::v1::Game StoredGame(int n,
                                 rules::KoRule ko = rules::KoRule::kSimple) {
  rules::GameRecord r;
  r.width = 9;
  r.height = 9;
  for (int i = 0; i < n; ++i) {
    r.moves.push_back(
        rules::Move{i % 2 == 0 ? rules::Color::kBlack : rules::Color::kWhite,
                    rules::At(i % 9, i / 9 * 2)});
  }
  qipu::v1::Game g;
  wire::RecordToGame(r, &g);
  rules::Rules rules;
  rules.ko = ko;
  *g.mutable_rules() = wire::RulesToProto(rules);
  *g.mutable_result() = wire::ResultToProto(
      {rules::Winner::kBlack, rules::EndReason::kResign, 0});
  return g;
}

}  // namespace qipu::train::testing

#endif  // QIPU_TESTS_TRAIN_STORED_GAME_H_
