// Openings queries against a real Coordinator's database: symmetric
// folding, the caller's orientation, side to move, records that move one
// colour twice (coloured moves, setup stones), counts recomputed
// independently from the stored games, example ids and bad requests.
#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/queries.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/convert.h"
#include "rules/board.h"
#include "rules/coord.h"
#include "rules/sgf_reader.h"
#include "tests/coordinator/query_fixture.h"

namespace qipu::coordinator {
namespace {

using testing::Counts;
using ::testing::HasSubstr;
using testing::Import;
using testing::PlayJob;
using testing::RecordOf;
using testing::StartCoordinator;
using testing::StoredGame;
using testing::StoredGames;
using testing::TempDir;
using ::testing::UnorderedElementsAre;

// The test's own symmetry folding: the smallest of the 8 (4) images of the
// board as text, plus the side to move.
std::string Signature(const rules::Board& b, rules::Color to_play) {
  const int w = b.width();
  const int h = b.height();
  std::string best;
  for (int t = 0; t < (w == h ? 8 : 4); ++t) {
    std::string s(static_cast<size_t>(w * h), '.');
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        int tx = x, ty = y;
        if (t & 4) std::swap(tx, ty);
        if (t & 1) tx = w - 1 - tx;
        if (t & 2) ty = h - 1 - ty;
        const rules::Color c = b.at(rules::MakePoint(x, y));
        s[ty * w + tx] = c == rules::Color::kBlack   ? 'X'
                         : c == rules::Color::kWhite ? 'O'
                                                     : '.';
      }
    }
    if (best.empty() || s < best) best = s;
  }
  return best + (to_play == rules::Color::kWhite ? "/w" : "/b");
}

// Plays GTP moves alternately from Black on a fresh board.
std::string SignatureAfter(int size, const std::vector<std::string>& moves) {
  rules::Board b(size, size);
  rules::Color c = rules::Color::kBlack;
  for (const std::string& m : moves) {
    const rules::Point p = *rules::ParseGtpPoint(m, size, size);
    if (p == rules::kPass) {
      b.Pass();
    } else {
      b.Play(p, c);
    }
    c = rules::Opponent(c);
  }
  return Signature(b, c);
}

std::vector<std::string> Split(const std::string& moves) {
  return absl::StrSplit(moves, ' ', absl::SkipEmpty());
}

// What the index should say about a position, recomputed from the games:
// games reaching it within their first `depth` plies (first occurrence
// only), and per resulting position the games that continued from there.
struct Expected {
  Counts reached;
  std::map<std::string, Counts> next;
};

Expected Recount(const std::vector<StoredGame>& games,
                 const std::string& target, int depth) {
  Expected e;
  for (const StoredGame& g : games) {
    auto record = wire::GameToRecord(g.game);
    EXPECT_TRUE(record.ok()) << record.status();
    const int n = std::min<int>(depth, static_cast<int>(record->moves.size()));
    rules::Board b(record->width, record->height);
    rules::Color to_play = rules::Color::kBlack;
    std::vector<std::string> seen;
    for (int k = 0; k <= n; ++k) {
      const std::string sig = Signature(b, to_play);
      const bool first = std::find(seen.begin(), seen.end(), sig) == seen.end();
      seen.push_back(sig);
      if (k == n) {
        if (first && sig == target) e.reached.Add(g.game.result().winner());
        break;
      }
      const rules::Move m = record->moves[k];
      if (m.point == rules::kPass) {
        b.Pass();
      } else {
        b.Play(m.point, m.color);
      }
      to_play = rules::Opponent(m.color);
      if (first && sig == target) {
        e.reached.Add(g.game.result().winner());
        e.next[Signature(b, to_play)].Add(g.game.result().winner());
      }
    }
  }
  return e;
}

// The engine's answer keyed like Expected.
Expected Answer(const qipu::v1::OpeningsResponse& r, int size,
                const std::vector<std::string>& moves) {
  Expected e;
  e.reached = Counts::Of(r.reached());
  for (const auto& c : r.continuations()) {
    std::vector<std::string> after = moves;
    after.push_back(c.move());
    const std::string sig = SignatureAfter(size, after);
    EXPECT_EQ(e.next.count(sig), 0u)
        << "two continuations reach one position: " << c.move();
    e.next[sig] = Counts::Of(c.outcomes());
  }
  return e;
}

