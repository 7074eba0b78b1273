// QueryEngine::Pattern (coordinator/query_pattern.cc) on a real RocksDB in
// a temp dir holding the fox-pro corpus (imported through the real
// importer; the 19x19 games) and self-play games (9x9 and 19x19 random
// games through the ingest path), against a brute-force scan written here:
// every stored game replayed on a board of its own, every position checked
// against every symmetric placement of the pattern, cell by cell. Patterns
// cut from real positions (corner, fixed, side, anywhere, colour swap) and
// random ones must give exactly the same games, first move numbers and,
// where the first position holds one placement only, continuations. Also:
// paging returns every match once, bad requests are INVALID_ARGUMENT naming
// the field, and a database of format version 2 (no pattern entries) is
// upgraded when opened.
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/queries.h"
#include "gtest/gtest.h"
#include "proto/convert.h"
#include "rocksdb/write_batch.h"
#include "rules/board.h"
#include "rules/coord.h"
#include "rules/symmetry.h"
#include "store/keys.h"
#include "store/pattern_index.h"
#include "tests/common/corpus_dir.h"
#include "tests/common/store_test_peer.h"
#include "tests/coordinator/query_fixture.h"

namespace qipu::coordinator {
namespace {

using testing::StoredGame;
using testing::TempDir;

// The brute force's view of one game: the board after each position.
struct BruteGame {
  std::string id;
  int width = 0;
  int height = 0;
  qipu::v1::Game game;
  rules::GameRecord record;
  // boards[k]: colours (y * width + x) after k moves.
  std::vector<std::vector<rules::Color>> boards;
};

BruteGame BruteReplay(const StoredGame& g) {
  BruteGame b;
  b.id = store::GameIdText(g.id);
  b.game = g.game;
  auto record = wire::GameToRecord(g.game);
  EXPECT_TRUE(record.ok()) << record.status();
  b.record = *record;
  b.width = b.record.width;
  b.height = b.record.height;
  rules::Board board(b.width, b.height);
  size_t setup = 0;
  auto snapshot = [&] {
    std::vector<rules::Color> cells(b.width * b.height);
    for (int y = 0; y < b.height; ++y) {
      for (int x = 0; x < b.width; ++x) {
        cells[y * b.width + x] = board.at(rules::MakePoint(x, y));
      }
    }
    b.boards.push_back(std::move(cells));
  };
  const int n = static_cast<int>(b.record.moves.size());
  for (int k = 0; k <= n; ++k) {
    while (setup < b.record.setup.size() &&
           b.record.setup[setup].before_move <= k) {
      const rules::SetupStep& s = b.record.setup[setup++];
      for (rules::Point p : s.empty) board.SetStone(p, rules::Color::kEmpty);
      for (rules::Point p : s.black) board.SetStone(p, rules::Color::kBlack);
      for (rules::Point p : s.white) board.SetStone(p, rules::Color::kWhite);
    }
    snapshot();
    if (k == n) break;
    const rules::Move m = b.record.moves[k];
    if (m.point == rules::kPass) {
      board.Pass();
    } else {
      EXPECT_EQ(board.at(m.point), rules::Color::kEmpty) << b.id;
      board.Play(m.point, m.color);
    }
  }
  return b;
}

// One placement of the brute force: board transform t applied to the
// pattern at base offset (ox, oy), colours swapped or not.
struct BrutePlacement {
  int t = 0, ox = 0, oy = 0;
  bool swapped = false;
  std::vector<std::pair<int, char>> cells;  // dense board index, cell char
};

// What the brute force expects of one game.
struct BruteHit {
  int move_number = -1;
  // Only when one placement stands: the next move in the caller's frame,
  // "pass", "tenuki", or "" when the game ended there.
  std::string next;
  bool ambiguous = false;
};

struct BruteQuery {
  std::string text;
  std::vector<std::string> rows;
  rules::PatternPlacement placement = rules::PatternPlacement::kFixed;
  int ax = 0, ay = 0;
  bool swap = false;
};

std::vector<BrutePlacement> BrutePlacements(const BruteQuery& q, int n) {
  const int w = static_cast<int>(q.rows[0].size());
  const int h = static_cast<int>(q.rows.size());
  std::vector<std::pair<int, int>> base;
  for (int oy = 0; oy + h <= n; ++oy) {
    for (int ox = 0; ox + w <= n; ++ox) {
      const bool ok =
          q.placement == rules::PatternPlacement::kAnywhere ||
          (q.placement == rules::PatternPlacement::kSide && oy == 0) ||
          (q.placement == rules::PatternPlacement::kCorner && ox == 0 &&
           oy == 0) ||
          (q.placement == rules::PatternPlacement::kFixed && ox == q.ax &&
           oy == q.ay);
      if (ok) base.emplace_back(ox, oy);
    }
  }
  std::vector<BrutePlacement> out;
  for (int sw = 0; sw < (q.swap ? 2 : 1); ++sw) {
    for (int t = 0; t < 8; ++t) {
      for (const auto& [ox, oy] : base) {
        BrutePlacement p;
        p.t = t;
        p.ox = ox;
        p.oy = oy;
        p.swapped = sw == 1;
        for (int y = 0; y < h; ++y) {
          for (int x = 0; x < w; ++x) {
            char c = q.rows[y][x];
            if (c == '*') continue;
            if (p.swapped) {
              const std::string from = "XOxo", to = "OXox";
              if (from.find(c) != std::string::npos) c = to[from.find(c)];
            }
            const rules::Point pt = rules::TransformPoint(
                t, rules::MakePoint(ox + x, oy + y), n, n);
            p.cells.emplace_back(rules::DenseIndex(pt, n), c);
          }
        }
        out.push_back(std::move(p));
      }
    }
  }
  return out;
}

bool BruteStands(const BrutePlacement& p, const std::vector<rules::Color>& b) {
  for (const auto& [i, c] : p.cells) {
    const rules::Color s = b[i];
    switch (c) {
      case 'X':
        if (s != rules::Color::kBlack) return false;
        break;
      case 'O':
        if (s != rules::Color::kWhite) return false;
        break;
      case '.':
        if (s != rules::Color::kEmpty) return false;
        break;
      case 'x':
        if (s == rules::Color::kWhite) return false;
        break;
      case 'o':
        if (s == rules::Color::kBlack) return false;
        break;
    }
  }
  return true;
}

// The brute force: game id -> hit, over the games of size n.
std::map<std::string, BruteHit> BruteSearch(const std::vector<BruteGame>& games,
                                            const BruteQuery& q, int n) {
  const std::vector<BrutePlacement> placements = BrutePlacements(q, n);
  const int w = static_cast<int>(q.rows[0].size());
  const int h = static_cast<int>(q.rows.size());
  const int cax = q.placement == rules::PatternPlacement::kCorner ? 0 : q.ax;
  const int cay = q.placement == rules::PatternPlacement::kCorner ||
                          q.placement == rules::PatternPlacement::kSide
                      ? 0
                      : q.ay;
  std::map<std::string, BruteHit> out;
  for (const BruteGame& g : games) {
    if (g.width != n || g.height != n) continue;
    for (size_t k = 0; k < g.boards.size(); ++k) {
      std::vector<const BrutePlacement*> standing;
      for (const BrutePlacement& p : placements) {
        if (BruteStands(p, g.boards[k])) standing.push_back(&p);
      }
      if (standing.empty()) continue;
      BruteHit hit;
      hit.move_number = static_cast<int>(k);
      hit.ambiguous = standing.size() > 1;
      if (!hit.ambiguous && k < g.record.moves.size()) {
        const BrutePlacement& p = *standing[0];
        const rules::Move m = g.record.moves[k];
        hit.next = m.point == rules::kPass ? "pass" : "tenuki";
        for (int y = 0; y < h && m.point != rules::kPass; ++y) {
          for (int x = 0; x < w; ++x) {
            if (rules::TransformPoint(p.t, rules::MakePoint(p.ox + x, p.oy + y),
                                      n, n) == m.point) {
              hit.next = rules::GtpPoint(rules::MakePoint(cax + x, cay + y), n);
            }
          }
        }
      }
      out[g.id] = hit;
      break;
    }
  }
  return out;
}

qipu::v1::PatternRequest PatternRequestOf(const BruteQuery& q, int n) {
  qipu::v1::PatternRequest req;
  req.mutable_filter()->set_width(n);
  req.mutable_filter()->set_height(n);
  req.set_pattern(q.text);
  switch (q.placement) {
    case rules::PatternPlacement::kFixed:
      req.set_placement(qipu::v1::PATTERN_PLACEMENT_FIXED);
      break;
    case rules::PatternPlacement::kCorner:
      req.set_placement(qipu::v1::PATTERN_PLACEMENT_CORNER);
      break;
    case rules::PatternPlacement::kSide:
      req.set_placement(qipu::v1::PATTERN_PLACEMENT_SIDE);
      break;
    case rules::PatternPlacement::kAnywhere:
      req.set_placement(qipu::v1::PATTERN_PLACEMENT_ANYWHERE);
      break;
  }
  req.set_anchor(rules::GtpPoint(rules::MakePoint(q.ax, q.ay), n));
  req.set_colour_swap(q.swap);
  req.set_page_size(1000);
  return req;
}

// All matches of `req`, page after page.
std::vector<qipu::v1::PatternMatch> AllMatches(
    const engine::QueryEngine& engine, qipu::v1::PatternRequest req,
    qipu::v1::PatternResponse* first = nullptr) {
  std::vector<qipu::v1::PatternMatch> out;
  for (int page = 0; page < 10000; ++page) {
    auto r = engine.Pattern(req);
    EXPECT_TRUE(r.ok()) << r.status();
    if (!r.ok()) break;
    if (page == 0 && first != nullptr) *first = *r;
    out.insert(out.end(), r->matches().begin(), r->matches().end());
    if (r->next_page_token().empty()) break;
    req.set_page_token(r->next_page_token());
  }
  return out;
}

// Compares the engine with the brute force on one query; returns the
// number of matches.
size_t ExpectSameAsBruteForce(const engine::QueryEngine& engine,
                              const std::vector<BruteGame>& games,
                              const BruteQuery& q, int n) {
  const std::map<std::string, BruteHit> want = BruteSearch(games, q, n);
  qipu::v1::PatternResponse first;
  const std::vector<qipu::v1::PatternMatch> got =
      AllMatches(engine, PatternRequestOf(q, n), &first);
  const std::string what =
      absl::StrCat(q.text, " ", rules::PatternPlacementName(q.placement),
                   " anchor ", q.ax, ",", q.ay, q.swap ? " swap" : "");
  EXPECT_EQ(got.size(), want.size()) << what;
  EXPECT_EQ(first.matched().games(), want.size()) << what;
  uint64_t continued = 0;
  for (const auto& c : first.continuations()) continued += c.outcomes().games();
  uint64_t with_next = 0;
  for (const qipu::v1::PatternMatch& m : got) {
    with_next += !m.next().empty();
    auto it = want.find(m.id());
    if (it == want.end()) {
      ADD_FAILURE() << what << ": " << m.id() << " is not a match";
      continue;
    }
    EXPECT_EQ(static_cast<int>(m.move_number()), it->second.move_number)
        << what << " " << m.id();
    if (!it->second.ambiguous) {
      EXPECT_EQ(m.next(), it->second.next) << what << " " << m.id();
    }
  }
  EXPECT_EQ(continued, with_next) << what;
  return want.size();
}

// A pattern cut from a real position: rows x0..x0+w, y0..y0+h of
// game.boards[k], each cell 'X', 'O' or '.', a few turned into wildcards or
// half colours by `rng` when `blur`.
BruteQuery CutQuery(const BruteGame& g, size_t k, int x0, int y0, int w, int h,
                    std::mt19937& rng, bool blur) {
  BruteQuery q;
  for (int y = y0; y < y0 + h; ++y) {
    std::string row;
    for (int x = x0; x < x0 + w; ++x) {
      const rules::Color c = g.boards[k][y * g.width + x];
      char ch = c == rules::Color::kBlack   ? 'X'
                : c == rules::Color::kWhite ? 'O'
                                            : '.';
      if (blur && rng() % 6 == 0) ch = ch == 'X' ? 'x' : ch == 'O' ? 'o' : '*';
      row.push_back(ch);
    }
    q.rows.push_back(row);
    q.text += (q.text.empty() ? "" : "/") + row;
  }
  return q;
}

class PatternQueryTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new TempDir();
    coordinator_ = testing::StartCoordinator(tmp_->Sub("db")).release();
    ASSERT_NE(coordinator_, nullptr);
    const std::string fox = test_util::SharedCorpusDir("fox-pro");
    if (!fox.empty()) {
      const engine::ImportSummary summary =
          coordinator_->importer().ImportPaths({fox}, {});
      EXPECT_GT(summary.imported, 600u);
    }
    // Random self-play games, 9x9 and 19x19, through the ingest path.
    testing::PlayJob(*coordinator_, testing::JobConfigFor(9, "chinese", 10, 11),
                     150);
    testing::PlayJob(*coordinator_,
                     testing::JobConfigFor(19, "chinese", 10, 12), 40);
    engine_ = &coordinator_->queries();
    for (const StoredGame& g : testing::StoredGames(coordinator_->store())) {
      games_->push_back(BruteReplay(g));
    }
  }
  static void TearDownTestSuite() {
    engine_ = nullptr;
    delete coordinator_;
    delete tmp_;
    games_->clear();
  }

