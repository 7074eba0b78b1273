#include "tests/rules/reference_board.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "rules/coord.h"

namespace qipu::rules {

ReferenceBoard::ReferenceBoard(int width, int height)
    : width_(width),
      height_(height),
      cells_(static_cast<size_t>(width * height), Color::kEmpty),
      mark_(cells_.size(), 0) {}

ReferenceBoard::ReferenceBoard(const Board& board)
    : ReferenceBoard(board.width(), board.height()) {
  for (int i = 0; i < width_ * height_; ++i) cells_[i] = board.at(PointAt(i));
}

bool ReferenceBoard::OnBoard(Point p) const {
  if (p < 0 || p >= kNumCells) return false;
  const int x = p % kStride - 1;
  const int y = p / kStride - 1;
  return x >= 0 && x < width_ && y >= 0 && y < height_;
}

int ReferenceBoard::Stones(Color c) const {
  return static_cast<int>(std::count(cells_.begin(), cells_.end(), c));
}

ReferenceBoard::Neighbourhood ReferenceBoard::Neighbours(int i) const {
  const int x = i % width_;
  const int y = i / width_;
  Neighbourhood out;
  if (x > 0) out.index[out.count++] = i - 1;
  if (x + 1 < width_) out.index[out.count++] = i + 1;
  if (y > 0) out.index[out.count++] = i - width_;
  if (y + 1 < height_) out.index[out.count++] = i + width_;
  return out;
}

void ReferenceBoard::ChainOf(const std::vector<Color>& cells, int i,
                             std::vector<int>* chain) const {
  ++generation_;
  chain->assign(1, i);
  mark_[i] = generation_;
  for (size_t k = 0; k < chain->size(); ++k) {
    for (int n : Neighbours((*chain)[k])) {
      if (mark_[n] != generation_ && cells[n] == cells[i]) {
        mark_[n] = generation_;
        chain->push_back(n);
      }
    }
  }
}

bool ReferenceBoard::HasLiberty(const std::vector<Color>& cells,
                                const std::vector<int>& chain) const {
  for (int s : chain) {
    for (int n : Neighbours(s)) {
      if (cells[n] == Color::kEmpty) return true;
    }
  }
  return false;
}

std::vector<Point> ReferenceBoard::Chain(Point p) const {
  std::vector<int> chain;
  ChainOf(cells_, Index(p), &chain);
  std::vector<Point> out;
  for (int i : chain) out.push_back(PointAt(i));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Point> ReferenceBoard::ChainLiberties(Point p) const {
  std::vector<int> chain;
  ChainOf(cells_, Index(p), &chain);
  std::vector<Point> out;
  for (int s : chain) {
    for (int n : Neighbours(s)) {
      if (cells_[n] == Color::kEmpty) out.push_back(PointAt(n));
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<Color> ReferenceBoard::After(Point p, Color c,
                                         ReferencePlay* play) const {
  std::vector<Color> cells = cells_;
  const int i = Index(p);
  cells[i] = c;
  ReferencePlay result;
  std::vector<int> chain;
  // Opponent chains without liberties go first (art. 4.2).
  for (int n : Neighbours(i)) {
    if (cells[n] != Opponent(c)) continue;
    ChainOf(cells, n, &chain);
    if (HasLiberty(cells, chain)) continue;
    for (int s : chain) cells[s] = Color::kEmpty;
    result.captured += static_cast<int>(chain.size());
  }
  std::vector<int> own;
  ChainOf(cells, i, &own);
  if (!HasLiberty(cells, own)) {
    for (int s : own) cells[s] = Color::kEmpty;
    result.suicided = static_cast<int>(own.size());
  }
  // A basic-ko capture: one stone taken, and the opponent retaking it
  // would take back exactly the stone just played.
  if (result.captured == 1 && result.suicided == 0) {
    int taken = -1;
    for (int k = 0; k < static_cast<int>(cells.size()); ++k) {
      if (cells_[k] == Opponent(c) && cells[k] == Color::kEmpty) taken = k;
    }
    std::vector<Color> retake = cells;
    retake[taken] = Opponent(c);
    for (int n : Neighbours(taken)) {
      if (retake[n] != c) continue;
      ChainOf(retake, n, &chain);
      if (HasLiberty(retake, chain)) continue;
      for (int s : chain) retake[s] = Color::kEmpty;
    }
    result.ko_capture = retake == cells_;
  }
  if (play != nullptr) *play = result;
  return cells;
}

MoveCheck ReferenceBoard::Check(Point p, Color c,
                                bool multi_stone_suicide) const {
  if (at(p) != Color::kEmpty) return MoveCheck::kOccupied;
  ReferencePlay play;
  const std::vector<Color> after = After(p, c, &play);
  if (play.suicided > 0 && (play.suicided == 1 || !multi_stone_suicide)) {
    return MoveCheck::kSuicide;
  }
  if (c != last_mover_ && !before_last_.empty() && after == before_last_) {
    return MoveCheck::kKo;
  }
  return MoveCheck::kLegal;
}

ReferencePlay ReferenceBoard::Play(Point p, Color c) {
  ReferencePlay play;
  std::vector<Color> after = After(p, c, &play);
  before_last_ = cells_;
  last_mover_ = c;
  cells_ = std::move(after);
  return play;
}

void ReferenceBoard::Pass() {
  before_last_.clear();
  last_mover_ = Color::kEmpty;
}

Hash128 ReferenceBoard::Hash() const {
  Hash128 h;
  for (int i = 0; i < width_ * height_; ++i) {
    if (cells_[i] != Color::kEmpty) h ^= StoneKey(cells_[i], PointAt(i));
  }
  return h;
}

std::string ReferenceBoard::Diff(const Board& board) const {
  if (board.width() != width_ || board.height() != height_) {
    return absl::StrCat("size ", board.width(), "x", board.height(),
                        " != ", width_, "x", height_);
  }
  for (int i = 0; i < width_ * height_; ++i) {
    const Point p = PointAt(i);
    if (board.at(p) != cells_[i]) {
      return absl::StrCat(GtpPoint(p, height_), ": board ",
                          ColorName(board.at(p)), ", reference ",
                          ColorName(cells_[i]));
    }
  }
  return "";
}

ReferenceGame::ReferenceGame(int width, int height, const Rules& rules)
    : rules_(rules),
      board_(width, height),
      move_cap_(rules.move_cap > 0 ? rules.move_cap : 3 * width * height) {
  history_.push_back(
      Position{board_.cells(), Color::kBlack, 0, 0, false, 0, false, false});
  by_board_[board_.cells()].push_back(0);
}

MoveVerdict ReferenceGame::Check(Point p) const {
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
  switch (board_.Check(p, to_play_, rules_.multi_stone_suicide)) {
    case MoveCheck::kLegal:
      break;
    case MoveCheck::kOccupied:
      v.reason = IllegalReason::kOccupied;
      return v;
    case MoveCheck::kSuicide:
      v.reason = IllegalReason::kSuicide;
      return v;
    case MoveCheck::kKo:
      v.reason = IllegalReason::kKo;
      return v;
  }
  const bool superko = rules_.ko != KoRule::kSimple;
  ReferencePlay play;
  const std::vector<Color> after = board_.After(p, to_play_, &play);
  auto it = by_board_.find(after);
  if (it == by_board_.end()) return v;
  // The most recent earlier occurrence (of the same player to move under
  // situational superko).
  int start = -1;
  for (int i : it->second) {
    if (rules_.ko == KoRule::kSituational &&
        history_[i].to_play != Opponent(to_play_)) {
      continue;
    }
    start = i;
  }
  if (start < 0) return v;
  v.cycle = Classify(start, p, play);
  if (superko) {
    v.reason = IllegalReason::kSuperko;
    v.cycle.outcome = CycleOutcome::kPreventedSuperko;
  } else if (rules_.cycle == CycleRule::kNone) {
    // Pure simple ko: every repetition is legal; the game goes on.
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

CycleRecord ReferenceGame::Classify(int start, Point p,
                                    const ReferencePlay& play) const {
  CycleRecord r;
  r.first_move = start + 1;
  r.period = num_moves() + 1 - start;
  r.point = p;
  // Captures inside the cycle: the history's running totals, plus the
  // candidate (own stones lost to suicide count for the opponent).
  const Position& first = history_[start];
  const Position& last = history_.back();
  r.black_captures = last.black_caps - first.black_caps;
  r.white_captures = last.white_caps - first.white_caps;
  if (to_play_ == Color::kBlack) {
    r.black_captures += play.captured;
    r.white_captures += play.suicided;
  } else {
    r.white_captures += play.captured;
    r.black_captures += play.suicided;
  }
  int board_moves = 1;
  bool all_ko = play.ko_capture;
  bool multi = play.captured > 1;
  for (int k = start + 1; k < static_cast<int>(history_.size()); ++k) {
    if (history_[k].pass) continue;
    ++board_moves;
    all_ko = all_ko && history_[k].ko_capture;
    multi = multi || history_[k].captured > 1;
  }
  const int diff = std::abs(r.black_captures - r.white_captures);
  if (diff != 0) {
    r.cls = board_moves % 2 == 1 && diff == 1
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

MoveVerdict ReferenceGame::TryPlay(Point p) {
  const MoveVerdict v = Check(p);
  if (!v.legal()) {
    if (v.reason == IllegalReason::kSuperko ||
        v.reason == IllegalReason::kCycle) {
      cycles_.push_back(v.cycle);
    }
    return v;
  }
  const Color c = to_play_;
  moves_.push_back(p);
  Position pos{{}, Opponent(c), 0, 0, p == kPass, 0, false, false};
  if (p == kPass) {
    board_.Pass();
    ++passes_;
  } else {
    passes_ = 0;
    const ReferencePlay play = board_.Play(p, c);
    captures_[PlayerIndex(c)] += play.captured;
    captures_[PlayerIndex(Opponent(c))] += play.suicided;
    if (play.ko_capture) ++ko_captures_;
    pos.captured = play.captured;
    pos.ko_capture = play.ko_capture;
  }
  // Pure simple ko: a repetition is the run of moves that each recreate an
  // earlier position (passes carry it on), recorded once, at its first
  // move, up to kMaxContinuedCycles records.
  const bool continued =
      v.completes_cycle && v.cycle.outcome == CycleOutcome::kContinued;
  const bool in_repetition = history_.back().repeats;
  pos.repeats = continued || (p == kPass && in_repetition);
  if (continued && !in_repetition &&
      static_cast<int>(cycles_.size()) < kMaxContinuedCycles) {
    cycles_.push_back(v.cycle);
  }
  pos.cells = board_.cells();
  pos.black_caps = captures_[0];
  pos.white_caps = captures_[1];
  by_board_[pos.cells].push_back(static_cast<int>(history_.size()));
  history_.push_back(std::move(pos));
  to_play_ = Opponent(c);
  if (v.completes_cycle && !continued) {
    cycles_.push_back(v.cycle);
    End(rules_.cycle == CycleRule::kDraw ? Winner::kDraw : Winner::kNone,
        EndReason::kCycle);
  } else if (passes_ >= 2) {
    // Area counting by flood fill over empty regions.
    const std::vector<Color>& cells = board_.cells();
    const int w = board_.width();
    std::vector<bool> seen(cells.size(), false);
    double black = board_.Stones(Color::kBlack);
    double white = board_.Stones(Color::kWhite);
    for (int i = 0; i < static_cast<int>(cells.size()); ++i) {
      if (cells[i] != Color::kEmpty || seen[i]) continue;
      std::vector<int> region = {i};
      seen[i] = true;
      bool b = false;
      bool wh = false;
      for (size_t k = 0; k < region.size(); ++k) {
        const int r = region[k];
        const int x = r % w;
        std::vector<int> nbrs;
        if (x > 0) nbrs.push_back(r - 1);
        if (x + 1 < w) nbrs.push_back(r + 1);
        if (r >= w) nbrs.push_back(r - w);
        if (r + w < static_cast<int>(cells.size())) nbrs.push_back(r + w);
        for (int n : nbrs) {
          if (cells[n] == Color::kBlack) b = true;
          if (cells[n] == Color::kWhite) wh = true;
          if (cells[n] == Color::kEmpty && !seen[n]) {
            seen[n] = true;
            region.push_back(n);
          }
        }
      }
      const double size = static_cast<double>(region.size());
      if (b && !wh) {
        black += size;
      } else if (wh && !b) {
        white += size;
      } else if (rules_.dame == DameRule::kHalf) {
        black += size / 2;
        white += size / 2;
      }
    }
    const double margin = black - white - rules_.komi;
    result_.reason = EndReason::kScore;
    if (margin == 0) {
      result_.winner = Winner::kDraw;
    } else {
      result_.winner = margin > 0 ? Winner::kBlack : Winner::kWhite;
      result_.margin = std::fabs(margin);
    }
  } else if (num_moves() >= move_cap_) {
    End(Winner::kNone, EndReason::kMoveLimit);
  }
  return v;
}

void ReferenceGame::End(Winner w, EndReason reason) {
  result_.winner = w;
  result_.reason = reason;
  result_.margin = 0;
}

void PrintTo(MoveCheck c, std::ostream* os) { *os << MoveCheckName(c); }

void PrintTo(IllegalReason r, std::ostream* os) { *os << IllegalReasonName(r); }

void PrintTo(const CycleRecord& r, std::ostream* os) {
  *os << "{" << CycleClassName(r.cls) << " " << CycleOutcomeName(r.outcome)
      << " first_move=" << r.first_move << " period=" << r.period
      << " captures B " << r.black_captures << " W " << r.white_captures
      << " point=" << r.point << "}";
}

void PrintTo(const GameResult& r, std::ostream* os) {
  *os << "{" << WinnerName(r.winner) << " " << EndReasonName(r.reason)
      << " margin=" << r.margin << "}";
}

void PrintTo(const Hash128& h, std::ostream* os) { *os << h.ToHex(); }

void PrintTo(Color c, std::ostream* os) { *os << ColorName(c); }

}  // namespace qipu::rules
