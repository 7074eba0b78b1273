// Openings over the shared fox-pro corpus against an independent count.
// The corpus is imported through the real importer and every position its
// games reach in the indexed plies is asked of the query engine; each
// answer is compared with a count made here from the SGF files directly,
// by this file's own code: its own SGF main-line reader, its own board
// (captures, suicide), its own symmetric folding and its own GTP names --
// no rules:: reader, board, hasher or coordinate code. A position is the
// board before move k with move k's colour to move (after the last move,
// the opponent of its colour), counted once per game. 19 of the corpus's
// games move one colour twice in a row (White twice after handicap
// stones, a free placement given as Black moves, later runs); their
// positions are asked with coloured moves and setup stones.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "engine/queries.h"
#include "gtest/gtest.h"
#include "tests/common/corpus_dir.h"
#include "tests/coordinator/corpus_test_util.h"

namespace qipu::coordinator {
namespace {

using test_util::TempDir;
using testing::CorpusDb;

// --- The test's own reading of an SGF file ---------------------------------

// A property of a node: identifier and values, escapes resolved.
struct Property {
  std::string id;
  std::vector<std::string> values;
};
using Node = std::vector<Property>;

// The nodes of the first game's main line: from the first '(' or ';' (Fox's
// historic records lack the '('), every node up to the first ')' -- the
// end of the first variation at every branch.
std::vector<Node> MainLine(absl::string_view t) {
  std::vector<Node> nodes;
  size_t i = t.find_first_of("(;");
  while (i != absl::string_view::npos && i < t.size()) {
    const char c = t[i];
    if (c == ')') break;
    if (c == ';') {
      nodes.emplace_back();
      ++i;
    } else if (std::isalpha(static_cast<unsigned char>(c))) {
      Property p;
      for (; i < t.size() && std::isalpha(static_cast<unsigned char>(t[i]));
           ++i) {
        if (std::isupper(static_cast<unsigned char>(t[i]))) p.id += t[i];
      }
      while (true) {
        while (i < t.size() && std::isspace(static_cast<unsigned char>(t[i])))
          ++i;
        if (i >= t.size() || t[i] != '[') break;
        std::string v;
        for (++i; i < t.size() && t[i] != ']'; ++i) {
          if (t[i] == '\\') ++i;
          if (i < t.size()) v += t[i];
        }
        ++i;
        p.values.push_back(std::move(v));
      }
      if (!nodes.empty()) nodes.back().push_back(std::move(p));
    } else {
      ++i;
    }
  }
  return nodes;
}

// A point as an index y * size + x, or kPassIndex.
constexpr int kPassIndex = -1;

// A move of a read game: 'B' or 'W', and its point.
struct PlainMove {
  char colour = 'B';
  int point = kPassIndex;
};

// Stones a node sets up before move `before_move`: 'B', 'W' or 'E' (empty)
// per point, and its PL ('B', 'W' or 0).
struct PlainSetup {
  int before_move = 0;
  std::vector<std::pair<char, int>> stones;
  char to_play = 0;
};

struct PlainGame {
  std::string file;
  int size = 19;
  int handicap = 0;
  std::vector<PlainSetup> setup;
  std::vector<PlainMove> moves;
};

// SGF point "pd" (or a compressed "aa:cc" list) as indices; off-board or
// malformed values give none.
std::vector<int> Points(const std::string& v, int size) {
  auto one = [size](absl::string_view s, int* x, int* y) {
    if (s.size() != 2) return false;
    *x = s[0] - 'a';
    *y = s[1] - 'a';
    return *x >= 0 && *x < size && *y >= 0 && *y < size;
  };
  std::vector<int> out;
  int x0, y0, x1, y1;
  const size_t colon = v.find(':');
  if (colon == std::string::npos) {
    if (one(v, &x0, &y0)) out.push_back(y0 * size + x0);
  } else if (one(absl::string_view(v).substr(0, colon), &x0, &y0) &&
             one(absl::string_view(v).substr(colon + 1), &x1, &y1)) {
    for (int y = std::min(y0, y1); y <= std::max(y0, y1); ++y) {
      for (int x = std::min(x0, x1); x <= std::max(x0, x1); ++x) {
        out.push_back(y * size + x);
      }
    }
  }
  return out;
}

PlainGame ReadPlainGame(const std::string& file) {
  PlainGame g;
  g.file = file;
  for (const Node& node : MainLine(test_util::ReadFileBytes(file))) {
    PlainSetup s;
    s.before_move = static_cast<int>(g.moves.size());
    for (const Property& p : node) {
      if (p.values.empty()) continue;
      const std::string& v = p.values[0];
      if (p.id == "SZ") g.size = std::atoi(v.c_str());
      if (p.id == "HA") g.handicap = std::atoi(v.c_str());
      if (p.id == "PL" && !v.empty()) {
        s.to_play =
            static_cast<char>(std::toupper(static_cast<unsigned char>(v[0])));
      }
      if (p.id == "AB" || p.id == "AW" || p.id == "AE") {
        for (const std::string& each : p.values) {
          for (int q : Points(each, g.size)) s.stones.emplace_back(p.id[1], q);
        }
      }
      if (p.id == "B" || p.id == "W") {
        PlainMove m{p.id[0], kPassIndex};
        if (!(v.empty() || (v == "tt" && g.size <= 19))) {
          const std::vector<int> q = Points(v, g.size);
          if (q.size() == 1) m.point = q[0];
        }
        g.moves.push_back(m);
      }
    }
    if (!s.stones.empty() || s.to_play != 0) g.setup.push_back(std::move(s));
  }
  return g;
}

// --- The test's own board ----------------------------------------------------

char Opposite(char colour) { return colour == 'B' ? 'W' : 'B'; }

// A square board of 'B', 'W' and '.' that captures chains without
// liberties (the opponent's first, then the mover's own: suicide).
class PlainBoard {
 public:
  explicit PlainBoard(int size)
      : size_(size), cells_(static_cast<size_t>(size * size), '.') {}