qipu::v1::OpeningsRequest Request(int size, const std::string& moves,
                                  uint32_t examples = 0) {
  qipu::v1::OpeningsRequest req;
  req.mutable_filter()->set_width(static_cast<uint32_t>(size));
  req.mutable_filter()->set_height(static_cast<uint32_t>(size));
  for (const std::string& m : Split(moves)) req.add_moves(m);
  req.set_examples(examples);
  return req;
}

// The continuation named `move`, or nullptr.
const qipu::v1::Continuation* Find(const qipu::v1::OpeningsResponse& r,
                                   const std::string& move) {
  for (const auto& c : r.continuations()) {
    if (c.move() == move) return &c;
  }
  return nullptr;
}

// Point reflection through the centre of a size x size board.
std::string Rotate180(const std::string& move, int size) {
  const rules::Point p = *rules::ParseGtpPoint(move, size, size);
  if (p == rules::kPass) return "pass";
  return rules::GtpPoint(rules::MakePoint(size - 1 - rules::PointX(p),
                                          size - 1 - rules::PointY(p)),
                         size);
}

TEST(Openings, MirroredMoveOrdersFoldTogether) {
  TempDir dir;
  auto c = StartCoordinator(dir.path());
  ASSERT_NE(c, nullptr);
  // g1 and g2 reach {B C3 C7, W G7} by different move orders; g3 reaches
  // its 180-degree image and continues with the image of g1's move.
  const store::GameId g1 = Import(*c, RecordOf(9, "C3 G7 C7 D5", "B+R"));
  const store::GameId g2 = Import(*c, RecordOf(9, "C7 G7 C3 E4", "W+R"));
  const store::GameId g3 = Import(*c, RecordOf(9, "G7 C3 G3 F5", "B+3.5"));

  auto r = c->queries().Openings(Request(9, "C3 G7 C7"));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Counts::Of(r->reached()), (Counts{3, 2, 1, 0, 0}));
  ASSERT_EQ(r->continuations_size(), 2);
  EXPECT_EQ(r->continuations(0).move(), "D5");
  EXPECT_EQ(Counts::Of(r->continuations(0).outcomes()),
            (Counts{2, 2, 0, 0, 0}));
  EXPECT_THAT(
      r->continuations(0).example_game_ids(),
      UnorderedElementsAre(store::GameIdText(g1), store::GameIdText(g3)));
  EXPECT_EQ(r->continuations(1).move(), "E4");
  EXPECT_EQ(Counts::Of(r->continuations(1).outcomes()),
            (Counts{1, 0, 1, 0, 0}));
  EXPECT_THAT(r->continuations(1).example_game_ids(),
              UnorderedElementsAre(store::GameIdText(g2)));

  // The mirrored question gets the mirrored answer, in its own orientation.
  auto m = c->queries().Openings(Request(9, "G7 C3 G3"));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->position_key(), r->position_key());
  EXPECT_EQ(Counts::Of(m->reached()), (Counts{3, 2, 1, 0, 0}));
  ASSERT_EQ(m->continuations_size(), 2);
  EXPECT_EQ(m->continuations(0).move(), "F5");
  EXPECT_EQ(m->continuations(1).move(), "E6");

  // A transposed orientation (C3 <-> C7 by reflecting rows, G7 -> G3).
  auto t = c->queries().Openings(Request(9, "C7 G3 C3"));
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->reached().games(), 3u);
  ASSERT_EQ(t->continuations_size(), 2);
  EXPECT_EQ(t->continuations(0).move(), "D5");  // row 5 maps to itself
  EXPECT_EQ(t->continuations(1).move(), "E6");
}