  static const BruteGame& RandomGame(std::mt19937& rng, int size) {
    for (;;) {
      const BruteGame& g = (*games_)[rng() % games_->size()];
      if (g.width == size && g.boards.size() > 20) return g;
    }
  }

  static TempDir* tmp_;
  static Coordinator* coordinator_;
  static const engine::QueryEngine* engine_;
  static std::vector<BruteGame>* games_;
};

TempDir* PatternQueryTest::tmp_ = nullptr;
Coordinator* PatternQueryTest::coordinator_ = nullptr;
const engine::QueryEngine* PatternQueryTest::engine_ = nullptr;
std::vector<BruteGame>* PatternQueryTest::games_ = new std::vector<BruteGame>();

TEST_F(PatternQueryTest, CutPatternsAgreeWithBruteForce) {
  std::mt19937 rng(77);
  size_t matched = 0;
  for (int size : {19, 9}) {
    for (int i = 0; i < 14; ++i) {
      const BruteGame& g = RandomGame(rng, size);
      const size_t k = 5 + rng() % std::min<size_t>(g.boards.size() - 5, 120);
      const auto placement = static_cast<rules::PatternPlacement>(i % 4);
      const int w = 2 + static_cast<int>(rng() % 4);
      const int h = 2 + static_cast<int>(rng() % 4);
      int x0 = static_cast<int>(rng() % (size - w + 1));
      int y0 = static_cast<int>(rng() % (size - h + 1));
      if (placement == rules::PatternPlacement::kCorner) x0 = y0 = 0;
      if (placement == rules::PatternPlacement::kSide) y0 = 0;
      BruteQuery q = CutQuery(g, k, x0, y0, w, h, rng, i % 3 == 2);
      if (q.text.find_first_not_of("*/") == std::string::npos) continue;
      q.placement = placement;
      q.ax = x0;
      q.ay = y0;
      q.swap = i % 5 == 1;
      const size_t n = ExpectSameAsBruteForce(*engine_, *games_, q, size);
      // Cut from a stored game: it matches at least that one.
      EXPECT_GE(n, 1u) << q.text;
      matched += n;
    }
  }
  EXPECT_GT(matched, 28u);
}

