#include "worker/policy_game.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "proto/convert.h"
#include "rules/coord.h"
#include "rules/playout.h"
#include "worker/policy_maker.h"

namespace qipu::worker {
namespace {

const char* ColourName(rules::Color c) {
  return c == rules::Color::kBlack ? "black" : "white";
}

rules::Winner WinnerAgainst(rules::Color loser) {
  return loser == rules::Color::kBlack ? rules::Winner::kWhite
                                       : rules::Winner::kBlack;
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

void PolicyGame::PlayAttempt(rules::Game* game, PolicyGameOutcome* outcome) {
  for (rules::Color c : {rules::Color::kBlack, rules::Color::kWhite}) {
    if (absl::Status s = PolicyOf(c)->NewGame(*game); !s.ok()) {
      Failed(c, s, outcome);
      return;
    }
  }
  const policy::SearchLimits limits;
  while (!game->over()) {
    const rules::Color c = game->to_play();
    absl::StatusOr<policy::MoveChoice> choice =
        PolicyOf(c)->Choose(*game, limits);
    if (!choice.ok()) {
      Failed(c, choice.status(), outcome);
      return;
    }
    const rules::Point p = choice->point;
    if (p == rules::kResign) {
      outcome->policy_result = {WinnerAgainst(c), rules::EndReason::kResign, 0};
      outcome->detail = absl::StrCat(ColourName(c), " resigned");
      return;
    }
    const rules::MoveVerdict v = game->Check(c, p);
    if (!v.legal()) {
      // A forfeit, checked by the rules: the move is not played.
      const bool on_board = p != rules::kPass && game->board().OnBoard(p);
      outcome->policy_result = {WinnerAgainst(c), rules::EndReason::kIllegal,
                                0};
      outcome->illegal_point =
          on_board
              ? static_cast<uint32_t>(rules::DenseIndex(p, game->width()) + 1)
              : 0;
      outcome->detail =
          absl::StrCat(ColourName(c), " played ",
                       on_board ? rules::GtpPoint(p, game->height())
                                : absl::StrCat("point ", p),
                       ": ", rules::IllegalReasonName(v.reason));
      return;
    }
    if (!choice->visits.empty()) {
      wire::MoveSearch s;
      s.move = static_cast<uint32_t>(game->num_moves());
      s.visits.reserve(choice->visits.size());
      for (const policy::MoveVisits& mv : choice->visits) {
        s.visits.push_back({mv.point, mv.visits});
      }
      outcome->searches.push_back(std::move(s));
    }
    game->Play(c, p, v);
    const rules::Move move{c, p};
    black_->Played(*game, move);
    white_->Played(*game, move);
  }
}

absl::Status PolicyGame::Play(const rules::SelfPlaySpec& spec,
                              rules::Game* game, PolicyGameOutcome* outcome) {
  if (absl::Status s = rules::ValidateSize(spec.width, spec.height); !s.ok()) {
    return s;
  }
  if (absl::Status s = rules::ValidateKomi(spec.rules.komi); !s.ok()) return s;
  if (game->width() != spec.width || game->height() != spec.height ||
      !(game->rules() == spec.rules)) {
    *game = rules::Game(spec.width, spec.height, spec.rules);
  }
  *outcome = PolicyGameOutcome{};
  for (int attempt = 0; attempt < rules::kMaxAttempts; ++attempt) {
    game->Reset();
    if (spec.handicap > 0) {
      if (absl::Status s = game->PlaceHandicap(spec.handicap); !s.ok()) {
        return s;
      }
    }
    outcome->selfplay.attempt = attempt;
    outcome->selfplay.seed =
        rules::GameSeedAttempt(spec.job_seed, spec.index, attempt);
    outcome->policy_result = rules::GameResult{};
    outcome->detail.clear();
    outcome->illegal_point = 0;
    outcome->searches.clear();
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
    if (made) PlayAttempt(game, outcome);
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
  }
  out->set_search_visits(wire::PackSearches(outcome.searches, game.width()));
}

}  // namespace qipu::worker