TEST(Openings, SideToMoveIsPartOfTheKey) {
  TempDir dir;
  auto c = StartCoordinator(dir.path());
  ASSERT_NE(c, nullptr);
  Import(*c, RecordOf(9, "C3 G7 E5", "B+R"));
  Import(*c, RecordOf(9, "G7 C3 E5", "W+R"));
  // The same stones, White to move.
  Import(*c, RecordOf(9, "pass G7 C3 D4", "W+R"));

  auto black = c->queries().Openings(Request(9, "C3 G7"));
  ASSERT_TRUE(black.ok()) << black.status();
  EXPECT_EQ(Counts::Of(black->reached()), (Counts{2, 1, 1, 0, 0}));
  ASSERT_EQ(black->continuations_size(), 1);
  EXPECT_EQ(black->continuations(0).move(), "E5");

  auto white = c->queries().Openings(Request(9, "pass G7 C3"));
  ASSERT_TRUE(white.ok()) << white.status();
  EXPECT_NE(white->position_key(), black->position_key());
  EXPECT_EQ(Counts::Of(white->reached()), (Counts{1, 0, 1, 0, 0}));
  ASSERT_EQ(white->continuations_size(), 1);
  EXPECT_EQ(white->continuations(0).move(), "D4");

  auto empty = c->queries().Openings(Request(9, ""));
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->reached().games(), 3u);
  const auto* pass = Find(*empty, "pass");
  ASSERT_NE(pass, nullptr);
  EXPECT_EQ(pass->outcomes().games(), 1u);
  // C3 and G7 are one corner point: one continuation of both games.
  ASSERT_EQ(empty->continuations_size(), 2);
  EXPECT_EQ(empty->continuations(0).outcomes().games(), 2u);
  EXPECT_EQ(empty->continuations(1).move(), "pass");
}

TEST(Openings, SelfPlayCountsMatchTheGamesInEveryOrientation) {
  TempDir dir;
  auto c = StartCoordinator(dir.path());
  ASSERT_NE(c, nullptr);
  constexpr int kDepth = 6;
  PlayJob(*c, testing::JobConfigFor(9, "chinese", kDepth, 11), 3000);
  const std::vector<StoredGame> games = StoredGames(c->store());
  ASSERT_EQ(games.size(), 3000u);

  std::vector<std::string> queries = {"", "C3", "G7", "E5", "C3 E5", "D4 F6"};
  // Openings that certainly occur: the first plies of some stored games,
  // as played and rotated by 180 degrees.
  for (size_t i = 0; i < 4; ++i) {
    const rules::GameRecord r = *wire::GameToRecord(games[i * 97].game);
    std::string played, rotated;
    for (int k = 0; k < 3 && k < static_cast<int>(r.moves.size()); ++k) {
      const std::string m = rules::GtpPoint(r.moves[k].point, 9);
      absl::StrAppend(&played, k ? " " : "", m);
      absl::StrAppend(&rotated, k ? " " : "", Rotate180(m, 9));
    }
    queries.push_back(played);
    queries.push_back(rotated);
  }
  for (const std::string& moves : queries) {
    SCOPED_TRACE(moves);
    const std::vector<std::string> list = Split(moves);
    auto r = c->queries().Openings(Request(9, moves));
    ASSERT_TRUE(r.ok()) << r.status();
    const Expected want = Recount(games, SignatureAfter(9, list), kDepth);
    const Expected got = Answer(*r, 9, list);
    EXPECT_EQ(got.reached, want.reached);
    EXPECT_EQ(got.next, want.next);
    if (moves != "C3 E5" && moves != "D4 F6") {
      EXPECT_GT(got.reached.games, 0u);
    }
    for (int i = 1; i < r->continuations_size(); ++i) {
      EXPECT_GE(r->continuations(i - 1).outcomes().games(),
                r->continuations(i).outcomes().games());
    }
  }

  // After C3 and after G7 (its 180-degree image): the same counts, each
  // move the image of the other's -- up to the position's own symmetry
  // (reflection in the C3-G7 diagonal), under which moves fold together.
  auto c3 = c->queries().Openings(Request(9, "C3"));
  auto g7 = c->queries().Openings(Request(9, "G7"));
  ASSERT_TRUE(c3.ok() && g7.ok());
  ASSERT_EQ(c3->continuations_size(), g7->continuations_size());
  EXPECT_GT(c3->continuations_size(), 10);
  auto diagonal = [](const std::string& move) {
    const rules::Point p = *rules::ParseGtpPoint(move, 9, 9);
    if (p == rules::kPass) return move;
    return rules::GtpPoint(
        rules::MakePoint(8 - rules::PointY(p), 8 - rules::PointX(p)), 9);
  };
  for (const auto& cont : c3->continuations()) {
    SCOPED_TRACE(cont.move());
    const auto* image = Find(*g7, Rotate180(cont.move(), 9));
    if (image == nullptr)
      image = Find(*g7, Rotate180(diagonal(cont.move()), 9));
    ASSERT_NE(image, nullptr);
    EXPECT_EQ(Counts::Of(image->outcomes()), Counts::Of(cont.outcomes()));
    if (diagonal(cont.move()) == cont.move()) {
      EXPECT_EQ(image->move(), Rotate180(cont.move(), 9));
    }
  }
}