  void Set(int point, char colour) {
    cells_[static_cast<size_t>(point)] = colour == 'E' ? '.' : colour;
  }

  void Play(char colour, int point) {
    if (point == kPassIndex) return;
    Set(point, colour);
    for (int n : Neighbours(point)) {
      if (cells_[static_cast<size_t>(n)] == Opposite(colour)) RemoveIfDead(n);
    }
    RemoveIfDead(point);
  }

  // The smallest of the board's 8 images, 'X' black and 'O' white.
  std::string Fold() const {
    std::string best;
    for (int t = 0; t < 8; ++t) {
      std::string s(cells_.size(), '.');
      for (int y = 0; y < size_; ++y) {
        for (int x = 0; x < size_; ++x) {
          int tx = (t & 4) ? y : x;
          int ty = (t & 4) ? x : y;
          if (t & 1) tx = size_ - 1 - tx;
          if (t & 2) ty = size_ - 1 - ty;
          const char c = cells_[static_cast<size_t>(y * size_ + x)];
          s[static_cast<size_t>(ty * size_ + tx)] =
              c == 'B' ? 'X' : (c == 'W' ? 'O' : '.');
        }
      }
      if (best.empty() || s < best) best = std::move(s);
    }
    return best;
  }

 private:
  std::vector<int> Neighbours(int p) const {
    std::vector<int> out;
    const int x = p % size_, y = p / size_;
    if (x > 0) out.push_back(p - 1);
    if (x + 1 < size_) out.push_back(p + 1);
    if (y > 0) out.push_back(p - size_);
    if (y + 1 < size_) out.push_back(p + size_);
    return out;
  }

  void RemoveIfDead(int start) {
    const char colour = cells_[static_cast<size_t>(start)];
    std::vector<int> chain = {start};
    std::set<int> in_chain = {start};
    for (size_t i = 0; i < chain.size(); ++i) {
      for (int n : Neighbours(chain[i])) {
        const char c = cells_[static_cast<size_t>(n)];
        if (c == '.') return;  // a liberty
        if (c == colour && in_chain.insert(n).second) chain.push_back(n);
      }
    }
    for (int p : chain) cells_[static_cast<size_t>(p)] = '.';
  }

