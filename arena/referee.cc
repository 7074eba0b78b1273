#include "arena/referee.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "arena/game_clock.h"
#include "gtp/engine_policy.h"
#include "rules/coord.h"
#include "rules/scoring.h"
#include "rules/sgf_writer.h"

namespace qipu::arena {
namespace {

using rules::Color;

std::string SecondsText(absl::Duration d) {
  return absl::StrCat(absl::ToDoubleMilliseconds(d) / 1000, " s");
}

// One game in progress: the game, the clock and the outcome being built.
class Match {
 public:
  Match(const Entrant& black, const Entrant& white,
        const RefereeOptions& options, rules::Game game,
        std::vector<rules::Point> handicap_stones)
      : options_(options),
        clock_(options.time),
        out_(std::move(game)),
        now_(options.now ? options.now : [] { return absl::Now(); }) {
    entrants_[0] = &black;
    entrants_[1] = &white;
    out_.time = clock_.settings();
    out_.handicap_stones = std::move(handicap_stones);
  }

  // Plays the game out; returns the outcome.
  ArenaGame Play() &&;

 private:
  policy::Policy* PolicyOf(Color c) const {
    return entrants_[rules::PlayerIndex(c)]->policy;
  }
  // The policy as an external engine, or null.
  gtp::EnginePolicy* EngineOf(Color c) const {
    return dynamic_cast<gtp::EnginePolicy*>(PolicyOf(c));
  }
  // One move of the side to move; false once the game is over.
  bool PlayMove();
  // The limits of c's next move (and, for an engine, its time_left).
  policy::SearchLimits LimitsFor(Color c);
  // c loses: the game ends for it with `reason`; the referee's result
  // follows.
  void Lose(Color c, rules::EndReason reason, ArenaEnd end, std::string detail);
  // An illegal move of c at p: ruled on, voided or lost.
  void RuleOn(Color c, rules::Point p, const rules::MoveVerdict& verdict);
  // The result once the rules ended the game (count, cycle, move cap).
  void RulesEnded();