// The records of SGF text (one game each), as import reads them.
rules::GameRecord Sgf(const std::string& text) {
  rules::SgfCollection c = rules::ReadSgf(text);
  EXPECT_EQ(c.games.size(), 1u) << text;
  EXPECT_TRUE(c.errors.empty()) << text;
  return c.games.empty() ? rules::GameRecord() : c.games[0];
}

// The GTP name of SGF point `sgf` ("qd" -> R16) on 19x19.
std::string Gtp(const char* sgf) {
  return rules::GtpPoint(rules::MakePoint(sgf[0] - 'a', sgf[1] - 'a'), 19);
}

qipu::v1::OpeningsRequest Coloured(
    const std::string& moves,
    qipu::v1::Color to_play = qipu::v1::COLOR_UNSPECIFIED,
    const std::string& setup = "") {
  qipu::v1::OpeningsRequest req = Request(19, moves);
  for (const std::string& s : Split(setup)) req.add_setup(s);
  req.set_to_play(to_play);
  return req;
}

// Continuation name -> counts.
std::map<std::string, Counts> Continuations(
    const qipu::v1::OpeningsResponse& r) {
  std::map<std::string, Counts> m;
  for (const auto& c : r.continuations())
    m[c.move()] = Counts::Of(c.outcomes());
  return m;
}

