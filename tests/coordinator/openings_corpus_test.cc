// Openings over the shared fox-pro corpus against an independent count:
// the corpus is imported through the real importer, and each queried
// position is counted again from the SGF files (main lines read with the
// rules' SGF reader, played on a plain rules::Board) with this file's own
// symmetric folding and its own reading of the side to move -- the colour
// of the move the record plays next. 19 of the corpus's games move one
// colour twice in a row (White twice after handicap stones, a free
// placement given as Black moves); the positions of those runs are queried
// with coloured moves and setup stones.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "coordinator/queries.h"
#include "gtest/gtest.h"
#include "rules/board.h"
#include "rules/coord.h"
#include "rules/record.h"
#include "rules/sgf_reader.h"
#include "tests/common/corpus_dir.h"
#include "tests/coordinator/corpus_test_util.h"

namespace qipu::coordinator {
namespace {

using rules::Color;
using test_util::TempDir;
using testing::CorpusDb;

// The board under its 8 symmetries as text ('X' black, 'O' white), the
// smallest image. Square boards only (the corpus is 19x19).
std::string Fold(const rules::Board& b) {
  const int n = b.width();
  std::string best;
  for (int t = 0; t < 8; ++t) {
    std::string s(static_cast<size_t>(n * n), '.');
    for (int y = 0; y < n; ++y) {
      for (int x = 0; x < n; ++x) {
        int tx = (t & 4) ? y : x;
        int ty = (t & 4) ? x : y;
        if (t & 1) tx = n - 1 - tx;
        if (t & 2) ty = n - 1 - ty;
        const Color c = b.at(rules::MakePoint(x, y));
        s[static_cast<size_t>(ty * n + tx)] = c == Color::kBlack   ? 'X'
                                              : c == Color::kWhite ? 'O'
                                                                   : '.';
      }
    }
    if (best.empty() || s < best) best = s;
  }
  return best;
}

std::string Side(Color c) { return c == Color::kWhite ? "/W" : "/B"; }

// A game as this test counts it.
struct CountedGame {
  rules::GameRecord record;
  std::string file;
};

// Counts of one position: games that reached it, and per continuation
// (the folded board after the move, or "pass") the games that played it.
struct Tally {
  uint64_t reached = 0;
  std::map<std::string, uint64_t> next;
  friend bool operator==(const Tally&, const Tally&) = default;
};

std::ostream& operator<<(std::ostream& os, const Tally& t) {
  os << t.reached << " games:";
  for (const auto& [k, v] : t.next) os << " " << k.substr(0, 8) << "..=" << v;
  return os;
}

// The independent count of every position over `games`, the first
// `depth` plies of each, keyed by folded board + side: a position is the
// board before move k with move k's colour to move, or after the last
// move the opponent of its colour; each counts once per game.
std::map<std::string, Tally> CountAll(const std::vector<CountedGame>& games,
                                      int depth) {
  std::map<std::string, Tally> all;
  for (const CountedGame& g : games) {
    const rules::GameRecord& r = g.record;
    const int moves = static_cast<int>(r.moves.size());
    const int n = std::min(depth, moves);
    rules::Board b(r.width, r.height);
    std::set<std::string> seen;
    size_t next_setup = 0;
    for (int k = 0; k <= n; ++k) {
      for (;
           next_setup < r.setup.size() && r.setup[next_setup].before_move <= k;
           ++next_setup) {
        const rules::SetupStep& s = r.setup[next_setup];
        for (rules::Point p : s.empty) b.SetStone(p, Color::kEmpty);
        for (rules::Point p : s.black) b.SetStone(p, Color::kBlack);
        for (rules::Point p : s.white) b.SetStone(p, Color::kWhite);
      }
      const Color side =
          k < moves ? r.moves[k].color : rules::Opponent(r.moves[k - 1].color);
      const std::string here = Fold(b) + Side(side);
      const bool first = seen.insert(here).second;
      if (first) ++all[here].reached;
      if (k == n) break;
      const rules::Move m = r.moves[k];
      if (m.point == rules::kPass) {
        b.Pass();
      } else {
        b.Play(m.point, m.color);
      }
      if (first) ++all[here].next[m.point == rules::kPass ? "pass" : Fold(b)];
    }
  }
  return all;
}

// A query as this test replays it: setup stones and coloured moves.
struct Query {
  std::vector<std::pair<Color, rules::Point>> setup;
  std::vector<std::pair<Color, rules::Point>> moves;
  Color to_play = Color::kBlack;
  // Also filter on handicap 2 (the natural side then is White's).
  bool handicap2 = false;
  // Leave to_play unspecified (the engine's natural side must be to_play).
  bool natural = false;
  // Uncoloured moves (they must alternate from the natural first side).
  bool uncoloured = false;
  // The position before a run's repeated move: its own game reaches it.
  bool run = false;
};

std::string Letter(Color c) { return c == Color::kWhite ? "W" : "B"; }

qipu::v1::OpeningsRequest RequestOf(const Query& q) {
  qipu::v1::OpeningsRequest req;
  req.mutable_filter()->set_width(19);
  req.mutable_filter()->set_height(19);
  if (q.handicap2) {
    req.mutable_filter()->set_has_handicap(true);
    req.mutable_filter()->set_handicap(2);
  }
  for (const auto& [c, p] : q.setup) {
    req.add_setup(absl::StrCat(Letter(c), ":", rules::GtpPoint(p, 19)));
  }
  for (const auto& [c, p] : q.moves) {
    req.add_moves(q.uncoloured
                      ? rules::GtpPoint(p, 19)
                      : absl::StrCat(Letter(c), ":", rules::GtpPoint(p, 19)));
  }
  if (!q.natural) {
    req.set_to_play(q.to_play == Color::kWhite ? qipu::v1::COLOR_WHITE
                                               : qipu::v1::COLOR_BLACK);
  }
  req.set_examples(1);
  return req;
}

// The board after the query's setup and moves.
rules::Board BoardOf(const Query& q) {
  rules::Board b(19, 19);
  for (const auto& [c, p] : q.setup) b.SetStone(p, c);
  for (const auto& [c, p] : q.moves) {
    if (p == rules::kPass) {
      b.Pass();
    } else {
      b.Play(p, c);
    }
  }
  return b;
}

// The engine's answer as a Tally: each continuation played on the query's
// board by the side to move and folded.
Tally AnswerOf(const Query& q, const qipu::v1::OpeningsResponse& r) {
  Tally t;
  t.reached = r.reached().games();
  for (const auto& c : r.continuations()) {
    const rules::Point p = *rules::ParseGtpPoint(c.move(), 19, 19);
    rules::Board b = BoardOf(q);
    std::string key = "pass";
    if (p != rules::kPass) {
      b.Play(p, q.to_play);
      key = Fold(b);
    }
    EXPECT_EQ(t.next.count(key), 0u) << "two continuations fold: " << c.move();
    t.next[key] = c.outcomes().games();
  }
  return t;
}

std::string Describe(const Query& q) {
  std::vector<std::string> parts;
  for (const auto& [c, p] : q.setup) {
    parts.push_back(
        absl::StrCat("setup ", Letter(c), ":", rules::GtpPoint(p, 19)));
  }
  for (const auto& [c, p] : q.moves) {
    parts.push_back(absl::StrCat(Letter(c), ":", rules::GtpPoint(p, 19)));
  }
  parts.push_back(absl::StrCat(Letter(q.to_play), " to move"));
  return absl::StrJoin(parts, " ");
}

Query Moves(std::vector<std::pair<Color, const char*>> moves, Color to_play) {
  Query q;
  for (const auto& [c, m] : moves) {
    q.moves.emplace_back(c, *rules::ParseGtpPoint(m, 19, 19));
  }
  q.to_play = to_play;
  return q;
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
  const ImportSettings settings;
  const ImportSummary summary = db.Import({dir}, settings);
  ASSERT_EQ(summary.games, 679u);
  std::set<std::string> rejected;
  for (const auto& e : summary.errors) rejected.insert(e.file());

  // The games import stored: every file but the rejected ones, one per
  // distinct (setup, coloured main line).
  std::vector<CountedGame> games;
  std::set<std::string> lines;
  std::vector<const CountedGame*> runs;
  for (const std::string& f : test_util::SgfFilesUnder(dir)) {
    rules::SgfCollection c = rules::ReadSgf(test_util::ReadFileBytes(f));
    ASSERT_EQ(c.games.size(), 1u) << f;
    if (rejected.count(f) != 0) continue;
    const rules::GameRecord& r = c.games[0];
    std::string line = absl::StrCat(r.width, "x", r.height);
    for (const rules::SetupStep& s : r.setup) {
      absl::StrAppend(
          &line, "|", s.before_move, "B", absl::StrJoin(s.black, ","), "W",
          absl::StrJoin(s.white, ","), "E", absl::StrJoin(s.empty, ","));
    }
    for (const rules::Move& m : r.moves) {
      absl::StrAppend(&line, ";", Letter(m.color), m.point);
    }
    if (!lines.insert(line).second) continue;
    games.push_back({r, f});
  }
  ASSERT_EQ(games.size(), summary.imported);
  // Games with a same-colour run: 19, one of them (1530635618010001444)
  // only after the indexed plies.
  int with_run = 0;
  for (const CountedGame& g : games) {
    const std::vector<rules::Move>& m = g.record.moves;
    for (size_t k = 1; k < m.size(); ++k) {
      if (m[k].color != m[k - 1].color) continue;
      ++with_run;
      if (k < static_cast<size_t>(settings.index_depth)) runs.push_back(&g);
      break;
    }
  }
  EXPECT_EQ(with_run, 19);
  EXPECT_EQ(runs.size(), 18u);

  std::vector<Query> queries;
  const Color B = Color::kBlack, W = Color::kWhite;
  Query empty;
  empty.natural = true;
  queries.push_back(empty);
  queries.push_back(Moves({{B, "Q16"}}, W));
  queries.push_back(Moves({{B, "Q16"}}, B));
  queries.push_back(Moves({{B, "R16"}}, W));
  queries.push_back(Moves({{B, "Q16"}, {W, "D4"}}, B));
  queries.push_back(Moves({{B, "Q16"}, {W, "D16"}}, B));
  queries.push_back(Moves({{B, "Q16"}, {W, "D4"}, {B, "Q3"}}, W));
  // Each run: the position before the repeated move with its colour to
  // move, the same moves with the other side to move, and the position
  // after the run; and each game's start (its setup, natural side with a
  // handicap filter when it has handicap stones).
  for (const CountedGame* g : runs) {
    const rules::GameRecord& r = g->record;
    Query start;
    for (const rules::SetupStep& s : r.setup) {
      ASSERT_EQ(s.before_move, 0) << g->file;
      for (rules::Point p : s.black) start.setup.emplace_back(B, p);
      for (rules::Point p : s.white) start.setup.emplace_back(W, p);
    }
    start.natural = true;
    start.handicap2 = r.handicap == 2;
    start.to_play = start.handicap2 ? W : B;
    queries.push_back(start);
    Query q = start;
    q.natural = false;
    q.handicap2 = false;
    size_t k = 0;
    for (; k < r.moves.size(); ++k) {
      if (k > 0 && r.moves[k].color == r.moves[k - 1].color) break;
      q.moves.emplace_back(r.moves[k].color, r.moves[k].point);
    }
    ASSERT_LT(k + 1, r.moves.size()) << g->file;
    q.to_play = r.moves[k].color;
    q.run = true;
    queries.push_back(q);
    q.run = false;
    q.to_play = rules::Opponent(q.to_play);
    queries.push_back(q);
    q.moves.emplace_back(r.moves[k].color, r.moves[k].point);
    q.to_play = r.moves[k + 1].color;
    queries.push_back(q);
  }
  // The uncoloured form of a few alternating queries.
  Query plain = Moves({{B, "Q16"}, {W, "D4"}}, B);
  plain.uncoloured = plain.natural = true;
  queries.push_back(plain);

  const std::map<std::string, Tally> counted =
      CountAll(games, settings.index_depth);
  QueryEngine engine(&db.store(), &db.configs());
  for (const Query& q : queries) {
    SCOPED_TRACE(Describe(q));
    auto r = engine.Openings(RequestOf(q));
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->to_play(),
              q.to_play == W ? qipu::v1::COLOR_WHITE : qipu::v1::COLOR_BLACK);
    const auto it = counted.find(Fold(BoardOf(q)) + Side(q.to_play));
    const Tally want = it == counted.end() ? Tally() : it->second;
    EXPECT_EQ(AnswerOf(q, *r), want);
    if (q.run) EXPECT_GE(want.reached, 1u);
  }
  // Not vacuous: the popular first move is there.
  EXPECT_GT(counted.at(Fold(BoardOf(Moves({{B, "Q16"}}, W))) + Side(W)).reached,
            250u);
}

}  // namespace
}  // namespace qipu::coordinator
