#include "engine/policy_claims.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "proto/search_visits.h"
#include "rules/coord.h"
#include "rules/dead_stones.h"
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
         r.reason == rules::EndReason::kOther ||
         (r.reason == rules::EndReason::kScore &&
          (r.counting == rules::Counting::kJudged ||
           r.counting == rules::Counting::kAgreed ||
           r.counting == rules::Counting::kPlayedOut));
}

namespace {

// CheckPolicyEnd() of a settled count.
absl::Status CheckSettledCount(const wire::SelfPlayUpload& u,
                               const rules::ReplayReport& report,
                               const rules::Game& game) {
  const rules::GameResult& r = u.claims.result;
  const wire::ColourPolicies p = ClaimedPolicies(u);
  if (!absl::StartsWith(p.black, "gtp:") &&
      !absl::StartsWith(p.white, "gtp:")) {
    return absl::InvalidArgumentError(absl::StrCat(
        "result: dead stones ", rules::CountingName(r.counting),
        " in a game without a gtp: engine (qipu's policies count the board "
        "as it stands)"));
  }
  if (report.ended_at == 0 ||
      report.rules_result.reason != rules::EndReason::kScore) {
    return absl::InvalidArgumentError(
        "result: a count whose dead stones were settled, but the rules do "
        "not end the game by two passes");
  }
  rules::Game g = game;
  const std::vector<rules::Move>& moves = u.record.moves;
  if (report.ended_at < report.moves &&
      r.counting != rules::Counting::kPlayedOut) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the game has ", report.moves, " moves but the rules end it at move ",
        report.ended_at, " and no dispute was played out"));
  }
  for (int i = report.ended_at; i < report.moves; ++i) {
    // Art. 21.4: play resumed after two passes, the next mover first.
    if (g.over()) g.Resume(moves[i].color);
    if (g.over() || !g.TryPlay(moves[i].color, moves[i].point).legal()) {
      return absl::InvalidArgumentError(
          absl::StrCat("move ", i + 1, " of the play-out is illegal"));
    }
  }
  if (!g.over() || g.result().reason != rules::EndReason::kScore ||
      g.ended_at() != report.moves) {
    return absl::InvalidArgumentError(
        "the play-out does not end with two passes at the last move");
  }
  for (rules::Point d : u.dead_stones) {
    if (g.board().at(d) == rules::Color::kEmpty) {
      return absl::InvalidArgumentError(
          absl::StrCat("result.dead_stones: ", rules::GtpPoint(d, g.height()),
                       " holds no stone in the final position"));
    }
  }
  const rules::GameResult counted =
      rules::CountWithout(g, u.dead_stones, r.counting);
  if (!(counted == r)) {
    return absl::InvalidArgumentError(
        absl::StrCat("result: the game claims ", rules::ResultToSgf(r),
                     " but the final position with its dead stones off counts ",
                     rules::ResultToSgf(counted)));
  }
  return absl::OkStatus();
}

}  // namespace

// A game a policy ended: the rules must not have ended it, the side to
// move after the last move is the loser of a resignation or forfeit (and
// the forfeit's move, when a point, illegal there), a policy's failure has
// no winner and says why. `game` is the replay's final position.
absl::Status CheckPolicyEnd(const wire::SelfPlayUpload& u,
                            const rules::ReplayReport& report,
                            const rules::Game& game) {
  const rules::GameResult& r = u.claims.result;
  if (r.reason == rules::EndReason::kScore) {
    return CheckSettledCount(u, report, game);
  }
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
