#include "match/match.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "policy/stone_judge.h"
#include "rules/coord.h"
#include "rules/dead_stones.h"
#include "rules/scoring.h"

namespace qipu::match {
namespace {

using rules::Color;

std::string SecondsText(absl::Duration d) {
  return absl::StrCat(absl::ToDoubleMilliseconds(d) / 1000, " s");
}

// "C3 C4 D4 (3 stones)", or "none".
std::string StonesText(const std::vector<rules::Point>& stones,
                       const rules::Board& board) {
  if (stones.empty()) return "none";
  std::vector<std::string> names;
  for (rules::Point p : stones) names.push_back(VertexText(p, board));
  return absl::StrCat(absl::StrJoin(names, " "), " (", stones.size(),
                      stones.size() == 1 ? " stone)" : " stones)");
}

std::vector<rules::Point> Minus(const std::vector<rules::Point>& a,
                                const std::vector<rules::Point>& b) {
  std::vector<rules::Point> out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(),
                      std::back_inserter(out));
  return out;
}

}  // namespace

const char* EndName(End e) {
  switch (e) {
    case End::kCount:
      return "count";
    case End::kResign:
      return "resign";
    case End::kTime:
      return "time";
    case End::kIllegalMove:
      return "illegal-move";
    case End::kSecondWarning:
      return "second-warning";
    case End::kEngineFailure:
      return "engine-failure";
    case End::kRules:
      return "rules";
  }
  return "?";
}

const char* SideName(Color c) { return c == Color::kBlack ? "Black" : "White"; }

std::string VertexText(rules::Point p, const rules::Board& board) {
  if (p == rules::kPass || p == rules::kResign || board.OnBoard(p)) {
    return rules::GtpPoint(p, board.height());
  }
  return absl::StrCat("point ", p, " (off the board)");
}

Match::Match(const MatchOptions& options, rules::Game game,
             std::vector<rules::Point> handicap_stones)
    : options_(options), clock_(options.time), out_(std::move(game)) {
  out_.time = clock_.settings();
  out_.handicap_stones = std::move(handicap_stones);
  out_.clocks = {clock_.player(Color::kBlack), clock_.player(Color::kWhite)};
}

absl::StatusOr<Match> Match::Create(const MatchOptions& o) {
  if (absl::Status s = rules::ValidateSize(o.width, o.height); !s.ok()) {
    return s;
  }
  if (absl::Status s = rules::ValidateKomi(o.rules.komi); !s.ok()) return s;
  if (absl::Status s = gtp::ValidateTimeSettings(o.time); !s.ok()) return s;
  if (o.max_playouts < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("match: max_playouts ", o.max_playouts, " is negative"));
  }
  if (o.handicap < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("match: handicap ", o.handicap));
  }
  rules::Game game(o.width, o.height, o.rules);
  std::vector<rules::Point> stones;
  if (o.handicap > 0) {
    absl::StatusOr<std::vector<rules::Point>> h =
        rules::FixedHandicap(o.width, o.height, o.handicap);
    if (!h.ok()) return h.status();
    stones = *std::move(h);
    if (absl::Status s = game.PlaceFreeHandicap(stones); !s.ok()) return s;
  }
  return Match(o, std::move(game), std::move(stones));
}

MoveRequest Match::Request() const {
  const Color c = out_.game.to_play();
  MoveRequest r;
  r.time = clock_.settings();
  r.left = clock_.Left(c);
  r.time_to_flag = clock_.TimeToFlag(c);
  r.allot = clock_.Allot(c, out_.game.board().num_empty());
  return r;
}

void Match::Finish() {
  phase_ = Phase::kOver;
  out_.clocks = {clock_.player(Color::kBlack), clock_.player(Color::kWhite)};
}

void Match::Lose(Color c, rules::EndReason reason, End end,
                 std::string detail) {
  out_.game.Resign(c, reason);
  out_.result = out_.game.result();
  out_.end = end;
  out_.detail = std::move(detail);
  Finish();
}

void Match::NoResult(std::string detail) {
  out_.result = {rules::Winner::kNone,
                 options_.failure == FailureRule::kNoResult
                     ? rules::EndReason::kOther
                     : rules::EndReason::kForfeit,
                 0};
  out_.end = End::kEngineFailure;
  out_.detail = std::move(detail);
  Finish();
}

void Match::Fail(Color c, const absl::Status& s) {
  out_.failed[rules::PlayerIndex(c)] = true;
  std::string detail =
      absl::StrCat(SideName(c), " failed at move ", out_.game.num_moves() + 1,
                   ": ", s.ToString());
  if (options_.failure == FailureRule::kNoResult) {
    NoResult(std::move(detail));
  } else {
    Lose(c, rules::EndReason::kForfeit, End::kEngineFailure, std::move(detail));
  }
}

