// Random play against the reference implementation (reference_board.h):
// Board and Game must agree with it on the legality of every point (or of
// a sample on large boards), on captures, ko, board contents, hashes,
// repetition verdicts, cycle records and the end of the game, after every
// move, over many seeds, board sizes from 2x2 to 25x25 (rectangles
// included) and every rule variant. Bounded to a few seconds under ASan.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "rules/board.h"
#include "rules/coord.h"
#include "rules/game.h"
#include "rules/playout.h"
#include "rules/rules.h"
#include "tests/rules/reference_board.h"

namespace qipu::rules {
namespace {

struct Size {
  int width;
  int height;
  // Games per seed batch: many on tiny boards, one on the largest.
  int games;
};

constexpr Size kSizes[] = {
    {2, 2, 60},  {2, 3, 40},  {3, 2, 40}, {3, 3, 40}, {4, 4, 30}, {5, 5, 16},
    {3, 7, 12},  {6, 4, 12},  {7, 7, 6},  {9, 9, 4},  {5, 13, 3}, {13, 13, 2},
    {19, 19, 1}, {25, 25, 1}, {25, 2, 3}, {2, 25, 3}, {4, 25, 1}, {25, 3, 1},
};

// Boards up to this many points get every point checked after every move;
// larger ones a random sample.
constexpr int kFullCheckPoints = 49;
constexpr int kSamplesPerMove = 6;

std::string Where(const Size& s, int game, int move) {
  return absl::StrCat(s.width, "x", s.height, " game ", game, " move ", move);
}

// Every board point of a width x height board.
std::vector<Point> EveryPoint(int width, int height) {
  std::vector<Point> out;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) out.push_back(MakePoint(x, y));
  }
  return out;
}

// The points to cross-check at one position: all of them on small boards,
// else a random sample (plus the ko point, where the bookkeeping is).
std::vector<Point> PointsToCheck(const Board& board, Rng& rng) {
  std::vector<Point> all = EveryPoint(board.width(), board.height());
  if (board.num_points() <= kFullCheckPoints) return all;
  std::vector<Point> out;
  for (int i = 0; i < kSamplesPerMove; ++i) {
    out.push_back(all[rng.Below(static_cast<uint32_t>(all.size()))]);
  }
  if (board.ko_point() != kNoPoint) out.push_back(board.ko_point());
  return out;
}

// Compares the stones, counts, hash and chains of `board` with `ref`.
void ExpectSameBoard(const Board& board, const ReferenceBoard& ref,
                     const std::string& where) {
  ASSERT_EQ(ref.Diff(board), "") << where;
  ASSERT_TRUE(board.Consistent()) << where;
  ASSERT_EQ(board.hash(), ref.Hash()) << where;
  ASSERT_EQ(board.stones(Color::kBlack), ref.Stones(Color::kBlack)) << where;
  ASSERT_EQ(board.stones(Color::kWhite), ref.Stones(Color::kWhite)) << where;
  ASSERT_EQ(board.num_empty(), ref.Stones(Color::kEmpty)) << where;
  if (board.num_points() > kFullCheckPoints) return;
  // Each chain once: same stones, size and liberties.
  std::vector<bool> done(kNumCells, false);
  for (Point p : EveryPoint(board.width(), board.height())) {
    if (board.at(p) == Color::kEmpty || done[p]) continue;
    const std::vector<Point> chain = ref.Chain(p);
    ASSERT_EQ(board.ChainSize(p), static_cast<int>(chain.size())) << where;
    ASSERT_EQ(board.Liberties(p),
              static_cast<int>(ref.ChainLiberties(p).size()))
        << where;
    for (Point q : chain) {
      ASSERT_TRUE(board.SameChain(p, q)) << where;
      done[q] = true;
    }
  }
}