// Every stored game's entry is, segment by segment, the union of its
// positions' black stones, white stones and empty points.
TEST_F(PatternQueryTest, EntriesAreTheUnionsOfTheirSegments) {
  store::Store& st = coordinator_->store();
  size_t checked = 0;
  for (const BruteGame& g : *games_) {
    auto id = store::ParseGameId(g.id);
    ASSERT_TRUE(id.ok());
    auto value =
        st.Get(store::Records::kPatternEntries, store::PatternKey(*id));
    ASSERT_TRUE(value.ok() && value->has_value()) << g.id;
    store::PatternEntry entry;
    ASSERT_TRUE(store::DecodePatternEntry(**value, &entry)) << g.id;
    ASSERT_EQ(entry.width, g.width);
    int segments = 0;
    std::array<rules::BoardRows, store::kMaxPatternSegments> b{}, w{}, e{};
    for (size_t k = 0; k < g.boards.size(); ++k) {
      int seg = 0;
      while (static_cast<int>(k) >= store::kPatternSegmentEnds[seg]) ++seg;
      segments = std::max(segments, seg + 1);
      for (int y = 0; y < g.height; ++y) {
        for (int x = 0; x < g.width; ++x) {
          const rules::Color c = g.boards[k][y * g.width + x];
          auto& plane = c == rules::Color::kBlack   ? b
                        : c == rules::Color::kWhite ? w
                                                    : e;
          plane[seg][y] |= uint32_t{1} << x;
        }
      }
    }
    ASSERT_EQ(entry.segments, segments) << g.id;
    for (int seg = 0; seg < segments; ++seg) {
      for (int y = 0; y < g.height; ++y) {
        ASSERT_EQ(entry.black[seg][y], b[seg][y]) << g.id << " " << seg;
        ASSERT_EQ(entry.white[seg][y], w[seg][y]) << g.id << " " << seg;
        ASSERT_EQ(entry.empty[seg][y], e[seg][y]) << g.id << " " << seg;
      }
    }
    ++checked;
  }
  EXPECT_GT(checked, 180u);
}

