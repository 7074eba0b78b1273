#include "policy/mcts_search.h"

#include <algorithm>
#include <array>

namespace qipu::policy {
namespace {

using rules::Color;
using rules::Point;
using rules::Winner;

// Half-points of `winner` for `mover`: 2 a win, 1 a draw or void, 0 a loss.
uint32_t HalfPoints(Winner winner, Color mover) {
  if (winner == Winner::kBlack) return mover == Color::kBlack ? 2 : 0;
  if (winner == Winner::kWhite) return mover == Color::kWhite ? 2 : 0;
  return 1;
}

Winner EndWinner(NodeEnd end) {
  switch (end) {
    case NodeEnd::kBlackWins:
      return Winner::kBlack;
    case NodeEnd::kWhiteWins:
      return Winner::kWhite;
    default:
      return Winner::kDraw;
  }
}

NodeEnd ScoredEnd(Winner w) {
  return w == Winner::kBlack   ? NodeEnd::kBlackWins
         : w == Winner::kWhite ? NodeEnd::kWhiteWins
                               : NodeEnd::kDraw;
}

}  // namespace

Search::Search(const SearchParams& params)
    : params_(params),
      tree_(params.max_nodes),
      runner_(params.playout),
      board_(rules::kMinSize, rules::kMinSize) {
  path_.reserve(256);
  path_moves_.reserve(256);
}

void Search::Forget() {
  tree_valid_ = false;
  tree_.Clear();
}

int64_t Search::Start(const rules::Game& game, uint64_t seed, bool reuse) {
  root_ = &game;
  rng_ = rules::Rng(seed);
  // Follow the moves played since the previous search down its tree.
  const std::vector<rules::Move>& moves = game.moves();
  bool kept = false;
  if (reuse && tree_valid_ && game.width() == root_width_ &&
      game.height() == root_height_ && game.handicap() == root_handicap_ &&
      game.rules() == root_rules_ && moves.size() > root_moves_.size() &&
      moves.size() - root_moves_.size() <= kMaxReuseMoves &&
      std::equal(root_moves_.begin(), root_moves_.end(), moves.begin())) {
    uint32_t node = Tree::kRoot;
    bool found = true;
    Color mover = root_to_play_;  // The tree's moves alternate.
    for (size_t i = root_moves_.size(); i < moves.size() && found; ++i) {
      const Node& n = tree_.node(node);
      found = false;
      for (uint32_t k = 0;
           moves[i].color == mover && n.expanded() && k < n.num_children; ++k) {
        if (tree_.node(n.first_child + k).move == moves[i].point) {
          node = n.first_child + k;
          found = true;
          break;
        }
      }
      mover = rules::Opponent(mover);
    }
    if (found && tree_.node(node).end == NodeEnd::kNone) {
      tree_.Reroot(node);
      kept = true;
    }
  }
  if (!kept) tree_.Clear();
  tree_valid_ = true;
  root_moves_.assign(moves.begin(), moves.end());
  root_width_ = game.width();
  root_height_ = game.height();
  root_handicap_ = game.handicap();
  root_to_play_ = game.to_play();
  root_rules_ = game.rules();
  plies_left_ = game.move_cap() - game.num_moves();
  if (!expand_game_.has_value() || expand_game_->width() != game.width() ||
      expand_game_->height() != game.height() ||
      !(expand_game_->rules() == game.rules())) {
    // Constructed (not copied) so that its buffers hold the move cap: the
    // copies assigned into it later reuse them.
    expand_game_.emplace(game.width(), game.height(), game.rules());
  }
  return tree_.node(Tree::kRoot).visits;
}

int64_t Search::Run(int64_t playouts, absl::Time deadline) {
  const bool timed = deadline != absl::InfiniteFuture();
  for (int64_t i = 0; i < playouts; ++i) {
    if (timed && i > 0 && (i & 15) == 0 && absl::Now() >= deadline) return i;
    Playout();
  }
  return playouts;
}

void Search::Playout() {
  const rules::Game& root = *root_;
  board_.CopyFrom(root.board());
  path_.clear();
  path_moves_.clear();
  path_.push_back(Tree::kRoot);
  Color c = root.to_play();
  Point last = LastMovePoint(root);
  uint32_t node = Tree::kRoot;
  Winner winner;
  while (true) {
    const Node& n = tree_.node(node);
    if (n.end != NodeEnd::kNone) {
      winner = EndWinner(n.end);
      first_.fill(Color::kEmpty);
      break;
    }
    if (!n.expanded()) {
      if ((node == Tree::kRoot ||
           n.visits + 1 >= static_cast<uint32_t>(params_.expand)) &&
          Expand(node)) {
        continue;
      }
      // A playout from the leaf.
      first_.fill(Color::kEmpty);
      const int depth = static_cast<int>(path_moves_.size());
      const int max_moves =
          std::min(plies_left_ - depth, 3 * board_.num_points());
      if (max_moves <= 0) {
        winner = Winner::kNone;  // The move cap: a void game.
        break;
      }
      runner_.Run(board_, c, last, rng_, max_moves,
                  root.rules().multi_stone_suicide, &first_);
      winner = CountWinner(board_, root.rules(), root.handicap());
      break;
    }
    const uint32_t child = tree_.Select(node, params_.select);
    const Point mv = tree_.node(child).move;
    if (mv == rules::kPass) {
      board_.Pass();
    } else {
      board_.Play(mv, c);
    }
    path_moves_.push_back(mv);
    path_.push_back(child);
    node = child;
    last = mv;
    c = rules::Opponent(c);
  }
  Backup(winner);
}

bool Search::Expand(uint32_t leaf) {
  rules::Game& g = *expand_game_;
  g = *root_;
  for (const Point mv : path_moves_) {
    const rules::MoveVerdict v = g.Check(mv);
    g.Play(g.to_play(), mv, v);
  }
  const rules::Board& board = g.board();
  const Color c = g.to_play();
  const bool suicide = g.rules().multi_stone_suicide;
  // The move after this one hits the move cap: every child ends the game.
  const bool capped = g.num_moves() + 1 >= g.move_cap();
  std::array<Point, rules::kMaxPoints + 1> moves;
  std::array<NodeEnd, rules::kMaxPoints + 1> ends;
  int k = 0;
  for (int i = 0; i < board.num_empty(); ++i) {
    const Point p = board.empty_point(i);
    if (board.IsOwnEye(p, c) || !board.IsLegal(p, c, suicide)) continue;
    const rules::MoveVerdict v = g.CheckBoardLegal(c, p);
    if (!v.legal()) continue;
    moves[k] = p;
    ends[k] = (capped || (v.completes_cycle &&
                          v.cycle.outcome != rules::CycleOutcome::kContinued))
                  ? NodeEnd::kDraw
                  : NodeEnd::kNone;
    ++k;
  }
  moves[k] = rules::kPass;
  if (!g.moves().empty() && g.moves().back().point == rules::kPass) {
    ends[k] = ScoredEnd(g.ScoreNow().winner);  // The second pass.
  } else {
    ends[k] = capped ? NodeEnd::kDraw : NodeEnd::kNone;
  }
  ++k;
  const uint32_t first = tree_.AddChildren(leaf, k);
  if (first == 0) return false;
  for (int i = 0; i < k; ++i) {
    Node& ch = tree_.node(first + i);
    ch.move = moves[i];
    ch.end = ends[i];
    if (params_.prior > 0 && moves[i] != rules::kPass) SetPrior(board, c, ch);
  }
  return true;
}

void Search::SetPrior(const rules::Board& board, Color c, Node& ch) {
  const Point p = ch.move;
  const int e = params_.prior;
  // Even: e playouts at 0.5.
  int n = e;
  int w2 = e;
  // Shape: e playouts at gamma / (gamma + 1) (0.5 for an average point).
  const double g = tactics_.weights().Gamma(board, p, c);
  n += e;
  w2 += static_cast<int>(2.0 * e * g / (g + 1.0) + 0.5);
  if (board.Captures(p, c)) {
    n += e;
    w2 += 2 * e;
  } else if (PatternMover::JoinsOwnChain(board, p, c)) {
    if (tactics_.SelfAtari(board, p, c)) {
      n += 2 * e;
    } else {
      // An escape: an own chain next to p has p as its last liberty.
      Point libs[2];
      for (int d : {-rules::kStride, -1, 1, rules::kStride}) {
        const Point r = static_cast<Point>(p + d);
        if (board.at(r) == c && tactics_.ChainLiberties(board, r, libs) == 1) {
          n += e;
          w2 += 2 * e;
          break;
        }
      }
    }
  }
  ch.prior_visits = static_cast<uint16_t>(n);
  ch.prior_wins2 = static_cast<uint16_t>(w2);
}

void Search::Backup(Winner winner) {
  const Color to_play = root_->to_play();
  const Color other = rules::Opponent(to_play);
  const int len = static_cast<int>(path_.size());
  // path_[i] for i >= 1 was played by to_play when i is odd.
  for (int i = 0; i < len; ++i) {
    Node& n = tree_.node(path_[i]);
    ++n.visits;
    n.wins2 += HalfPoints(winner, (i & 1) ? to_play : other);
  }
  // AMAF: the children of path_[i] are moves of the player to move there;
  // those first played by that player from path_[i] on (the tree moves
  // below it and the playout) share the result. Walking up, each tree
  // move overrides later plays of its point.
  for (int i = len - 1; i >= 0; --i) {
    const Color mover = (i & 1) ? other : to_play;
    if (i < len - 1 && path_moves_[i] != rules::kPass) {
      first_[path_moves_[i]] = mover;
    }
    const Node& n = tree_.node(path_[i]);
    if (!n.expanded()) continue;
    const uint32_t points = HalfPoints(winner, mover);
    const uint32_t end = n.first_child + n.num_children;
    for (uint32_t j = n.first_child; j < end; ++j) {
      Node& ch = tree_.node(j);
      if (ch.move != rules::kPass && first_[ch.move] == mover) {
        ++ch.rave_visits;
        ch.rave_wins2 += points;
      }
    }
  }
}

}  // namespace qipu::policy