void Match::FailedToStart(bool black_failed, bool white_failed,
                          const std::string& why) {
  out_.failed = {black_failed, white_failed};
  if (black_failed && white_failed) {
    NoResult(why);
  } else if (options_.failure == FailureRule::kNoResult) {
    NoResult(why);
  } else if (black_failed || white_failed) {
    Lose(black_failed ? Color::kBlack : Color::kWhite,
         rules::EndReason::kForfeit, End::kEngineFailure, why);
  }
}

void Match::Resign(Color c) {
  if (over()) return;
  Lose(c, rules::EndReason::kResign, End::kResign,
       absl::StrCat(SideName(c), " resigned at move ",
                    out_.game.num_moves() + 1));
}

void Match::RuleOn(Color c, rules::Point p, const rules::MoveVerdict& v) {
  const int i = rules::PlayerIndex(c);
  const IllegalMoveRuling ruling =
      RuleOnIllegalMove(options_.illegal, v.reason, out_.warnings[i]);
  IllegalAttempt a;
  a.move_number = out_.game.num_moves() + 1;
  a.color = c;
  a.point = p;
  a.reason = v.reason;
  a.warning = ruling.warning;
  a.voided = ruling.void_as_pass;
  a.lost = ruling.loses;
  a.article = ruling.article;
  out_.illegal_moves.push_back(a);
  if (ruling.warning) ++out_.warnings[i];
  const std::string move = absl::StrCat(
      SideName(c), "'s ", VertexText(p, out_.game.board()), " at move ",
      a.move_number, " is illegal (", rules::IllegalReasonName(v.reason), ")");
  if (!ruling.loses) {
    // Art. 18.3 / 19: void, the turn forfeited -- a pass (always legal
    // while the game goes on).
    std::string text =
        absl::StrCat(SideName(c), "'s ", VertexText(p, out_.game.board()),
                     " is illegal (", rules::IllegalReasonName(v.reason),
                     "): void, a pass (art. ", ruling.article, ")");
    if (ruling.warning) {
      absl::StrAppend(&text, "; a warning: one stone (art. 24.1)");
    }
    out_.comments.push_back({out_.game.num_moves(), std::move(text)});
    out_.game.TryPlay(c, rules::kPass);
    return;
  }
  if (options_.illegal == IllegalMovePolicy::kForfeit) {
    Lose(c, rules::EndReason::kIllegal, End::kIllegalMove,
         absl::StrCat(move, ": forfeit"));
  } else {
    Lose(c, rules::EndReason::kForfeit, End::kSecondWarning,
         absl::StrCat(move, ": a second warning loses the game (art. 24.2)"));
  }
}

Applied Match::Apply(const absl::StatusOr<policy::MoveChoice>& choice,
                     absl::Duration used) {
  Applied applied;
  if (phase_ != Phase::kPlaying) return applied;
  const Color c = out_.game.to_play();
  const int before = out_.game.num_moves();
  const absl::Duration had = clock_.TimeToFlag(c);
  const gtp::Charged charged = clock_.Charge(c, used);
  out_.clocks = {clock_.player(Color::kBlack), clock_.player(Color::kWhite)};
  if (charged == gtp::Charged::kFlagFell ||
      (charged == gtp::Charged::kPassed && !choice.ok())) {
    std::string detail = absl::StrCat(
        SideName(c), "'s time ran out at move ", before + 1, ": it took ",
        SecondsText(used), " with ", SecondsText(had), " left");
    if (!choice.ok()) {
      absl::StrAppend(&detail, "; no answer: ", choice.status().message());
    }
    Lose(c, rules::EndReason::kTime, End::kTime, std::move(detail));
    return applied;
  }
  if (charged == gtp::Charged::kPassed) {
    // Art. 22.5: the move becomes a pass; the same byo-yomi goes on.
    out_.comments.push_back(
        {before, absl::StrCat(SideName(c), "'s last period ran out (",
                              SecondsText(used),
                              "): a pass, play goes on (art. 22.5)")});
    out_.game.TryPlay(c, rules::kPass);
  } else if (!choice.ok()) {
    Fail(c, choice.status());
    return applied;
  } else if (choice->point == rules::kResign) {
    Lose(c, rules::EndReason::kResign, End::kResign,
         absl::StrCat(SideName(c), " resigned at move ", before + 1));
    return applied;
  } else {
    const rules::MoveVerdict verdict = out_.game.TryPlay(c, choice->point);
    if (!verdict.legal()) {
      RuleOn(c, choice->point, verdict);
    } else {
      applied.as_chosen = true;
    }
  }
  if (out_.game.num_moves() == before) return applied;  // lost
  applied.played = true;
  applied.move = out_.game.moves().back();
  out_.move_times.push_back({used, clock_.Left(c)});
  AfterMove();
  return applied;
}

