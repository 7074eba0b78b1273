#include "worker/policy_game.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "match/play_match.h"
#include "match/player.h"
#include "proto/convert.h"
#include "rules/coord.h"
#include "rules/playout.h"
#include "rules/scoring.h"
#include "worker/policy_maker.h"

namespace qipu::worker {
namespace {

const char* ColourName(rules::Color c) {
  return c == rules::Color::kBlack ? "black" : "white";
}

}  // namespace

uint64_t PolicySeed(uint64_t game_seed, rules::Color c) {
  // Distinct streams per colour, unrelated to the light policy's own use
  // of the game seed.
  rules::Rng r(game_seed ^ (c == rules::Color::kBlack ? 0x5851F42D4C957F2DULL
                                                      : 0x14057B7EF767814FULL));
  return r.Next();
}

PolicyGame::PolicyGame(wire::ColourPolicies policies)
    : policies_(std::move(policies)) {}

absl::StatusOr<std::unique_ptr<PolicyGame>> PolicyGame::Create(
    const wire::ColourPolicies& policies) {
  std::unique_ptr<PolicyGame> g(new PolicyGame(policies));
  for (rules::Color c : {rules::Color::kBlack, rules::Color::kWhite}) {
    auto p = MakeWorkerPolicy(g->SpecOf(c), PolicySeed(0, c));
    if (!p.ok()) {
      return absl::Status(
          p.status().code(),
          absl::StrCat(ColourName(c), " policy: ", p.status().message()));
    }
    (c == rules::Color::kBlack ? g->black_ : g->white_) = *std::move(p);
  }
  return g;
}

void PolicyGame::Failed(rules::Color c, const absl::Status& s,
                        PolicyGameOutcome* outcome) const {
  outcome->policy_result = {rules::Winner::kNone, rules::EndReason::kOther, 0};
  outcome->detail = absl::StrCat(ColourName(c), " policy ", SpecOf(c),
                                 " failed: ", s.ToString());
}

void PolicyGame::PlayAttempt(const rules::SelfPlaySpec& spec, rules::Game* game,
                             PolicyGameOutcome* outcome) {
  match::PolicyPlayer black(black_.get());
  match::PolicyPlayer white(white_.get());
  match::MatchOptions mo;
  mo.width = spec.width;
  mo.height = spec.height;
  mo.rules = spec.rules;
  mo.handicap = spec.handicap;
  mo.illegal = match::IllegalMovePolicy::kForfeit;
  mo.failure = match::FailureRule::kNoResult;
  mo.dead_stones = match::SettlesDeadStones(black, white)
                       ? match::DeadStoneRule::kSettle
                       : match::DeadStoneRule::kAsPlayed;
  match::Driver driver;
  driver.observe = [&](const match::Match& m, rules::Color,
                       const absl::StatusOr<policy::MoveChoice>& choice,
                       absl::Duration, const match::Applied& applied) {
    if (!applied.as_chosen || choice->visits.empty()) return;
    wire::MoveSearch s;
    s.move = static_cast<uint32_t>(m.game().num_moves() - 1);
    s.visits.reserve(choice->visits.size());
    for (const policy::MoveVisits& mv : choice->visits) {
      s.visits.push_back({mv.point, mv.visits});
    }
    outcome->searches.push_back(std::move(s));
  };
  absl::StatusOr<match::Match> played =
      match::PlayMatch(black, white, mo, driver);
  if (!played.ok()) {  // the spec was validated: not expected
    Failed(rules::Color::kBlack, played.status(), outcome);
    return;
  }
  const match::MatchOutcome& m = played->outcome();
  *game = m.game;
  outcome->counting = m.result.counting;
  switch (m.end) {
    case match::End::kRules:
      return;  // the rules' own result (Game::result())
    case match::End::kCount:
      if (m.result.counting == rules::Counting::kAsPlayed) return;
      // Dead stones settled with an engine: the match's count.
      outcome->policy_result = m.result;
      outcome->dead_stones = m.dead_stones;
      outcome->detail = m.detail;
      return;
    case match::End::kEngineFailure: {
      const rules::Color c =
          m.failed[0] ? rules::Color::kBlack : rules::Color::kWhite;
      outcome->policy_result = m.result;
      outcome->detail = absl::StrCat(ColourName(c), " policy ", SpecOf(c),
                                     " failed: ", m.detail);
      return;
    }
    case match::End::kIllegalMove: {
      const match::IllegalAttempt& a = m.illegal_moves.back();
      const bool on_board =
          a.point != rules::kPass && game->board().OnBoard(a.point);
      outcome->policy_result = m.result;
      outcome->illegal_point =
          on_board ? static_cast<uint32_t>(
                         rules::DenseIndex(a.point, game->width()) + 1)
                   : 0;
      outcome->detail =
          absl::StrCat(ColourName(a.color), " played ",
                       on_board ? rules::GtpPoint(a.point, game->height())
                                : absl::StrCat("point ", a.point),
                       ": ", rules::IllegalReasonName(a.reason));
      return;
    }
    case match::End::kResign:
    case match::End::kTime:
    case match::End::kSecondWarning:
      outcome->policy_result = m.result;
      outcome->detail = m.detail;
      return;
  }
}

absl::Status PolicyGame::Play(const rules::SelfPlaySpec& spec,
                              rules::Game* game, PolicyGameOutcome* outcome) {
  if (absl::Status s = rules::ValidateSize(spec.width, spec.height); !s.ok()) {
    return s;
  }
  if (absl::Status s = rules::ValidateKomi(spec.rules.komi); !s.ok()) return s;
  if (spec.handicap > 0) {
    if (absl::Status s =
            rules::FixedHandicap(spec.width, spec.height, spec.handicap)
                .status();
        !s.ok()) {
      return s;
    }
  }
  if (game->width() != spec.width || game->height() != spec.height ||
      !(game->rules() == spec.rules)) {
    *game = rules::Game(spec.width, spec.height, spec.rules);
  }
  *outcome = PolicyGameOutcome{};
  for (int attempt = 0; attempt < rules::kMaxAttempts; ++attempt) {
    outcome->selfplay.attempt = attempt;
    outcome->selfplay.seed =
        rules::GameSeedAttempt(spec.job_seed, spec.index, attempt);
    outcome->policy_result = rules::GameResult{};
    outcome->detail.clear();
    outcome->illegal_point = 0;
    outcome->searches.clear();
    outcome->dead_stones.clear();
    outcome->counting = rules::Counting::kUnknown;
    bool made = true;
    for (rules::Color c : {rules::Color::kBlack, rules::Color::kWhite}) {
      if (IsExternalPolicy(SpecOf(c))) continue;
      auto p =
          MakeWorkerPolicy(SpecOf(c), PolicySeed(outcome->selfplay.seed, c));
      if (!p.ok()) {  // made once already: not expected
        Failed(c, p.status(), outcome);
        made = false;
        break;
      }
      (c == rules::Color::kBlack ? black_ : white_) = *std::move(p);
    }
    if (made) PlayAttempt(spec, game, outcome);
    if (outcome->policy_result.reason != rules::EndReason::kNotOver ||
        !rules::VoidedByReplay(*game) || attempt + 1 == rules::kMaxAttempts) {
      break;
    }
    outcome->selfplay.voided_cycles.push_back(game->cycles().back());
  }
  return absl::OkStatus();
}

void PolicyGameToProto(const rules::Game& game, const rules::SelfPlaySpec& spec,
                       const PolicyGameOutcome& outcome,
                       const wire::ColourPolicies& policies, uint64_t job,
                       const std::string& worker, qipu::v1::Game* out) {
  wire::SelfPlayToProto(game, spec, outcome.selfplay, job, worker, out);
  wire::SetGamePolicies(policies, out->mutable_provenance());
  if (outcome.policy_result.reason != rules::EndReason::kNotOver) {
    qipu::v1::Result* r = out->mutable_result();
    *r = wire::ResultToProto(outcome.policy_result);
    r->set_detail(outcome.detail);
    r->set_illegal_point(outcome.illegal_point);
    if (!outcome.dead_stones.empty()) {
      r->set_dead_stones(wire::PackPoints(outcome.dead_stones, game.width()));
    }
  }
  out->set_search_visits(wire::PackSearches(outcome.searches, game.width()));
}

}  // namespace qipu::worker