// Records that move one colour twice in a row -- free-placement handicaps
// given as moves (HA[0], B, B, W...), handicap games whose White moves
// twice -- next to alternating ones and one with an explicit pass: every
// continuation is counted under the colour that really played it, and the
// alternating query for the same points does not count the runs. R16 has
// no symmetry of its own, so each continuation has one name.
TEST(Openings, SameColourRunsAreCountedUnderTheirRealColour) {
  TempDir dir;
  auto c = StartCoordinator(dir.path());
  ASSERT_NE(c, nullptr);
  const std::string head = "(;GM[1]FF[4]SZ[19]";
  for (const char* game : {
           // Free placement as moves: B R16, B D17, then White.
           "HA[0]KM[0]RE[B+R];B[qd];B[dc];W[cp];B[ep])",
           "HA[0]KM[0]RE[W+R];B[qd];B[dc];W[qp];B[oq])",
           "HA[0]KM[0]RE[W+2.5];B[qd];B[dp];W[dd])",
           // Alternating: White answers R16 at D17 and D4.
           "KM[7.5]RE[B+R];B[qd];W[dc];B[cp];W[ep])",
           "KM[7.5]RE[W+R];B[qd];W[dp];B[dd];W[qp])",
           // An explicit pass: White passes, Black plays D17.
           "KM[7.5]RE[B+R];B[qd];W[];B[dc];W[cp])",
           // Handicap stones, then White twice, or alternating.
           "HA[2]KM[0.5]RE[W+R]AB[qd][dp];W[qp];W[dd];B[fc])",
           "HA[2]KM[0.5]RE[B+R]AB[qd][dp];W[qp];B[oq];W[dd])",
       }) {
    Import(*c, Sgf(head + game));
  }
  engine::QueryEngine& q = c->queries();
  const qipu::v1::Color kB = qipu::v1::COLOR_BLACK, kW = qipu::v1::COLOR_WHITE;

  // White's answers to R16: the two alternating games and the pass; the
  // free-placement games, where Black moved again, are not among them.
  auto white = q.Openings(Coloured("R16"));
  ASSERT_TRUE(white.ok()) << white.status();
  EXPECT_EQ(white->to_play(), kW);
  EXPECT_EQ(Counts::Of(white->reached()), (Counts{3, 2, 1, 0, 0}));
  EXPECT_EQ(Continuations(*white),
            (std::map<std::string, Counts>{{"D17", {1, 1, 0, 0, 0}},
                                           {"D4", {1, 0, 1, 0, 0}},
                                           {"pass", {1, 1, 0, 0, 0}}}));
  auto coloured = q.Openings(Coloured("B:R16"));
  ASSERT_TRUE(coloured.ok()) << coloured.status();
  EXPECT_EQ(coloured->position_key(), white->position_key());

  // Black's second moves after R16: the three free placements and the
  // game where White passed.
  auto black = q.Openings(Coloured("B:R16", kB));
  ASSERT_TRUE(black.ok()) << black.status();
  EXPECT_EQ(black->to_play(), kB);
  EXPECT_NE(black->position_key(), white->position_key());
  EXPECT_EQ(Counts::Of(black->reached()), (Counts{4, 2, 2, 0, 0}));
  EXPECT_EQ(Continuations(*black),
            (std::map<std::string, Counts>{{"D17", {3, 2, 1, 0, 0}},
                                           {"D4", {1, 0, 1, 0, 0}}}));

  // Black R16 and D17, White to move; the pass game reaches it too.
  auto both = q.Openings(Coloured("B:R16 B:D17"));
  ASSERT_TRUE(both.ok()) << both.status();
  EXPECT_EQ(both->to_play(), kW);
  EXPECT_EQ(Counts::Of(both->reached()), (Counts{3, 2, 1, 0, 0}));
  EXPECT_EQ(Continuations(*both),
            (std::map<std::string, Counts>{{"C4", {2, 2, 0, 0, 0}},
                                           {Gtp("qp"), {1, 0, 1, 0, 0}}}));
  auto passed = q.Openings(Coloured("R16 pass D17"));
  ASSERT_TRUE(passed.ok()) << passed.status();
  EXPECT_EQ(passed->position_key(), both->position_key());
  // The same points alternating (White D17): only the game where White
  // played there.
  auto alternating = q.Openings(Coloured("R16 D17"));
  ASSERT_TRUE(alternating.ok()) << alternating.status();
  EXPECT_EQ(alternating->to_play(), kB);
  EXPECT_EQ(Counts::Of(alternating->reached()), (Counts{1, 1, 0, 0, 0}));
  EXPECT_EQ(Continuations(*alternating),
            (std::map<std::string, Counts>{{"C4", {1, 1, 0, 0, 0}}}));

  // The handicap games, from their setup: White to move in a handicap
  // game; White's second move in the game where White moved twice.
  qipu::v1::OpeningsRequest h =
      Coloured("", qipu::v1::COLOR_UNSPECIFIED, "B:R16 B:D4");
  h.mutable_filter()->set_has_handicap(true);
  h.mutable_filter()->set_handicap(2);
  auto hcap = q.Openings(h);
  ASSERT_TRUE(hcap.ok()) << hcap.status();
  EXPECT_EQ(hcap->to_play(), kW);
  EXPECT_EQ(Counts::Of(hcap->reached()), (Counts{2, 1, 1, 0, 0}));
  EXPECT_EQ(Continuations(*hcap),
            (std::map<std::string, Counts>{{"R4", {2, 1, 1, 0, 0}}}));
  h.add_moves("W:R4");
  h.set_to_play(kW);
  auto twice = q.Openings(h);
  ASSERT_TRUE(twice.ok()) << twice.status();
  EXPECT_EQ(Counts::Of(twice->reached()), (Counts{1, 0, 1, 0, 0}));
  EXPECT_EQ(Continuations(*twice),
            (std::map<std::string, Counts>{{"D16", {1, 0, 1, 0, 0}}}));
  h.clear_moves();
  h.add_moves("R4");  // White's, after handicap stones
  h.set_to_play(qipu::v1::COLOR_UNSPECIFIED);
  auto once = q.Openings(h);
  ASSERT_TRUE(once.ok()) << once.status();
  EXPECT_EQ(once->to_play(), kB);
  EXPECT_EQ(Counts::Of(once->reached()), (Counts{1, 1, 0, 0, 0}));
  EXPECT_EQ(Continuations(*once),
            (std::map<std::string, Counts>{{Gtp("oq"), {1, 1, 0, 0, 0}}}));
  // Without the handicap filter the same setup has Black to move: no game.
  h.clear_moves();
  h.mutable_filter()->clear_has_handicap();
  h.mutable_filter()->clear_handicap();
  auto even = q.Openings(h);
  ASSERT_TRUE(even.ok()) << even.status();
  EXPECT_EQ(even->to_play(), kB);
  EXPECT_EQ(even->reached().games(), 0u);
}