TEST_F(PatternQueryTest, RandomPatternsAgreeWithBruteForce) {
  std::mt19937 rng(78);
  const char kCells[] = "XO.*xo..";
  size_t matched = 0;
  for (int i = 0; i < 12; ++i) {
    const int size = i % 2 == 0 ? 9 : 19;
    BruteQuery q;
    const int w = 1 + static_cast<int>(rng() % 3);
    const int h = 1 + static_cast<int>(rng() % 3);
    for (int y = 0; y < h; ++y) {
      std::string row;
      for (int x = 0; x < w; ++x) row.push_back(kCells[rng() % 8]);
      q.rows.push_back(row);
      q.text += (q.text.empty() ? "" : "/") + row;
    }
    if (q.text.find_first_not_of("*/") == std::string::npos) continue;
    q.placement = static_cast<rules::PatternPlacement>(rng() % 4);
    q.ax = static_cast<int>(rng() % (size - w + 1));
    q.ay = static_cast<int>(rng() % (size - h + 1));
    q.swap = rng() % 2 == 0;
    matched += ExpectSameAsBruteForce(*engine_, *games_, q, size);
  }
  EXPECT_GT(matched, 0u);
}

TEST_F(PatternQueryTest, PagesReturnEveryMatchOnce) {
  qipu::v1::PatternRequest req;
  req.mutable_filter()->set_width(9);
  req.mutable_filter()->set_height(9);
  req.set_pattern("X");
  req.set_placement(qipu::v1::PATTERN_PLACEMENT_ANYWHERE);
  req.set_page_size(7);
  std::set<std::string> ids;
  size_t total = 0;
  qipu::v1::PatternResponse first;
  for (const qipu::v1::PatternMatch& m : AllMatches(*engine_, req, &first)) {
    EXPECT_TRUE(ids.insert(m.id()).second) << m.id() << " twice";
    ++total;
  }
  EXPECT_EQ(total, first.matched().games());
  EXPECT_EQ(first.matches_size(), 7);
  EXPECT_GE(total, 140u);  // nearly every 9x9 game has a black stone
  EXPECT_EQ(first.placement(), "anywhere");
  EXPECT_EQ(first.pattern(), "X");
}