// Board::Check and Preview at p for both colours against the reference.
// `c` is the player to move; the ko point binds only them in the
// reference, while Board reports it for either colour.
void ExpectSameCheck(const Board& board, const ReferenceBoard& ref, Point p,
                     Color c, bool both_suicide_settings,
                     const std::string& where) {
  for (bool multi : {false, true}) {
    if (multi && !both_suicide_settings) break;
    const MoveCheck got = board.Check(p, c, multi);
    ASSERT_EQ(got, ref.Check(p, c, multi))
        << where << " " << GtpPoint(p, board.height()) << " multi " << multi;
    const MoveCheck other = board.Check(p, Opponent(c), multi);
    if (p == board.ko_point()) {
      ASSERT_EQ(other, MoveCheck::kKo) << where;
    } else {
      ASSERT_EQ(other, ref.Check(p, Opponent(c), multi)) << where;
    }
    if (got != MoveCheck::kLegal) continue;
    ReferencePlay play;
    ref.After(p, c, &play);
    const MovePreview pv = board.Preview(p, c);
    ASSERT_EQ(pv.captured, play.captured) << where;
    ASSERT_EQ(pv.suicided, play.suicided) << where;
    ASSERT_EQ(pv.ko_capture, play.ko_capture) << where;
    ASSERT_EQ(board.Captures(p, c), play.captured > 0) << where;
  }
}

// Plays one move on both boards and compares what it did.
void PlayBoth(Board& board, ReferenceBoard& ref, Point p, Color c, bool multi,
              const std::string& where) {
  const MovePreview pv = board.Preview(p, c);
  ASSERT_EQ(board.Check(p, c, multi), MoveCheck::kLegal) << where;
  RemovedStones removed;
  board.Play(p, c, &removed);
  const ReferencePlay play = ref.Play(p, c);
  const PlayInfo& info = board.last_play();
  ASSERT_EQ(info.captured, play.captured) << where;
  ASSERT_EQ(info.suicided, play.suicided) << where;
  ASSERT_EQ(info.ko_capture, play.ko_capture) << where;
  ASSERT_EQ(removed.count, play.captured + play.suicided) << where;
  for (int i = 0; i < removed.count; ++i) {
    ASSERT_EQ(board.at(removed.points[i]), Color::kEmpty) << where;
  }
  ASSERT_EQ(pv.hash, board.hash()) << where;
  // The ko point is set exactly by a basic-ko capture, at the captured
  // stone, and the reference forbids the retake there too.
  ASSERT_EQ(board.ko_point() != kNoPoint, play.ko_capture) << where;
  if (play.ko_capture) {
    ASSERT_EQ(ref.Check(board.ko_point(), Opponent(c), multi), MoveCheck::kKo)
        << where;
  }
}

// A light-policy game (qipu's LightMove, simple ko, no suicide) on Board
// next to the reference, checking points at every position.
TEST(Stress, LightPlayoutsMatchReferenceBoard) {
  int moves = 0;
  for (const Size& s : kSizes) {
    for (int g = 0; g < s.games; ++g) {
      Rng rng(GameSeed(
          11, static_cast<uint64_t>(s.width * 100 + s.height) * 1000 + g));
      Board board(s.width, s.height);
      ReferenceBoard ref(s.width, s.height);
      Color c = Color::kBlack;
      int passes = 0;
      const int cap = 3 * s.width * s.height;
      for (int m = 0; m < cap && passes < 2; ++m, ++moves) {
        const std::string where = Where(s, g, m);
        for (Point p : PointsToCheck(board, rng)) {
          ExpectSameCheck(board, ref, p, c, false, where);
        }
        const Point p = LightMove(board, c, rng);
        if (p == kPass) {
          board.Pass();
          ref.Pass();
          ++passes;
        } else {
          ASSERT_EQ(ref.Check(p, c, false), MoveCheck::kLegal) << where;
          PlayBoth(board, ref, p, c, false, where);
          passes = 0;
        }
        ExpectSameBoard(board, ref, where);
        if (HasFatalFailure()) return;
        c = Opponent(c);
      }
    }
  }
  EXPECT_GT(moves, 5000);
}

