#include "train/ladder.h"

#include <algorithm>
#include <cstdlib>

namespace qipu::train {

using rules::Color;
using rules::Point;

namespace {

constexpr int kDirs[4] = {-rules::kStride, -1, 1, rules::kStride};
// KataGo's MAX_LADDER_SEARCH_NODE_BUDGET: moves played per search.
constexpr int kNodeBudget = 25000;

Color Other(Color c) {
  return c == Color::kBlack ? Color::kWhite : Color::kBlack;
}

bool IsStone(Color c) { return c == Color::kBlack || c == Color::kWhite; }

}  // namespace

void SnapshotCells(const rules::Board& board, Cells* cells) {
  cells->fill(Color::kWall);
  for (int y = 0; y < board.height(); ++y) {
    for (int x = 0; x < board.width(); ++x) {
      const Point p = rules::MakePoint(x, y);
      (*cells)[p] = board.at(p);
    }
  }
}

void LadderReader::Load(const Cells& cells, int width, int height) {
  color_ = cells;
  width_ = width;
  height_ = height;
  // KataGo's stack size: a bit more than the board for recaptures.
  max_depth_ = width * height * 3 / 2 + 1;
  ko_ = rules::kNoPoint;
  steps_.clear();
  captured_.clear();
}

int LadderReader::ChainLiberties(Point p, int cap, bool collect) {
  if (++stamp_ == 0) {  // wrapped: forget every old mark
    mark_.fill(0);
    lib_mark_.fill(0);
    stamp_ = 1;
  }
  const Color c = color_[p];
  todo_.clear();
  if (collect) chain_.clear();
  todo_.push_back(p);
  mark_[p] = stamp_;
  int libs = 0;
  while (!todo_.empty()) {
    const Point q = todo_.back();
    todo_.pop_back();
    if (collect) chain_.push_back(q);
    for (int d : kDirs) {
      const Point n = static_cast<Point>(q + d);
      const Color nc = color_[n];
      if (nc == Color::kEmpty) {
        if (lib_mark_[n] != stamp_) {
          lib_mark_[n] = stamp_;
          if (++libs >= cap) return libs;
        }
      } else if (nc == c && mark_[n] != stamp_) {
        mark_[n] = stamp_;
        todo_.push_back(n);
      }
    }
  }
  return libs;
}

void LadderReader::LibertiesOf(Point p, std::vector<Point>* libs) {
  libs->clear();
  ChainLiberties(p, 1 << 20, /*collect=*/true);
  for (Point q : chain_) {
    for (int d : kDirs) {
      const Point n = static_cast<Point>(q + d);
      if (color_[n] == Color::kEmpty &&
          std::find(libs->begin(), libs->end(), n) == libs->end()) {
        libs->push_back(n);
      }
    }
  }
}

bool LadderReader::Play(Point p, Color c) {
  if (color_[p] != Color::kEmpty || p == ko_) return false;
  const Color o = Other(c);
  color_[p] = c;
  const Step step{p, ko_, static_cast<int>(captured_.size())};
  int captured = 0;
  Point captured_at = rules::kNoPoint;
  for (int d : kDirs) {
    const Point n = static_cast<Point>(p + d);
    if (color_[n] != o || ChainLiberties(n, 1, /*collect=*/true) > 0) continue;
    for (Point s : chain_) {
      color_[s] = Color::kEmpty;
      captured_.push_back(s);
    }
    captured += static_cast<int>(chain_.size());
    captured_at = n;
  }
  if (captured == 0 && ChainLiberties(p, 1, /*collect=*/false) == 0) {
    color_[p] = Color::kEmpty;  // suicide: never legal in a ladder
    return false;
  }
  ko_ = rules::kNoPoint;
  if (captured == 1) {
    // A lone stone that took one stone and has that point as its only
    // liberty: the opponent may not retake at once.
    bool alone = true;
    for (int d : kDirs) alone = alone && color_[p + d] != c;
    if (alone && ChainLiberties(p, 2, /*collect=*/false) == 1) {
      ko_ = captured_at;
    }
  }
  steps_.push_back(step);
  ++nodes_;
  return true;
}

void LadderReader::Undo() {
  const Step step = steps_.back();
  steps_.pop_back();
  const Color o = Other(color_[step.point]);
  for (size_t i = static_cast<size_t>(step.captured_begin);
       i < captured_.size(); ++i) {
    color_[captured_[i]] = o;
  }
  captured_.resize(static_cast<size_t>(step.captured_begin));
  color_[step.point] = Color::kEmpty;
  ko_ = step.ko_before;
}

int LadderReader::LibertiesAfter(Point p, Color c) {
  if (!Play(p, c)) return 0;
  const int n = ChainLiberties(p, 3, /*collect=*/false);
  Undo();
  --nodes_;  // a probe, not a search move
  return n;
}

bool LadderReader::DefenderLoses(Point target, int depth) {
  if (depth >= max_depth_ - 1) return true;
  if (nodes_ >= kNodeBudget) {
    out_of_budget_ = true;
    return false;
  }
  const Color pla = color_[target];
  if (!IsStone(pla)) return true;  // captured
  if (ChainLiberties(target, 2, /*collect=*/false) >= 2) return false;
  // A ko the attacker left: assume the defender wins it.
  if (ko_ != rules::kNoPoint) return false;
  // Captures that gain liberties, then the chain's own liberty.
  std::vector<Point> moves;
  LibertiesOf(target, &libs_);
  const std::vector<Point> chain = chain_;
  const Color opp = Other(pla);
  for (Point q : chain) {
    for (int d : kDirs) {
      const Point n = static_cast<Point>(q + d);
      if (color_[n] != opp || ChainLiberties(n, 2, false) != 1) continue;
      std::vector<Point> lib;
      LibertiesOf(n, &lib);
      for (Point l : lib) {
        if (std::find(moves.begin(), moves.end(), l) == moves.end()) {
          moves.push_back(l);
        }
      }
    }
  }
  LibertiesOf(target, &libs_);
  // KataGo's bounds on the lone liberty (exact here): 3 liberties after
  // it escape at once; at most 1 with no capture to try loses at once.
  const Point lone = libs_.empty() ? rules::kNoPoint : libs_[0];
  if (lone != rules::kNoPoint) {
    const int after = LibertiesAfter(lone, pla);
    if (after >= 3) return false;
    if (moves.empty() && after <= 1) return true;
    if (std::find(moves.begin(), moves.end(), lone) == moves.end()) {
      moves.push_back(lone);
    }
  }
  for (Point m : moves) {
    if (!Play(m, pla)) continue;
    const bool lost = AttackerWins(target, depth + 1);
    Undo();
    if (out_of_budget_) return false;
    if (!lost) return false;
  }
  return true;
}

bool LadderReader::AttackerWins(Point target, int depth) {
  if (depth >= max_depth_ - 1) return true;
  if (nodes_ >= kNodeBudget) {
    out_of_budget_ = true;
    return false;
  }
  const Color pla = color_[target];
  if (!IsStone(pla)) return true;
  const int libs = ChainLiberties(target, 3, /*collect=*/false);
  if (libs <= 1) return true;
  if (libs >= 3) return false;
  const Color opp = Other(pla);
  std::vector<Point> moves;
  LibertiesOf(target, &moves);
  // KataGo's double ko death: both liberties ko mouths the attacker would
  // capture in, neither connection giving the defender 3 liberties, and
  // no opposing chain around the defender in atari.
  auto immediate = [&](Point p) {
    int n = 0;
    for (int d : kDirs) n += color_[p + d] == Color::kEmpty;
    return n;
  };
  auto ko_capture = [&](Point p) {
    // opp at p: surrounded by pla stones and walls, taking exactly one.
    int taken = 0;
    for (int d : kDirs) {
      const Color c = color_[p + d];
      if (c == Color::kEmpty || c == opp) return false;
      if (c == pla && ChainLiberties(static_cast<Point>(p + d), 2, true) == 1) {
        taken += static_cast<int>(chain_.size());
      }
    }
    return taken == 1;
  };
  auto libs_after = [&](Point p) { return LibertiesAfter(p, pla); };
  if (immediate(moves[0]) == 0 && immediate(moves[1]) == 0 &&
      ko_capture(moves[0]) && ko_capture(moves[1]) &&
      libs_after(moves[0]) <= 2 && libs_after(moves[1]) <= 2) {
    bool atari_around = false;
    ChainLiberties(target, 1 << 20, /*collect=*/true);
    const std::vector<Point> chain = chain_;
    for (Point q : chain) {
      for (int d : kDirs) {
        const Point n = static_cast<Point>(q + d);
        if (color_[n] == opp && ChainLiberties(n, 2, false) == 1) {
          atari_around = true;
        }
      }
    }
    if (!atari_around) return true;
  }
  // KataGo's early exits when the liberties are not adjacent: a liberty
  // with 3 empty neighbours is one the defender escapes by (so the
  // attacker must fill it).
  const bool adjacent = std::abs(moves[0] - moves[1]) == 1 ||
                        std::abs(moves[0] - moves[1]) == rules::kStride;
  if (!adjacent) {
    const bool escape0 = immediate(moves[0]) >= 3;
    const bool escape1 = immediate(moves[1]) >= 3;
    if (escape0 && escape1) return false;
    if (escape0) {
      moves.resize(1);
    } else if (escape1) {
      moves[0] = moves[1];
      moves.resize(1);
    }
  }
  for (Point m : moves) {
    if (!Play(m, opp)) continue;
    const bool won = DefenderLoses(target, depth + 1);
    Undo();
    if (out_of_budget_) return false;
    if (won) return true;
  }
  return false;
}

bool LadderReader::CapturedDefenderFirst(Point target) {
  if (ChainLiberties(target, 2, /*collect=*/false) > 1) return false;
  const Point ko = ko_;
  ko_ = rules::kNoPoint;  // every ko works for the defender at the root
  nodes_ = 0;
  out_of_budget_ = false;
  const bool captured = DefenderLoses(target, 0);
  ko_ = ko;
  return captured && !out_of_budget_;
}

bool LadderReader::CapturedAttackerFirst(Point target,
                                         std::vector<Point>* working) {
  working->clear();
  std::vector<Point> libs;
  LibertiesOf(target, &libs);
  if (libs.size() != 2) return false;
  const Color attacker = Other(color_[target]);
  for (Point m : libs) {
    if (!Play(m, attacker)) continue;
    const bool works = CapturedDefenderFirst(target);
    Undo();
    if (works) working->push_back(m);
  }
  return !working->empty();
}

void LadderReader::Read(const Cells& cells, int width, int height,
                        Color working_color, Ladders* out) {
  out->stones.clear();
  out->working_moves.clear();
  Load(cells, width, height);
  solved_.fill(0);
  std::vector<Point> working;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const Point p = rules::MakePoint(x, y);
      const Color c = color_[p];
      if (!IsStone(c) || solved_[p] != 0) continue;
      // The whole chain (every stone gets its answer once).
      const int libs = ChainLiberties(p, 1 << 20, /*collect=*/true);
      const std::vector<Point> chain = chain_;
      bool laddered = false;
      if (libs == 1) {
        laddered = CapturedDefenderFirst(p);
      } else if (libs == 2) {
        laddered = CapturedAttackerFirst(p, &working);
        if (laddered && c == working_color) {
          out->working_moves.insert(out->working_moves.end(), working.begin(),
                                    working.end());
        }
      }
      for (Point s : chain) solved_[s] = laddered ? 2 : 1;
      if (laddered) {
        out->stones.insert(out->stones.end(), chain.begin(), chain.end());
      }
    }
  }
}

bool LadderReader::IsLaddered(const rules::Board& board, Point p) {
  Cells cells;
  SnapshotCells(board, &cells);
  Ladders ladders;
  Read(cells, board.width(), board.height(), Color::kEmpty, &ladders);
  return std::find(ladders.stones.begin(), ladders.stones.end(), p) !=
         ladders.stones.end();
}

}  // namespace qipu::train