void Match::AfterMove() {
  if (!out_.game.over()) return;
  const rules::GameResult& r = out_.game.result();
  if (r.reason == rules::EndReason::kScore) {
    if (options_.dead_stones == DeadStoneRule::kAsPlayed) {
      Count({}, rules::Counting::kAsPlayed, "");
    } else {
      phase_ = Phase::kSettling;
    }
    return;
  }
  out_.end = End::kRules;
  out_.result = r;
  out_.detail =
      r.reason == rules::EndReason::kMoveLimit
          ? absl::StrCat("the move cap (", out_.game.move_cap(),
                         " moves): void")
          : absl::StrCat("a balanced cycle (art. 20): ", rules::ResultToSgf(r));
  Finish();
}

rules::GameResult Match::CountWith(
    const std::vector<rules::Point>& dead) const {
  const rules::GameResult counted =
      rules::CountWithout(out_.game, dead, rules::Counting::kAgreed);
  return DeductWarnings(counted, out_.warnings[0], out_.warnings[1]);
}

void Match::Count(const std::vector<rules::Point>& dead,
                  rules::Counting counting, const std::string& how) {
  const rules::GameResult counted =
      rules::CountWithout(out_.game, dead, counting);
  out_.dead_stones = dead;
  out_.end = End::kCount;
  out_.result = DeductWarnings(counted, out_.warnings[0], out_.warnings[1]);
  out_.detail = how.empty() ? "two passes" : absl::StrCat("two passes; ", how);
  absl::StrAppend(&out_.detail, ", counted ", rules::ResultToSgf(counted));
  if (out_.warnings[0] + out_.warnings[1] > 0) {
    absl::StrAppend(&out_.detail, "; ", rules::ResultToSgf(out_.result),
                    " with a stone per warning deducted (art. 24.1)");
  }
  Finish();
}

void Match::Settle(const DeadStoneView& black_dead,
                   const DeadStoneView& white_dead) {
  if (phase_ != Phase::kSettling) return;
  const rules::Board& board = out_.game.board();
  if (!black_dead.has_value() && !white_dead.has_value()) {
    const std::vector<rules::Point> judged =
        policy::JudgeDeadStones(board).dead;
    Count(judged, rules::Counting::kJudged,
          absl::StrCat("dead stones judged: ", StonesText(judged, board)));
    return;
  }
  const std::vector<rules::Point> b = rules::WholeChains(
      board, black_dead.has_value() ? *black_dead : *white_dead);
  const std::vector<rules::Point> w = rules::WholeChains(
      board, white_dead.has_value() ? *white_dead : *black_dead);
  const rules::Counting agreed =
      playouts_ > 0 ? rules::Counting::kPlayedOut : rules::Counting::kAgreed;
  if (b == w) {
    Count(b, agreed,
          absl::StrCat(playouts_ > 0 ? "after the play-out, " : "",
                       "dead stones agreed: ", StonesText(b, board)));
    return;
  }
  Dispute d;
  d.moves = out_.game.num_moves();
  d.black_dead = b;
  d.white_dead = w;
  const std::vector<rules::Point> only_black = Minus(b, w);
  const std::vector<rules::Point> only_white = Minus(w, b);
  const std::string said = absl::StrCat("Black calls ", StonesText(b, board),
                                        " dead, White ", StonesText(w, board));
  if (playouts_ >= options_.max_playouts) {
    // Actual play has had its chance: the disputed stones stay.
    std::vector<rules::Point> both;
    std::set_intersection(b.begin(), b.end(), w.begin(), w.end(),
                          std::back_inserter(both));
    out_.disputes.push_back(std::move(d));
    Count(both, rules::Counting::kPlayedOut,
          absl::StrCat(said, "; still disputed after ", playouts_,
                       playouts_ == 1 ? " play-out" : " play-outs",
                       ", the disputed stones stay (art. 21.4); off: ",
                       StonesText(both, board)));
    return;
  }
  // Art. 21.4: the side that calls the disputed stones dead moves first
  // (the one calling more of them, or the side to move when even).
  Color first = out_.game.to_play();
  if (only_black.size() != only_white.size()) {
    first =
        only_black.size() > only_white.size() ? Color::kBlack : Color::kWhite;
  }
  d.first = first;
  out_.disputes.push_back(std::move(d));
  ++playouts_;
  out_.comments.push_back(
      {out_.game.num_moves(),
       absl::StrCat(said, ": disputed; play resumes, ", SideName(first),
                    " first (art. 21.4)")});
  out_.game.Resume(first);
  phase_ = Phase::kPlaying;
}

}  // namespace qipu::match