// Fully random attempts: any point, legal or not, either suicide setting.
// Illegal attempts change nothing; legal ones are played on both boards.
TEST(Stress, RandomAttemptsMatchReferenceBoard) {
  int played = 0;
  int rejected = 0;
  for (const Size& s : kSizes) {
    const std::vector<Point> all = EveryPoint(s.width, s.height);
    for (int g = 0; g < s.games; ++g) {
      Rng rng(GameSeed(
          12, static_cast<uint64_t>(s.width * 100 + s.height) * 1000 + g));
      const bool multi = g % 2 == 1;
      Board board(s.width, s.height);
      ReferenceBoard ref(s.width, s.height);
      Color c = Color::kBlack;
      const int attempts = 4 * s.width * s.height;
      for (int m = 0; m < attempts; ++m) {
        const std::string where = Where(s, g, m);
        const Point p = all[rng.Below(static_cast<uint32_t>(all.size()))];
        ExpectSameCheck(board, ref, p, c, true, where);
        if (HasFatalFailure()) return;
        if (rng.Below(50) == 0) {
          board.Pass();
          ref.Pass();
        } else if (board.Check(p, c, multi) == MoveCheck::kLegal) {
          PlayBoth(board, ref, p, c, multi, where);
          ++played;
        } else {
          ++rejected;
          continue;  // the same player tries again
        }
        ExpectSameBoard(board, ref, where);
        if (HasFatalFailure()) return;
        c = Opponent(c);
      }
    }
  }
  EXPECT_GT(played, 5000);
  EXPECT_GT(rejected, 5000);
}

// The rule variants Game is checked under.
std::vector<std::pair<std::string, Rules>> RuleVariants() {
  std::vector<std::pair<std::string, Rules>> out;
  for (const char* name :
       {"chinese", "chinese-superko", "tromp-taylor", "aga", "new-zealand"}) {
    out.emplace_back(name, *PresetRules(name));
  }
  Rules r;
  r.cycle = CycleRule::kDraw;
  out.emplace_back("simple+draw", r);
  r.cycle = CycleRule::kReplay;
  out.emplace_back("simple+replay", r);
  r.cycle = CycleRule::kNone;
  out.emplace_back("simple only", r);
  r.ko = KoRule::kPositional;
  out.emplace_back("positional", r);
  r = Rules{};
  r.multi_stone_suicide = true;
  out.emplace_back("chinese+suicide", r);
  r = Rules{};
  r.move_cap = 17;
  out.emplace_back("chinese cap 17", r);
  return out;
}

// Compares everything Game exposes with the reference game.
void ExpectSameGame(const Game& game, const ReferenceGame& ref,
                    const std::string& where) {
  ExpectSameBoard(game.board(), ref.board(), where);
  ASSERT_EQ(game.to_play(), ref.to_play()) << where;
  ASSERT_EQ(game.num_moves(), ref.num_moves()) << where;
  ASSERT_EQ(game.over(), ref.over()) << where;
  ASSERT_EQ(game.result(), ref.result()) << where;
  ASSERT_EQ(game.cycles(), ref.cycles()) << where;
  ASSERT_EQ(game.ko_captures(), ref.ko_captures()) << where;
  ASSERT_EQ(game.captures(Color::kBlack), ref.captures(Color::kBlack)) << where;
  ASSERT_EQ(game.captures(Color::kWhite), ref.captures(Color::kWhite)) << where;
}

void ExpectSameVerdict(const MoveVerdict& got, const MoveVerdict& want,
                       const std::string& where) {
  ASSERT_EQ(IllegalReasonName(got.reason), IllegalReasonName(want.reason))
      << where;
  ASSERT_EQ(got.completes_cycle, want.completes_cycle) << where;
  if (got.completes_cycle || got.reason == IllegalReason::kSuperko ||
      got.reason == IllegalReason::kCycle) {
    ASSERT_EQ(got.cycle, want.cycle)
        << where << ": " << CycleClassName(got.cycle.cls) << " vs "
        << CycleClassName(want.cycle.cls);
  }
}

