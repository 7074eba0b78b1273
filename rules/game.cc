#include "rules/game.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <limits>

#include "absl/strings/str_cat.h"
#include "rules/coord.h"
#include "rules/playout.h"

namespace qipu::rules {

const char* CycleClassName(CycleClass c) {
  switch (c) {
    case CycleClass::kTripleKo:
      return "triple_ko";
    case CycleClass::kQuadrupleKo:
      return "quadruple_ko";
    case CycleClass::kEternalLife:
      return "eternal_life";
    case CycleClass::kSendingTwoReturningOne:
      return "sending_two_returning_one";
    case CycleClass::kOther:
      return "other";
  }
  return "?";
}

const char* CycleOutcomeName(CycleOutcome o) {
  switch (o) {
    case CycleOutcome::kNoResult:
      return "no-result";
    case CycleOutcome::kDraw:
      return "draw";
    case CycleOutcome::kReplay:
      return "replay";
    case CycleOutcome::kPreventedSuperko:
      return "prevented-superko";
    case CycleOutcome::kPreventedCycleRule:
      return "prevented-cycle-rule";
    case CycleOutcome::kContinued:
      return "continued";
    case CycleOutcome::kContinuedInRecord:
      return "continued-in-record";
  }
  return "?";
}

const char* IllegalReasonName(IllegalReason r) {
  switch (r) {
    case IllegalReason::kNone:
      return "none";
    case IllegalReason::kOccupied:
      return "occupied";
    case IllegalReason::kSuicide:
      return "suicide";
    case IllegalReason::kKo:
      return "ko";
    case IllegalReason::kSuperko:
      return "superko";
    case IllegalReason::kCycle:
      return "cycle";
    case IllegalReason::kOffBoard:
      return "off-board";
    case IllegalReason::kGameOver:
      return "game-over";
  }
  return "?";
}

Game::Game(int width, int height, const Rules& rules)
    : rules_(rules),
      board_(width, height),
      move_cap_(MoveCap(rules, width, height)),
      empty_board_(width, height) {
  history_.reserve(move_cap_ + 1);
  moves_.reserve(move_cap_);
  // Room for every kContinued cycle a game may record: recording them
  // never allocates.
  cycles_.reserve(std::max(8, kMaxContinuedCycles));
  Reset();
}

void Game::Reset(const Rules& rules) {
  rules_ = rules;
  move_cap_ = MoveCap(rules, width(), height());
  history_.reserve(move_cap_ + 1);
  moves_.reserve(move_cap_);
  Reset();
}

void Game::Reset() {
  board_.CopyFrom(empty_board_);
  // PlayRecorded() may have lifted the cap.
  move_cap_ = MoveCap(rules_, width(), height());
  to_play_ = Color::kBlack;
  handicap_ = 0;
  num_moves_ = 0;
  passes_ = 0;
  ended_at_ = 0;
  result_ = GameResult{};
  captures_ = {0, 0};
  ko_captures_ = 0;
  base_ = 0;
  last_capture_ = -1;
  max_stones_before_capture_ = -1;
  max_stones_ = 0;
  last_repeat_ = -1;
  history_.clear();
  moves_.clear();
  cycles_.clear();
  filter_ = {};
  PushPosition(0, false);
}

inline void Game::PushPosition(int captured, bool ko_capture) {
  // Written in place (the buffer is reserved for the move cap), and the
  // filter takes the hash from the board rather than back from the entry:
  // a narrower or wider load of a store just made stalls forwarding.
  const Hash128& hash = board_.hash();
  FilterInsert(hash);
  const int stones =
      board_.stones(Color::kBlack) + board_.stones(Color::kWhite);
  history_.push_back(Position{hash, to_play_, static_cast<int16_t>(stones),
                              captures_[0], captures_[1],
                              static_cast<int16_t>(captured), ko_capture});
  if (stones > max_stones_) max_stones_ = stones;
}

absl::Status Game::PlaceHandicap(int stones) {
  if (num_moves_ > 0) {
    return absl::FailedPreconditionError(
        "handicap stones can only be placed before the first move");
  }
  auto points = FixedHandicap(width(), height(), stones);
  if (!points.ok()) return points.status();
  return PlaceFreeHandicap(*points);
}

absl::Status Game::PlaceFreeHandicap(absl::Span<const Point> points) {
  const Color next = points.empty() ? to_play_ : Color::kWhite;
  absl::Status s = ApplySetup(points, {}, {}, next);
  if (!s.ok()) return s;
  handicap_ = static_cast<int>(points.size()) >= 2
                  ? static_cast<int>(points.size())
                  : 0;
  return absl::OkStatus();
}

absl::Status Game::ApplySetup(absl::Span<const Point> black,
                              absl::Span<const Point> white,
                              absl::Span<const Point> empty, Color to_play) {
  for (auto list : {black, white, empty}) {
    for (Point p : list) {
      if (!board_.OnBoard(p)) {
        return absl::InvalidArgumentError(
            absl::StrCat("setup point ", p, " is off the board"));
      }
    }
  }
  Board b = board_;
  b.SetStones(empty, black, white);
  if (b.HasDeadChains()) {
    return absl::InvalidArgumentError("setup leaves a chain without liberties");
  }
  board_ = b;
  if (to_play == Color::kBlack || to_play == Color::kWhite) to_play_ = to_play;
  passes_ = 0;
  // The setup position replaces the current one; repetition restarts here.
  history_.pop_back();
  filter_ = {};
  base_ = num_moves_;
  last_capture_ = -1;
  max_stones_before_capture_ = -1;
  max_stones_ = 0;
  last_repeat_ = -1;
  PushPosition(0, false);
  return absl::OkStatus();
}

int Game::FindRepeat(const Hash128& hash, int stones, Color to_play,
                     bool situational, int before) const {
  for (int i = before - 1; i >= base_; --i) {
    const Position& pos = history_[i];
    if (pos.stones != stones || pos.hash != hash) continue;
    if (situational && pos.to_play != to_play) continue;
    return i;
  }
  return -1;
}

CycleRecord Game::Classify(int i, Color c, Point p, int captured,
                           bool ko_capture) const {
  const Position& start = history_[i];
  const Position& last = history_.back();
  CycleRecord r;
  r.first_move = i + 1;
  r.period = num_moves_ + 1 - i;
  r.point = p;
  // Own stones a (multi-stone) suicide removes count for the opponent, as
  // in Play(); the repeated position has start.stones stones.
  const int suicided = board_.stones(Color::kBlack) +
                       board_.stones(Color::kWhite) + 1 - captured -
                       start.stones;
  r.black_captures = last.black_caps - start.black_caps +
                     (c == Color::kBlack ? captured : suicided);
  r.white_captures = last.white_caps - start.white_caps +
                     (c == Color::kWhite ? captured : suicided);
  // Board moves inside the cycle, and whether each was a basic-ko capture
  // or a multi-stone capture.
  int board_moves = 1;
  bool all_ko = ko_capture;
  bool multi = captured > 1;
  for (int k = i + 1; k <= num_moves_; ++k) {
    if (moves_[k - 1].point == kPass) continue;
    ++board_moves;
    all_ko &= history_[k].ko_capture;
    multi |= history_[k].captured > 1;
  }
  if (r.black_captures != r.white_captures) {
    r.cls = (board_moves % 2 == 1 &&
             std::abs(r.black_captures - r.white_captures) == 1)
                ? CycleClass::kSendingTwoReturningOne
                : CycleClass::kOther;
  } else if (all_ko && board_moves == 6) {
    r.cls = CycleClass::kTripleKo;
  } else if (all_ko && board_moves == 8) {
    r.cls = CycleClass::kQuadrupleKo;
  } else if (board_moves == 4 && multi) {
    r.cls = CycleClass::kEternalLife;
  } else {
    r.cls = CycleClass::kOther;
  }
  return r;
}

MoveVerdict Game::Check(Color c, Point p) const {
  MoveVerdict v;
  if (over()) {
    v.reason = IllegalReason::kGameOver;
    return v;
  }
  if (p == kPass) return v;
  if (!board_.OnBoard(p)) {
    v.reason = IllegalReason::kOffBoard;
    return v;
  }
  const MoveCheck mc = board_.Check(p, c, rules_.multi_stone_suicide);
  switch (mc) {
    case MoveCheck::kLegal:
      break;
    case MoveCheck::kOccupied:
      v.reason = IllegalReason::kOccupied;
      return v;
    case MoveCheck::kSuicide:
      v.reason = IllegalReason::kSuicide;
      return v;
    case MoveCheck::kKo:
      // The ko point binds the player who moves next; a record in which
      // the capturer moves again may play there.
      if (c == to_play_) {
        v.reason = IllegalReason::kKo;
        return v;
      }
      break;
  }
  return CheckBoardLegal(c, p);
}

MoveVerdict Game::CheckBoardLegal(Color c, Point p) const {
  assert(!over());
  MoveVerdict v;
  const bool superko = rules_.ko != KoRule::kSimple;

  // Without a removal by this move, only positions before the last capture
  // could repeat, and none of them may have had that many stones. (With
  // multi-stone suicide the move itself may remove stones: no shortcut.)
  const int stones_now =
      board_.stones(Color::kBlack) + board_.stones(Color::kWhite);
  // A move that removes nothing gains exactly its stone: Preview() would
  // only add its key.
  const bool removes = rules_.multi_stone_suicide || board_.Captures(p, c);
  if (!removes && stones_now + 1 > max_stones_before_capture_) return v;
  // Initialised in place (never assigned: a copy of a struct just written
  // field by field stalls on store forwarding).
  const MovePreview pv = removes ? board_.Preview(p, c)
                                 : MovePreview{board_.hash() ^ StoneKey(c, p)};
  if (!FilterMayContain(pv.hash)) return v;
  // A repeat needs a removal between the two positions.
  const int before = (pv.captured > 0 || pv.suicided > 0)
                         ? static_cast<int>(history_.size())
                         : last_capture_;
  if (before <= base_) return v;
  const int stones = board_.stones(Color::kBlack) +
                     board_.stones(Color::kWhite) + 1 - pv.captured -
                     pv.suicided;
  const int i = FindRepeat(pv.hash, stones, Opponent(c),
                           rules_.ko == KoRule::kSituational, before);
  if (i < 0) return v;
  v.cycle = Classify(i, c, p, pv.captured, pv.ko_capture);
  if (superko) {
    v.reason = IllegalReason::kSuperko;
    v.cycle.outcome = CycleOutcome::kPreventedSuperko;
  } else if (rules_.cycle == CycleRule::kNone) {
    // Pure simple ko: any repetition is legal, and the game goes on.
    v.completes_cycle = true;
    v.cycle.outcome = CycleOutcome::kContinued;
  } else if (v.cycle.black_captures != v.cycle.white_captures) {
    v.reason = IllegalReason::kCycle;
    v.cycle.outcome = CycleOutcome::kPreventedCycleRule;
  } else {
    v.completes_cycle = true;
    v.cycle.outcome = rules_.cycle == CycleRule::kDraw ? CycleOutcome::kDraw
                      : rules_.cycle == CycleRule::kReplay
                          ? CycleOutcome::kReplay
                          : CycleOutcome::kNoResult;
  }
  return v;
}

inline void Game::RecordBoardMove(Color c, Point p) {
  moves_.push_back(Move{c, p});
  ++num_moves_;
  to_play_ = Opponent(c);
  passes_ = 0;
  const int max_before = max_stones_;
  const PlayInfo& info = board_.last_play();
  if (info.captured > 0 || info.suicided > 0) {
    // Stored only when they change: PushPosition() reads both counters
    // at once, which a pending narrower store would stall.
    captures_[PlayerIndex(c)] += info.captured;
    captures_[PlayerIndex(Opponent(c))] += info.suicided;
  }
  if (info.ko_capture) ++ko_captures_;
  PushPosition(info.captured, info.ko_capture);
  if (info.captured > 0 || info.suicided > 0) {
    last_capture_ = num_moves_;
    max_stones_before_capture_ = max_before;
  }
}

void Game::Play(Color c, Point p, const MoveVerdict& verdict) {
  assert(verdict.legal());
  assert(!over());
  if (p == kPass) {
    moves_.push_back(Move{c, p});
    ++num_moves_;
    to_play_ = Opponent(c);
    board_.Pass();
    ++passes_;
    PushPosition(0, false);
    // A pass carries a repetition on (it repeats the board, but passes
    // never count as repetitions).
    if (last_repeat_ == num_moves_ - 1) last_repeat_ = num_moves_;
  } else {
    board_.Play(p, c);
    RecordBoardMove(c, p);
  }
  if (verdict.completes_cycle) {
    if (verdict.cycle.outcome != CycleOutcome::kContinued) {
      cycles_.push_back(verdict.cycle);
      End(rules_.cycle == CycleRule::kDraw ? Winner::kDraw : Winner::kNone,
          EndReason::kCycle, 0);
      return;
    }
    // Pure simple ko: one record per repetition (see cycles()).
    if (last_repeat_ != num_moves_ - 1 &&
        static_cast<int>(cycles_.size()) < kMaxContinuedCycles) {
      cycles_.push_back(verdict.cycle);
    }
    last_repeat_ = num_moves_;
  }
  if (passes_ >= 2) {
    result_ = ScoreNow();
    ended_at_ = num_moves_;
  } else if (num_moves_ >= move_cap_) {
    End(Winner::kNone, EndReason::kMoveLimit, 0);
  }
}

MoveVerdict Game::TryPlay(Color c, Point p) {
  MoveVerdict v = Check(c, p);
  if (v.legal()) {
    Play(c, p, v);
  } else if (v.reason == IllegalReason::kSuperko ||
             v.reason == IllegalReason::kCycle) {
    RecordPrevented(v.cycle);
  }
  return v;
}

Game::RecordedMove Game::PlayRecorded(Color c, Point p) {
  RecordedMove out;
  if (over()) {
    // The record went on after the rules ended the game: reopen it.
    out.ended_by = result_.reason;
    out.ended_at = ended_at_;
    if (result_.reason == EndReason::kCycle && !cycles_.empty()) {
      cycles_.back().outcome = CycleOutcome::kContinuedInRecord;
    }
    if (result_.reason == EndReason::kMoveLimit) {
      move_cap_ = std::numeric_limits<int>::max();
    }
    result_ = GameResult{};
    ended_at_ = 0;
  }
  out.verdict = Check(c, p);
  switch (out.verdict.reason) {
    case IllegalReason::kNone:
      Play(c, p, out.verdict);
      break;
    case IllegalReason::kOccupied:
    case IllegalReason::kOffBoard:
    case IllegalReason::kGameOver:
      return out;
    case IllegalReason::kKo:
    case IllegalReason::kSuicide:
      PlayOverRules(c, p, nullptr);
      break;
    case IllegalReason::kSuperko:
    case IllegalReason::kCycle:
      out.verdict.cycle.outcome = CycleOutcome::kContinuedInRecord;
      PlayOverRules(c, p, &out.verdict.cycle);
      break;
  }
  out.played = true;
  return out;
}

void Game::PlayOverRules(Color c, Point p, const CycleRecord* cycle) {
  board_.Play(p, c);
  RecordBoardMove(c, p);
  if (cycle != nullptr &&
      static_cast<int>(cycles_.size()) < kMaxContinuedCycles) {
    cycles_.push_back(*cycle);
  }
  if (num_moves_ >= move_cap_) End(Winner::kNone, EndReason::kMoveLimit, 0);
}

int Game::TryPlayMoves(absl::Span<const Move> moves, MoveVerdict* rejected) {
  *rejected = MoveVerdict{};
  const uint64_t* filter = filter_.data();
  const int n = static_cast<int>(moves.size());
  int k = 0;
  for (; k < n && !over(); ++k) {
    const Color c = moves[k].color;
    const Point p = moves[k].point;
    // The common case: a board move of the side to move that the board
    // allows and that cannot repeat a position (CheckBoardLegal()'s
    // shortcuts), checked and played by the board in one step.
    if (c == to_play_ && p > kResign && p < kNumCells &&
        board_.PlayChecked(
            p, c, filter, kFilterWords - 1,
            board_.stones(Color::kBlack) + board_.stones(Color::kWhite) + 1 <=
                max_stones_before_capture_)) {
      RecordBoardMove(c, p);
      if (num_moves_ >= move_cap_) End(Winner::kNone, EndReason::kMoveLimit, 0);
      continue;
    }
    // A pass, a move out of turn, an illegal move, a possible repetition.
    const MoveVerdict v = TryPlay(c, p);
    if (!v.legal()) {
      *rejected = v;
      break;
    }
  }
  return k;
}

Point Game::PlayLightFrom(int start) { return PlayLightMove(start); }

int Game::PlayLightGame(Rng& rng) {
  // The generator one draw ahead, as in Board::PlayLightGame(): `ahead` is
  // what the next rng.Next() returns and `after` the state it leaves; only
  // draws actually used (one per move but on a full board) advance it.
  Rng now = rng;
  Rng after = rng;
  uint64_t ahead = after.Next();
  const int first = num_moves_;
  while (!over()) {
    const int n = board_.num_empty();
    int start = 0;
    if (n > 0) {
      start = static_cast<int>(Rng::Scale(ahead, static_cast<uint32_t>(n)));
      now = after;
      ahead = after.Next();
    }
    PlayLightMove(start);
  }
  rng = now;
  return num_moves_ - first;
}

[[gnu::always_inline]] inline Point Game::PlayLightMove(int start) {
  assert(!over());
  const Color c = to_play_;
  // The board plays the candidate it finds unless CheckBoardLegal() might
  // have more to say than "legal" (a possible repetition, which every rule
  // set acts on: forbids it, ends the game, or records a cycle): a move
  // that removes nothing cannot repeat while the board holds more stones
  // than any position before the last capture; else only a hash in the
  // filter can repeat.
  const bool quiet_unfiltered =
      board_.stones(Color::kBlack) + board_.stones(Color::kWhite) + 1 >
      max_stones_before_capture_;
  const Board::LightScan scan = board_.ScanLightPlay(
      c, start, board_.num_empty(), rules_.multi_stone_suicide, filter_.data(),
      kFilterWords - 1, quiet_unfiltered);
  if (scan.played == kNoPoint) return PlayLightChecked(start, scan.index);
  // Play() of a legal board move that completes no cycle.
  RecordBoardMove(c, scan.played);
  if (num_moves_ >= move_cap_) End(Winner::kNone, EndReason::kMoveLimit, 0);
  return scan.played;
}

Point Game::PlayLightChecked(int start, int found) {
  const Color c = to_play_;
  const int n = board_.num_empty();
  int i = start;
  int left = n;
  int j = found;
  while (j >= 0) {
    const Point p = board_.empty_point(j);
    const MoveVerdict v = CheckBoardLegal(c, p);
    if (v.legal()) {
      Play(c, p, v);
      return p;
    }
    if (v.reason == IllegalReason::kSuperko ||
        v.reason == IllegalReason::kCycle) {
      RecordPrevented(v.cycle);
    }
    left -= (j >= i ? j - i : j + n - i) + 1;
    i = j + 1 == n ? 0 : j + 1;
    if (left == 0) break;
    j = board_.ScanLight(c, i, left, rules_.multi_stone_suicide);
  }
  const MoveVerdict v = Check(c, kPass);
  Play(c, kPass, v);
  return kPass;
}

void Game::Resign(Color c, EndReason reason) {
  if (over()) return;
  End(c == Color::kBlack ? Winner::kWhite : Winner::kBlack, reason, 0);
}

void Game::Resume(Color c) {
  if (result_.reason != EndReason::kScore) return;
  result_ = GameResult{};
  ended_at_ = 0;
  passes_ = 0;
  to_play_ = c;
}

void Game::End(Winner w, EndReason reason, double margin) {
  result_.winner = w;
  result_.reason = reason;
  result_.margin = margin;
  ended_at_ = num_moves_;
}

}  // namespace qipu::rules