  const RefereeOptions& options_;
  Entrant const* entrants_[2];
  GameClock clock_;
  ArenaGame out_;
  std::function<absl::Time()> now_;
  // True once the referee has decided the game (Lose() or no result).
  bool decided_ = false;
};

void Match::Lose(Color c, rules::EndReason reason, ArenaEnd end,
                 std::string detail) {
  out_.game.Resign(c, reason);
  decided_ = true;
  out_.result = out_.game.result();
  out_.end = end;
  out_.detail = std::move(detail);
}

policy::SearchLimits Match::LimitsFor(Color c) {
  policy::SearchLimits limits;
  if (gtp::EnginePolicy* e = EngineOf(c)) {
    // The engine's deadline: the time to its flag (plus its margin).
    limits.time = clock_.TimeToFlag(c);
    const TimeLeft left = clock_.Left(c);
    e->SetTimeLeft(c, left.seconds, left.stones);
  } else {
    limits.time = clock_.Allot(c, out_.game.board().num_empty());
  }
  return limits;
}

void Match::RuleOn(Color c, rules::Point p, const rules::MoveVerdict& verdict) {
  const int i = rules::PlayerIndex(c);
  const IllegalMoveRuling ruling =
      RuleOnIllegalMove(options_.illegal, verdict.reason, out_.warnings[i]);
  IllegalAttempt a;
  a.move_number = out_.game.num_moves() + 1;
  a.color = c;
  a.point = p;
  a.reason = verdict.reason;
  a.warning = ruling.warning;
  a.voided = ruling.void_as_pass;
  a.lost = ruling.loses;
  a.article = ruling.article;
  out_.illegal_moves.push_back(a);
  if (ruling.warning) ++out_.warnings[i];
  const std::string move =
      absl::StrCat(SideName(c), "'s ", VertexText(p, out_.game.board()),
                   " at move ", a.move_number, " is illegal (",
                   rules::IllegalReasonName(verdict.reason), ")");
  if (!ruling.loses) {
    // Art. 18.3 / 19: void, the turn forfeited -- a pass.
    // (A pass is legal while the game goes on.)
    out_.game.TryPlay(c, rules::kPass);
    return;
  }
  if (options_.illegal == IllegalMovePolicy::kForfeit) {
    Lose(c, rules::EndReason::kIllegal, ArenaEnd::kIllegalMove,
         absl::StrCat(move, ": forfeit"));
  } else {
    Lose(c, rules::EndReason::kForfeit, ArenaEnd::kSecondWarning,
         absl::StrCat(move, ": a second warning loses the game (art. 24.2)"));
  }
}

bool Match::PlayMove() {
  const Color c = out_.game.to_play();
  policy::Policy* p = PolicyOf(c);
  const policy::SearchLimits limits = LimitsFor(c);
  const absl::Time start = now_();
  absl::StatusOr<policy::MoveChoice> choice = p->Choose(out_.game, limits);
  const absl::Duration used = now_() - start;
  const absl::Duration had = clock_.TimeToFlag(c);
  if (!clock_.Charge(c, used)) {
    std::string detail = absl::StrCat(
        SideName(c), "'s time ran out at move ", out_.game.num_moves() + 1,
        ": it took ", SecondsText(used), " with ", SecondsText(had), " left");
    if (!choice.ok()) {
      absl::StrAppend(&detail, "; no answer: ", choice.status().message());
    }
    Lose(c, rules::EndReason::kTime, ArenaEnd::kTime, std::move(detail));
    return false;
  }
  if (!choice.ok()) {
    Lose(
        c, rules::EndReason::kForfeit, ArenaEnd::kEngineFailure,
        absl::StrCat(SideName(c), " failed at move ", out_.game.num_moves() + 1,
                     ": ", choice.status().ToString()));
    return false;
  }
  const rules::Point point = choice->point;
  if (point == rules::kResign) {
    Lose(c, rules::EndReason::kResign, ArenaEnd::kResign,
         absl::StrCat(SideName(c), " resigned at move ",
                      out_.game.num_moves() + 1));
    return false;
  }
  const int before = out_.game.num_moves();
  const rules::MoveVerdict verdict = out_.game.TryPlay(c, point);
  if (!verdict.legal()) RuleOn(c, point, verdict);
  if (out_.game.num_moves() == before) return false;  // lost
  out_.move_times.push_back({used, clock_.Left(c)});
  const rules::Move played = out_.game.moves().back();
  PolicyOf(Color::kBlack)->Played(out_.game, played);
  if (PolicyOf(Color::kWhite) != PolicyOf(Color::kBlack)) {
    PolicyOf(Color::kWhite)->Played(out_.game, played);
  }
  return !out_.game.over();
}

void Match::RulesEnded() {
  const rules::GameResult& r = out_.game.result();
  if (r.reason != rules::EndReason::kScore) {
    out_.end = ArenaEnd::kRules;
    out_.result = r;
    out_.detail = r.reason == rules::EndReason::kMoveLimit
                      ? absl::StrCat("the move cap (", out_.game.move_cap(),
                                     " moves): void")
                      : absl::StrCat("a balanced cycle (art. 20): ",
                                     rules::ResultToSgf(r));
    return;
  }
  out_.end = ArenaEnd::kCount;
  out_.result = DeductWarnings(r, out_.warnings[0], out_.warnings[1]);
  out_.detail = absl::StrCat("two passes, counted ", rules::ResultToSgf(r));
  if (out_.warnings[0] + out_.warnings[1] > 0) {
    absl::StrAppend(&out_.detail, "; ", rules::ResultToSgf(out_.result),
                    " with a stone per warning deducted (art. 24.1)");
  }
}

ArenaGame Match::Play() && {
  // Engines are told the clock; everyone gets the game.
  std::string failed;
  std::vector<Color> losers;
  for (Color c : {Color::kBlack, Color::kWhite}) {
    if (gtp::EnginePolicy* e = EngineOf(c)) e->SetGameClock(clock_.settings());
    if (c == Color::kWhite && PolicyOf(c) == PolicyOf(Color::kBlack)) break;
    if (absl::Status s = PolicyOf(c)->NewGame(out_.game); !s.ok()) {
      absl::StrAppend(&failed, failed.empty() ? "" : "; ", SideName(c),
                      " failed to start the game: ", s.ToString());
      losers.push_back(c);
    }
  }
  if (losers.size() == 2) {
    // Both failed: no result.
    decided_ = true;
    out_.end = ArenaEnd::kEngineFailure;
    out_.result = {rules::Winner::kNone, rules::EndReason::kForfeit, 0};
    out_.detail = failed;
  } else if (losers.size() == 1) {
    Lose(losers[0], rules::EndReason::kForfeit, ArenaEnd::kEngineFailure,
         failed);
  } else {
    while (PlayMove()) {
    }
    if (!decided_) RulesEnded();
  }
  out_.clocks = {clock_.player(Color::kBlack), clock_.player(Color::kWhite)};
  RecordInfo info;
  for (Color c : {Color::kBlack, Color::kWhite}) {
    const Entrant& e = *entrants_[rules::PlayerIndex(c)];
    const std::string spec = e.policy->spec();
    (c == Color::kBlack ? info.black_name : info.white_name) =
        e.name.empty() ? spec : e.name;
    (c == Color::kBlack ? info.black_spec : info.white_spec) = spec;
  }
  info.rules_name = options_.rules_name.empty()
                        ? rules::PresetName(options_.rules)
                        : options_.rules_name;
  info.event = options_.event;
  info.game_name = options_.game_name;
  info.date = options_.date;
  out_.record = ArenaRecord(out_, info);
  out_.sgf = rules::WriteSgf(out_.record);
  return std::move(out_);
}

}  // namespace

absl::StatusOr<ArenaGame> PlayGame(const Entrant& black, const Entrant& white,
                                   const RefereeOptions& options) {
  if (black.policy == nullptr || white.policy == nullptr) {
    return absl::InvalidArgumentError("arena game: an entrant has no policy");
  }
  if (absl::Status s = rules::ValidateSize(options.size, options.size);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = rules::ValidateKomi(options.rules.komi); !s.ok()) {
    return s;
  }
  if (absl::Status s = ValidateTimeSettings(options.time); !s.ok()) return s;
  rules::Game game(options.size, options.size, options.rules);
  std::vector<rules::Point> stones;
  if (options.handicap > 0) {
    absl::StatusOr<std::vector<rules::Point>> h =
        rules::FixedHandicap(options.size, options.size, options.handicap);
    if (!h.ok()) return h.status();
    stones = *std::move(h);
    if (absl::Status s = game.PlaceFreeHandicap(stones); !s.ok()) return s;
  } else if (options.handicap < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("arena game: handicap ", options.handicap));
  }
  return Match(black, white, options, std::move(game), std::move(stones))
      .Play();
}

}  // namespace qipu::arena