  int size_;
  std::vector<char> cells_;
};

// GTP names: columns A..T without I, rows from the bottom.
constexpr absl::string_view kColumns = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

std::string GtpName(int point, int size) {
  if (point == kPassIndex) return "pass";
  return absl::StrCat(kColumns.substr(static_cast<size_t>(point % size), 1),
                      size - point / size);
}

// The index of a GTP name, kPassIndex for "pass", or kNoPoint for a name
// that is not on the board.
constexpr int kNoPoint = -2;

int FromGtpName(const std::string& name, int size) {
  if (name == "pass") return kPassIndex;
  if (name.size() < 2) return kNoPoint;
  const size_t x = kColumns.find(name[0]);
  const int row = std::atoi(name.c_str() + 1);
  if (x == absl::string_view::npos || static_cast<int>(x) >= size || row < 1 ||
      row > size) {
    return kNoPoint;
  }
  return (size - row) * size + static_cast<int>(x);
}
// --- The independent count ---------------------------------------------------

// Counts of one position (folded board + side): games that reached it, and
// per continuation (the folded board after it, or "pass") the games that
// played it.
struct Tally {
  uint64_t reached = 0;
  std::map<std::string, uint64_t> next;
  friend bool operator==(const Tally&, const Tally&) = default;
};

std::ostream& operator<<(std::ostream& os, const Tally& t) {
  os << t.reached << " games:";
  for (const auto& [k, v] : t.next) {
    os << " " << (k == "pass" ? k : absl::StrCat("#", k.size())) << "=" << v;
  }
  return os;
}

// A query of a position a game reached: the game's setup stones, its
// first `ply` moves with their colours, and the side to move there.
struct Query {
  const PlainGame* game = nullptr;
  int ply = 0;
  char to_play = 'B';
  // The natural side there: the opponent of the previous move; before the
  // first, White after a handicap game's black stones, else Black.
  char natural = 'B';
};

// What CountAll() found.
struct Count {
  std::map<std::string, Tally> positions;
  // The first game (and its ply) that reached each position, when its setup
  // is all at the root and sets only stones (a query can state it).
  std::map<std::string, Query> queries;
  // Indexed positions whose side to move is not the natural one (the
  // opponent of the previous move; the setup's rules before the first):
  // how many times a game reached one, and which positions.
  int off_natural = 0;
  std::set<std::string> off_natural_positions;
};

// The position key of this file: folded board, '/', side to move.
std::string Here(const PlainBoard& b, char side) {
  return absl::StrCat(b.Fold(), "/", std::string(1, side));
}

Count CountAll(const std::vector<PlainGame>& games, int depth) {
  Count out;
  for (const PlainGame& g : games) {
    const int moves = static_cast<int>(g.moves.size());
    const int n = std::min(depth, moves);
    PlainBoard b(g.size);
    std::set<std::string> seen;
    size_t next_setup = 0;
    char natural = 'B';
    bool stateable = true;
    for (const PlainSetup& s : g.setup) {
      stateable &= s.before_move == 0 && s.to_play == 0;
      for (const auto& [colour, p] : s.stones) stateable &= colour != 'E';
    }
    for (int k = 0; k <= n; ++k) {
      for (;
           next_setup < g.setup.size() && g.setup[next_setup].before_move <= k;
           ++next_setup) {
        const PlainSetup& s = g.setup[next_setup];
        bool black = false, white = false;
        for (const auto& [colour, p] : s.stones) {
          b.Set(p, colour);
          black |= colour == 'B';
          white |= colour == 'W';
        }
        if (s.to_play != 0) {
          natural = s.to_play;
        } else if (next_setup == 0 && s.before_move == 0 && g.handicap >= 2 &&
                   black && !white) {
          natural = 'W';
        }
      }
      const char side = k < moves ? g.moves[k].colour : natural;
      const std::string here = Here(b, side);
      if (side != natural) {
        ++out.off_natural;
        out.off_natural_positions.insert(here);
      }
      const bool first = seen.insert(here).second;
      if (first) {
        ++out.positions[here].reached;
        if (stateable && out.queries.count(here) == 0) {
          out.queries[here] = Query{&g, k, side, natural};
        }
      }
      if (k == n) break;
      const PlainMove m = g.moves[k];
      b.Play(m.colour, m.point);
      natural = Opposite(m.colour);
      if (first) {
        ++out.positions[here].next[m.point == kPassIndex ? "pass" : b.Fold()];
      }
    }
  }
  return out;
}

// The board of a query (setup stones and moves played).
PlainBoard BoardOf(const Query& q) {
  PlainBoard b(q.game->size);
  for (const PlainSetup& s : q.game->setup) {
    for (const auto& [colour, p] : s.stones) b.Set(p, colour);
  }
  for (int k = 0; k < q.ply; ++k) {
    b.Play(q.game->moves[k].colour, q.game->moves[k].point);
  }
  return b;
}

// The request of a query in one of three forms: coloured moves and the side
// to move given; coloured moves and the side left to the engine (when it is
// the natural one after a move: no filter names a handicap here, so before
// the first move the engine would pick Black); uncoloured moves (when they
// alternate from Black, with no setup) and the side left to the engine
// (when natural) -- else given.
qipu::v1::OpeningsRequest RequestOf(const Query& q, int form) {
  const PlainGame& g = *q.game;
  qipu::v1::OpeningsRequest req;
  req.mutable_filter()->set_width(static_cast<uint32_t>(g.size));
  req.mutable_filter()->set_height(static_cast<uint32_t>(g.size));
  for (const PlainSetup& s : g.setup) {
    for (const auto& [colour, p] : s.stones) {
      req.add_setup(
          absl::StrCat(std::string(1, colour), ":", GtpName(p, g.size)));
    }
  }
  bool alternates = g.setup.empty();
  for (int k = 0; k < q.ply; ++k) {
    alternates &= g.moves[k].colour == (k % 2 == 0 ? 'B' : 'W');
  }
  const bool uncoloured = form == 2 && alternates;
  for (int k = 0; k < q.ply; ++k) {
    const PlainMove& m = g.moves[k];
    req.add_moves(uncoloured ? GtpName(m.point, g.size)
                             : absl::StrCat(std::string(1, m.colour), ":",
                                            GtpName(m.point, g.size)));
  }
  const bool natural =
      form != 0 && q.to_play == q.natural && (q.ply > 0 || g.setup.empty());
  if (!natural) {
    req.set_to_play(q.to_play == 'W' ? qipu::v1::COLOR_WHITE
                                     : qipu::v1::COLOR_BLACK);
  }
  req.set_examples(1);
  return req;
}

// The engine's answer as a Tally: each continuation played on the query's
// board by the side to move, and folded.
Tally AnswerOf(const Query& q, const qipu::v1::OpeningsResponse& r) {
  Tally t;
  t.reached = r.reached().games();
  for (const qipu::v1::Continuation& c : r.continuations()) {
    std::string key = "pass";
    const int p = FromGtpName(c.move(), q.game->size);
    if (p == kNoPoint) {
      key = "not a point: " + c.move();
    } else if (p != kPassIndex) {
      PlainBoard b = BoardOf(q);
      b.Play(q.to_play, p);
      key = b.Fold();
    }
    EXPECT_EQ(t.next.count(key), 0u) << "two continuations fold: " << c.move();
    t.next[key] = c.outcomes().games();
  }
  return t;
}

std::string Describe(const qipu::v1::OpeningsRequest& req) {
  return absl::StrCat("setup [", absl::StrJoin(req.setup(), " "), "] moves [",
                      absl::StrJoin(req.moves(), " "), "] to_play ",
                      static_cast<int>(req.to_play()));
}

TEST(OpeningsCorpus, FoxProCountsMatchAnIndependentCountWithRealColours) {
  const std::string dir = test_util::SharedCorpusDir("fox-pro");
  if (dir.empty()) {
    GTEST_SKIP() << "the fox-pro corpus is absent (neither " << QIPU_SOURCE_DIR
                 << "/../shared/corpora/fox-pro nor /work/shared/corpora/"
                    "fox-pro)";
  }
  TempDir tmp;
  CorpusDb db(tmp.Sub("db"));
  const engine::ImportSettings settings;
  const engine::ImportSummary summary = db.Import({dir}, settings);
  ASSERT_EQ(summary.games, 679u);
  std::set<std::string> rejected;
  for (const auto& e : summary.errors) rejected.insert(e.file());

  // The games import stored: every file but the rejected ones, one per
  // distinct (size, setup, coloured main line) -- what the importer's
  // content hash identifies.
  std::vector<PlainGame> games;
  std::set<std::string> lines;
  for (const std::string& f : test_util::SgfFilesUnder(dir)) {
    if (rejected.count(f) != 0) continue;
    PlainGame g = ReadPlainGame(f);
    std::string line = absl::StrCat(g.size);
    for (const PlainSetup& s : g.setup) {
      absl::StrAppend(&line, "|", s.before_move);
      for (const auto& [colour, p] : s.stones) {
        absl::StrAppend(&line, std::string(1, colour), p, ",");
      }
    }
    for (const PlainMove& m : g.moves) {
      absl::StrAppend(&line, ";", std::string(1, m.colour), m.point);
    }
    if (lines.insert(line).second) games.push_back(std::move(g));
  }
  ASSERT_EQ(games.size(), summary.imported);
  // Games with a same-colour run: 19, one of them only after the indexed
  // plies.
  int with_run = 0, run_indexed = 0;
  for (const PlainGame& g : games) {
    for (size_t k = 1; k < g.moves.size(); ++k) {
      if (g.moves[k].colour != g.moves[k - 1].colour) continue;
      ++with_run;
      if (k < static_cast<size_t>(settings.index_depth)) ++run_indexed;
      break;
    }
  }
  EXPECT_EQ(with_run, 19);
  EXPECT_EQ(run_indexed, 18);

  const Count count = CountAll(games, settings.index_depth);
  // 20 times a game reached a position whose mover had just moved (a free
  // placement of 4 black stones counts 3): 7 positions, some of them also
  // reached, folded, by even games whose colours alternate (handicap
  // stones and White's two moves make the board of B, W, B).
  EXPECT_EQ(count.off_natural, 20);
  EXPECT_EQ(count.off_natural_positions.size(), 7u);
  EXPECT_GT(count.positions.size(), 30000u);
  // The queries: every position one of the games reached (all the
  // corpus's setups are root stones), in turn in the three forms.
  EXPECT_EQ(count.queries.size(), count.positions.size());

  engine::QueryEngine engine(&db.store(), &db.configs());
  int form = 0;
  uint64_t games_summed = 0, continuations = 0, off_natural_games = 0;
  for (const auto& [here, q] : count.queries) {
    const qipu::v1::OpeningsRequest req = RequestOf(q, form++ % 3);
    auto r = engine.Openings(req);
    ASSERT_TRUE(r.ok()) << Describe(req) << ": " << r.status();
    EXPECT_EQ(r->to_play(),
              q.to_play == 'W' ? qipu::v1::COLOR_WHITE : qipu::v1::COLOR_BLACK)
        << Describe(req);
    const Tally& want = count.positions.at(here);
    const Tally got = AnswerOf(q, *r);
    EXPECT_EQ(got, want) << Describe(req) << " (" << q.game->file << ")";
    if (got != want) break;
    games_summed += got.reached;
    continuations += got.next.size();
    if (count.off_natural_positions.count(here) != 0) {
      off_natural_games += got.reached;
    }
  }
  // Not vacuous: the positions of the runs were asked, the popular
  // opening is there.
  EXPECT_GE(off_natural_games, 20u);
  EXPECT_GT(continuations, count.positions.size());
  PlainBoard q16(19);
  q16.Play('B', FromGtpName("Q16", 19));
  EXPECT_GT(count.positions.at(Here(q16, 'W')).reached, 250u);
  std::cout << "[ counted  ] " << games.size() << " games, "
            << count.positions.size() << " positions, " << continuations
            << " continuations, " << games_summed << " games summed, "
            << count.off_natural_positions.size()
            << " positions off the natural side (reached by "
            << off_natural_games << " games)\n";
}

}  // namespace
}  // namespace qipu::coordinator