// Boards for the Game comparison: the small ones cycle often and are
// played under every variant; each large one under one variant only.
constexpr Size kGameSizes[] = {
    {2, 2, 40}, {2, 3, 12}, {3, 2, 12}, {3, 3, 16}, {4, 4, 6},  {5, 5, 3},
    {3, 7, 2},  {6, 4, 2},  {7, 7, 1},  {9, 9, 1},  {25, 2, 1}, {2, 25, 1},
};
constexpr Size kLargeGameSizes[] = {
    {19, 19, 1}, {25, 25, 1}, {13, 13, 1}, {5, 13, 1}, {11, 17, 1},
};

// Plays games on Game and ReferenceGame side by side. Policy: candidates
// in random order (own eyes skipped half the time, so that small boards
// cycle a lot), each tried with TryPlay on both until one is legal; one
// game in three tries any point instead, occupied ones included.
void PlayGames(const Rules& rules, const std::string& name, uint64_t seed,
               int variant, int* cycles, int* moves) {
  std::vector<Size> sizes(std::begin(kGameSizes), std::end(kGameSizes));
  constexpr int kLarge = sizeof(kLargeGameSizes) / sizeof(kLargeGameSizes[0]);
  if (variant < kLarge) sizes.push_back(kLargeGameSizes[variant]);
  for (const Size& s : sizes) {
    const std::vector<Point> all = EveryPoint(s.width, s.height);
    for (int g = 0; g < s.games; ++g) {
      Rng rng(GameSeed(
          seed, static_cast<uint64_t>(s.width * 100 + s.height) * 1000 + g));
      const bool any_point = g % 3 == 2;
      Game game(s.width, s.height, rules);
      ReferenceGame ref(s.width, s.height, rules);
      while (!game.over()) {
        const std::string where =
            absl::StrCat(name, " ", Where(s, g, game.num_moves()));
        for (Point p : PointsToCheck(game.board(), rng)) {
          ExpectSameVerdict(
              game.Check(p), ref.Check(p),
              absl::StrCat(where, " check ", GtpPoint(p, s.height)));
        }
        ExpectSameVerdict(game.Check(kPass), ref.Check(kPass), where);
        if (::testing::Test::HasFatalFailure()) return;
        const bool skip_eyes = rng.Below(2) == 0;
        const int n = static_cast<int>(all.size());
        const int start = static_cast<int>(rng.Below(static_cast<uint32_t>(n)));
        bool played = false;
        for (int k = 0; k < n && !played; ++k) {
          const Point p = all[(start + k) % n];
          if (!any_point && game.board().at(p) != Color::kEmpty) continue;
          if (skip_eyes && game.board().at(p) == Color::kEmpty &&
              game.board().IsOwnEye(p, game.to_play())) {
            continue;
          }
          const MoveVerdict want = ref.TryPlay(p);
          const MoveVerdict got = game.TryPlay(p);
          ExpectSameVerdict(
              got, want, absl::StrCat(where, " try ", GtpPoint(p, s.height)));
          if (::testing::Test::HasFatalFailure()) return;
          played = got.legal();
          if (any_point && !played && rng.Below(4) == 0) break;
        }
        if (!played) {
          ExpectSameVerdict(game.TryPlay(kPass), ref.TryPlay(kPass), where);
        }
        ++*moves;
        ExpectSameGame(game, ref, where);
        if (::testing::Test::HasFatalFailure()) return;
      }
      *cycles += static_cast<int>(game.cycles().size());
    }
  }
}

TEST(Stress, GamesMatchReferenceGameUnderEveryRuleVariant) {
  int cycles = 0;
  int moves = 0;
  int variant = 0;
  for (const auto& [name, rules] : RuleVariants()) {
    PlayGames(rules, name, 100 + variant, variant, &cycles, &moves);
    ++variant;
    if (HasFatalFailure()) return;
  }
  // Small boards repeat positions often: the cycle paths are exercised.
  EXPECT_GT(cycles, 200);
  EXPECT_GT(moves, 15000);
}

}  // namespace
}  // namespace qipu::rules