TEST(Openings, ExamplesAndLimit) {
  TempDir dir;
  auto c = StartCoordinator(dir.path());
  ASSERT_NE(c, nullptr);
  // At most store::kMaxExamples examples are kept per bucket: the four
  // corner games come from four sources (four buckets).
  int source = 0;
  for (const char* g : {"E5 C3", "E5 C7", "E5 G3", "E5 G7", "E5 D4 C3"}) {
    Import(*c, RecordOf(9, g, "B+R"), absl::StrCat("source", source++ % 4));
  }
  auto r = c->queries().Openings(Request(9, "E5", 10));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->continuations_size(), 2);
  EXPECT_EQ(r->continuations(0).outcomes().games(), 4u);
  EXPECT_EQ(r->continuations(0).example_game_ids_size(), 4);
  auto one = c->queries().Openings(Request(9, "E5", 1));
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->continuations(0).example_game_ids_size(), 1);
  auto dflt = c->queries().Openings(Request(9, "E5"));
  ASSERT_TRUE(dflt.ok());
  EXPECT_EQ(dflt->continuations(0).example_game_ids_size(), 3);
  qipu::v1::OpeningsRequest limited = Request(9, "E5");
  limited.set_limit(1);
  auto l = c->queries().Openings(limited);
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->continuations_size(), 1);
  EXPECT_EQ(l->continuations(0).move(), r->continuations(0).move());
}

