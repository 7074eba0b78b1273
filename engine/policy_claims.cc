#include "engine/policy_claims.h"

#include "absl/strings/str_cat.h"
#include "proto/search_visits.h"
#include "rules/coord.h"
#include "rules/result.h"

namespace qipu::engine {

// The policies an upload claims (an upload without any: the light policy,
// as workers before per-colour policies sent none).
wire::ColourPolicies ClaimedPolicies(const wire::SelfPlayUpload& u) {
  if (!u.black_policy.empty() && !u.white_policy.empty()) {
    return {u.black_policy, u.white_policy};
  }
  const std::string both =
      u.policy.empty() ? std::string(wire::kLightPolicy) : u.policy;
  return {both, both};
}

// True for the results a policy gives (not the rules): a resignation, an
// illegal move's forfeit, a policy's failure.
bool PolicyEnded(const rules::GameResult& r) {
  return r.reason == rules::EndReason::kResign ||
         r.reason == rules::EndReason::kIllegal ||
         r.reason == rules::EndReason::kOther;
}

// A game a policy ended: the rules must not have ended it, the side to
// move after the last move is the loser of a resignation or forfeit (and
// the forfeit's move, when a point, illegal there), a policy's failure has
// no winner and says why. `game` is the replay's final position.
absl::Status CheckPolicyEnd(const wire::SelfPlayUpload& u,
                            const rules::ReplayReport& report,
                            const rules::Game& game) {
  const rules::GameResult& r = u.claims.result;
  const char* reason = rules::EndReasonName(r.reason);
  if (report.ended_at != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("the game claims it ended by ", reason,
                     " but the rules end it at move ", report.ended_at));
  }
  const rules::Color loser = game.to_play();
  const rules::Winner other = loser == rules::Color::kBlack
                                  ? rules::Winner::kWhite
                                  : rules::Winner::kBlack;
  const rules::Winner want =
      r.reason == rules::EndReason::kOther ? rules::Winner::kNone : other;
  if (r.winner != want || r.margin != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("result: the game claims ", rules::ResultToSgf(r), " (",
                     reason, ") but a game that ends so is won by ",
                     rules::WinnerName(want), " with no margin"));
  }
  if (r.reason == rules::EndReason::kOther && u.result_detail.empty()) {
    return absl::InvalidArgumentError(
        "result.detail: a game a policy failed in must say why");
  }
  if (r.reason == rules::EndReason::kIllegal && u.illegal_point != 0) {
    const int w = game.width();
    if (u.illegal_point > static_cast<uint32_t>(w * game.height())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "result.illegal_point ", u.illegal_point, " is off the board"));
    }
    const rules::Point p =
        rules::FromDenseIndex(static_cast<int>(u.illegal_point - 1), w);
    if (game.Check(loser, p).legal()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "result.illegal_point: ", rules::GtpPoint(p, game.height()),
          " is a legal move after the last move"));
    }
  }
  return absl::OkStatus();
}

// Game.search_visits: well-formed (wire::UnpackSearches) and legal-looking:
// every point a search visited was empty before the move it chose.
absl::Status CheckSearches(const wire::SelfPlayUpload& u,
                           const rules::Rules& rules) {
  const rules::GameRecord& record = u.record;
  auto searches =
      wire::UnpackSearches(u.search_visits, record.width, record.height,
                           static_cast<uint32_t>(record.moves.size()));
  if (!searches.ok()) return searches.status();
  rules::Game g(record.width, record.height, rules);
  if (record.handicap > 0) {
    if (absl::Status s = g.PlaceHandicap(record.handicap); !s.ok()) return s;
  }
  size_t next = 0;
  for (size_t i = 0; i < record.moves.size() && next < searches->size(); ++i) {
    if ((*searches)[next].move == i) {
      for (const wire::PointVisits& v : (*searches)[next].visits) {
        if (v.point != rules::kPass &&
            g.board().at(v.point) != rules::Color::kEmpty) {
          return absl::InvalidArgumentError(absl::StrCat(
              "search_visits: the search of move ", i + 1, " visited ",
              rules::GtpPoint(v.point, record.height), ", which is occupied"));
        }
      }
      ++next;
    }
    const rules::Move& m = record.moves[i];
    if (!g.TryPlay(m.color, m.point).legal()) break;  // replayed legal before
  }
  return absl::OkStatus();
}

}  // namespace qipu::engine