TEST_F(PatternQueryTest, BadRequestsNameTheField) {
  auto expect_bad = [&](const qipu::v1::PatternRequest& req,
                        const std::string& field) {
    auto r = engine_->Pattern(req);
    ASSERT_FALSE(r.ok()) << field;
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(r.status().message().substr(0, field.size()), field)
        << r.status();
  };
  qipu::v1::PatternRequest req;
  req.set_pattern("X.Q");
  expect_bad(req, "pattern: row 1, column 3");
  req.set_pattern("***");
  expect_bad(req, "pattern:");
  req.set_pattern(std::string(20, 'X'));
  expect_bad(req, "pattern:");
  req.set_pattern("XO/OX");
  req.set_anchor("Z99");
  expect_bad(req, "anchor:");
  req.set_anchor("T1");
  expect_bad(req, "anchor:");
  req.set_anchor("");
  req.set_page_size(1001);
  expect_bad(req, "page_size:");
  req.set_page_size(10);
  req.set_page_token("garbage");
  expect_bad(req, "page_token:");
  req.set_page_token("");
  req.set_placement(static_cast<qipu::v1::PatternPlacement>(42));
  expect_bad(req, "placement:");
  req.set_placement(qipu::v1::PATTERN_PLACEMENT_CORNER);
  req.mutable_filter()->set_rules("ko=sideways");
  EXPECT_EQ(engine_->Pattern(req).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(PatternQueryUpgrade, FormatTwoDatabaseIsBackfilledOnOpen) {
  TempDir tmp;
  const std::string dir = tmp.Sub("db");
  qipu::v1::PatternRequest req;
  req.mutable_filter()->set_width(9);
  req.mutable_filter()->set_height(9);
  req.set_pattern("X.");
  req.set_placement(qipu::v1::PATTERN_PLACEMENT_ANYWHERE);
  req.set_page_size(1000);
  std::string before;
  {
    std::unique_ptr<Coordinator> c = testing::StartCoordinator(dir);
    ASSERT_NE(c, nullptr);
    testing::PlayJob(*c, testing::JobConfigFor(9, "chinese", 10, 5), 30);
    auto r = c->queries().Pattern(req);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->matched().games(), 30u);
    before = r->SerializeAsString();
    // Back to format 2: no pattern entries, the old version.
    store::Store& st = c->store();
    store::WriteSet wb(&st);
    int removed = 0;
    {
      store::Cursor it = st.Scan(store::Records::kPatternEntries);
      for (it.SeekToFirst(); it.Valid(); it.Next()) {
        wb.Delete(store::Records::kPatternEntries, it.key());
        ++removed;
      }
    }
    EXPECT_EQ(removed, 30);
    ASSERT_TRUE(st.Commit(&wb).ok());
    ASSERT_TRUE(store::StoreTestPeer::Put(st, store::StoreTestPeer::meta(st),
                                          store::FormatVersionKey(), "2")
                    .ok());
    auto empty = c->queries().Pattern(req);
    ASSERT_TRUE(empty.ok());
    EXPECT_EQ(empty->matched().games(), 0u);
    c->Shutdown();
  }
  std::unique_ptr<Coordinator> c = testing::StartCoordinator(dir);
  ASSERT_NE(c, nullptr);
  auto version = store::StoreTestPeer::Get(
      c->store(), store::StoreTestPeer::meta(c->store()),
      store::FormatVersionKey());
  ASSERT_TRUE(version.ok() && version->has_value());
  EXPECT_EQ(**version, absl::StrCat(store::kFormatVersion));
  auto r = c->queries().Pattern(req);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->SerializeAsString(), before);
}

}  // namespace
}  // namespace qipu::coordinator