TEST(Openings, BadRequestsNameTheProblem) {
  TempDir dir;
  auto c = StartCoordinator(dir.path());
  ASSERT_NE(c, nullptr);
  Import(*c, RecordOf(9, "E5 C3", "B+R"));
  engine::QueryEngine& q = c->queries();
  struct Case {
    std::string moves;
    std::string message;
  };
  for (const Case& k : std::vector<Case>{
           {"E5 Z9", "move 2 'Z9'"},
           {"E5 E5", "move 2 'E5' is illegal (occupied)"},
           {"E5 resign", "move 2 'resign'"},
           {"E5 J10", "move 2 'J10'"},
           {"pass pass E5", "move 3 'E5' is illegal (game-over)"},
           {"X:E5", "moves: move 1 'X:E5': colour 'X' is not B or W"},
           {":E5", "moves: move 1 ':E5': colour '' is not B or W"},
           {"E5 B:", "moves: move 2 'B:': no vertex after 'B:'"},
           {"B:E5 W:9E", "moves: move 2 'W:9E': '9E' is not a GTP vertex"},
           {"B:E5 W:J10", "moves: move 2 'W:J10': 'J10' is off the 9x9"},
           {"B:E5 B:E5", "moves: move 2 'B:E5' is illegal (occupied)"},
           {"b:resign", "moves: move 1 'b:resign': resignation is not a move"},
           {"B:C3:D4", "moves: move 1 'B:C3:D4': 'C3:D4' is not a GTP"},
       }) {
    auto r = q.Openings(Request(9, k.moves));
    EXPECT_TRUE(absl::IsInvalidArgument(r.status())) << k.moves;
    EXPECT_THAT(r.status().message(), HasSubstr(k.message)) << k.moves;
  }
  for (const Case& k : std::vector<Case>{
           {"E5",
            "setup: stone 1 'E5': a setup stone names its colour "
            "(B:E5 or W:E5)"},
           {"B:E5 W:e5", "setup: stone 2 'W:e5': E5 is set up twice"},
           {"B:pass", "setup: stone 1 'B:pass': pass is not a stone"},
           {"B:C3 Q:D4", "setup: stone 2 'Q:D4': colour 'Q' is not B or W"},
           {"W:Z1", "setup: stone 1 'W:Z1': 'Z1' is off the 9x9 board"},
           {"B:A1 W:A2 W:B1", "setup: setup leaves a chain without liberties"},
       }) {
    qipu::v1::OpeningsRequest req = Request(9, "E5");
    for (const std::string& s : Split(k.moves)) req.add_setup(s);
    auto r = q.Openings(req);
    EXPECT_TRUE(absl::IsInvalidArgument(r.status())) << k.moves;
    EXPECT_THAT(r.status().message(), HasSubstr(k.message)) << k.moves;
  }
  qipu::v1::OpeningsRequest side = Request(9, "E5");
  side.set_to_play(static_cast<qipu::v1::Color>(7));
  auto bad_side = q.Openings(side);
  EXPECT_TRUE(absl::IsInvalidArgument(bad_side.status()));
  EXPECT_THAT(bad_side.status().message(),
              HasSubstr("to_play: 7 is neither COLOR_BLACK nor COLOR_WHITE"));
  auto many = q.Openings(Request(9, "E5", 11));
  EXPECT_TRUE(absl::IsInvalidArgument(many.status()));
  EXPECT_THAT(many.status().message(), HasSubstr("examples"));

  auto with_filter = [&](auto set) {
    qipu::v1::OpeningsRequest req = Request(9, "");
    set(req.mutable_filter());
    return q.Openings(req).status();
  };
  struct FilterCase {
    std::function<void(qipu::v1::Filter*)> set;
    std::string message;
  };
  for (const FilterCase& k : std::vector<FilterCase>{
           {[](auto* f) { f->set_height(0); }, "filter.size"},
           {[](auto* f) {
              f->set_width(40);
              f->set_height(40);
            },
            "filter.size"},
           {[](auto* f) { f->set_rules("japanese"); }, "filter.rules"},
           {[](auto* f) { f->set_rules("ko=superko"); }, "ko=superko"},
           {[](auto* f) { f->set_rules("suicide=yes"); }, "suicide=yes"},
           {[](auto* f) {
              f->set_has_komi(true);
              f->set_komi(6.3);
            },
            "filter.komi"},
           {[](auto* f) { f->set_date_from(20181301); }, "filter.date"},
           {[](auto* f) {
              f->set_date_from(20190101);
              f->set_date_to(20180101);
            },
            "filter.date"},
       }) {
    const absl::Status s = with_filter(k.set);
    EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
    EXPECT_THAT(s.message(), HasSubstr(k.message));
  }
  // Other queries check their filters the same way.
  qipu::v1::KoRequest ko;
  ko.mutable_filter()->set_rules("cycle=sometimes");
  const absl::Status ko_status = q.Ko(ko).status();
  EXPECT_TRUE(absl::IsInvalidArgument(ko_status)) << ko_status;
  EXPECT_THAT(ko_status.message(), HasSubstr("cycle=sometimes"));
  qipu::v1::CyclesRequest cycles;
  cycles.set_examples(99);
  const absl::Status cycles_status = q.Cycles(cycles).status();
  EXPECT_TRUE(absl::IsInvalidArgument(cycles_status)) << cycles_status;
  EXPECT_THAT(cycles_status.message(), HasSubstr("examples"));
  qipu::v1::ResultsRequest results;
  results.mutable_filter()->set_width(9);
  const absl::Status results_status = q.Results(results).status();
  EXPECT_TRUE(absl::IsInvalidArgument(results_status)) << results_status;
  EXPECT_THAT(results_status.message(), HasSubstr("filter.size"));
}

}  // namespace
}  // namespace qipu::coordinator
